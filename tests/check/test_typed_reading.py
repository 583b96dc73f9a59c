"""The typed reading of Chat Completions (``dialects.openai_chat.decode_typed`` and ``read_typed``)
says exactly what the general reading says: the same document, the same neutral view, the same
report for every target, over generated message lists mutated in every way the reader notes."""

from __future__ import annotations

import copy
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.checking import check_plain
from inspector.dialects.openai_chat import decode_typed, normalize, read_typed
from inspector.errors import InputError
from inspector.model import Issue
from inspector.reading import load, load_bytes
from inspector.targets import TARGETS

IDS = st.sampled_from(["call_1", "call_2", "call_3", "", "null", "x" * 41, "call 4", "call_1"])
NAMES = st.sampled_from(["get_weather", "read_file", "bad name!", "", "a" * 65])
ARGS = st.sampled_from(['{"city": "Paris"}', "", "{not json", "[1, 2]", "1,2", "{}"])
TEXTS = st.sampled_from(["hi", "", "ok", "déjà vu \u2028", "a\nb"])


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(["system", "developer", "user", "assistant", "assistant", "tool", "tool", "function"]))
    m: dict[str, Any] = {"role": role}
    if role == "assistant":
        if draw(st.booleans()):
            calls = [{"id": draw(IDS), "type": "function", "function": {"name": draw(NAMES), "arguments": draw(ARGS)}}
                     for _ in range(draw(st.integers(0, 3)))]
            shape = draw(st.sampled_from(["content-first", "calls-first", "no-content", "no-type"]))
            if shape == "no-type":
                for c in calls:
                    del c["type"]
            if shape == "calls-first":  # another key order: read the general way
                m["tool_calls"] = calls
                m["content"] = draw(st.none() | TEXTS)
            else:
                if shape == "content-first":
                    m["content"] = draw(st.none() | TEXTS)
                m["tool_calls"] = calls
        else:
            choice = draw(st.sampled_from(["text", "null", "missing", "null-calls"]))
            if choice == "text":
                m["content"] = draw(TEXTS)
            elif choice == "null":
                m["content"] = None
            elif choice == "null-calls":
                m["content"] = draw(st.none() | TEXTS)
                m["tool_calls"] = None
    elif role == "tool":
        m["tool_call_id"] = draw(IDS)
        m["content"] = draw(TEXTS)
        if draw(st.integers(0, 9)) == 0:
            m["name"] = draw(NAMES)  # a field the typed reading does not have
    else:
        m["content"] = draw(TEXTS) if draw(st.integers(0, 9)) else None
        if role == "function":
            m["name"] = draw(NAMES)
    return m


def report_or_error(doc_of: Any, target: str | None) -> Any:
    try:
        return check_plain(doc_of(), target)[0]
    except InputError as exc:
        return ("InputError", str(exc))


def assert_same_reports(text: bytes, value: Any) -> None:
    typed = decode_typed(text)
    if typed is not None:  # the same document, key order included
        assert orjson.dumps(typed[0]) == orjson.dumps(value)
    for target in (None, *TARGETS):
        general = report_or_error(lambda: load(copy.deepcopy(value), name="t.json"), target)
        fast = report_or_error(lambda: load_bytes(text, "t.json"), target)
        assert fast == general, target


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages(), max_size=10))
def test_a_message_list_reads_the_same_either_way(msgs: list[dict[str, Any]]) -> None:
    assert_same_reports(orjson.dumps(msgs), msgs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages(), max_size=8), st.sampled_from(["gpt-4o", "deepseek-chat", "mistral-large-latest",
                                                          "anthropic/claude-sonnet-4-5"]))
def test_a_request_body_reads_the_same_either_way(msgs: list[dict[str, Any]], model: str) -> None:
    body = {"model": model, "messages": msgs}
    assert_same_reports(orjson.dumps(body), body)


def clean_round(n: int) -> list[dict[str, Any]]:
    return [{"role": "user", "content": f"question {n}"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{n}", "type": "function", "function": {"name": "read_file", "arguments": '{"p": 1}'}}]},
            {"role": "tool", "tool_call_id": f"call_{n}", "content": "text"},
            {"role": "assistant", "content": "done"}]


def test_the_common_file_is_read_the_typed_way_into_the_same_view() -> None:
    msgs = [{"role": "system", "content": "be brief"}] + [m for n in range(5) for m in clean_round(n)]
    text = orjson.dumps(msgs)
    typed = decode_typed(text)
    assert typed is not None
    root, structs = typed
    assert root == msgs and list(root[1]) == list(msgs[1])
    issues: list[Issue] = []
    fast = read_typed(structs, root, (), issues)
    general = normalize(root, (), [])
    assert fast is not None and not issues
    assert [(m.index, m.role, [(c.id, c.name, c.args, c.pos, c.msg) for c in m.calls],
             [(r.id, r.name, r.pos, r.msg, r.legacy) for r in m.results], m.has_other) for m in fast] == [
        (m.index, m.role, [(c.id, c.name, c.args, c.pos, c.msg) for c in m.calls],
         [(r.id, r.name, r.pos, r.msg, r.legacy) for r in m.results], m.has_other) for m in general]
    assert all(a.raw is b for a, b in zip(fast, root))
    doc = load_bytes(text, "t.json")
    assert doc.transcripts[0].typed is structs or doc.transcripts[0].typed is not None


def test_what_the_structs_cannot_vouch_for_is_read_the_general_way() -> None:
    msgs = clean_round(1)
    pretty = orjson.dumps(msgs, option=orjson.OPT_INDENT_2)  # not the structs' own bytes
    other_order = orjson.dumps([{"content": "q", "role": "user"}])
    repeated = b'[{"role":"user","content":"a","content":"b"}]'  # the first content is lost to a parse
    unknown = orjson.dumps([{"role": "user", "content": "q", "name": "ann"}])
    for text in (pretty, other_order, repeated, unknown, b"\xef\xbb\xbf" + orjson.dumps(msgs)):
        assert decode_typed(text) is None
    assert load_bytes(repeated, "t.json").duplicate_keys  # the general reading names the repeated key


def test_a_shape_note_gives_way_to_normalize() -> None:
    msgs = clean_round(1)
    msgs[1]["tool_calls"][0]["function"]["arguments"] = "{not json"
    text = orjson.dumps(msgs)
    root, structs = decode_typed(text) or ([], [])
    assert read_typed(structs, root, (), []) is None
    codes = [f["code"] for f in check_plain(load_bytes(text, "t.json"))[0]["findings"]]
    assert "TC011" in codes
