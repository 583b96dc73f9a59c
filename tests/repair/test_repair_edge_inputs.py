"""Issue 33, input edge cases found by 3,000 mutated inputs: a one-line JSON file that starts with
a UTF-8 byte-order mark went down the JSON Lines dataset path (the mark dropped from a clean file,
an empty ``--report``, exit 1 for an unreadable file); a wrong-typed id (an object, the string
"null") was overwritten by assign_id with no trace of the old value in the change log."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector

BOM = b"\xef\xbb\xbf"
CLEAN = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"}]


def repair_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "inspector", "repair", *args], capture_output=True, text=True)


@pytest.mark.parametrize("ending", [b"", b"\n", b"\r\n\n"])
def test_a_one_line_json_file_with_a_bom_is_one_document(tmp_path, ending):
    src = tmp_path / "one.json"
    src.write_bytes(BOM + json.dumps(CLEAN).encode() + ending)
    out, report = tmp_path / "out.json", tmp_path / "report.json"
    done = repair_cli(str(src), "-o", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(BOM)  # the mark is kept, as for any whole document
    assert json.loads(out.read_bytes()[3:]) == CLEAN
    rep = json.loads(report.read_text())
    assert rep["changes"] == [] and rep["dialect"] == "openai-chat"  # the document's report, not a dataset's
    assert "records" not in done.stderr


def test_an_unreadable_one_line_file_with_a_bom_exits_2_with_one_line(tmp_path):
    src = tmp_path / "bad.json"
    src.write_bytes(BOM + b'{"messages": [{"role": "user", "content": "hi"}]} trailing\n')
    done = repair_cli(str(src), "-o", str(tmp_path / "out.json"))
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "line 1" in done.stderr


def test_two_records_with_a_bom_are_still_a_dataset(tmp_path):
    src = tmp_path / "two.jsonl"
    src.write_bytes(BOM + b"\n".join(json.dumps({"messages": CLEAN}).encode() for _ in range(2)) + b"\n")
    done = repair_cli(str(src), "-o", str(tmp_path / "out.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "2 records" in done.stderr


@pytest.mark.parametrize(("bad", "shown"), [({"id": "x"}, '{"id":"x"}'), ("null", '"null"'), (17, "17")])
def test_a_wrong_typed_id_is_kept_in_the_change_log_when_replaced(bad, shown):
    items = [{"role": "user", "content": "go"},
             {"role": "assistant", "content": None,
              "tool_calls": [{"id": bad, "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
             {"role": "tool", "tool_call_id": bad, "content": "r"}]
    result = inspector.repair(json.dumps(items).encode(), target="openai")
    assigned = [c for c in result.report.changes if c.action == "assign_id"]
    assert len(assigned) == 2
    for change in assigned:
        assert f"in place of the id {shown} it had" in change.text
    out = json.loads(result.output)
    assert out[1]["tool_calls"][0]["id"] == out[2]["tool_call_id"] != bad


def test_a_missing_id_is_said_as_before():
    items = [{"role": "user", "content": "go"},
             {"role": "assistant", "content": None,
              "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{}"}}]},
             {"role": "tool", "content": "r"}]
    result = inspector.repair(json.dumps(items).encode(), target="openai")
    assigned = [c for c in result.report.changes if c.action == "assign_id"]
    assert assigned and not any("in place of" in c.text for c in assigned)
