"""The Anthropic Messages API combines consecutive messages of one role into one turn (issue 10).

Evidence (docs/provider-evidence.md, "Consecutive messages of one role"): the API reference says
"Consecutive `user` or `assistant` turns in your request will be combined into a single turn", and
oh-my-pi #1165 recorded the API naming an orphan of message 1 ``messages.0.content.1`` because
messages 0-4 were one user turn. Bedrock's Converse API refuses the same list ("A conversation
must alternate between user and assistant roles"). So for the ``anthropic`` target, pairing and
order run on the combined turns, findings carry the API's index beside ours, a pasted index is
mapped back through the combination, and repair does not join messages unasked; for ``bedrock``
two messages of one role in a row stay an error that repair joins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import inspector
from inspector.checking import check_document
from inspector.provider_errors import locate, parse_error
from inspector.reading import load

ORPHAN = "toolu_01MB9F3TaSzqFYxEgy2MQoFc"


def tu(cid, name="read"):
    return {"type": "tool_use", "id": cid, "name": name, "input": {"path": cid}}


def tr(cid, content="ok"):
    return {"type": "tool_result", "tool_use_id": cid, "content": content}


def omp_1165() -> dict:
    """The serialized request of oh-my-pi #1165 (content abbreviated as in the PR)."""
    return {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [
        {"role": "user", "content": "<handoff-context>...</handoff-context>"},
        {"role": "user", "content": [tr(ORPHAN, "done")]},
        {"role": "user", "content": "<goal_context>...</goal_context>"},
        {"role": "user", "content": "Resume work on the user's most recent request."},
        {"role": "user", "content": "<turn-aborted>...</turn-aborted>"},
        {"role": "assistant", "content": [tu("toolu_A")]},
        {"role": "user", "content": [tr("toolu_A")]},
        {"role": "assistant", "content": [tu("toolu_B"), tu("toolu_C")]},
        {"role": "user", "content": [tr("toolu_B"), tr("toolu_C")]},
        {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
        {"role": "user", "content": "next"},
    ]}


def errors(report):
    return [(f.code, f.message_index) for f in report.findings if f.severity == "error"]


def test_oh_my_pi_1165_orphan_is_named_as_the_api_names_it():
    report = inspector.check(omp_1165())
    assert report.target == "anthropic"
    assert errors(report) == [("TC002", 1)]  # the orphan, and nothing about four user messages in a row
    f = next(f for f in report.findings if f.code == "TC002")
    assert f.provider_index == "messages.0.content.1"
    assert f.provider_error.startswith(f"messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: {ORPHAN}.")
    assert "combines messages #0-#4 into one user turn" in f.text and "messages.0.content.1" in f.text
    notes = [(x.code, x.message_index, x.severity) for x in report.findings if x.code == "TC019"]
    assert notes == [("TC019", k, "info") for k in (1, 2, 3, 4)]


def test_the_cli_prints_the_api_index_beside_ours(tmp_path):
    path = tmp_path / "omp1165.json"
    path.write_text(json.dumps(omp_1165()))
    env = {**os.environ, "INSPECTOR_DEBUG": "1"}
    p = subprocess.run([sys.executable, "-m", "inspector", "check", str(path)], capture_output=True, timeout=120, env=env)
    assert p.returncode == 1, p.stderr
    line = next(ln for ln in p.stdout.decode().splitlines() if " TC002 " in ln)
    assert "Message #1 " in line and "messages.0.content.1" in line
    p = subprocess.run([sys.executable, "-m", "inspector", "check", "--format", "json", str(path)],
                       capture_output=True, timeout=120, env=env)
    found = json.loads(p.stdout)["findings"]
    assert [(f["message_index"], f["provider_index"]) for f in found if f["code"] == "TC002"] == [(1, "messages.0.content.1")]


def test_a_pasted_turn_index_points_at_our_message():
    report, analyses = check_document(load(omp_1165()))
    a = analyses[0]
    # Without the id (so only the index can lead there): messages.0.content.1 is message 1 here.
    err = parse_error("400 messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: "
                      "toolu_elsewhere. Each `tool_result` block must have a corresponding `tool_use` block "
                      "in the previous message.")
    hits = locate(err, a.msgs, report.findings, a.turns)
    assert [h.index for h in hits] == [1]
    assert "messages.0.content.1 is message 1" in hits[0].reasons[0]
    assert [f.code for f in hits[0].findings] == ["TC002"]
    # A later turn: messages.4 is the API's fifth turn, our message 8 (toolu_B and toolu_C's results).
    hits = locate(parse_error("messages.4.content.1: unexpected `tool_use_id` found in `tool_result` blocks: x"),
                  a.msgs, report.findings, a.turns)
    assert [h.index for h in hits] == [8]


def test_explain_cli_maps_the_pasted_index(tmp_path):
    path = tmp_path / "omp1165.json"
    path.write_text(json.dumps(omp_1165()))
    text = ("messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_gone. "
            "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.")
    p = subprocess.run([sys.executable, "-m", "inspector", "explain", str(path), "--error", text, "--format", "json"],
                       capture_output=True, timeout=120, env={**os.environ, "INSPECTOR_DEBUG": "1"})
    out = json.loads(p.stdout)
    assert [m["index"] for m in out["messages"]] == [1], out
    # The text output calls the pasted index a turn, from its first line on.
    p = subprocess.run([sys.executable, "-m", "inspector", "explain", str(path), "--error", text],
                       capture_output=True, text=True, timeout=120)
    first, *rest = p.stdout.splitlines()
    assert "names turn #0;" in first and "message #0" not in first, p.stdout
    assert any("the indexes it names are turns" in ln for ln in rest)


def test_repair_does_not_join_consecutive_messages_unasked():
    msgs = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"},
            {"role": "assistant", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "more"}]}, {"role": "user", "content": "c"}]
    text = json.dumps(msgs)
    assert inspector.check(text, "anthropic").ok
    fixed = inspector.repair(text, "anthropic")
    assert fixed.output == text.encode() and fixed.report.changes == []


def test_repair_of_1165_takes_the_orphan_out_and_leaves_the_user_messages_apart():
    body = omp_1165()
    fixed = inspector.repair(json.dumps(body))
    assert [(c.action, c.code, c.index_before) for c in fixed.report.changes] == [("quarantine_orphan", "TC002", 1)]
    out = fixed.data["messages"]
    assert out[:4] == [body["messages"][k] for k in (0, 2, 3, 4)]  # each still its own message
    assert inspector.check(fixed.output).ok


def test_a_placeholder_stays_with_its_results_and_the_next_user_message_stays_apart():
    msgs = [{"role": "user", "content": "go"}, {"role": "assistant", "content": [tu("toolu_a"), tu("toolu_b")]},
            {"role": "user", "content": [tr("toolu_a")]}, {"role": "user", "content": "and then?"}]
    fixed = inspector.repair(json.dumps(msgs), "anthropic")
    out = fixed.data
    assert [m["role"] for m in out] == ["user", "assistant", "user", "user"]
    assert [b["tool_use_id"] for b in out[2]["content"]] == ["toolu_a", "toolu_b"] and out[3] == msgs[3]
    assert inspector.check(fixed.output, "anthropic").ok


def test_text_before_results_in_the_combined_turn_is_tc016_and_repair_joins_that_turn():
    msgs = [{"role": "user", "content": "go"}, {"role": "assistant", "content": [tu("toolu_a")]},
            {"role": "user", "content": "one moment"}, {"role": "user", "content": [tr("toolu_a")]}]
    report = inspector.check(msgs, "anthropic")
    assert errors(report) == [("TC016", 3)]
    f = next(f for f in report.findings if f.code == "TC016")
    assert f.provider_index == "messages.2.content.1" and "message #2" in f.text
    fixed = inspector.repair(msgs, "anthropic")
    assert inspector.check(fixed.output, "anthropic").ok, fixed.report.unfixed
    assert fixed.data[2]["content"][0] == tr("toolu_a")  # results first in the one user turn
    assert "join_turn" in [c.action for c in fixed.report.changes]


def test_tool_use_then_text_in_the_next_assistant_message_is_tc025_on_the_combined_turn():
    msgs = [{"role": "user", "content": "go"}, {"role": "assistant", "content": [tu("toolu_a")]},
            {"role": "assistant", "content": [{"type": "text", "text": "Let me check."}]},
            {"role": "user", "content": [tr("toolu_a")]}, {"role": "assistant", "content": "done"}]
    report = inspector.check(msgs, "anthropic")
    assert errors(report) == [("TC025", 1)]
    f = next(f for f in report.findings if f.code == "TC025")
    assert f.provider_error.startswith("messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a.")
    fixed = inspector.repair(msgs, "anthropic")
    assert inspector.check(fixed.output, "anthropic").ok, fixed.report.unfixed
    again = inspector.repair(fixed.output, "anthropic")
    assert again.output == fixed.output


def test_calls_over_two_assistant_messages_answered_by_the_next_turn_are_accepted():
    msgs = [{"role": "user", "content": "go"}, {"role": "assistant", "content": [tu("toolu_a")]},
            {"role": "assistant", "content": [tu("toolu_b")]},
            {"role": "user", "content": [tr("toolu_a")]}, {"role": "user", "content": [tr("toolu_b")]}]
    report = inspector.check(msgs, "anthropic")
    assert report.ok, errors(report)
    assert inspector.repair(msgs, "anthropic").report.changes == []


def test_an_index_after_a_combined_turn_is_shifted():
    msgs = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"},
            {"role": "assistant", "content": [tu("toolu_a")]}, {"role": "user", "content": "no result"}]
    f = next(f for f in inspector.check(msgs, "anthropic").findings if f.code == "TC001")
    assert f.message_index == 2 and f.provider_index == "messages.1"
    assert f.provider_error.startswith("messages.1: `tool_use` ids were found without `tool_result` blocks")


def test_bedrock_converse_refuses_two_user_messages_and_repair_joins_them():
    msgs = [{"role": "user", "content": [{"text": "a"}]}, {"role": "user", "content": [{"text": "b"}]},
            {"role": "assistant", "content": [{"text": "hi"}]}]
    report = inspector.check(msgs, "bedrock")
    f = next(f for f in report.findings if f.code == "TC019")
    assert (f.severity, f.message_index, f.provider_index) == ("error", 1, None)
    assert f.provider_error == ("A conversation must alternate between user and assistant roles. Make sure the "
                                "conversation alternates between user and assistant roles and try again.")
    fixed = inspector.repair(msgs, "bedrock")
    assert [m["role"] for m in fixed.data] == ["user", "assistant"]
    assert "merge_messages" in [c.action for c in fixed.report.changes]
    assert inspector.check(fixed.output, "bedrock").ok


def test_bedrock_results_split_over_two_user_messages_stay_tc015():
    msgs = [{"role": "user", "content": [{"text": "go"}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "a", "name": "f", "input": {}}},
                                              {"toolUse": {"toolUseId": "b", "name": "f", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "a", "content": [{"text": "1"}]}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "b", "content": [{"text": "2"}]}}]}]
    assert ("TC015", 3) in errors(inspector.check(msgs, "bedrock"))


def test_the_app_shows_the_api_index_and_maps_a_pasted_one():
    from streamlit.testing.v1 import AppTest
    from support.app_test import APP

    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.file_uploader(key="upload").set_value(("omp1165.json", json.dumps(omp_1165()).encode(), "application/json")).run()
    assert not at.exception
    df = at.dataframe[0].value
    row = df[df["code"] == "TC002"].iloc[0]
    assert row["message"] == 1 and "messages.0.content.1" in row["sentence"]
    at.text_area(key="pasted_error").set_value(
        "messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_other. Each "
        "`tool_result` block must have a corresponding `tool_use` block in the previous message.").run()
    assert not at.exception
    assert at.session_state["sel"] == 1
    assert any("messages.0.content.1 is message 1" in t.value for t in at.text)


def test_text_after_calls_in_their_own_message_is_said_once():
    msgs = [{"role": "user", "content": "go"},
            {"role": "assistant", "content": [tu("toolu_a"), {"type": "text", "text": "checking"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "still checking"}]},
            {"role": "user", "content": [tr("toolu_a")]}]
    assert errors(inspector.check(msgs, "anthropic")) == [("TC025", 1)]
    fixed = inspector.repair(msgs, "anthropic")
    assert inspector.check(fixed.output, "anthropic").ok, fixed.report.unfixed


def test_pydantic_ai_history_for_anthropic_pairs_over_combined_turns():
    # Pydantic AI's Anthropic model sends each request as its own user message; the API combines them.
    call = {"part_kind": "tool-call", "tool_name": "f", "args": "{}"}
    ret = {"part_kind": "tool-return", "tool_name": "f"}
    history = [{"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "go"}]},
               {"kind": "response", "parts": [{**call, "tool_call_id": "a"}, {**call, "tool_call_id": "b"}]},
               {"kind": "request", "parts": [{**ret, "content": "1", "tool_call_id": "a"}]},
               {"kind": "request", "parts": [{**ret, "content": "2", "tool_call_id": "b"}]}]
    report = inspector.check(history, "anthropic")
    assert report.dialect == "pydantic-ai" and report.ok, errors(report)
    assert all(f.provider_index is None for f in report.findings)  # the history's indexes are not the API's
    asked = history[:2] + [{"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "wait"}]}] + history[2:]
    assert errors(inspector.check(asked, "anthropic")) == [("TC016", 3)]
    fixed = inspector.repair(asked, "anthropic")
    assert inspector.check(fixed.output, "anthropic").ok, fixed.report.unfixed


def test_an_invoke_model_body_for_bedrock_warns_and_repair_joins():
    # Bedrock's InvokeModel refused two user messages in a row in 2024-2025 reports
    # (anthropics/anthropic-sdk-typescript#565, modelcontextprotocol/quickstart-resources#20).
    body = {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 100, "messages": [
        {"role": "user", "content": "What is the color of"}, {"role": "user", "content": "the sky?"}]}
    report = inspector.check(body)
    assert report.target == "anthropic"
    f = next(f for f in report.findings if f.code == "TC019")
    assert f.severity == "warning" and "InvokeModel" in f.text
    fixed = inspector.repair(body)
    assert [m["role"] for m in fixed.data["messages"]] == ["user"]
    assert not [x for x in inspector.check(fixed.output).findings if x.severity in ("error", "warning")]
    # The same list for the Messages API itself is a note, and repair leaves it alone.
    first_party = {k: v for k, v in body.items() if k != "anthropic_version"}
    assert inspector.check(first_party).ok and inspector.repair(first_party).report.changes == []
