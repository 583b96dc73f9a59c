"""Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``), issue 32.

The line shapes are the ones Codex writes, as its public sources show them:

- openai/codex ``codex-rs/core/src/rollout/tests.rs``: a ``session_meta`` line (``{timestamp, type,
  payload: {id, timestamp, cwd, originator, cli_version, source, model_provider,
  base_instructions}}``) and an ``event_msg`` ``user_message`` line;
- openai/codex ``codex-rs/protocol`` (``RolloutItem::Compacted(CompactedItem { message,
  replacement_history })``, replayed by ``history.replace(replacement)`` when resuming): a
  ``compacted`` line whose ``replacement_history`` is the list of ``ResponseItem`` the history
  becomes;
- jnarowski/agentcmd ``.agent/research/codex/format-comparison.md``: a stored session of Codex
  0.46.0 (``session_meta``, ``response_item`` messages with ``input_text``, ``event_msg``
  ``user_message``, ``turn_context`` with ``model: gpt-5-codex``, ``agent_reasoning``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import inspector
from inspector.fitting import FitError

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "codex_rollout_compacted.jsonl"


def line(t, payload, ts="2025-10-29T00:59:38.317Z"):
    return {"timestamp": ts, "type": t, "payload": payload}


def text(rows) -> str:
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows)


META = line("session_meta", {"id": "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5", "timestamp": "2025-10-29T00:59:38.308Z",
                             "cwd": "/private/tmp/codex-research-test", "originator": "codex_exec",
                             "cli_version": "0.46.0", "instructions": None, "source": "exec", "git": {}})
ENV = line("response_item", {"type": "message", "role": "user", "content": [
    {"type": "input_text", "text": "<environment_context>...</environment_context>"}]})
ASK = line("response_item", {"type": "message", "role": "user", "content": [
    {"type": "input_text", "text": "what is 2+2? just give me the answer"}]})
USER_EVENT = line("event_msg", {"type": "user_message", "message": "what is 2+2? just give me the answer", "kind": "plain"})
CONTEXT = line("turn_context", {"cwd": "/private/tmp/codex-research-test", "approval_policy": "never",
                                "sandbox_policy": {"mode": "workspace-write"}, "model": "gpt-5-codex",
                                "effort": "high", "summary": "auto"})
REASONING_EVENT = line("event_msg", {"type": "agent_reasoning", "text": "**Providing simple answer**"})


def call(cid, cmd="ls"):
    return line("response_item", {"type": "function_call", "name": "shell",
                                  "arguments": json.dumps({"command": ["bash", "-lc", cmd]}), "call_id": cid})


def output(cid, out="ok"):
    return line("response_item", {"type": "function_call_output", "call_id": cid, "output": out})


def exec_event(kind, cid):
    return line("event_msg", {"type": f"exec_command_{kind}", "call_id": cid})


def say(role, words):
    kind = "output_text" if role == "assistant" else "input_text"
    return line("response_item", {"type": "message", "role": role, "content": [{"type": kind, "text": words}]})


def test_a_stored_session_reads_as_codex_for_the_model_its_turn_context_names():
    rows = [META, ENV, ASK, USER_EVENT, CONTEXT, REASONING_EVENT, say("assistant", "4")]
    report = inspector.check(text(rows))
    assert report.dialect == "codex" and report.target == "responses" and report.ok
    assert "turn_context" in report.target_reason and "gpt-5-codex" in report.target_reason


def test_exec_events_between_parallel_calls_and_their_outputs_are_no_part_of_the_request():
    rows = [META, ASK, CONTEXT, call("call_1"), call("call_2"), exec_event("begin", "call_1"),
            exec_event("end", "call_1"), output("call_1"), exec_event("begin", "call_2"), output("call_2"),
            say("assistant", "done")]
    report = inspector.check(text(rows))
    assert report.dialect == "codex"
    assert [f.code for f in report.findings if f.severity != "info"] == []


COMPACTED = [META, ASK, CONTEXT, call("call_1"), output("call_1"), say("assistant", "listed"),
             line("compacted", {"message": "The user listed files.", "replacement_history": [
                 ASK["payload"], {"type": "message", "role": "user", "content": [
                     {"type": "input_text", "text": "Summary: the files were listed."}]}]}),
             line("event_msg", {"type": "context_compacted"}),
             *[x for k in range(2, 22) for x in (call(f"call_{k}"), output(f"call_{k}"))],
             call("call_22"), say("user", "never mind")]


def test_a_compaction_with_a_replacement_history_is_read_as_the_history_it_starts():
    """The confident wrong answer of issue 32: the ``replacement_history`` list was read as the whole
    file ("would accept", 1 message) and the 42 lines after it were ignored. The history the API
    receives is the replacement history and what follows it, and the call left open there is found."""
    report = inspector.check(text(COMPACTED))
    assert report.dialect == "codex" and not report.ok
    errors = [(f.code, f.tool_call_id) for f in report.findings if f.severity == "error"]
    assert errors == [("TC001", "call_22")]
    assert report.transcripts == 2  # the conversation before the compaction is one of its own
    doc = inspector.load(text(COMPACTED))
    _main, before = doc.transcripts
    assert "never_sent" in before.extra and "compaction at line 7" in before.label
    assert [e["payload"].get("call_id") for e in before.items] == [None, "call_1", "call_1", None]


def test_an_old_compaction_without_a_replacement_history_keeps_the_user_messages():
    rows = [META, ASK, CONTEXT, call("call_1"), line("compacted", {"message": "summary"}), say("user", "go on"),
            say("assistant", "ok")]
    report = inspector.check(text(rows))
    assert report.ok, [f.text for f in report.findings]


def test_check_names_the_line_of_each_finding_for_ci(tmp_path):
    p = subprocess.run([sys.executable, "-m", "inspector", "check", str(SAMPLE)], capture_output=True, text=True)
    assert p.returncode == 1
    assert f"{SAMPLE}:19: TC001" in p.stdout and f"{SAMPLE}:21: TC001" in p.stdout


def test_repair_writes_a_rollout_back_line_for_line(tmp_path):
    data = SAMPLE.read_bytes()
    fixed = inspector.repair(data)
    before, after = data.decode().splitlines(), fixed.output.decode().splitlines()
    # every line kept, byte for byte; the outputs after the last call, before the user's next words
    assert after[:21] + after[23:] == before
    new = [json.loads(x) for x in after[21:23]]
    assert [(e["type"], e["payload"]["type"], e["payload"]["call_id"]) for e in new] == [
        ("response_item", "custom_tool_call_output", "call_B1"), ("response_item", "function_call_output", "call_B2")]
    assert inspector.check(fixed.output).ok and inspector.check(fixed.output).dialect == "codex"


def test_repair_inside_a_replacement_history_rewrites_that_compaction_line():
    rh = [ASK["payload"], call("call_9")["payload"], say("user", "and then?")["payload"]]
    rows = [META, ASK, CONTEXT, line("compacted", {"message": "m", "replacement_history": rh}), say("assistant", "ok")]
    fixed = inspector.repair(text(rows))
    out = [json.loads(x) for x in fixed.output.decode().splitlines()]
    assert [e["type"] for e in out] == [e["type"] for e in rows]  # no line added: the history holds the output
    history = out[3]["payload"]["replacement_history"]
    assert [x.get("type") for x in history] == ["message", "function_call", "function_call_output", "message"]
    assert out[3]["payload"]["message"] == "m" and inspector.check(fixed.output).ok


def test_fit_never_cuts_a_compaction_line_to_remove_part_of_its_history():
    """The replacement history's messages share one line: removing that line would remove them all
    and send the conversation the compaction replaced again; fit refuses instead."""
    long = [say("user", "first question " * 50)["payload"], say("assistant", "long answer " * 200)["payload"],
            say("user", "summary " * 20)["payload"]]
    rows = [META, say("user", "old"), line("compacted", {"message": "m", "replacement_history": long}),
            say("user", "now what"), say("assistant", "ok")]
    with pytest.raises(FitError, match="the protected messages alone need"):
        inspector.fit(text(rows), 200)
    fitted = inspector.fit(text(rows), 100_000)
    assert fitted.output.decode() == text(rows)
