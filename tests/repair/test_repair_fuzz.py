"""Repair never crashes on odd input: any message list either repairs or is an ``InputError``.

The messages here are not built to be valid: roles, ids, contents and call shapes are drawn at
random, including the shapes of real log formats (Inspect AI calls, SWE-agent ``tool_call_ids``,
legacy ``function_call``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import inspector
from inspector import InputError
from inspector.errors import NothingToCheck

ids = st.one_of(st.none(), st.just(""), st.just("null"), st.sampled_from(["a", "b", "c", "call_1", "x" * 50]),
                st.integers(0, 3))
names = st.one_of(st.none(), st.just(""), st.sampled_from(["f", "g", "bad name!"]))
contents = st.one_of(st.none(), st.text(max_size=8), st.just([{"type": "text", "text": "t"}]),
                     st.just([{"type": "image_url", "image_url": {"url": "u"}}]), st.integers(), st.just({"k": 1}))
arguments = st.one_of(st.none(), st.just("{}"), st.just("{bad"), st.just({"a": 1}), st.just([1]))
calls = st.one_of(
    st.fixed_dictionaries({"id": ids, "type": st.just("function"),
                           "function": st.fixed_dictionaries({"name": names, "arguments": arguments})}),
    st.fixed_dictionaries({"id": ids, "function": names, "arguments": arguments}),  # Inspect AI
    st.fixed_dictionaries({"id": ids}),
)
messages = st.one_of(
    st.fixed_dictionaries({"role": st.sampled_from(["user", "system", "developer", "observation"]), "content": contents}),
    st.fixed_dictionaries({"role": st.just("assistant"), "content": contents},
                          optional={"tool_calls": st.lists(calls, max_size=3),
                                    "function_call": st.fixed_dictionaries({"name": names, "arguments": arguments})}),
    st.fixed_dictionaries({"role": st.just("tool"), "content": contents},
                          optional={"tool_call_id": ids, "name": names, "tool_call_ids": st.lists(ids, max_size=2)}),
    st.fixed_dictionaries({"role": st.just("function"), "content": contents}, optional={"name": names}),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages, max_size=10), st.sampled_from(["openai", "deepseek", "mistral"]),
       st.sampled_from([{}, {"orphan": "note", "missing": "remove_call", "pending": "close", "user_as_result": True},
                        {"duplicate": "first", "rename_ids": False, "unknown_role": "keep", "orphan": "keep"}]))
def test_repair_answers_every_message_list(msgs, target, options):
    try:
        result = inspector.repair(msgs, target=target, options=options)
    except InputError:
        return
    report = result.report
    # What is not fixed is said, and a report that says ok is a transcript the target accepts.
    assert report.ok == (not report.unfixed)
    if report.ok:
        assert inspector.check(result.output, target=target).ok
    if not result.document.transcripts[0].items:
        # Every message went to the quarantine: "not fixed", said (issue 31: no provider accepts a
        # request without messages), and the empty output is refused by every door, repair too.
        assert not report.ok and any("leave no message" in u for u in report.unfixed), report.unfixed
        with pytest.raises(NothingToCheck):
            inspector.repair(result.output, target=target, options=options)
        return
    again = inspector.repair(result.output, target=target, options=options)
    assert again.output == result.output  # idempotent, fixed or not
