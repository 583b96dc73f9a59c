"""Hostile shapes the engine must handle in linear work (issue 22). Work is counted, not timed:
the tests count the steps a hint takes, and ``benchmarks/bench_hostile.py`` prints the times."""

from __future__ import annotations

import inspector
from inspector.check import analyse, dialects_for, findings_for


class _Counting(list):
    """A message list that counts how many messages are looked up by index."""

    reads = 0

    def __getitem__(self, k):
        got = super().__getitem__(k)
        type(self).reads += len(got) if isinstance(k, slice) else 1
        return got


def _orphan_run(n: int) -> list:
    return [{"role": "user", "content": "hi"}] + [
        {"role": "tool", "tool_call_id": f"x{i}", "content": "r"} for i in range(n)]


def _hint_reads(items: list) -> tuple[int, list[dict]]:
    doc = inspector.load(items)
    t = doc.transcripts[0]
    a = analyse(t, "openai", dialects_for(doc)[0])
    a.msgs = _Counting(a.msgs)
    _Counting.reads = 0
    found = findings_for(a, "openai")
    return _Counting.reads, found


def test_a_run_of_orphan_results_is_hinted_in_linear_work():
    # [user, tool(x0), tool(x1), ...]: each TC002's hint looked for its call block by walking back
    # over every result before it, once per finding: 20,000 took 7-11 s, 100,000 timed out.
    small, found_small = _hint_reads(_orphan_run(1_000))
    big, found_big = _hint_reads(_orphan_run(4_000))
    assert [f["code"] for f in found_big].count("TC002") == 4_000
    assert {f["hint"] for f in found_big} == {f["hint"] for f in found_small}  # the same hints as before
    assert big <= 8 * max(small, 1_000)  # 4x the messages: about 4x the reads, not 16x
    assert big <= 10 * 4_000


def test_the_relink_hint_is_unchanged_by_the_shared_walk():
    items = [{"role": "user", "content": "q"},
             {"role": "assistant", "content": None, "tool_calls": [
                 {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                 {"id": "b", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
             {"role": "tool", "tool_call_id": "a", "content": "1"},
             {"role": "tool", "tool_call_id": "zz", "content": "2"},
             {"role": "user", "content": "thanks"}]
    _, found = _hint_reads(items)
    by_code = {f["code"]: f["hint"] for f in found}
    assert "option relink" in by_code["TC002"] and "message #1" in by_code["TC002"]
    assert "option relink" in by_code["TC001"] and "#3" in by_code["TC001"]
