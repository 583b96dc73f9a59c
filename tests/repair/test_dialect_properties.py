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
from support.dialect_writers import WRITERS, as_text, broken_chats
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
@given(broken_chats(), st.sampled_from(sorted(WRITERS)))
def test_the_change_log_replays_to_the_output_in_every_dialect(chat, dialect):
    """Issue 34: the report's changes, replayed on the input, give the output (support/repair_log.py)."""
    from support.repair_log import check_result

    from inspector.reading import load

    text = as_text(WRITERS[dialect](chat), dialect)
    fixed = inspector.repair(text)
    assert check_result(load(text), fixed) == []
