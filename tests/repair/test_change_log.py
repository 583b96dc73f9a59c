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


def test_the_replay_checks_the_values_of_an_edit_not_only_its_place():
    """An edit beyond what the log names, inside an item a change names, fails (issue 34)."""
    from support.repair_log import values

    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_abc_123_long", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_abc_123_long", "content": "ok"}]
    fixed = inspector.repair(copy.deepcopy(msgs), "mistral")
    out = fixed.document.transcripts[0].items
    changes, held = fixed.report.changes, fixed.report.quarantine
    assert values(msgs, out, changes, held) == []
    # The renamed call's message, with its tool's name changed too: the rename does not say so.
    renamed = copy.deepcopy(out)
    renamed[1]["tool_calls"][0]["function"]["name"] = "g"
    assert replay(msgs, renamed, changes) == []  # the places match...
    assert values(msgs, renamed, changes, held) != []  # ...the values do not
    # The result, with its content dropped as well as its id renamed.
    dropped = copy.deepcopy(out)
    dropped[2]["content"] = ""
    assert values(msgs, dropped, changes, held) != []


def test_a_moved_item_is_the_input_item_as_it_was():
    from support.repair_log import values

    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "user", "content": "and?"},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]
    fixed = inspector.repair(copy.deepcopy(msgs), "openai")
    out = fixed.document.transcripts[0].items
    changes = fixed.report.changes
    assert [c.action for c in changes] == ["move_result"] and replay(msgs, out, changes) == []
    edited = copy.deepcopy(out)
    edited[2]["content"] = "ok, edited"
    assert replay(msgs, edited, changes) == []  # in its place...
    assert values(msgs, edited, changes, fixed.report.quarantine) != []  # ...but not as it was


def test_a_claude_code_relink_is_logged_at_the_entry_it_changed():
    """Before: logged at the first entry of the user message the result shares with another."""
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_claude_code_logs import asst, bash, jsonl, result, text, user

    entries = [user("u1", None, "run two things", 1),
               asst("a1", "u1", "msg_1", [bash("toolu_A", "ls")], 2),
               asst("a2", "a1", "msg_1", [bash("toolu_B", "pwd")], 3),
               result("toolu_A", "f.txt", "r1", "a2", 4),
               result("toolu_rewritten_by_proxy", "/home", "r2", "r1", 5),
               text("a3", "r2", "msg_2", "done", 6)]
    data = jsonl(entries)
    fixed = inspector.repair(data)
    [c] = fixed.report.changes
    assert (c.action, c.index_before, c.index_after) == ("relink_result", 4, 4)
    out = [json.loads(x) for x in fixed.output.splitlines()]
    assert [k for k, (a, b) in enumerate(zip(entries, out)) if a != b] == [4]
    assert check_result(load(data), fixed) == []


# The stored hypothesis example of tests/repair/test_repair_fuzz.py (r42): an id-less tool result
# pairs with a nameless legacy ``function_call`` (a stream fragment), so the first pass answers
# both tool calls with placeholders; the ids it gives make the fragment one the next pass takes
# out, and the pass after that pairs the result with call 0, whose placeholder becomes a duplicate
# and is taken out again.
FRAGMENT_ANSWERED = [
    {"role": "assistant", "content": None,
     "tool_calls": [{"id": None, "type": "function", "function": {"name": "", "arguments": None}},
                    {"id": None, "function": "f", "arguments": None}],
     "function_call": {"name": None, "arguments": "{bad"}},
    {"role": "tool", "content": None},
]


def test_a_placeholder_a_later_pass_takes_out_again_leaves_the_log():
    """Before: the log kept 'insert_placeholder' for call 0 and a 'quarantine_duplicate' of that
    placeholder, both naming an item in neither the input nor the output, and the quarantine held
    repair's own placeholder under index 2, an input index that does not exist."""
    msgs = copy.deepcopy(FRAGMENT_ANSWERED)
    fixed = inspector.repair(msgs, "openai", options={"duplicate": "first", "rename_ids": False,
                                                      "unknown_role": "keep", "orphan": "keep"})
    assert check_result(load(FRAGMENT_ANSWERED), fixed) == []
    assert replay(FRAGMENT_ANSWERED, fixed.data, fixed.report.changes) == []
    # The input's result answers call 0; the placeholder repair wrote for it is gone, and so is
    # its insertion from the log: only call 1 keeps one.
    call0 = fixed.data[0]["tool_calls"][0]["id"]
    assert fixed.data[1] == {"role": "tool", "content": "", "tool_call_id": call0}
    inserted = [c.tool_call_id for c in fixed.report.changes if c.action == "insert_placeholder"]
    assert inserted == [fixed.data[0]["tool_calls"][1]["id"]]
    # The quarantine holds input data, at input indexes: the fragment, not a placeholder.
    assert [(q.index, q.code, q.content) for q in fixed.report.quarantine] == [
        (0, "TC012", {"name": None, "arguments": "{bad"})]


def test_a_placeholder_an_earlier_pass_wrote_is_never_kept_over_the_inputs_own_result():
    """Default options (``duplicate="real"``): once a later pass frees the input's result for call
    0, that result, empty as it is, answers the call. Before, repair kept its own placeholder ("No
    result was recorded", which is untrue) and took the input's result out into the quarantine as
    "a differing extra result"."""
    msgs = copy.deepcopy(FRAGMENT_ANSWERED)
    fixed = inspector.repair(msgs, "openai")
    assert check_result(load(FRAGMENT_ANSWERED), fixed) == []
    assert replay(FRAGMENT_ANSWERED, fixed.data, fixed.report.changes) == []
    call0, call1 = (c["id"] for c in fixed.data[0]["tool_calls"])
    assert fixed.data[1] == {"role": "tool", "content": "", "tool_call_id": call0}
    assert [c.tool_call_id for c in fixed.report.changes if c.action == "insert_placeholder"] == [call1]
    assert not [c for c in fixed.report.changes if c.action == "quarantine_duplicate"]
    assert [(q.index, q.code) for q in fixed.report.quarantine] == [(0, "TC012")]
