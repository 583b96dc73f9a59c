"""Loop detection (issue 38): real loops are found, legitimate repeats are left alone, and a
loop never makes a request rejected."""

from __future__ import annotations

import json

import pytest
from support import loop_shapes as shapes

import inspector
from inspector.checking import check_plain, verdict
from inspector.errors import InputError
from inspector.loops import LoopOptions, canonical_args, loop_options


def loops_of(messages, **kw) -> list[dict]:
    doc = inspector.load(json.dumps(messages).encode(), name="t.json")
    report, _ = check_plain(doc, loops=LoopOptions(**kw) if kw else None)
    return report["loops"]


def report_of(messages) -> dict:
    return check_plain(inspector.load(json.dumps(messages).encode(), name="t.json"))[0]


@pytest.mark.parametrize("shape", [shapes.rig_loop, shapes.anthropic_rig_loop])
def test_the_rig_shape_is_a_stuck_loop_caused_by_results_sent_as_user_text(shape):
    msgs = shape()
    (loop,) = loops_of(msgs)
    assert (loop["code"], loop["rule"], loop["tool"], loop["count"]) == ("LP002", "stuck_loop", "list_tables_tool", 6)
    assert loop["causes"] == ["TC020"]
    assert [c["message_index"] for c in loop["calls"]] == [1, 3, 5, 7, 9, 11]
    assert [c["result_index"] for c in loop["calls"]] == [2, 4, 6, 8, 10, 12]  # the user messages
    assert {c["result"] for c in loop["calls"]} == {"user_text"}
    assert loop["in_a_row"] and "list_tables_tool" in loop["text"] and "TC020" in loop["text"]
    # tokens: the twelve messages holding the calls and their answers, as fit counts them
    from inspector.tokens import count_messages, counter_for

    report = report_of(msgs)
    want = sum(count_messages(msgs[1:13], counter_for(report["target"])))
    assert loop["tokens"] == want > 0


def test_a_loop_is_never_a_rejection():
    msgs = shapes.same_result_loop()
    report = report_of(msgs)
    assert report["loops"] and not [f for f in report["findings"] if f["severity"] == "error"]
    assert "would accept" in verdict(report)


def test_same_result_every_time_and_arguments_compared_as_canonical_json():
    (loop,) = loops_of(shapes.same_result_loop())
    assert (loop["code"], loop["count"], loop["causes"]) == ("LP002", 4, ["same_result"])
    assert loop["arguments"] == '{"lines":40,"path":"src/app.py"}'
    assert canonical_args('{"b": 1, "a": [1, 2]}') == canonical_args({"a": [1, 2], "b": 1})
    # two spellings of one object, each recurring within the window: one loop of all four calls
    two = ('{"path": "src/app.py", "lines": 40}', '{"lines":40,"path":"src/app.py"}')
    (loop,) = loops_of(shapes.same_result_loop(4, two))
    assert (loop["count"], loop["in_a_row"]) == (4, True)


def test_object_arguments_in_any_key_order_are_one_repeat():
    msgs = shapes.anthropic_rig_loop(3)
    for k, m in enumerate(msgs[1:7:2]):
        m["content"][0]["input"] = {"schema": "public", "limit": 5} if k % 2 else {"limit": 5, "schema": "public"}
    (loop,) = loops_of(msgs)
    assert (loop["count"], loop["arguments"]) == (3, '{"limit":5,"schema":"public"}')


def test_an_error_every_time_is_a_stuck_loop():
    (loop,) = loops_of(shapes.error_loop())
    assert (loop["code"], loop["causes"]) == ("LP002", ["error"])


def test_results_missing_are_named_as_the_cause():
    msgs = [{"role": "user", "content": "go"}]
    for k in range(3):
        msgs += [shapes.call(f"call_{k}", "fetch", {"url": "https://x"}), {"role": "assistant", "content": "hm"}]
    (loop,) = loops_of(msgs)
    assert (loop["code"], loop["causes"], loop["in_a_row"]) == ("LP002", ["TC001"], True)


def test_a_poll_whose_results_change_is_no_loop():
    assert loops_of(shapes.job_poll()) == []


def test_a_paginated_search_is_no_repeat():
    assert loops_of(shapes.paginated_search()) == []


def test_a_retry_that_works_is_no_loop():
    msgs = shapes.error_loop(3)
    msgs.insert(-1, shapes.call("call_ok", "deploy", {"env": "prod"}))
    msgs.insert(-1, shapes.result("call_ok", "deployed"))
    assert loops_of(msgs) == []


def test_below_the_threshold_is_no_loop_and_thresholds_are_per_tool():
    assert loops_of(shapes.error_loop(2)) == []
    assert len(loops_of(shapes.error_loop(2), threshold=2)) == 1
    assert loops_of(shapes.rig_loop(), per_tool={"list_tables_tool": 7}) == []
    assert len(loops_of(shapes.rig_loop(), per_tool={"list_tables_tool": 6})) == 1


def test_an_allowed_tool_is_never_reported():
    assert loops_of(shapes.rig_loop(), allow=frozenset({"list_tables_tool"})) == []


def test_repeats_within_a_window_count_and_far_apart_ones_do_not():
    msgs = [{"role": "user", "content": "go"}]
    for k in range(3):
        msgs += [shapes.call(f"a{k}", "status", {}), shapes.result(f"a{k}", "same"),
                 shapes.call(f"b{k}", "ls", {"dir": str(k)}), shapes.result(f"b{k}", str(k))]
    (loop,) = loops_of(msgs)
    assert (loop["tool"], loop["count"], loop["in_a_row"]) == ("status", 3, False)
    assert loops_of(msgs, window=1) == []


def test_loop_options_from_what_a_user_typed():
    o = loop_options(["4", "poll=10"], ["job_status"], 5)
    assert (o.threshold, dict(o.per_tool), o.allow, o.window) == (4, {"poll": 10}, frozenset({"job_status"}), 5)
    assert hash(o) == hash(loop_options(["4", "poll=10"], ["job_status"], 5))  # the app caches by them
    assert o.threshold_for("job_status") is None and o.threshold_for("poll") == 10 and o.threshold_for("x") == 4
    for bad in (["x"], ["tool=1"], ["1"]):
        with pytest.raises(InputError):
            loop_options(bad)


def test_the_public_report_carries_loops():
    r = inspector.check(shapes.rig_loop())
    assert [(x.code, x.count, x.tool) for x in r.loops] == [("LP002", 6, "list_tables_tool")]
    assert r.ok is False or r.ok is True  # a loop does not decide ok
    assert r.ok == (not any(f.severity == "error" for f in r.findings))
