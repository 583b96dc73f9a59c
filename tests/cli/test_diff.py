"""``inspector diff A B`` (issue 38): calls aligned by id, then by tool and arguments, across
formats; the first divergence by message index in each file; each side's findings beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from support import loop_shapes as shapes
from support.cli_process import run

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path, name, value):
    p = tmp_path / name
    p.write_text(json.dumps(value))
    return p


def diff_json(a, b, *more):
    p = run("diff", a, b, "--format", "json", *more)
    assert p.returncode in (0, 1), p.stderr
    return p.returncode, json.loads(p.stdout)


def edited_run():
    """A run of three reads, and a rerun: the second read of another file answered otherwise,
    and a test run added after the last read."""
    a = shapes.same_result_loop(3)
    b = json.loads(json.dumps(a))
    b[3]["tool_calls"][0]["function"]["arguments"] = '{"path": "src/other.py"}'
    b[4]["content"] = "x = 1\n"
    b[7:7] = [shapes.call("call_new", "run_tests", {}), shapes.result("call_new", "3 passed")]
    return a, b


def test_the_same_file_does_not_diverge_and_exits_0(tmp_path):
    a = write(tmp_path, "a.json", shapes.job_poll())
    code, d = diff_json(a, a)
    assert code == 0 and d["same"] is True and d["first_divergence"] is None
    assert d["counts"]["same"] == 5 and {e["matched_by"] for e in d["calls"]} == {"id"}
    assert "The runs do not diverge" in run("diff", a, a).stdout.decode()


def test_other_arguments_and_an_added_call_and_the_first_divergence(tmp_path):
    a, b = edited_run()
    code, d = diff_json(write(tmp_path, "a.json", a), write(tmp_path, "b.json", b))
    assert code == 1 and d["same"] is False
    assert [e["status"] for e in d["calls"]] == ["same", "other_arguments", "same", "added"]
    assert d["first_divergence"]["a_index"] == 3 and d["first_divergence"]["b_index"] == 3
    assert d["first_divergence"]["status"] == "other_arguments"
    added = d["calls"][3]
    assert added["a"] is None and added["b"]["message_index"] == 7 and added["tool"] == "run_tests"
    assert (d["counts"]["added"], d["counts"]["other_arguments"]) == (1, 1)
    # the loop of A (three same reads) is beside A, gone in B
    assert [f["code"] for f in d["a"]["loops"]] == ["LP002"] and d["b"]["loops"] == []


def test_without_common_ids_calls_align_by_tool_and_arguments(tmp_path):
    a = shapes.paginated_search(4)
    b = json.loads(json.dumps(a).replace('"call_', '"other_'))
    del b[5:7]  # page 3 not fetched in B
    _code, d = diff_json(write(tmp_path, "a.json", a), write(tmp_path, "b.json", b))
    assert [e["status"] for e in d["calls"]] == ["same", "same", "removed", "same"]
    assert {e["matched_by"] for e in d["calls"] if e["status"] == "same"} == {"tool_and_arguments"}
    fd = d["first_divergence"]
    assert (fd["status"], fd["a_index"], fd["b_index"]) == ("removed", 5, 5)


def test_answered_differently(tmp_path):
    a = shapes.job_poll(3)
    b = json.loads(json.dumps(a))
    b[4]["content"] = json.dumps({"job_id": "job-42", "state": "failed"})
    _, d = diff_json(write(tmp_path, "a.json", a), write(tmp_path, "b.json", b))
    assert [e["status"] for e in d["calls"]] == ["same", "answered_differently", "same"]
    text = run("diff", tmp_path / "a.json", tmp_path / "b.json").stdout.decode()
    assert "≠ job_status" in text and "First divergence: A #3, B #3" in text


def test_across_formats_on_the_neutral_view(tmp_path):
    """The Rig loop in Chat Completions against the same run in Anthropic Messages: the calls
    align (no common id) and nothing diverges; each side's findings are its own format's."""
    code, d = diff_json(write(tmp_path, "chat.json", shapes.rig_loop()),
                        write(tmp_path, "claude.json", shapes.anthropic_rig_loop()))
    assert (d["a"]["dialect"], d["b"]["dialect"]) == ("openai-chat", "anthropic")
    assert code == 0 and d["counts"]["same"] == 6
    assert {f["code"] for f in d["a"]["findings"]} >= {"TC001"}


def test_a_file_and_its_repair(tmp_path):
    src = ROOT / "sample_logs" / "missing_tool_reply.json"
    fixed = tmp_path / "fixed.json"
    assert run("repair", src, "-o", fixed).returncode in (0, 1)
    _code, d = diff_json(src, fixed)
    gone = [r for r in d["rules"] if r["change"] == "gone"]
    assert gone and all(r["b"] == 0 and r["a"] > 0 for r in gone)
    assert any(e["status"] == "answered_differently" and e["a"]["result"] is None for e in d["calls"])


def test_unreadable_input_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    p = run("diff", bad, ROOT / "sample_logs" / "clean_parallel_calls.json")
    assert p.returncode == 2 and p.stderr.decode().count("\n") == 1
    p = run("diff", ROOT / "sample_logs" / "clean_parallel_calls.json", ROOT / "sample_logs" / "clean_parallel_calls.json",
            "--transcript", "3")
    assert p.returncode == 2 and "transcript" in p.stderr.decode()


def test_every_json_key_is_documented(tmp_path):
    a, b = edited_run()
    _, d = diff_json(write(tmp_path, "a.json", a), write(tmp_path, "b.json", b))
    doc = (ROOT / "docs" / "diff.md").read_text()
    documented = set(re.findall(r"`([a-z_]+)`", doc))
    keys = set(d) | set(d["a"]) | set(d["first_divergence"]) | set(d["counts"]) | set(d["turns"][0]) \
        | set(d["calls"][0]) | set(d["calls"][0]["a"]) | set(d["rules"][0] if d["rules"] else {}) \
        | set(d["a"]["loops"][0])
    assert keys - documented == set()
