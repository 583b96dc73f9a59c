"""Repair's promises, on valid transcripts broken at random (hypothesis).

For every openai-chat target: the output checks without errors, repairing it again changes
nothing, the same input gives the same bytes, every string of the input is in the output or the
report, the input is not mutated, and two independent validators agree: mistral-common's own
request validator (serving mode, tokenizer v11 and v13) for ``mistral``, turnsafe's for ``openai``.
"""

from __future__ import annotations

import copy
import json

import orjson
import turnsafe
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.transcripts import call, user, valid_transcripts
from support.validators import mistral_accepts

import inspector

TARGETS = ("openai", "deepseek", "mistral")
SETTINGS = {"max_examples": 80, "deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


# --- corruptions ------------------------------------------------------------------------------

def _calls(msgs):
    return [i for i, m in enumerate(msgs) if m.get("role") == "assistant" and m.get("tool_calls")]


def _results(msgs):
    return [i for i, m in enumerate(msgs) if m.get("role") == "tool"]


def corrupt(msgs: list, kind: str, k: int, text: str) -> None:
    """Apply one corruption in place; ``k`` picks the message it hits."""
    calls, results = _calls(msgs), _results(msgs)
    if kind == "drop_result" and results:
        del msgs[results[k % len(results)]]
    elif kind == "duplicate_result" and results:
        r = results[k % len(results)]
        msgs.insert(r + 1 + k % 2, copy.deepcopy(msgs[r]))
    elif kind == "differing_duplicate" and results:
        r = results[k % len(results)]
        msgs.insert(r + 1, {**msgs[r], "content": text or "retry"})
    elif kind == "result_before_call" and results:
        r = results[k % len(results)]
        earlier = [i for i in calls if i < r]
        if earlier:
            msgs.insert(earlier[-1], msgs.pop(r))
    elif kind == "user_between" and calls:
        msgs.insert(calls[k % len(calls)] + 1, user(text or "interrupting"))
    elif kind == "system_between" and calls:
        msgs.insert(calls[k % len(calls)] + 1, {"role": "system", "content": "notice: " + text})
    elif kind == "strip_tool_calls" and calls:
        i = calls[k % len(calls)]
        del msgs[i]["tool_calls"]
    elif kind == "empty_tool_calls" and calls:
        i = calls[k % len(calls)]
        msgs[i]["tool_calls"] = []
    elif kind == "object_arguments" and calls:
        i = calls[k % len(calls)]
        msgs[i]["tool_calls"][0]["function"]["arguments"] = {"q": text, "n": k}
    elif kind == "unknown_role":
        msgs.insert(k % (len(msgs) + 1), {"role": "observation", "content": text or "obs"})
    elif kind == "null_content":
        i = k % len(msgs)
        msgs[i]["content"] = None
    elif kind == "long_ids" and calls:
        i = calls[k % len(calls)]
        for c in msgs[i]["tool_calls"]:
            old = c["id"]
            if not old:
                continue  # a stream fragment's empty id stays empty
            c["id"] = "call_" + old * 5 + "_x"
            for m in msgs:
                if m.get("tool_call_id") == old:
                    m["tool_call_id"] = c["id"]
    elif kind == "orphan_result":
        msgs.insert(k % (len(msgs) + 1), {"role": "tool", "tool_call_id": f"ghost{k}", "content": text})
    elif kind == "duplicate_call_id" and calls:
        i = calls[k % len(calls)]
        tc = msgs[i]["tool_calls"]
        tc.append({**copy.deepcopy(tc[0]), "function": {"name": "search_web", "arguments": "{}"}})
    elif kind == "drop_call_message" and calls:
        del msgs[calls[k % len(calls)]]
    elif kind == "namespace_name" and calls:  # a parser left its namespace on the name (issue 34)
        fn = msgs[calls[k % len(calls)]]["tool_calls"][0]["function"]
        fn["name"] = "functions." + fn["name"]
    elif kind == "stream_fragment" and calls:  # a streaming accumulator's leftover (issue 34)
        msgs[calls[k % len(calls)]]["tool_calls"].append(
            {"id": "", "type": "function", "function": {"name": "", "arguments": '"}' + text}})
    elif kind == "rewrite_result_id" and results:
        msgs[results[k % len(results)]]["tool_call_id"] = f"rw{k}"  # a proxy rewrote it (relink)


KINDS = ("drop_result", "duplicate_result", "differing_duplicate", "result_before_call", "user_between",
         "system_between", "strip_tool_calls", "empty_tool_calls", "object_arguments", "unknown_role",
         "null_content", "long_ids", "orphan_result", "duplicate_call_id", "drop_call_message", "rewrite_result_id",
         "namespace_name", "stream_fragment")


@st.composite
def broken_transcripts(draw, end_with_user: bool = False):
    msgs = draw(valid_transcripts())
    if end_with_user and msgs[-1]["role"] != "user":
        msgs.append(user("next question"))
    tail = [msgs.pop()] if end_with_user else []
    for _ in range(draw(st.integers(1, 3))):
        corrupt(msgs, draw(st.sampled_from(KINDS)), draw(st.integers(0, 50)), draw(st.text(max_size=12)))
    return msgs + tail


# --- helpers ----------------------------------------------------------------------------------

def strings(value, out=None) -> set:
    """Every string value in ``value`` (keys are structure), and the strings inside strings holding JSON."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
        if value[:1] in ("{", "["):
            try:
                strings(json.loads(value), out)
            except ValueError:
                pass
    elif isinstance(value, dict):
        for v in value.values():
            strings(v, out)
    elif isinstance(value, list):
        for v in value:
            strings(v, out)
    return out


# --- properties -------------------------------------------------------------------------------

@settings(**SETTINGS)
@given(broken_transcripts(), st.sampled_from(TARGETS))
def test_repaired_output_checks_without_errors(msgs, target):
    result = inspector.repair(msgs, target=target)
    after = inspector.check(result.output, target=target)
    assert after.ok, [f.text for f in after.findings if f.severity == "error"]
    assert result.report.findings_after["error"] == 0


@settings(**SETTINGS)
@given(broken_transcripts(), st.sampled_from(TARGETS))
def test_repair_is_idempotent_and_deterministic(msgs, target):
    first = inspector.repair(msgs, target=target)
    again = inspector.repair(copy.deepcopy(msgs), target=target)
    assert again.output == first.output
    assert again.report.model_dump_json() == first.report.model_dump_json()
    second = inspector.repair(first.output, target=target)
    assert second.output == first.output
    assert second.report.changes == []


@settings(**SETTINGS)
@given(broken_transcripts(), st.sampled_from(TARGETS), st.sampled_from(("quarantine", "note")),
       st.sampled_from(("placeholder", "remove_call")))
def test_repair_loses_no_string_and_leaves_the_input_alone(msgs, target, orphan, missing):
    before = copy.deepcopy(msgs)
    result = inspector.repair(msgs, target=target, options={"orphan": orphan, "missing": missing})
    assert msgs == before
    kept = strings(orjson.loads(result.output)) | strings(result.report.model_dump(mode="json"))
    lost = strings(before) - kept
    assert not lost


@settings(**SETTINGS)
@given(valid_transcripts(), st.sampled_from(TARGETS))
def test_a_clean_transcript_comes_back_unchanged(msgs, target):
    if target == "mistral":
        pass  # valid_transcripts uses 9-character ids, which Mistral accepts
    data = orjson.dumps(msgs)
    result = inspector.repair(data, target=target)
    assert result.output == data
    assert result.report.changes == [] and result.report.quarantine == []
    assert inspector.repair(msgs, target=target).data == msgs


CHOICES = st.sampled_from([{}, {"orphan": "note", "missing": "remove_call"}, {"duplicate": "first", "orphan": "note"}])


@settings(**SETTINGS)
@given(broken_transcripts(end_with_user=True), CHOICES)
def test_mistral_common_accepts_the_repair_for_mistral(msgs, choices):
    result = inspector.repair(msgs, target="mistral", options={"pending": "close", **choices})
    assert result.report.ok, result.report.unfixed
    mistral_accepts(result.data)


@settings(**SETTINGS)
@given(broken_transcripts(), CHOICES)
def test_turnsafe_finds_no_tool_call_error_in_the_repair_for_openai(msgs, choices):
    result = inspector.repair(msgs, target="openai", options={"pending": "close", **choices})
    report = turnsafe.validate(result.data, provider="openai")
    assert not report.errors, [str(v) for v in report.errors]


def test_mistral_common_refuses_what_repair_fixes():
    """The validator used above is not a rubber stamp: it refuses the unrepaired input."""
    import pytest
    from mistral_common.exceptions import MistralCommonException

    msgs = [user("q"), {"role": "assistant", "content": None, "tool_calls": [call("call_1_too_long")]},
            user("again")]
    with pytest.raises(MistralCommonException):
        mistral_accepts(msgs)
    mistral_accepts(inspector.repair(msgs, target="mistral").data)


# Changes that move a whole message or take one out (into the quarantine, or as a duplicate).
MOVES = frozenset({"move_message", "move_result", "quarantine_message", "quarantine_orphan", "remove_duplicate"})


# The destinations an OpenAI-format history reaches through a gateway (LiteLLM, OpenRouter): the
# destination's rules on the gateway's translation, each finding placed on the file's own message.
GATEWAY_TARGETS = ("anthropic", "bedrock", "gemini")
GATEWAY_MODELS = {"anthropic": "anthropic/claude-sonnet-4-5", "bedrock": "bedrock/us.anthropic.claude-sonnet-4-5",
                  "gemini": "gemini/gemini-2.5-pro"}


# User text between an assistant's calls and their results: the gateway sends the text and the
# results in one user message (TC016 there), and repair moves every result before the text.
USER_BETWEEN = [user("q"), {"role": "assistant", "content": None, "tool_calls": [call("call_a"), call("call_b")]},
                user("interrupting"), {"role": "tool", "tool_call_id": "call_a", "content": "ra"},
                {"role": "tool", "tool_call_id": "call_b", "content": "rb"}, {"role": "assistant", "content": "done"}]


@settings(**SETTINGS)
@given(broken_transcripts(), st.sampled_from(TARGETS + GATEWAY_TARGETS), st.booleans())
@example(USER_BETWEEN, "anthropic", False)
@example(USER_BETWEEN, "bedrock", True)
@example(USER_BETWEEN, "gemini", True)
def test_repair_never_moves_or_quarantines_a_message_the_check_does_not_report(msgs, target, named):
    # Issue 31: repair acts only on what check reports (errors and warnings, for this target): a
    # message repair moves or takes out is the subject or the other end of such a finding. Through
    # a gateway too: the target given, or picked from the request's model (``named``).
    named = named and target in GATEWAY_MODELS
    if named:
        msgs, target = {"model": GATEWAY_MODELS[target], "messages": copy.deepcopy(msgs)}, None
    report = inspector.check(msgs, target=target)
    if named:
        assert "through a gateway" in report.target_reason, report.target_reason
    reported = {i for f in report.findings if f.severity in ("error", "warning")
                for i in (f.message_index, f.other_index) if i is not None}
    result = inspector.repair(msgs, target=target)
    moved = {c.index_before for c in result.report.changes if c.action in MOVES and c.index_before is not None}
    taken = {q.index for q in result.report.quarantine}
    assert moved | taken <= reported, (sorted(moved | taken), sorted(reported))


def test_repair_leaves_a_note_it_does_not_act_on():
    # a harness's exit record in a log is a note (TC024 info): repair leaves it, and the file, alone
    msgs = [user("go"), {"role": "assistant", "content": "done"}, {"role": "exit", "content": "", "extra": {
        "exit_status": "Submitted"}}]
    assert [(f.code, f.severity) for f in inspector.check(msgs).findings] == [("TC024", "info")]
    fixed = inspector.repair(msgs)
    assert fixed.report.quarantine == [] and fixed.report.changes == [] and fixed.data == msgs


@settings(**SETTINGS)
@given(broken_transcripts(), st.sampled_from(TARGETS), CHOICES)
def test_the_change_log_replays_to_the_output(msgs, target, choices):
    """Issue 34: the report's changes, replayed on the input, give the output (support/repair_log.py)."""
    from support.repair_log import replay

    result = inspector.repair(msgs, target=target, options=choices)
    assert replay(msgs, orjson.loads(result.output), result.report.changes) == []


@settings(**SETTINGS)
@given(broken_transcripts(), st.sampled_from(TARGETS), CHOICES, st.data())
def test_the_change_log_replay_checks_the_values_and_finds_an_unlogged_edit(msgs, target, choices, data):
    """Issue 34: the values of the output are the input's, edited only as the log says; a string
    changed in any item of the output, one a change names included, fails the replay."""
    from support.repair_log import WRITES, replay, values

    result = inspector.repair(msgs, target=target, options=choices)
    out = orjson.loads(result.output)
    changes, held = result.report.changes, result.report.quarantine
    assert values(msgs, out, changes, held) == []
    # Items repair wrote whole (a placeholder, a bridge, a note) may hold any text; the others are
    # the input's, edited as the log says.
    written = {c.index_after for c in changes if c.index_before is None or c.action in WRITES
               or c.action.startswith(("insert", "orphan_to", "user_to"))}
    spots = [(k, path) for k, item in enumerate(out) if k not in written for path in _string_paths(item)]
    if not spots:
        return
    k, path = data.draw(st.sampled_from(spots))
    edited = copy.deepcopy(out)
    holder = edited[k]
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = holder[path[-1]] + " (edited by hand)"
    assert replay(msgs, edited, changes) + values(msgs, edited, changes, held) != []


def _string_paths(value, path=()):
    if isinstance(value, dict):
        for key, v in value.items():
            yield from _string_paths(v, (*path, key))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _string_paths(v, (*path, i))
    elif isinstance(value, str) and path:
        yield path


@settings(**SETTINGS)
@given(broken_transcripts(end_with_user=True), CHOICES)
def test_mistral_common_accepts_the_repair_of_a_request_ending_on_calls(msgs, choices):
    """Issue 34: by default the trailing unanswered calls go to the quarantine, and Mistral takes the rest."""
    msgs.append({"role": "assistant", "content": None, "tool_calls": [call("abcdefghi")]})
    result = inspector.repair(msgs, target="mistral", options=choices)
    assert result.report.ok, result.report.unfixed
    mistral_accepts(result.data)
