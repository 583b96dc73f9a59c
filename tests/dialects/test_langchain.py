"""Serialized LangChain messages in their three shapes: one test per rule that applies (a trigger
and a near miss), and the targets they can be checked against."""

from __future__ import annotations

import json

import pytest

import inspector


def plain(kind, content="", **fields):
    return {"type": kind, "content": content, **fields}


def ai(*calls, content="", invalid=()):
    return plain("ai", content, tool_calls=[{"name": n, "args": {"q": c}, "id": c, "type": "tool_call"} for c, n in calls],
                 invalid_tool_calls=list(invalid))


def tool(cid, content="ok", name="get_weather"):
    return plain("tool", content, tool_call_id=cid, name=name)


def as_dict(m):
    """``messages_to_dict``: {"type": ..., "data": {...}}."""
    return {"type": m["type"], "data": {k: v for k, v in m.items()}}


LC_CLASS = {"ai": "AIMessage", "human": "HumanMessage", "tool": "ToolMessage", "system": "SystemMessage"}


def as_lc(m):
    """``dumpd``: {"lc": 1, "type": "constructor", "id": [...], "kwargs": {...}}."""
    kwargs = {k: v for k, v in m.items() if k != "type"}
    return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", LC_CLASS[m["type"]]], "kwargs": kwargs}


CLEAN = [plain("system", "be brief"), plain("human", "weather?"), ai(("call_a", "get_weather"), ("call_b", "get_weather")),
         tool("call_a"), tool("call_b"), plain("ai", "done")]


def codes(msgs, target=None):
    return [f.code for f in inspector.check(msgs, target=target, dialect="langchain").findings]


@pytest.mark.parametrize("shape", [lambda m: m, as_dict, as_lc], ids=["plain", "messages_to_dict", "lc_dump"])
def test_every_shape_is_detected_and_clean(shape):
    msgs = [shape(m) for m in CLEAN]
    r = inspector.check(json.dumps({"messages": msgs}))
    assert (r.dialect, r.target, r.findings) == ("langchain", "openai", [])
    broken = [shape(m) for m in CLEAN[:4] + CLEAN[5:]]
    assert [f.code for f in inspector.check(broken).findings] == ["TC001"]


def test_tc001_and_tc002():
    assert "TC001" in codes(CLEAN[:3] + [tool("call_a"), plain("human", "next"), plain("ai", "ok")])
    assert "TC002" in codes(CLEAN[:2] + [tool("call_zz"), plain("ai", "ok")])
    assert "TC001" not in codes(CLEAN) and "TC002" not in codes(CLEAN)


def test_tc008_tool_message_without_id():
    assert "TC008" in codes(CLEAN[:2] + [ai(("call_a", "x")), plain("tool", "ok"), plain("ai", "ok")])
    assert "TC008" not in codes(CLEAN)


def test_tc011_invalid_tool_calls_are_calls_with_broken_arguments():
    bad = {"name": "get_weather", "args": '{"q": ', "id": "call_c", "error": "bad json", "type": "invalid_tool_call"}
    msgs = CLEAN[:2] + [ai(invalid=[bad]), tool("call_c"), plain("ai", "ok")]
    assert codes(msgs) == ["TC011"]
    assert "TC011" not in codes(CLEAN)


def test_tc012_bad_name():
    assert "TC012" in codes(CLEAN[:2] + [ai(("call_a", "get weather")), tool("call_a"), plain("ai", "ok")])
    assert "TC012" not in codes(CLEAN)


def test_tc019_for_mistral_and_tc024_unknown_type():
    msgs = CLEAN[:4] + [tool("call_b"), plain("human", "and now?"), plain("ai", "ok")]
    assert "TC019" in codes(msgs, "mistral") and "TC019" not in codes(CLEAN, "mistral")
    assert "TC024" in codes(CLEAN + [plain("robot", "beep")])
    assert "TC024" not in codes(CLEAN)


def test_older_dumps_with_calls_in_additional_kwargs():
    call = {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    old = {"type": "ai", "data": {"content": "", "additional_kwargs": {"tool_calls": [call]}}}
    msgs = [as_dict(CLEAN[1]), old, as_dict(tool("call_a")), as_dict(plain("ai", "done"))]
    assert inspector.check(msgs).findings == []
    assert [f.code for f in inspector.check(msgs[:2] + msgs[3:]).findings] == ["TC001"]


def test_other_targets_fit_langchain():
    assert inspector.check(CLEAN, target="anthropic", dialect="langchain").findings == []
    with pytest.raises(inspector.InputError, match="does not fit"):
        inspector.check(CLEAN, target="responses", dialect="langchain")


def test_markdown_export_and_timeline_preview_read_serialized_text():
    from inspector.export import to_markdown
    from inspector.render.layout import preview_text

    msgs = [
        {"type": "human", "data": {"type": "human", "content": "find the weather in Paris"}},
        {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
         "kwargs": {"content": "It is sunny in Paris.", "type": "ai"}},
    ]
    md = to_markdown(inspector.load(msgs))
    assert "find the weather in Paris" in md and "It is sunny in Paris." in md
    assert preview_text(msgs[0]) == "find the weather in Paris"
    assert preview_text(msgs[1]) == "It is sunny in Paris."
