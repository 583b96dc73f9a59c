"""Hostile shapes the engine must handle in linear work (issue 22). Work is counted, not timed:
the tests count the steps a hint takes, and ``benchmarks/bench_hostile.py`` prints the times."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector.checking import analyse, dialects_for, findings_for


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


# --- repair's texts cannot blow up the output (issue 22) -------------------------------------------

def _missing_results(n: int, name: str = "t" * 150) -> bytes:
    msgs = [{"role": "user", "content": "go"}]
    for i in range(n):
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": "{}"}}]})
        msgs.append({"role": "user", "content": "next"})
    return json.dumps(msgs).encode()


def test_a_placeholder_that_would_grow_the_output_past_20x_is_refused_with_the_reason():
    from inspector.repairing import MAX_GROWTH, RepairOptions

    data = _missing_results(2_000)
    big = RepairOptions(placeholder="{name}" * 300)  # ~45 KB per call, 2,000 calls: ~90 MB from ~0.5 MB
    with pytest.raises(inspector.InputError, match=f"more than {MAX_GROWTH}x the input .* placeholder texts"):
        inspector.repair(data, "openai", big)
    ok = inspector.repair(data, "openai")  # the default placeholder: well inside the bound
    assert len(ok.output) < 3 * len(data)


def test_repair_cli_exits_2_with_one_line_for_an_amplifying_placeholder(tmp_path):
    path = tmp_path / "t.json"
    path.write_bytes(_missing_results(2_000))
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(path), "-o", str(tmp_path / "o.json"),
                           "--placeholder", "{name}" * 300], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "more than 20x the input" in done.stderr
    assert not (tmp_path / "o.json").exists()


# --- smaller ones (issue 22) ---------------------------------------------------------------------

@pytest.mark.parametrize("digits", [400, 4_300, 5_000])
def test_a_huge_integer_is_named_with_its_place(digits, tmp_path):
    path = tmp_path / "n.json"
    path.write_text('[{"role": "user", "content": "hi"},\n {"role": "user", "content": "x", "n": ' + "9" * digits + "}]")
    done = subprocess.run([sys.executable, "-m", "inspector", "check", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("inspector: line 2 column ") and f"has {digits:,} digits" in done.stderr
    assert done.stderr.count("\n") == 1


def test_fit_reads_the_1000_deep_arrays_check_and_repair_accept():
    data = ('[{"role": "user", "content": "hi", "x": ' + "[" * 1000 + "]" * 1000 + "}]").encode()
    assert inspector.check(data).findings == []
    result = inspector.fit(data, 10_000)
    assert result.output.replace(b" ", b"").replace(b"\n", b"") == data.replace(b" ", b"")  # nothing lost


@pytest.mark.parametrize("text", [
    "[{'role': 'user', 'content': 'a, b [c] (d) {e}'}, {'role': 'tool', 'content': \"it's \\\" ] ,\"}]",
    "[{'t': (1, 2), 'n': None, 'ok': True}, [1, [2, [3]]], 'x',]",
    "[]", "[ ]", "[{'a': 'line\\nbreak'}, {'b': '\\u00e9\\\\'}]",
    "[{'a': 1} {'b': 2}]",  # not a literal: refused as before
    "[{'a': set()}]", "[{'a': b'bytes'}]", "[1, 2", "[{'a': 'x' 'y'}]",
])
def test_a_python_repr_is_read_one_element_at_a_time_with_the_same_result(text):
    # --python-repr on 9.9 MB took 1.7 GB (175x): the syntax tree of the whole list at once
    import ast

    from inspector.pyrepr import _jsonable, repr_value

    try:
        whole = _jsonable(ast.literal_eval(text))
        whole = whole if isinstance(whole, (list, dict)) else None
    except (ValueError, SyntaxError, TypeError):
        whole = None
    assert repr_value(text.encode()) == whole
