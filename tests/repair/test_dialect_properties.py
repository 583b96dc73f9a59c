"""Repair invariants for every dialect with an editor, on generated transcripts with real breaks.

A valid conversation (``transcripts.valid_transcripts``) gets one corruption (a result dropped,
duplicated, moved past the reply, an orphan result), is written in the dialect, and repaired.
The output must be in the same dialect, accepted by the default target (or the report says why
not), keep every string of the input (in the output or the report), and be left alone by a
second repair.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.dialect_asserts import strings
from support.dialect_writers import LOG_WRITERS, WRITERS, as_text, broken_chats
from support.transcripts import valid_transcripts

import inspector


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_chats(), st.sampled_from(sorted(WRITERS)))
def test_repair_keeps_the_dialect_fixes_and_loses_nothing(chat, dialect):
    data = WRITERS[dialect](chat)
    text = as_text(data, dialect)
    assert inspector.check(text).dialect == dialect
    fixed = inspector.repair(text)
    after = inspector.check(fixed.output)
    assert after.dialect == dialect
    assert after.ok or fixed.report.unfixed, [f.text for f in after.findings if f.severity == "error"]
    lost = strings(data) - (strings(fixed.data) | strings(fixed.report.model_dump()))
    assert not lost, lost
    again = inspector.repair(fixed.output)
    assert again.output == fixed.output, [c.text for c in again.report.changes]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(max_rounds=4), st.sampled_from(["anthropic", "bedrock", "gemini"]), st.data())
def test_split_results_and_text_first_are_joined_back(chat, dialect, data):
    doc = WRITERS[dialect](chat)
    key = "contents" if dialect == "gemini" else "messages"
    blocks = "parts" if dialect == "gemini" else "content"
    msgs = doc[key]
    with_results = [k for k, m in enumerate(msgs) if m["role"] == "user" and isinstance(m[blocks], list)
                    and any(not ("text" in b or b.get("type") == "text") for b in m[blocks])]
    k = data.draw(st.sampled_from(with_results))
    parts = msgs[k][blocks]
    split = len(parts) > 1 and data.draw(st.booleans())
    if split:
        msgs[k:k + 1] = [{"role": "user", blocks: parts[:1]}, {"role": "user", blocks: parts[1:]}]
    else:
        text = {"type": "text", "text": "note first"} if dialect == "anthropic" else {"text": "note first"}
        msgs[k] = {"role": "user", blocks: [text, *parts]}
    before = inspector.check(doc)
    pairs_in = sum(a["role"] == b["role"] for a, b in itertools.pairwise(msgs))
    if dialect == "anthropic" and split:
        # The Messages API combines the two user messages into one turn: nothing to refuse, nothing to join.
        assert before.ok, [f.text for f in before.findings if f.severity == "error"]
        assert inspector.repair(doc).report.changes == []
        return
    assert not before.ok or dialect == "gemini"
    fixed = inspector.repair(doc)
    assert inspector.check(fixed.output).ok, fixed.report.unfixed
    lost = strings(doc) - (strings(fixed.data) | strings(fixed.report.model_dump()))
    assert not lost, lost
    roles = [m["role"] for m in fixed.data[key]]
    if dialect == "anthropic":  # messages of one role the input already had in a row stay apart (the API combines them)
        assert sum(a == b for a, b in itertools.pairwise(roles)) <= pairs_in, roles
    else:
        assert all(a != b for a, b in itertools.pairwise(roles)), roles  # joined back: roles alternate


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_chats(), st.sampled_from(sorted(LOG_WRITERS)))
def test_the_change_log_replays_to_the_output_in_every_dialect(chat, dialect):
    """Issue 34: the report's changes, replayed on the input, give the output (support/repair_log.py),
    the session logs of Codex CLI and Gemini CLI included."""
    from support.repair_log import check_result

    from inspector.reading import load

    text = as_text(LOG_WRITERS[dialect](chat), dialect)
    assert inspector.check(text).dialect == dialect
    fixed = inspector.repair(text)
    assert check_result(load(text), fixed) == []


def _call_blocks(msgs, dialect):
    key = "parts" if dialect == "gemini" else "content"
    out = []
    for k, m in enumerate(msgs):
        for j, b in enumerate(m[key] if isinstance(m[key], list) else []):
            inner = b.get("toolUse") or b.get("functionCall") or (b if b.get("type") == "tool_use" else None)
            if inner is not None:
                out.append((k, j, inner))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(max_rounds=4), st.sampled_from(["anthropic", "bedrock", "gemini"]),
       st.sampled_from(["reuse_id", "empty_text", "leading_call", "lost_signature"]), st.data())
def test_the_documented_fixes_in_block_dialects(chat, dialect, how, data):
    """Issue 34: ids reused across messages, empty text blocks, a leading function call and a lost
    Gemini signature, written in the dialect: the repair checks clean, keeps every string, and
    repairing it again changes nothing (its log replays: tests/conftest.py)."""
    doc = WRITERS[dialect](chat)
    key = "contents" if dialect == "gemini" else "messages"
    blocks = "parts" if dialect == "gemini" else "content"
    msgs = doc[key]
    calls = _call_blocks(msgs, dialect)
    if how == "reuse_id" and dialect != "gemini" and len({k for k, _, _ in calls}) > 1:
        first = calls[0][2]
        k, _, later = next(c for c in calls if c[0] != calls[0][0])
        old = later.get("id") or later.get("toolUseId")
        field = "toolUseId" if "toolUseId" in later else "id"
        new_id = first[field]
        later[field] = new_id
        for m in msgs[k + 1:k + 2]:
            for b in m[blocks]:
                r = b.get("toolResult") if "toolResult" in b else b
                if r.get("toolUseId") == old or r.get("tool_use_id") == old:
                    r["toolUseId" if "toolUseId" in r else "tool_use_id"] = new_id
    elif how == "empty_text" and dialect != "gemini":
        users = [k for k, m in enumerate(msgs) if m["role"] == "user"]
        k = data.draw(st.sampled_from(users))
        if isinstance(msgs[k][blocks], str):
            msgs[k][blocks] = [{"type": "text", "text": msgs[k][blocks]}]
        msgs[k][blocks].append({"type": "text", "text": ""} if dialect == "anthropic" else {"text": ""})
    elif how == "leading_call" and dialect == "gemini":
        start = next((k for k, m in enumerate(msgs) if m["role"] == "model" and any("functionCall" in p for p in m["parts"])), None)
        if start is None or any("text" in p for p in msgs[start]["parts"]):
            return
        del msgs[:start]
    elif how == "lost_signature" and dialect == "gemini":
        models = [m for m in msgs if m["role"] == "model"]
        models[0]["parts"].insert(0, {"text": "thinking", "thoughtSignature": "c2ln"})
    else:
        return
    before = inspector.check(doc)
    fixed = inspector.repair(doc)
    after = inspector.check(fixed.output)
    assert after.dialect == before.dialect == dialect
    assert after.ok and fixed.report.ok, ([f.text for f in after.findings if f.severity == "error"], fixed.report.unfixed)
    lost = strings(doc) - (strings(fixed.data) | strings(fixed.report.model_dump()))
    assert not lost, lost
    assert inspector.repair(fixed.output).report.changes == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_chats(), st.sampled_from(["codex", "gemini-cli"]))
def test_the_change_log_replays_in_the_session_logs_repair_appends_to(chat, dialect):
    """Issue 34: a Gemini CLI repair adds a result by appending its record again (the input's line
    stays as it was), and logs it at the appended line; a join the session cannot hold is not
    logged, and the report says the log was left as it was. Codex rollouts likewise replay."""
    from support.repair_log import check_result

    from inspector.reading import load

    text = as_text(LOG_WRITERS[dialect](chat), dialect)
    fixed = inspector.repair(text)
    assert check_result(load(text), fixed) == []
    if fixed.output == text.encode() or fixed.output == text:
        assert fixed.report.changes == []
