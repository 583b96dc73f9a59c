"""Repair round trips for the dialects beyond openai-chat: the repaired output is in the same
dialect, checks clean for the dialect's default target, loses no string of the input (each is in
the output or in the report), and repairing it again changes nothing."""

from __future__ import annotations

import json

import pytest
from support.dialect_asserts import strings

import inspector
from inspector.dialects.langchain import shape as lc_shape
from inspector.dialects.langchain import unwrap


def round_trip(data, dialect, **kw):
    before = inspector.check(data)
    assert before.dialect == dialect and not before.ok
    fixed = inspector.repair(data, **kw)
    after = inspector.check(fixed.output)
    assert after.dialect == dialect, after.dialect
    assert after.ok, [f.text for f in after.findings if f.severity == "error"]
    assert fixed.report.ok, fixed.report.unfixed
    kept = strings(fixed.data) | strings(fixed.report.model_dump())
    lost = strings(json.loads(data) if isinstance(data, str) else data) - kept
    assert not lost, lost
    again = inspector.repair(fixed.output)
    assert again.report.changes == [] and again.output == fixed.output
    return fixed


# --- Responses ---------------------------------------------------------------------------------

def fc(cid, name="get_weather", args='{"q": 1}', **extra):
    return {"type": "function_call", "call_id": cid, "name": name, "arguments": args, **extra}


def out(cid, output="ok", kind="function_call_output"):
    return {"type": kind, "call_id": cid, "output": output}


def test_responses_round_trip():
    body = {"model": "gpt-5", "input": [
        {"role": "user", "content": "weather?"},
        fc("call_a"), fc("call_b", args={"q": 2}), {"type": "custom_tool_call", "call_id": "call_c", "name": "patch", "input": "x"},
        out("call_b", "sunny"),
        {"role": "user", "content": "hello?"},
        out("call_a", "rain"),
        out("call_zz", "who am I"),
        out("call_b", "sunny"),
        {"role": "user", "content": "thanks"},
    ]}
    fixed = round_trip(json.dumps(body), "openai-responses")
    items = fixed.data["input"]
    assert fixed.data["model"] == "gpt-5"
    assert [i.get("type", i.get("role")) for i in items] == [
        "user", "function_call", "function_call", "custom_tool_call", "function_call_output", "function_call_output",
        "custom_tool_call_output", "user", "user"]
    assert items[2]["arguments"] == '{"q": 2}'
    assert {q.code for q in fixed.report.quarantine} == {"TC002"}


def test_responses_remove_call_is_refused_with_a_reason():
    with pytest.raises(inspector.InputError, match="remove_call"):
        inspector.repair([{"role": "user", "content": "x"}, fc("call_a"), {"role": "user", "content": "y"}],
                         options={"missing": "remove_call"})


# --- LangChain ---------------------------------------------------------------------------------

def ai(*ids, content=""):
    return {"type": "ai", "content": content,
            "tool_calls": [{"name": "get_weather", "args": {"q": c}, "id": c, "type": "tool_call"} for c in ids]}


def tool(cid, content="ok"):
    return {"type": "tool", "content": content, "tool_call_id": cid, "name": "get_weather"}


def as_dict(m):
    return {"type": m["type"], "data": dict(m)}


def as_lc(m):
    cls = {"ai": "AIMessage", "human": "HumanMessage", "tool": "ToolMessage"}[m["type"]]
    return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", cls],
            "kwargs": {k: v for k, v in m.items() if k != "type"}}


@pytest.mark.parametrize("shape", [lambda m: m, as_dict, as_lc], ids=["plain", "messages_to_dict", "lc_dump"])
def test_langchain_round_trip_keeps_the_shape(shape):
    msgs = [{"type": "human", "content": "weather?"}, ai("call_a", "call_b"), tool("call_b", "sunny"),
            {"type": "human", "content": "and?"}, tool("call_zz", "stray"), ai(content="done")]
    data = {"messages": [shape(m) for m in msgs]}
    fixed = round_trip(json.dumps(data), "langchain")
    new = fixed.data["messages"]
    assert len(new) == 6  # one placeholder in, one orphan out
    placeholder = new[3]
    assert lc_shape(placeholder) == lc_shape(shape(tool("x")))  # the same serialization shape
    assert unwrap(placeholder)[1]["status"] == "error" and unwrap(placeholder)[1]["tool_call_id"] == "call_a"


# --- Anthropic, Bedrock, Gemini: results are blocks of the next message --------------------------

def a_tu(cid):
    return {"type": "tool_use", "id": cid, "name": "get_weather", "input": {"q": cid}}


def a_tr(cid, text="ok"):
    return {"type": "tool_result", "tool_use_id": cid, "content": text}


def test_anthropic_round_trip_joins_results_and_keeps_blocks():
    body = {"model": "claude-sonnet-4-5", "system": "be brief", "max_tokens": 100, "messages": [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": [{"type": "text", "text": "Looking."}, a_tu("toolu_a"), a_tu("toolu_b"), a_tu("toolu_c"),
                                          a_tu("toolu_d")]},  # two calls unanswered: the stray result is no re-link
        {"role": "user", "content": [{"type": "text", "text": "here you go"}, a_tr("toolu_b", "sunny")]},
        {"role": "user", "content": [a_tr("toolu_a", "rain"), a_tr("toolu_zz", "stray")]},
        {"role": "assistant", "content": [{"type": "text", "text": "Rain and sun."}]},
        {"role": "user", "content": "thanks"},
    ]}
    fixed = round_trip(json.dumps(body), "anthropic")
    msgs = fixed.data["messages"]
    assert fixed.data["system"] == "be brief"
    assert [m["role"] for m in msgs] == ["user", "assistant", "user", "assistant", "user"]
    joined = msgs[2]["content"]
    assert [b.get("tool_use_id", b["type"]) for b in joined] == ["toolu_b", "toolu_a", "toolu_c", "toolu_d", "text"]
    assert joined[2]["is_error"] is True and joined[3]["is_error"] is True  # the placeholders for toolu_c and toolu_d
    assert msgs[0] is not None and msgs[4] == body["messages"][5]
    q = fixed.report.quarantine
    assert [(x.index, x.code, x.content) for x in q] == [(3, "TC002", a_tr("toolu_zz", "stray"))]
    codes = {c.code for c in fixed.report.changes}
    # Messages 2 and 3 are one user turn to the API, text first: TC016 on the combined turn joins them.
    assert {"TC001", "TC002", "TC016"} <= codes and "TC019" not in codes
    assert "join_turn" in {c.action for c in fixed.report.changes}
    assert all("#5" not in c.text and "#6" not in c.text for c in fixed.report.changes)  # input indices only


def test_anthropic_clean_input_comes_back_as_it_was():
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [a_tu("toolu_a")]},
            {"role": "user", "content": [a_tr("toolu_a")]}, {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}]
    text = json.dumps(msgs)
    fixed = inspector.repair(text)
    assert fixed.output == text.encode() and fixed.report.changes == []


def test_bedrock_round_trip():
    msgs = [
        {"role": "user", "content": [{"text": "weather?"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "a.1", "name": "get_weather", "input": {}}},
                                          {"toolUse": {"toolUseId": "t2", "name": "get_weather", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "a.1", "content": [{"text": "rain"}]}}]},
        {"role": "assistant", "content": [{"text": "done"}]},
    ]
    fixed = round_trip({"messages": msgs}, "bedrock")
    new = fixed.data["messages"]
    ids = [b["toolResult"]["toolUseId"] for b in new[2]["content"]]
    assert ids[0] == fixed.report.id_map["a.1"] and ids[1] == "t2"
    assert new[2]["content"][1]["toolResult"]["status"] == "error"


def test_gemini_round_trip_without_ids():
    contents = [
        {"role": "user", "parts": [{"text": "weather?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                                    {"functionCall": {"name": "get_time", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"t": 20}}}]},
        {"role": "user", "parts": [{"text": "and?"}]},
        {"role": "model", "parts": [{"text": "done"}]},
    ]
    fixed = round_trip({"contents": contents}, "gemini")
    new = fixed.data["contents"]
    parts = new[2]["parts"]
    assert [list(p) for p in parts] == [["functionResponse"], ["functionResponse"], ["text"]]
    assert parts[1]["functionResponse"]["name"] == "get_time" and "id" not in parts[1]["functionResponse"]


def test_claude_code_logs_are_repaired_as_logs():
    log = [{"type": "user", "sessionId": "s", "message": {"role": "user", "content": "hi"}},
           {"type": "assistant", "sessionId": "s", "message": {"id": "m1", "role": "assistant", "content": [a_tu("toolu_a")]}},
           {"type": "user", "sessionId": "s", "message": {"role": "user", "content": "go on"}}]
    fixed = inspector.repair("\n".join(json.dumps(e) for e in log))
    assert fixed.report.ok and inspector.check(fixed.output).ok
    assert [e["type"] for e in fixed.data] == ["user", "assistant", "user", "user"]
    assert fixed.data[2]["message"]["content"][0]["tool_use_id"] == "toolu_a" and "uuid" not in fixed.data[2]


def test_langchain_repair_for_anthropic_adds_no_bridges_but_mistral_gets_one():
    msgs = [{"type": "human", "content": "weather?"}, ai("call_a"), tool("call_a"), {"type": "human", "content": "thanks"}]
    for_anthropic = inspector.repair(msgs, target="anthropic")
    assert for_anthropic.report.changes == [] and [m["type"] for m in for_anthropic.data] == ["human", "ai", "tool", "human"]
    for_mistral = inspector.repair(msgs, target="mistral")
    assert [m["type"] for m in for_mistral.data] == ["human", "ai", "tool", "ai", "human"]


def test_joined_messages_lose_no_field():
    # Bedrock's Converse API refuses two user messages in a row, so repair joins them there.
    msgs = [{"role": "user", "content": [{"text": "a"}], "name": "alice"},
            {"role": "user", "content": [{"text": "b"}], "name": "bob"},
            {"role": "assistant", "content": [{"text": "hi"}]}]
    fixed = inspector.repair(msgs, dialect="bedrock")
    assert fixed.data[0]["content"] == [{"text": "a"}, {"text": "b"}]
    assert [(q.index, q.content) for q in fixed.report.quarantine] == [(1, {"name": "bob"})]
