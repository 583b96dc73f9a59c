"""One input, one verdict (issue 28): ``check``, ``scan``, ``repair`` (whole file and streamed
dataset) read the same file the same way. Each test below is a shape on which two of them
disagreed, with the words of the provider that refuses it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import inspector

OPENAI_ORPHAN = "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"


def run(*args, stdin: bytes | None = None):
    env = {**os.environ, "INSPECTOR_DEBUG": "1"}
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], input=stdin, capture_output=True,
                          timeout=300, env=env)


# --- OpenAI Batch JSON Lines whose body lists ``tools`` before ``messages`` -------------------------

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
         {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object"}}}]
CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}
ORPHAN = {"role": "tool", "tool_call_id": "call_9", "content": "sunny"}


def batch_line(cid: str, messages: list) -> dict:
    # the key order many writers produce: tools, then messages
    return {"custom_id": cid, "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": "gpt-4o", "tools": TOOLS, "messages": messages}}


BATCH = [
    batch_line("req-1", [{"role": "user", "content": "hi"}]),
    batch_line("req-2", [{"role": "user", "content": "weather?"}, ORPHAN]),
    batch_line("req-3", [{"role": "user", "content": "weather?"}, CALL,
                         {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]),
]


def test_batch_lines_with_tools_before_messages_read_alike_in_check_scan_and_repair(tmp_path):
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in BATCH))

    report = inspector.check(path)
    errors = [(f.transcript, f.message_index, f.code) for f in report.findings if f.severity == "error"]
    assert errors == [(1, 1, "TC002")]
    assert OPENAI_ORPHAN in next(f.provider_error for f in report.findings if f.code == "TC002")

    # scan reads each line on its own, and must read its messages, not its tools
    p = run("scan", path, "--format", "jsonl")
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert [(r["line"], r["messages"]) for r in rows] == [(1, 1), (2, 2), (3, 3)]
    for k, r in enumerate(rows):  # the findings check gives, to the letter
        mine = [f.model_dump(include=set(r["findings"][0])) for f in report.findings if f.transcript == k] \
            if r["findings"] else []
        assert r["findings"] == mine
    assert [r["errors"] for r in rows] == [0, 1, 0]
    assert b"3 transcripts scanned (6 messages); OpenAI would reject 1 (33.3%)" in p.stderr

    # repair, whole file and streamed dataset: the orphan goes, the tool declarations stay
    fixed = inspector.repair(path)
    out = [json.loads(x) for x in fixed.output.decode().splitlines()]
    assert [o["body"]["tools"] for o in out] == [TOOLS] * 3
    assert [q.content for q in fixed.report.quarantine] == [ORPHAN]
    assert fixed.report.ok
    p = run("repair", path, "-o", tmp_path / "out.jsonl", "--report", tmp_path / "rep.jsonl")
    assert p.returncode == 0, p.stderr
    assert b"3 records: 1 repaired, 2 already clean, 0 not fixed safely" in p.stderr
    out = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [o["body"]["tools"] for o in out] == [TOOLS] * 3
    (rep,) = [json.loads(x) for x in (tmp_path / "rep.jsonl").read_text().splitlines()]
    assert [q["content"] for q in rep["quarantine"]] == [ORPHAN]


def test_one_batch_line_alone_is_read_as_the_batch_reads_it():
    """A line on its own (what scan and dataset repair read) is the batch request it holds,
    named by its custom_id, whatever the order of its body's keys."""
    report = inspector.check(BATCH[1])
    assert report.transcripts == 1 and report.message_count == 2
    assert report.transcript_labels[0].startswith("req-2 ")
    assert [f.code for f in report.findings if f.severity == "error"] == ["TC002"]


def test_a_list_of_tool_declarations_is_no_message_list():
    from inspector.containers import looks_like_messages

    assert not looks_like_messages(TOOLS)
    assert looks_like_messages(BATCH[2]["body"]["messages"])


# --- Mistral: a system message right after a tool message, or after an assistant message -----------

def _mistral_refuses(msgs: list) -> str:
    """mistral-common's own validator (serving mode, v11 and v13): its words, or "" when it accepts."""
    from mistral_common.exceptions import MistralCommonException
    from test_repair_properties import mistral_accepts

    try:
        mistral_accepts(msgs)
    except MistralCommonException as exc:
        return str(exc)
    return ""


def _tool_round(cid: str = "abcdefghi") -> list:
    return [{"role": "user", "content": "weather?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": cid, "content": "sunny"}]


REMINDER = {"role": "system", "content": "Reminder: answer briefly."}


import pytest


@pytest.mark.parametrize("after", ["tool", "assistant"])
def test_mistral_system_message_after_a_tool_or_assistant_message_is_reported_as_mistral_refuses_it(after):
    msgs = _tool_round()
    if after == "assistant":
        msgs += [{"role": "assistant", "content": "It is sunny."}, REMINDER, {"role": "user", "content": "thanks"}]
    else:
        msgs += [REMINDER, {"role": "assistant", "content": "It is sunny."}, {"role": "user", "content": "thanks"}]
    words = f"Unexpected role 'system' after role '{after}'"
    assert words in _mistral_refuses(msgs)  # the validator is the judge

    report = inspector.check(msgs, target="mistral")
    (f,) = [f for f in report.findings if f.severity == "error"]
    assert (f.code, f.message_index, f.provider_error) == ("TC019", msgs.index(REMINDER), words)
    assert "Mistral would reject" in inspector.verdict(report)

    # repair acts on that finding, and only for the target that refuses it
    fixed = inspector.repair(msgs, target="mistral")
    assert [(c.code, c.index_before) for c in fixed.report.changes] == [("TC019", msgs.index(REMINDER))]
    assert fixed.report.ok and _mistral_refuses(fixed.data) == ""
    assert inspector.check(msgs, target="openai").ok
    assert inspector.repair(msgs, target="openai").report.changes == []
