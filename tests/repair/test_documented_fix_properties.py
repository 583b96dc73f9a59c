"""The documented fixes of issue 34, on generated inputs (hypothesis).

- An Anthropic request body with system messages inside ``messages`` (0 to 3, anywhere), on a model
  that refuses them or with no model named, and a top-level ``system`` that is absent, a string or
  text blocks: repair folds every system message's text into the top-level ``system``, in order,
  after what it held; the output checks clean of system findings; the messages taken out are in the
  quarantine whole; the rest of the conversation is untouched; the change log replays.
- A Responses input whose encrypted reasoning items sit before calls of their own response or of
  another (API-shaped ids, ``responses.response_of``), or carry made-up ids: a reasoning item bound
  to another response's call (TC021 ``reasoning_binding``), and a call with an API-given id whose
  response's reasoning item is not there (``reasoning_dropped``), have no honest fix, so repair
  changes and drops nothing, says "not fixed" for each (exit 1), and the output re-checks to the
  same findings.
- Bedrock and Anthropic conversations whose messages carry fields of their own (``x_trace``,
  ``x_meta``), with unanswered calls (a placeholder result joined into the next user message) and
  results split over several user messages (joined back): every field of every input message is in
  the output or in the quarantine.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.repair_log import check_result

import inspector
from inspector.cli import main
from inspector.reading import load

SETTINGS: dict[str, Any] = {"max_examples": 60, "deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
WORDS = st.text(alphabet="abcdefghij klmnop.,!", min_size=1, max_size=12)


def _texts(value: Any) -> str:
    """A system value's text: a string, or its text blocks one after another."""
    if type(value) is str:
        return value
    if type(value) is list:
        return "\n\n".join(b["text"] for b in value)
    return ""


# --- 1. Anthropic: system messages folded into the top-level system ------------------------------

@st.composite
def bodies_with_system_messages(draw: st.DrawFn) -> tuple[dict[str, Any], list[str]]:
    """A valid text conversation with system messages put in at random places, and the texts the
    output's top-level ``system`` must hold, in order."""
    msgs: list[dict[str, Any]] = []
    for k in range(draw(st.integers(1, 4))):
        for role in ("user", "assistant"):
            text = f"{role} {k}: " + draw(WORDS)
            msgs.append({"role": role, "content": text if draw(st.booleans()) else [{"type": "text", "text": text}]})
    if draw(st.booleans()):
        msgs.pop()  # ends on a user message, or on an assistant reply
    expected: list[str] = []
    shape = draw(st.sampled_from(["absent", "string", "blocks"]))
    fields: dict[str, Any] = {}
    if shape == "string":
        fields["system"] = "base rule: " + draw(WORDS)
        expected.append(fields["system"])
    elif shape == "blocks":
        fields["system"] = [{"type": "text", "text": f"base block {j}: " + draw(WORDS)} for j in range(draw(st.integers(1, 2)))]
        expected += [b["text"] for b in fields["system"]]
    # At most as many system messages as others: a body mostly of roles a format does not have is
    # not read as that format (recognition.py), which is another promise.
    places = sorted(draw(st.lists(st.integers(0, len(msgs)), max_size=min(3, len(msgs)))))
    inserted: list[str] = []
    for n, at in enumerate(places):
        if draw(st.booleans()):  # a string content, or text blocks
            texts = [f"system note {n}: " + draw(WORDS)]
            content: Any = texts[0]
        else:
            texts = [f"system note {n}.{j}: " + draw(WORDS) for j in range(draw(st.integers(1, 2)))]
            content = [{"type": "text", "text": t} for t in texts]
        msgs.insert(at + n, {"role": "system", "content": content})  # + n: after the ones put in before it
        inserted += texts
    model = draw(st.sampled_from([None, "claude-sonnet-4-5", "claude-3-5-haiku-20241022", "deepseek-chat"]))
    body: dict[str, Any] = {"max_tokens": 512, **fields, "messages": msgs}
    if model is not None:
        body = {"model": model, **body}
    return body, expected + inserted


def _system_findings(value: Any) -> list[tuple[str, int, str]]:
    return [(f.code, f.message_index, f.text) for f in inspector.check(value, target="anthropic").findings
            if f.code in ("TC019", "TC024")]


@settings(**SETTINGS)
@given(bodies_with_system_messages())
def test_system_messages_fold_into_the_top_level_system_in_order_and_lose_nothing(case):
    body, texts = case
    before = copy.deepcopy(body)
    system_at = [i for i, m in enumerate(body["messages"]) if m["role"] == "system"]
    assert len(_system_findings(body)) == len(system_at)  # each one is reported
    fixed = inspector.repair(body, "anthropic")
    assert body == before  # the input is not mutated
    assert fixed.report.ok, fixed.report.unfixed
    after = inspector.check(fixed.output, target="anthropic")
    assert after.dialect == "anthropic"
    assert _system_findings(fixed.output) == []
    assert after.ok, [f.text for f in after.findings if f.severity == "error"]
    # Every system text is in the output's top-level system, in order, after what it held.
    held = _texts(fixed.data.get("system"))
    at = 0
    for t in texts:
        found = held.find(t, at)
        assert found >= 0, (t, held)
        at = found + len(t)
    # The other messages are the input's, untouched and in order; the system messages are in the
    # quarantine whole, each at its own index.
    assert fixed.data["messages"] == [m for m in body["messages"] if m["role"] != "system"]
    assert sorted((q.index, json.dumps(q.content)) for q in fixed.report.quarantine) == [
        (i, json.dumps(body["messages"][i])) for i in system_at]
    assert sorted(c.index_before for c in fixed.report.changes if c.action == "fold_system") == system_at
    # The body's other fields are as they were.
    assert {k: v for k, v in fixed.data.items() if k not in ("messages", "system")} == {
        k: v for k, v in body.items() if k not in ("messages", "system")}
    assert check_result(load(body), fixed) == []
    again = inspector.repair(fixed.output, "anthropic")
    assert again.report.changes == [] and again.output == fixed.output


# --- 2. Responses: encrypted reasoning bound to another response's call ---------------------------

KEYS = ("0a4d512680f81369", "07b27acff2b3b348", "68c1f0e2a9d3b711")


@st.composite
def responses_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """Rounds of [reasoning item] + function call + its output; the ids have the API's shape (the
    response's 16 hex digits, then the item's own) or are made up (``rs_3``)."""
    items: list[dict[str, Any]] = [{"role": "user", "content": "Weather in " + draw(WORDS) + "?"}]
    serial = 0

    def item_id(prefix: str, key: str | None) -> str:
        nonlocal serial
        serial += 1
        return f"{prefix}_{serial}" if key is None else f"{prefix}_{key}{serial:024x}"

    for r in range(draw(st.integers(1, 5))):
        key = draw(st.sampled_from(KEYS))  # the response of this round's reasoning
        # its call: of the same response, of another one (the binding broken), or with a made-up id
        call = draw(st.sampled_from(["other", "own", "made_up"]))
        call_key = {"own": key, "other": KEYS[(KEYS.index(key) + 1) % len(KEYS)], "made_up": None}[call]
        reasoning = draw(st.sampled_from(["api_id", "made_up_id", "none"]))
        if reasoning != "none":
            items.append({"type": "reasoning", "id": item_id("rs", key if reasoning == "api_id" else None), "summary": [],
                          "encrypted_content": "gAAAAB" + draw(st.text(alphabet="abcdefXYZ0123", min_size=8, max_size=20))})
        cid = f"call_{r}"
        items.append({"type": "function_call", "id": item_id("fc", call_key), "call_id": cid,
                      "name": "get_weather", "arguments": json.dumps({"city": draw(WORDS)})})
        items.append({"type": "function_call_output", "call_id": cid, "output": draw(WORDS)})
    return {"model": "gpt-5", "store": False, "include": ["reasoning.encrypted_content"], "input": items}


def _tc021(value: Any) -> list[tuple[str, int, int | None, str | None]]:
    return [(f.severity, f.message_index, f.other_index, f.provider_error)
            for f in inspector.check(value).findings if f.code == "TC021"]


def _repair_exit(body: dict[str, Any]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "body.json"
        path.write_text(json.dumps(body))
        return main(["repair", str(path), "-o", str(Path(tmp) / "out.json")])


def _expected_tc021(items: list[dict[str, Any]]) -> tuple[list[int], list[int]]:
    """The reasoning items before another response's call (``reasoning_binding``), and the calls
    with an API-given id and no reasoning item before them in their response (``reasoning_dropped``):
    read from the generated ids, not from the inspector."""
    bound, dropped = [], []
    kept = False  # a reasoning item in the response being read (the items since the last input item)
    for i, it in enumerate(items):
        kind = it.get("type")
        if kind == "reasoning":
            kept = True
            nxt = items[i + 1]
            if it["id"][3:19] in KEYS and nxt["id"][3:19] in KEYS and nxt["id"][3:19] != it["id"][3:19]:
                bound.append(i)
        elif kind == "function_call":
            if not kept and it["id"][3:19] in KEYS:
                dropped.append(i)
        else:
            kept = False
    return bound, dropped


@settings(**SETTINGS)
@given(responses_inputs())
def test_reasoning_bound_to_another_call_or_dropped_is_left_alone_and_said_not_fixed(body):
    bound, dropped = _expected_tc021(body["input"])
    before = _tc021(body)
    assert inspector.check(body).dialect == "openai-responses"
    assert sorted(i for (_, i, _, _) in before) == sorted(bound + dropped)
    fixed = inspector.repair(copy.deepcopy(body))
    # Nothing it cannot fix is changed or dropped: the reasoning items and calls are all there as they were.
    assert fixed.data == body
    assert fixed.report.changes == [] and fixed.report.quarantine == []
    assert _tc021(fixed.output) == before
    errors = [i for (severity, i, _, _) in before if severity == "error"]
    if not errors:
        assert fixed.report.ok and inspector.check(fixed.output).ok
        return
    assert set(bound) <= set(errors)
    assert not fixed.report.ok
    for i in errors:
        [why] = [u for u in fixed.report.unfixed if u.startswith(f"message #{i}: not fixed (TC021)")]
        assert "start the turn again" in why
        assert ("another response" in why) if i in bound else ("cannot recreate a reasoning item" in why)
    assert _repair_exit(body) == 1


# --- 3. Joined messages keep every field ----------------------------------------------------------

def _blocks(dialect: str) -> dict[str, Any]:
    if dialect == "bedrock":
        return {
            "text": lambda t: {"text": t},
            "call": lambda cid: {"toolUse": {"toolUseId": cid, "name": "lookup", "input": {}}},
            "result": lambda cid: {"toolResult": {"toolUseId": cid, "content": [{"text": "ok " + cid}]}},
        }
    return {
        "text": lambda t: {"type": "text", "text": t},
        "call": lambda cid: {"type": "tool_use", "id": cid, "name": "lookup", "input": {}},
        "result": lambda cid: {"type": "tool_result", "tool_use_id": cid, "content": "ok " + cid},
    }


@st.composite
def conversations_with_fields(draw: st.DrawFn, dialect: str) -> list[dict[str, Any]]:
    """Rounds of calls whose results are answered, split over user messages, or missing (a
    placeholder goes in), each message holding fields of its own, some of equal values."""
    b = _blocks(dialect)
    # A value of a message's own (so a lost one shows), or one other messages may hold too.
    shared = st.one_of(st.none(), st.sampled_from(["abc", "def"]), st.fixed_dictionaries({"n": st.integers(0, 1)}))
    fields = st.dictionaries(st.sampled_from(["x_trace", "x_meta"]), shared, max_size=2)
    serial = 0

    def message(role: str, content: list[Any]) -> dict[str, Any]:
        nonlocal serial
        serial += 1
        own = {k: f"{k}-{serial}" if v is None else v for k, v in draw(fields).items()}
        return {"role": role, "content": content, **own}

    msgs = [message("user", [b["text"]("start")])]
    n = 0
    for _ in range(draw(st.integers(1, 3))):
        ids = []
        for _ in range(draw(st.integers(1, 3))):
            n += 1
            ids.append(f"toolu_{n:04d}")
        msgs.append(message("assistant", [b["text"]("looking"), *(b["call"](c) for c in ids)]))
        answered = [c for c in ids if draw(st.booleans())]
        split = draw(st.booleans())
        if answered and split:
            msgs += [message("user", [b["result"](c)]) for c in answered]
        elif answered:
            msgs.append(message("user", [b["result"](c) for c in answered]))
        if draw(st.booleans()) or not answered:
            msgs.append(message("user", [b["text"]("next " + draw(WORDS))]))
        msgs.append(message("assistant", [b["text"]("reply")]))
    if draw(st.booleans()):
        msgs.pop()
    return msgs


@settings(**SETTINGS)
@given(st.sampled_from(["bedrock", "anthropic"]).flatmap(lambda d: st.tuples(st.just(d), conversations_with_fields(d))))
def test_joined_messages_keep_every_field_in_the_output_or_the_quarantine(case):
    dialect, msgs = case
    body = {"modelId": "anthropic.claude-3-5-sonnet", "messages": msgs} if dialect == "bedrock" else {
        "model": "claude-sonnet-4-5", "max_tokens": 512, "messages": msgs}
    before = copy.deepcopy(body)
    fixed = inspector.repair(body, dialect)
    assert body == before
    out = fixed.data["messages"]
    held = [q.content for q in fixed.report.quarantine if type(q.content) is dict]
    for i, m in enumerate(msgs):
        for key, value in m.items():
            if key in ("role", "content"):
                continue
            assert any(o.get(key) == value for o in out) or any(q.get(key) == value for q in held), (
                f"message #{i}'s {key}={value!r} is in neither the output nor the quarantine")
    for q in fixed.report.quarantine:
        if type(q.content) is dict and "role" in q.content:
            assert q.content == msgs[q.index]  # a whole message, exactly as it was
    after = inspector.check(fixed.output, target=dialect)
    assert after.dialect == dialect
    assert after.ok or fixed.report.unfixed, [f.text for f in after.findings if f.severity == "error"]
    assert check_result(load(body), fixed) == []
