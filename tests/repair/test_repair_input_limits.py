"""Issue 15: repair on what check accepts. One InputError with a sentence and a path for Python
data JSON cannot hold; deep quarantined messages written to the report; exact big integers;
crafted link parameters and pasted indexes that used to stop the page."""

from __future__ import annotations

import decimal
import json
import subprocess
import sys

import orjson
import pytest

import inspector
from inspector.errors import InputError
from inspector.provider_errors import parse_error


def _cycle():
    a: list = []
    a.append(a)
    return a


@pytest.mark.parametrize(("value", "what"), [
    ("\ud800", "lone surrogate"),
    ({1, 2}, "set"),
    (b"x", "bytes"),
    (decimal.Decimal("1.5"), "Decimal"),
    (_cycle(), "cycle"),
    (float("nan"), "not a JSON number"),
    (float("inf"), "not a JSON number"),
])
def test_python_values_json_cannot_hold_are_one_input_error(value, what):
    msgs = [{"role": "user", "content": "x", "v": value}]
    inspector.check(msgs)  # check reads them as they are
    with pytest.raises(InputError, match=what) as exc:
        inspector.repair(msgs)
    assert str(exc.value).startswith("$[0]['v']")


def test_tuple_keys_are_named():
    with pytest.raises(InputError, match="key is a tuple"):
        inspector.repair([{"role": "user", "content": "x", (1, 2): 3}])


def test_shared_but_not_cyclic_values_are_fine():
    shared = {"k": [1, 2]}
    out = inspector.repair([{"role": "user", "content": "x", "a": shared, "b": shared}])
    assert json.loads(out.output)[0]["b"] == {"k": [1, 2]}


def test_big_integers_survive_repair_of_python_data():
    msgs = [{"role": "user", "content": "x", "n": 2**70},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "user", "content": "y"}]
    assert str(2**70).encode() in inspector.repair(msgs).output


def _deep(levels: int) -> str:
    return "[" * levels + '"x"' + "]" * levels


@pytest.mark.parametrize("levels", [300, 1000])
def test_deep_quarantined_message_is_written_to_the_report(tmp_path, levels):
    text = ('[{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "zz", "content": "r", "extra": '
            + _deep(levels) + '}, {"role": "assistant", "content": "ok"}]')
    p = tmp_path / "deep.json"
    p.write_text(text)
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(p), "-o", str(tmp_path / "o.json"),
                           "--report", str(tmp_path / "r.json")], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = orjson.loads((tmp_path / "r.json").read_bytes())  # the stdlib's parser recurses too deep
    held = report["quarantine"][0]["content"]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)  # comparing 1,000 levels recurses as deep
    try:
        assert held == orjson.loads(text)[1]  # exactly as it was, all the way down
    finally:
        sys.setrecursionlimit(limit)


def test_crafted_message_parameter_in_a_link_is_ignored():
    pytest.importorskip("streamlit")
    from inspector.ui.url import _int

    assert _int("²") is None and _int("٣") is None and _int("1" * 50) is None and _int("12") == 12


def test_pasted_index_with_thousands_of_digits_is_ignored():
    got = parse_error("messages[" + "1" * 4301 + "] and messages[3]: bad")
    assert got.indexes == [3]


def test_removed_call_is_quarantined_as_the_input_had_it():
    call = {"id": "call bad id!", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "user", "content": "x"}]
    rep = inspector.repair(msgs, target="mistral", options={"missing": "remove_call"}).report
    assert [q.content for q in rep.quarantine] == [call]  # not renamed, arguments not stringified
