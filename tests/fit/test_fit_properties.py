"""Fit invariants on random valid transcripts of every dialect, for any budget and options.

For each: the output is the input with whole units left out (no call id on both sides of the
cut); it checks clean for the target when the input did; it is within the budget unless
``FitError`` says the protected messages alone exceed it; output + report hold every input item;
fitting the output to the same budget changes nothing.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from support.dialect_writers import WRITERS
from support.transcripts import valid_transcripts

import inspector
from inspector.containers import find_transcripts
from inspector.tokens import count_messages, counter_for


def to_openai(chat):
    return chat


def to_responses_with_reasoning(chat):
    """Responses input where every call run is preceded by a reasoning item, as reasoning models send it."""
    items = []
    for m in WRITERS["openai-responses"](chat)["input"]:
        if m.get("type") == "function_call" and (not items or items[-1].get("type") != "function_call"):
            items.append({"type": "reasoning", "id": f"rs_{len(items)}", "summary": [{"type": "summary_text", "text": "why"}]})
        items.append(m)
    return {"model": "o4-mini", "input": items}


def to_claude_code(chat):
    """A Claude Code log: one entry per content block (entries of one reply share its id)."""
    entries = []
    for k, m in enumerate(WRITERS["anthropic"](chat)["messages"]):
        blocks = m["content"] if isinstance(m["content"], list) else [{"type": "text", "text": m["content"]}]
        for j, b in enumerate(blocks or [{"type": "text", "text": "-"}]):
            msg = {"role": m["role"], "content": [b]}
            if m["role"] == "assistant":
                msg["id"] = f"msg_{k}"
            entries.append({"type": m["role"], "uuid": f"e{k}_{j}", "sessionId": "s", "message": msg})
    return entries


DIALECTS = {
    "openai-chat": (to_openai, ["openai", "mistral", "deepseek"]),
    "anthropic": (WRITERS["anthropic"], ["anthropic"]),
    "bedrock": (WRITERS["bedrock"], ["bedrock"]),
    "gemini": (WRITERS["gemini"], ["gemini"]),
    "openai-responses": (to_responses_with_reasoning, ["responses"]),
    "langchain": (WRITERS["langchain"], ["openai", "mistral", "anthropic"]),
    "claude-code": (to_claude_code, ["anthropic"]),
}


def items_of(data):
    return find_transcripts(data)[0].items


def errors(source, target, dialect=None):
    return [f.code for f in inspector.check(source, target, dialect=dialect).findings if f.severity == "error"]


def ids_in(value, out=None):
    """Every call id string in an item (any dialect's field names)."""
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("id", "call_id", "tool_call_id", "tool_use_id", "toolUseId") and isinstance(v, str) and v.startswith("call"):
                out.add(v)
            else:
                ids_in(v, out)
    elif isinstance(value, list):
        for v in value:
            ids_in(v, out)
    return out


@st.composite
def cases(draw):
    dialect = draw(st.sampled_from(sorted(DIALECTS)))
    write, targets = DIALECTS[dialect]
    chat = draw(valid_transcripts(max_rounds=4))
    data = write(chat)
    target = draw(st.sampled_from(targets))
    rarely = st.sampled_from([False, False, False, True])
    options = {"keep_system": draw(rarely), "keep_first_user": draw(rarely),
               "keep_last": draw(st.sampled_from([0, 0, 0, 1, 2, 3])),
               "strategy": draw(st.sampled_from(["drop-oldest", "drop-middle"]))}
    return dialect, data, target, options, draw(st.integers(0, 110)) / 100


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(cases())
def test_fit_keeps_whole_units_stays_clean_and_loses_nothing(case):
    dialect, data, target, options, share = case
    assert inspector.check(data, target).dialect == dialect
    clean = not errors(data, target)
    text = json.dumps(data) if not isinstance(data, list) or dialect != "claude-code" else "".join(
        json.dumps(e) + "\n" for e in data)
    doc = inspector.load(text)
    a_msgs = [m for t in doc.transcripts for m in _msgs(t, target)]
    total = sum(count_messages([m.raw for m in a_msgs], counter_for(target)))
    budget = int(total * share)
    try:
        r = inspector.fit(text, budget, target, options)
    except inspector.FitError as exc:
        event("cannot fit")
        assert budget < total
        assert f"more than the budget of {budget}" in str(exc) or f"leaves no message within the budget of {budget} tokens" in str(exc) or "units on both sides of it are protected" in str(exc)
        return
    rep = r.report
    event(f"{dialect}: {'removed units' if rep['removed'] else 'nothing to remove'}")
    assert rep["tokens_after"] <= budget
    assert rep["tokens_before"] == total
    if clean:
        # (the dialect is named: a short output can be ambiguous, e.g. one Anthropic text message)
        assert not errors(r.output, target, dialect), (rep["removed"], r.data)
    # Output + report hold every input item, in order, and the output is a subsequence of the input.
    items_in = items_of(doc.root)
    items_out = items_of(r.data) if items_of_ok(r.data) else []
    back = {it["index"]: it["content"] for u in rep["removed"] for it in u["items"]}
    kept = [x for k, x in enumerate(items_in) if k not in back]
    assert kept == items_out
    assert all(back[k] == items_in[k] for k in back)
    # Whole units: no call id on both sides of the cut.
    assert not (ids_in(items_out) & ids_in(list(back.values())))
    # Idempotent: the output already fits.
    again = inspector.fit(r.output, budget, target, options, dialect=dialect)
    assert again.output == r.output and again.report["removed"] == []


def items_of_ok(data):
    try:
        return bool(find_transcripts(data))
    except inspector.InputError:
        return False


def _msgs(t, target):
    from inspector.dialects import dialect_of

    return dialect_of(t, None, target).read(t.items, t.path, [])


# Every registered dialect, the ones added later included, through its own clean sample
# (``Dialect.samples``): fit goes through the dialect protocol, so each gets the same invariants.
from inspector.dialects import all_dialects

SAMPLED = [d for d in all_dialects() if d.samples is not None]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLED), st.integers(0, 100), st.sampled_from(["drop-oldest", "drop-middle"]),
       st.booleans())
def test_every_registered_dialect_fits_its_clean_sample(d, percent, strategy, keep_system):
    sample = d.samples.clean
    text = json.dumps(sample)
    target = d.targets[0]
    assert not errors(text, target, d.name)
    doc = inspector.load(text)
    inspector.check(doc, target, dialect=d.name)
    total = sum(sum(count_messages([m.raw for m in _read(d, t)], counter_for(target))) for t in doc.transcripts)
    budget = total * percent // 100
    options = {"strategy": strategy, "keep_system": keep_system}
    event(d.name)
    try:
        r = inspector.fit(text, budget, target, options, dialect=d.name)
    except inspector.FitError:
        assert budget < total
        return
    assert r.report["tokens_after"] <= budget
    assert not errors(r.output, target, d.name), r.report["removed"]
    for n, t in enumerate(doc.transcripts):
        back = {it["index"]: it["content"] for u in r.report["removed"] if u["transcript"] == n for it in u["items"]}
        out_items = r.document.transcripts[n].items
        assert [x for k, x in enumerate(t.items) if k not in back] == out_items
    again = inspector.fit(r.output, budget, target, options, dialect=d.name)
    assert again.output == r.output and again.report["removed"] == []


def _read(d, t):
    return d.read(t.items, t.path, [])
