"""Property tests: valid transcripts give no errors; one corruption gives its code at the right index."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.transcripts import user, valid_transcripts

import inspector

TARGETS = ("openai", "deepseek", "mistral")


def found(msgs, target="openai"):
    return {(f.code, f.message_index) for f in inspector.check(msgs, target=target).findings}


def call_messages(msgs):
    return [i for i, m in enumerate(msgs) if m.get("tool_calls")]


def result_of(msgs, i):
    """Index of the first tool message after call message i."""
    return i + 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.sampled_from(TARGETS))
def test_valid_transcripts_have_no_errors(msgs, target):
    report = inspector.check(msgs, target=target)
    assert report.ok, [f.text for f in report.findings if f.severity == "error"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.data())
def test_dropped_result_is_tc001(msgs, data):
    i = data.draw(st.sampled_from(call_messages(msgs)))
    del msgs[result_of(msgs, i)]
    assert ("TC001", i) in found(msgs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.data())
def test_duplicated_result_is_tc005(msgs, data):
    i = data.draw(st.sampled_from(call_messages(msgs)))
    r = result_of(msgs, i)
    msgs.insert(r + 1, copy.deepcopy(msgs[r]))
    assert ("TC005", r + 1) in found(msgs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.data())
def test_result_moved_before_its_call_is_tc004(msgs, data):
    i = data.draw(st.sampled_from(call_messages(msgs)))
    moved = msgs.pop(result_of(msgs, i))
    msgs.insert(i, moved)  # now at index i, the call at i + 1
    got = found(msgs)
    assert ("TC004", i) in got
    assert not any(c == "TC001" and idx == i + 1 for c, idx in got)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.data())
def test_user_message_between_call_and_results_is_tc003(msgs, data):
    i = data.draw(st.sampled_from(call_messages(msgs)))
    msgs.insert(i + 1, user("interrupting"))
    got = found(msgs)
    assert ("TC003", i + 2) in got
    assert not any(c in ("TC001", "TC002") for c, _ in got)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.data())
def test_stripped_tool_calls_make_orphans(msgs, data):
    i = data.draw(st.sampled_from(call_messages(msgs)))
    del msgs[i]["tool_calls"]
    msgs[i]["content"] = ""
    assert ("TC002", i + 1) in found(msgs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.data())
def test_emptied_tool_calls_is_tc007(msgs, data):
    i = data.draw(st.sampled_from(call_messages(msgs)))
    msgs[i]["tool_calls"] = []
    got = found(msgs)
    assert ("TC007", i) in got and ("TC002", i + 1) in got


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_transcripts(), st.data())
def test_object_arguments_is_tc010(msgs, data):
    i = data.draw(st.sampled_from(call_messages(msgs)))
    msgs[i]["tool_calls"][0]["function"]["arguments"] = {"x": 1}
    assert ("TC010", i) in found(msgs)
