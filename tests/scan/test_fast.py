"""The dataset scan's fast path (``inspector/scan/fast.py``, issue 25) finds exactly what the
general path finds.

The fast path says "clean" for a Chat Completions tool-use example it decodes into its typed
shape and proves clean; everything else goes the general way. These tests generate examples,
break each in one or more of the ways a rule notices (and ways that leave it clean, such as a
40-character id or an empty arguments string), permute every object's keys, and hold:

- a line the fast path passes gets the row the general path gives it (so no finding is lost);
- a clean example of the shape does take the fast path (else the test would prove nothing);
- a whole dataset whose records change shape mid-file (chat examples, Anthropic bodies, batch
  lines, bad JSON, then chat examples again) scans to the rows ``check`` gives each line;
- a dialect package that reads the shape differently turns the fast path off for the part.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector import dialects
from inspector.checking import check_plain
from inspector.containers import Document, find_transcripts
from inspector.dialects.openai_chat import OpenAIChat
from inspector.rules import RULE
from inspector.scan.fast import GIVE_UP, HOLDS
from inspector.scan.sources import Part
from inspector.scan.work import FINDING_FIELDS, ScanOptions, check_value, fast_path, scan_part

TOOLS = [{"type": "function", "function": {"name": n, "description": f"{n} tool",
                                            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}
         for n in ("search", "get_weather", "lookup_order")]


def example(rng: random.Random) -> dict:
    """A clean tool-use example: a system and a user message, one to three rounds of calls each
    answered in order, a closing answer."""
    msgs: list[dict] = [{"role": "system", "content": "You are a helpful agent."},
                        {"role": "user", "content": "Please help " + "x" * rng.randint(0, 30)}]
    k = 0
    for _ in range(rng.randint(1, 3)):
        calls = []
        for _ in range(rng.randint(1, 3)):
            k += 1
            calls.append({"id": f"call_{k}_{rng.getrandbits(32):08x}", "type": "function",
                          "function": {"name": rng.choice(TOOLS)["function"]["name"],
                                       "arguments": json.dumps({"q": "é" * rng.randint(0, 5)})}})
        msgs.append({"role": "assistant", "content": rng.choice([None, "Let me look."]), "tool_calls": calls})
        msgs += [{"role": "tool", "tool_call_id": c["id"], "content": f"result {c['id']}"} for c in calls]
    msgs.append({"role": "assistant", "content": "Here is what I found."})
    return {"messages": msgs, "tools": TOOLS}


def _where(rec: dict, rng: random.Random, role: str) -> int:
    found = [i for i, m in enumerate(rec["messages"]) if m.get("role") == role]
    return rng.choice(found) if found else 0


def _a_call(rec: dict, rng: random.Random) -> dict:
    msgs = [m for m in rec["messages"] if m.get("tool_calls")]
    return rng.choice(rng.choice(msgs)["tool_calls"])


def _renamed(rec: dict, old: object, new: object) -> None:
    """The call ``old`` and the result answering it now say ``new``."""
    for m in rec["messages"]:
        for c in m.get("tool_calls") or ():
            if c["id"] == old:
                c["id"] = new
        if m.get("role") == "tool" and m.get("tool_call_id") == old:
            m["tool_call_id"] = new


def _call_at(rec, rng, **changes):
    c = _a_call(rec, rng)
    for k, v in changes.items():
        if k == "id":
            _renamed(rec, c["id"], v)
        else:
            c["function"][k] = v


def _drop_result(rec, rng):
    del rec["messages"][_where(rec, rng, "tool")]


def _orphan(rec, rng):
    rec["messages"][_where(rec, rng, "tool")]["tool_call_id"] = "call_nobody"


def _duplicate_result(rec, rng):
    i = _where(rec, rng, "tool")
    rec["messages"].insert(i + 1, dict(rec["messages"][i], content="again"))


def _displace(rec, rng):
    msgs = rec["messages"]
    i = _where(rec, rng, "tool")
    m = msgs.pop(i)
    msgs.insert(len(msgs) - 1, {"role": "user", "content": "and?"})
    msgs.insert(len(msgs) - 1, m)


def _swap_results(rec, rng):
    msgs = rec["messages"]
    for i in range(len(msgs) - 1):
        if msgs[i].get("role") == "tool" and msgs[i + 1].get("role") == "tool":
            msgs[i], msgs[i + 1] = msgs[i + 1], msgs[i]
            return


def _same_id_twice(rec, rng):
    calls = [c for m in rec["messages"] if m.get("tool_calls") for c in m["tool_calls"]]
    if len(calls) > 1:
        _renamed(rec, calls[-1]["id"], calls[0]["id"])


def _trailing_call(rec, rng):
    rec["messages"][-1] = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_last", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}


def _result_before_call(rec, rng):
    msgs = rec["messages"]
    i = _where(rec, rng, "tool")
    calls = [k for k in range(i) if msgs[k].get("tool_calls")]
    if calls:
        msgs.insert(calls[-1], msgs.pop(i))


def _one_id_twice_in_a_message(rec, rng):
    for m in rec["messages"]:
        if m.get("tool_calls"):
            m["tool_calls"].append(dict(m["tool_calls"][0]))
            return


def _result_as_user_text(rec, rng):
    """The results of a call block sent back as one user message (TC020)."""
    msgs = rec["messages"]
    i = next((k for k, m in enumerate(msgs) if m.get("tool_calls")), None)
    if i is None:
        return
    results = []
    while i + 1 < len(msgs) and msgs[i + 1].get("role") == "tool":
        results.append(msgs.pop(i + 1)["content"])
    msgs.insert(i + 1, {"role": "user", "content": "\n".join(results)})


def _user_after_tool(rec, rng):
    msgs = rec["messages"]
    msgs.insert(_where(rec, rng, "tool") + 1, {"role": "user", "content": "thanks"})


def _set(rec, rng, role, key, value):
    rec["messages"][_where(rec, rng, role)][key] = value


def _schema(rec: dict, schema: object) -> None:
    """The first tool's ``parameters``; a string is put in the line as it stands (``_line``)."""
    if rec.get("tools"):
        rec["tools"] = [{**rec["tools"][0], "function": {**rec["tools"][0]["function"], "parameters": schema}},
                        *rec["tools"][1:]]


# Each way of changing an example: most make a finding, some leave it clean (a 40-character id,
# empty arguments, a 64-character name, no tools list), some leave the shape (another key).
MUTATIONS = {
    "missing result": _drop_result,
    "orphan result": _orphan,
    "duplicate result": _duplicate_result,
    "displaced result": _displace,
    "results out of order": _swap_results,
    "same id twice": _same_id_twice,
    "result before its call": _result_before_call,
    "one id twice in a message": _one_id_twice_in_a_message,
    "results as user text": _result_as_user_text,
    "trailing call": _trailing_call,
    "user after tool": _user_after_tool,
    "empty id": lambda r, g: _call_at(r, g, id=""),
    "null id": lambda r, g: _call_at(r, g, id="null"),
    "40-char id": lambda r, g: _call_at(r, g, id="c" * 40),
    "41-char id": lambda r, g: _call_at(r, g, id="c" * 41),
    "numeric id": lambda r, g: _call_at(r, g, id=7),
    "bad name": lambda r, g: _call_at(r, g, name="get weather!"),
    "64-char name": lambda r, g: _call_at(r, g, name="n" * 64),
    "65-char name": lambda r, g: _call_at(r, g, name="n" * 65),
    "empty name": lambda r, g: _call_at(r, g, name=""),
    "undeclared name": lambda r, g: _call_at(r, g, name="get_weathr"),
    "bad arguments": lambda r, g: _call_at(r, g, arguments='{"q": '),
    "two values as arguments": lambda r, g: _call_at(r, g, arguments="1, 2"),
    "blank arguments": lambda r, g: _call_at(r, g, arguments="  "),
    "empty arguments": lambda r, g: _call_at(r, g, arguments=""),
    "object arguments": lambda r, g: _call_at(r, g, arguments={"q": 1}),
    "empty tool_calls": lambda r, g: _set(r, g, "assistant", "tool_calls", []),
    "no content, no calls": lambda r, g: r["messages"].append({"role": "assistant", "content": None}),
    "null tool content": lambda r, g: _set(r, g, "tool", "content", None),
    "null user content": lambda r, g: _set(r, g, "user", "content", None),
    "content parts": lambda r, g: _set(r, g, "user", "content", [{"type": "text", "text": "hi"}]),
    "tool name field": lambda r, g: _set(r, g, "tool", "name", "search"),
    "reasoning_content": lambda r, g: _set(r, g, "assistant", "reasoning_content", "hmm"),
    "developer role": lambda r, g: _set(r, g, "system", "role", "developer"),
    "unknown role": lambda r, g: _set(r, g, "user", "role", "narrator"),
    "function role": lambda r, g: r["messages"].insert(2, {"role": "function", "name": "search", "content": "x"}),
    "a model": lambda r, g: r.update(model="claude-sonnet-4-5"),
    "a custom_id": lambda r, g: r.update(custom_id="req-1"),
    "no tools list": lambda r, g: r.pop("tools", None),
    "huge number in a schema": lambda r, g: _schema(r, {"type": "object", "maximum": "1e400"}),
    "integer beyond 64 bits in a schema": lambda r, g: _schema(r, {"type": "object", "maximum": "1" + "0" * 30}),
    "schema nested to orjson's limit": lambda r, g: _schema(r, "[" * 1019 + "]" * 1019),
    "schema nested past orjson's limit": lambda r, g: _schema(r, "[" * 1021 + "]" * 1021),
    "schema nested past the interpreter's": lambda r, g: _schema(r, "[" * 5000 + "]" * 5000),
    "empty tools list": lambda r, g: r.update(tools=[]),
    "no calls at all": lambda r, g: r.update(messages=[{"role": "user", "content": "hi"},
                                                      {"role": "assistant", "content": "hello"}]),
    "empty messages": lambda r, g: r.update(messages=[]),
}


def _shuffled(v, rng: random.Random):
    if type(v) is dict:
        keys = list(v)
        rng.shuffle(keys)
        return {k: _shuffled(v[k], rng) for k in keys}
    if type(v) is list:
        return [_shuffled(x, rng) for x in v]
    return v


def _line(rec: dict, rng: random.Random) -> bytes:
    text = orjson.dumps(_shuffled(rec, rng))
    for t in rec.get("tools") or ():  # a schema given as JSON text goes in as it stands (1e400, deep nesting)
        raw = t["function"].get("parameters")
        if type(raw) is str:
            text = text.replace(orjson.dumps(raw), raw.encode())
        elif type(raw) is dict and type(raw.get("maximum")) is str:
            text = text.replace(orjson.dumps(raw["maximum"]), raw["maximum"].encode())
    if rng.random() < 0.1:  # a repeated key, the earlier value lost (as in every JSON reader)
        text = text.replace(b'"content":', b'"content":null,"content":', 1)
    if rng.random() < 0.05:  # a lone surrogate: not JSON to either reader
        text = text.replace(b'"content":"', b'"content":"\\ud800', 1)
    return text


def _general(text: bytes, line: int = 1) -> list[dict]:
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return [{"problem": "not JSON"}]
    return check_value(value, "json", "data.jsonl", line, ScanOptions())


def _fast(text: bytes) -> dict | None:
    """The fast path's row for ``text``, past its first line (which the general path confirms, and
    which would hide a wrong answer of the fast path's own from these tests)."""
    fast = fast_path("data.jsonl", ScanOptions(), _general)
    assert fast is not None
    assert fast.row(orjson.dumps(example(random.Random(0))), 1) is not None and fast.on
    return fast.row(text, 1)


@pytest.mark.parametrize("tools", [True, False], ids=["tools", "no tools"])
@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_each_change_is_found_as_the_general_path_finds_it(name, tools):
    for seed in range(6):
        rng = random.Random(seed)
        rec = example(rng)
        if not tools:
            del rec["tools"]
        MUTATIONS[name](rec, rng)
        text = _line(rec, rng)
        row = _fast(text)
        if row is not None:
            assert [row] == _general(text), f"{name}, seed {seed}: the fast path passed what the general path finds"


@given(st.integers(0, 2**32), st.lists(st.sampled_from(sorted(MUTATIONS)), max_size=3))
@settings(max_examples=300, deadline=None)
def test_fast_row_is_the_general_row(seed, changes):
    rng = random.Random(seed)
    rec = example(rng)
    for name in changes:
        try:
            MUTATIONS[name](rec, rng)
        except (IndexError, KeyError, TypeError, AttributeError):
            pass  # an earlier change left nothing for this one to act on
    text = _line(rec, rng)
    row = _fast(text)
    if row is not None:
        assert [row] == _general(text)
        assert row["findings"] == [] and row["dialect"] == "openai-chat" and row["target"] == "openai"


def test_the_fast_path_says_how_it_holds_every_rule():
    """A rule added to the catalogue fails here until ``clean_proof.HOLDS`` says how the fast path
    holds it; a rule said not to apply to openai really has no openai severity."""
    assert set(HOLDS) == set(RULE), "inspector/clean_proof.py HOLDS: a rule the fast path does not account for"
    for code, (how, why) in HOLDS.items():
        assert how in ("checked", "shape", "not for openai") and why, code
        if how == "not for openai":
            rule = RULE[code]
            assert rule.severity["openai"] is None, code
            assert all("openai" not in by for by in rule.by_kind.values()), code


def test_each_rule_it_checks_or_refuses_the_shape_of_is_tried_by_a_change():
    """For every rule the fast path checks, or whose breaking shape does not decode, some change of
    an example makes the general path find it, and the fast path does not pass that line: each
    claim in ``HOLDS`` is tried by ``MUTATIONS`` (add one with a new rule)."""
    tried: set[str] = set()
    for name, change in sorted(MUTATIONS.items()):
        for seed in range(4):
            for tools in (True, False):
                rng = random.Random(seed)
                rec = example(rng)
                if not tools:
                    del rec["tools"]
                change(rec, rng)
                text = orjson.dumps(rec)
                codes = {f["code"] for row in _general(text) for f in row.get("findings") or ()}
                if codes:
                    assert _fast(text) is None, (name, seed, codes)
                tried |= codes
    untried = sorted(code for code, (how, _) in HOLDS.items() if how != "not for openai" and code not in tried)
    assert untried == []


def test_clean_examples_take_the_fast_path():
    for seed in range(50):
        rng = random.Random(seed)
        text = _line(example(rng), rng)
        if b"\\ud800" in text or b"null,\"content" in text:
            continue
        row = _fast(text)
        assert row is not None, text
        assert [row] == _general(text)


def _check_rows(value: object, line: int) -> list[tuple]:
    """What ``inspector check`` says of one record: per transcript, dialect, target, findings."""
    doc = Document(root=value, format="json", transcripts=find_transcripts(value, "json"), source="data.jsonl")
    report, _ = check_plain(doc)
    return [(line, report["transcript_dialects"][k], report["transcript_targets"][k],
             [{n: f[n] for n in FINDING_FIELDS} for f in report["findings"] if f["transcript"] == k])
            for k in range(len(doc.transcripts))]


def _anthropic_body(rng: random.Random) -> dict:
    return {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": rng.choice(["toolu_1", "toolu_2"]),
                                      "content": "sunny"}]}]}


def test_a_dataset_that_changes_shape_midway_scans_as_check_reads_each_line(tmp_path: Path):
    rng = random.Random(25)
    records: list[object] = []
    for _ in range(40):
        records.append(example(rng))
    records[7]["messages"].pop(3)  # a broken one among them
    records += [_anthropic_body(rng) for _ in range(GIVE_UP + 5)]  # the fast path gives up on these
    records += [{"custom_id": f"req-{k}", "method": "POST", "url": "/v1/chat/completions",
                 "body": {"model": "gpt-4o", **example(rng)}} for k in range(5)]
    records += [example(rng) for _ in range(20)]
    records[-3]["messages"][-1]["content"] = None
    lines = [_line(r, rng) for r in records]
    lines.insert(50, b'{"messages": [')  # not JSON
    path = tmp_path / "data.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    rows, n = scan_part(Part("lines", str(path), 0, path.stat().st_size), ScanOptions())
    assert n == len(lines)
    expected: list[tuple] = []
    for k, text in enumerate(lines, 1):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            expected.append((k, "not JSON"))
            continue
        expected += _check_rows(value, k)
    got = [(r["line"], "not JSON") if r["problem"] else (r["line"], r["dialect"], r["target"], r["findings"])
           for r in rows]
    assert got == expected


class _Rival(OpenAIChat):
    """Another package's dialect that claims Chat Completions lists more surely than openai-chat."""

    name = "rival-chat"

    def detect(self, items: list) -> int:  # type: ignore[override]
        return 9 if items and all(type(m) is dict and "role" in m for m in items) else 0


def test_a_dialect_that_reads_the_shape_otherwise_turns_the_fast_path_off(tmp_path: Path):
    rng = random.Random(3)
    path = tmp_path / "data.jsonl"
    path.write_bytes(b"".join(orjson.dumps(example(rng)) + b"\n" for _ in range(10)))
    dialects.register(_Rival())
    try:
        rows, _ = scan_part(Part("lines", str(path), 0, path.stat().st_size), ScanOptions())
    finally:
        dialects.unregister("rival-chat")
    assert [r["dialect"] for r in rows] == ["rival-chat"] * 10
