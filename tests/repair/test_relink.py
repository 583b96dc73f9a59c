"""Repair re-links a real result whose id was rewritten (issue 10, "Repair that keeps what it can").

The shape: a call block with two calls, the first answered, and right after its sibling's result
a result whose id matches no call (a proxy or a framework rewrote it). The block has exactly one
unanswered call, of the tool the result names where it names one. Before this fix repair took the
real result out into the quarantine and answered the call with a placeholder "No result was
recorded"; now it gives the result the call's id, reported as one change with both ids. When the
match is not unambiguous (two unanswered calls, two stray results, another tool's name) repair does
what it did before and says why.
"""

from __future__ import annotations

import json

import pytest
from support.dialect_asserts import strings

import inspector

OLD = "call_rewritten_9"


# --- one builder per dialect: (calls, results) -> the transcript -----------------------------------
# ``calls``: [(id, tool name)]; ``results``: [(id, tool name, text)], all in the one block after the calls.

def openai_chat(calls, results):
    return [{"role": "user", "content": "weather and time?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": "{}"}} for cid, name in calls]},
            *[{"role": "tool", "tool_call_id": rid, "content": text} for rid, _, text in results],
            {"role": "user", "content": "thanks"}]


def anthropic(calls, results):
    return {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": "weather and time?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": cid, "name": name, "input": {}} for cid, name in calls]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": rid, "content": text} for rid, _, text in results]
         + [{"type": "text", "text": "thanks"}]}]}


def bedrock(calls, results):
    return {"messages": [
        {"role": "user", "content": [{"text": "weather and time?"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": cid, "name": name, "input": {}}} for cid, name in calls]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": rid, "content": [{"text": text}]}} for rid, _, text in results]
         + [{"text": "thanks"}]}]}


def gemini(calls, results):
    return {"contents": [
        {"role": "user", "parts": [{"text": "weather and time?"}]},
        {"role": "model", "parts": [{"functionCall": {"id": cid, "name": name, "args": {}}} for cid, name in calls]},
        {"role": "user", "parts": [{"functionResponse": {"id": rid, "name": name, "response": {"output": text}}}
                                   for rid, name, text in results]},
        {"role": "model", "parts": [{"text": "done"}]}]}


def responses(calls, results):
    return {"model": "gpt-5", "input": [
        {"role": "user", "content": "weather and time?"},
        *[{"type": "function_call", "call_id": cid, "name": name, "arguments": "{}"} for cid, name in calls],
        *[{"type": "function_call_output", "call_id": rid, "output": text} for rid, _, text in results],
        {"role": "user", "content": "thanks"}]}


def langchain(calls, results):
    return {"messages": [
        {"type": "human", "content": "weather and time?"},
        {"type": "ai", "content": "", "tool_calls": [{"name": name, "args": {}, "id": cid, "type": "tool_call"}
                                                     for cid, name in calls]},
        *[{"type": "tool", "content": text, "tool_call_id": rid, "name": name} for rid, name, text in results],
        {"type": "human", "content": "thanks"}]}


def ag_ui(calls, results):
    return [{"id": "u1", "role": "user", "content": "weather and time?"},
            {"id": "a1", "role": "assistant", "content": "", "toolCalls": [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": "{}"}} for cid, name in calls]},
            *[{"id": f"t{k}", "role": "tool", "toolCallId": rid, "content": text} for k, (rid, _, text) in enumerate(results)],
            {"id": "u2", "role": "user", "content": "thanks"}]


def vercel_ai(calls, results):
    return [{"role": "user", "content": "weather and time?"},
            {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": cid, "toolName": name, "input": {}}
                                              for cid, name in calls]},
            {"role": "tool", "content": [{"type": "tool-result", "toolCallId": rid, "toolName": name,
                                          "output": {"type": "text", "value": text}} for rid, name, text in results]},
            {"role": "user", "content": "thanks"}]


def pydantic_ai(calls, results):
    return [{"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "weather and time?"}]},
            {"kind": "response", "model_name": "gpt-4o", "provider_name": "openai", "parts": [
                {"part_kind": "tool-call", "tool_name": name, "args": "{}", "tool_call_id": cid} for cid, name in calls]},
            {"kind": "request", "parts": [{"part_kind": "tool-return", "tool_name": name, "content": text, "tool_call_id": rid}
                                          for rid, name, text in results]},
            {"kind": "response", "model_name": "gpt-4o", "provider_name": "openai",
             "parts": [{"part_kind": "text", "content": "done"}]}]


def otel_genai(calls, results):
    return [{"role": "user", "parts": [{"type": "text", "content": "weather and time?"}]},
            {"role": "assistant", "parts": [{"type": "tool_call", "id": cid, "name": name, "arguments": {}} for cid, name in calls]},
            *[{"role": "tool", "parts": [{"type": "tool_call_response", "id": rid, "response": text}]} for rid, _, text in results],
            {"role": "user", "parts": [{"type": "text", "content": "thanks"}]}]


BUILDERS = {"openai-chat": openai_chat, "anthropic": anthropic, "bedrock": bedrock, "gemini": gemini,
            "openai-responses": responses, "langchain": langchain, "ag-ui": ag_ui, "vercel-ai": vercel_ai,
            "pydantic-ai": pydantic_ai, "otel-genai": otel_genai}
# Ids the dialect's default target accepts (Bedrock and Anthropic refuse dots and such).
CALLS = [("call_weather_1", "get_weather"), ("call_time_2", "get_time")]


def transcript(dialect, calls, results):
    return json.dumps(BUILDERS[dialect](calls, results))


def relinked_case(dialect):
    return transcript(dialect, CALLS, [("call_weather_1", "get_weather", "rain"), (OLD, "get_time", "12:00")])


@pytest.mark.parametrize("dialect", list(BUILDERS))
def test_a_rewritten_result_id_is_relinked_to_the_one_unanswered_call(dialect):
    data = relinked_case(dialect)
    before = inspector.check(data)
    assert before.dialect == dialect
    assert {(f.code, f.tool_call_id) for f in before.findings if f.severity == "error"} >= {
        ("TC001", "call_time_2"), ("TC002", OLD)}
    fixed = inspector.repair(data)
    report = fixed.report
    relinks = [c for c in report.changes if c.action == "relink_result"]
    assert [(c.code, c.tool_call_id, c.new_id) for c in relinks] == [("TC002", OLD, "call_time_2")]
    assert f"{OLD} → call_time_2" in relinks[0].text
    assert not report.quarantine, report.quarantine  # the real result is kept...
    assert not [c for c in report.changes if c.action == "insert_placeholder"]  # ...and answers the call
    assert "No result was recorded" not in fixed.output.decode()
    assert "12:00" in fixed.output.decode()
    after = inspector.check(fixed.output)
    assert after.dialect == dialect and not [f for f in after.findings if f.severity == "error"]
    assert report.ok, report.unfixed
    # Lossless: every string of the input is in the output or the report (the old id in the change).
    kept = strings(fixed.data) | strings(report.model_dump())
    assert not strings(json.loads(data)) - kept
    again = inspector.repair(fixed.output)
    assert again.report.changes == [] and again.output == fixed.output


@pytest.mark.parametrize("dialect", list(BUILDERS))
def test_relink_false_keeps_the_old_repair_and_says_why(dialect):
    data = relinked_case(dialect)
    fixed = inspector.repair(data, options={"relink": False})
    actions = {c.action for c in fixed.report.changes}
    assert "relink_result" not in actions and "insert_placeholder" in actions
    assert "relink=false" in said_about_the_orphan(fixed, dialect)


def said_about_the_orphan(fixed, dialect) -> str:
    """What the report says about the stray result: the change that took it out, or (Vercel model
    messages, where one tool message holds both results) why it was left in place."""
    if dialect == "vercel-ai":
        return next(u for u in fixed.report.unfixed if "match no call" in u)
    assert [q.code for q in fixed.report.quarantine if q.code == "TC002"] == ["TC002"]
    return next(c for c in fixed.report.changes if c.code == "TC002").text


@pytest.mark.parametrize("dialect", ["openai-chat", "anthropic", "openai-responses", "gemini", "langchain"])
def test_two_unanswered_calls_are_ambiguous_and_stay_as_before(dialect):
    calls = CALLS + [("call_time_3", "get_time")]
    data = transcript(dialect, calls, [("call_weather_1", "get_weather", "rain"), (OLD, "get_time", "12:00")])
    fixed = inspector.repair(data)
    assert not [c for c in fixed.report.changes if c.action == "relink_result"]
    assert [q.code for q in fixed.report.quarantine if q.code == "TC002"] == ["TC002"]
    orphan = next(c for c in fixed.report.changes if c.code == "TC002")
    assert "2 unanswered calls (call_time_2, call_time_3)" in orphan.text
    assert len([c for c in fixed.report.changes if c.action == "insert_placeholder"]) == 2


@pytest.mark.parametrize("dialect", ["openai-chat", "anthropic", "bedrock", "langchain"])
def test_two_stray_results_for_one_unanswered_call_are_ambiguous(dialect):
    data = transcript(dialect, CALLS, [("call_weather_1", "get_weather", "rain"), (OLD, "get_time", "12:00"),
                                       ("call_other_8", "get_time", "13:00")])
    fixed = inspector.repair(data)
    assert not [c for c in fixed.report.changes if c.action == "relink_result"]
    assert len([q for q in fixed.report.quarantine if q.code == "TC002"]) == 2
    assert all("2 results in the call block" in c.text for c in fixed.report.changes if c.code == "TC002")


@pytest.mark.parametrize("dialect", ["gemini", "langchain", "vercel-ai", "pydantic-ai"])
def test_a_result_naming_another_tool_is_not_relinked(dialect):
    data = transcript(dialect, CALLS, [("call_weather_1", "get_weather", "rain"), (OLD, "get_stock", "12:00")])
    fixed = inspector.repair(data)
    assert not [c for c in fixed.report.changes if c.action == "relink_result"]
    assert "it names tool 'get_stock', the call 'get_time'" in said_about_the_orphan(fixed, dialect)


def test_a_result_outside_the_block_is_not_relinked():
    # The stray result comes after a user message: it is not in the call's block.
    msgs = json.loads(relinked_case("openai-chat"))
    msgs.insert(3, {"role": "user", "content": "hello?"})
    fixed = inspector.repair(msgs)
    assert not [c for c in fixed.report.changes if c.action == "relink_result"]
    assert [q.content.get("tool_call_id") for q in fixed.report.quarantine] == [OLD]


def test_a_single_call_block_ending_the_request_is_relinked_not_left_pending():
    msgs = [{"role": "user", "content": "time?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_time_2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": OLD, "content": "12:00"}]
    fixed = inspector.repair(msgs)
    assert fixed.data[2] == {"role": "tool", "tool_call_id": "call_time_2", "content": "12:00"}
    assert [c.action for c in fixed.report.changes] == ["relink_result"] and not fixed.report.quarantine


def test_the_relinked_result_follows_a_call_renamed_for_the_target():
    # Mistral wants 9 alphanumerics: the call is renamed, and the re-linked result takes the new id.
    data = json.loads(transcript("openai-chat", [("abcdefgh1", "get_weather"), ("call_time_2", "get_time")],
                                 [("abcdefgh1", "get_weather", "rain"), (OLD, "get_time", "12:00")]))
    fixed = inspector.repair(data, target="mistral")
    new = fixed.report.id_map["call_time_2"]
    assert fixed.data[3]["tool_call_id"] == new == fixed.data[1]["tool_calls"][1]["id"]
    [relink] = [c for c in fixed.report.changes if c.action == "relink_result"]
    assert (relink.tool_call_id, relink.new_id) == (OLD, new)
    assert not [f for f in inspector.check(fixed.output, target="mistral").findings if f.severity == "error"]


def test_cli_set_relink_false(tmp_path):
    from inspector.repairing import options_from_settings

    assert options_from_settings(["relink=false"]).relink is False
    assert options_from_settings([]).relink is True


def test_app_repair_tab_relinks_by_default_and_offers_the_switch():
    from support.app_test import app, open_repair, upload

    data = relinked_case("openai-chat").encode()
    at = open_repair(upload(app(), "rewritten.json", data))
    switch = at.toggle(key="ro:relink")
    assert switch.value is True and switch.label == "Re-link rewritten result ids"
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Changes"], metrics["Quarantined"]) == ("1", "0")
    assert any(f"{OLD} → call_time_2" in str(v) for df in at.dataframe if "change" in df.value for v in df.value["change"])
    switch.set_value(False).run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Changes"], metrics["Quarantined"]) == ("2", "1")
    assert at.session_state["repair_options"]["relink"] is False


@pytest.mark.parametrize("dialect", ["openai-chat", "anthropic", "gemini", "langchain"])
def test_check_hints_at_the_relink(dialect):
    findings = inspector.check(relinked_case(dialect)).findings
    [orphan] = [f for f in findings if f.code == "TC002"]
    assert "only unanswered call is call_time_2 ('get_time')" in orphan.hint and "relink" in orphan.hint
    [missing] = [f for f in findings if f.code == "TC001"]
    assert f"holds a result for {OLD}" in missing.hint and "relink" in missing.hint
    two = transcript(dialect, CALLS + [("call_time_3", "get_time")],
                     [("call_weather_1", "get_weather", "rain"), (OLD, "get_time", "12:00")])
    [orphan] = [f for f in inspector.check(two).findings if f.code == "TC002"]
    assert "relink" not in (orphan.hint or "")


# --- property: a rewritten id is the only damage, so repair gives the transcript back ------------

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.transcripts import valid_transcripts


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.integers(0, 50), st.sampled_from(("openai", "deepseek", "mistral")))
def test_repair_undoes_a_rewritten_result_id(msgs, k, target):
    tools = [i for i, m in enumerate(msgs) if m.get("role") == "tool"]
    broken = json.loads(json.dumps(msgs))
    i = tools[k % len(tools)]
    old = broken[i]["tool_call_id"]
    broken[i]["tool_call_id"] = "rewritten0"
    fixed = inspector.repair(broken, target=target)
    assert fixed.data == msgs
    assert [(c.action, c.tool_call_id, c.new_id, c.index_before) for c in fixed.report.changes] == [
        ("relink_result", "rewritten0", old, i)]
    assert fixed.report.quarantine == []
    assert fixed.report.unfixed == inspector.repair(msgs, target=target).report.unfixed  # (Mistral's last-message rule)


def test_claude_code_log_relinks_through_the_shared_repair():
    def entry(kind, uuid, parent, **message):
        return {"type": kind, "sessionId": "s", "uuid": uuid, "parentUuid": parent, "message": message}

    log = [entry("user", "u1", None, role="user", content="weather and time?"),
           entry("assistant", "a1", "u1", id="msg_1", role="assistant", content=[
               {"type": "tool_use", "id": "toolu_w1", "name": "get_weather", "input": {}},
               {"type": "tool_use", "id": "toolu_t2", "name": "get_time", "input": {}}]),
           entry("user", "u2", "a1", role="user", content=[
               {"type": "tool_result", "tool_use_id": "toolu_w1", "content": "rain"},
               {"type": "tool_result", "tool_use_id": "toolu_rw9", "content": "12:00"}]),
           entry("assistant", "a2", "u2", id="msg_2", role="assistant", content=[{"type": "text", "text": "done"}])]
    data = "\n".join(json.dumps(e) for e in log)
    assert inspector.check(data).dialect == "claude-code"
    fixed = inspector.repair(data)
    # The re-linked block gets an entry of its own, and the next entry's parentUuid follows it.
    assert [(c.action, c.tool_call_id, c.new_id, c.index_before, c.index_after) for c in fixed.report.changes] == [
        ("relink_result", "toolu_rw9", "toolu_t2", 2, 2), ("rewrite_entry", None, None, None, 3),
        ("rewrite_entry", None, None, 3, 4)]
    assert fixed.report.quarantine == [] and fixed.report.ok
    assert inspector.repair(fixed.output).report.changes == []
