"""The change log is the truth (issue 34): replaying a report's changes on the input gives the output.

``tests/conftest.py`` replays every repair the suite makes; these tests pin the cases the issue
names and show that the replay is not a rubber stamp.
"""

from __future__ import annotations

import copy

from support.repair_log import check_result, replay

import inspector
from inspector import repairing
from inspector.reading import load

LEADING_CALL = {"contents": [
    {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}}]},
    {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp": 4}}}]},
    {"role": "model", "parts": [{"text": "It is 4 degrees in Oslo."}]},
]}


def test_a_gemini_join_that_joins_nothing_is_not_logged():
    """Before: four 'joined two messages of one role into one' changes, output equal to input."""
    fixed = inspector.repair(copy.deepcopy(LEADING_CALL), "gemini")
    joins = [c for c in fixed.report.changes if c.action == "merge_messages"]
    assert joins == []
    assert check_result(load(LEADING_CALL), fixed) == []
    if fixed.data == LEADING_CALL:
        assert fixed.report.changes == []


def test_a_repair_that_does_not_settle_names_the_rule_and_exits_one(monkeypatch, tmp_path):
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "user", "content": "and?"}]
    monkeypatch.setattr(repairing, "MAX_PASSES", 0)  # no pass after the first: the repair cannot settle
    fixed = inspector.repair(msgs, "openai")
    assert not fixed.report.ok
    [why] = [u for u in fixed.report.unfixed if "did not settle" in u]
    assert "TC001" in why
    # Its log lists only what the output shows.
    assert check_result(load(msgs), fixed) == []
    assert [c.action for c in fixed.report.changes] == ["insert_placeholder"]


def test_the_replay_finds_an_unlogged_edit_and_a_logged_change_the_output_lacks():
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "user", "content": "and?"}]
    fixed = inspector.repair(msgs, "openai")
    out = fixed.document.transcripts[0].items
    changes = fixed.report.changes
    assert replay(msgs, out, changes) == []
    assert replay(msgs, out, []) != []  # the placeholder is not in the log: found
    edited = [*out[:-1], {"role": "user", "content": "and? (edited)"}]
    assert replay(msgs, edited, changes) != []  # an edit the log does not name: found
    spurious = changes[0].model_copy(update={"index_before": 0, "index_after": 0, "action": "merge_messages"})
    assert replay(msgs, out, [*changes, spurious]) != []  # a change the output does not show: found
    assert replay(msgs, msgs, [changes[0]]) != []  # output equal to input, with a change logged: found


def test_renamed_ids_log_each_result_that_follows_its_call():
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_abc_123_long", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_abc_123_long", "content": "ok"}]
    fixed = inspector.repair(msgs, "mistral")
    actions = [(c.action, c.code, c.index_before, c.index_after) for c in fixed.report.changes]
    assert actions[:2] == [("rename_id", "TC009", 1, 1), ("follow_call_id", "TC009", 2, 2)]
    assert check_result(load(msgs), fixed) == []
