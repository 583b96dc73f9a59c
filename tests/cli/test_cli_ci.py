"""The CLI in CI: many files and directories, --fail-on, GitHub annotations, SARIF, JSON Lines
lines, ``inspector explain`` and Python-repr input."""

from __future__ import annotations

import json
import shutil

from support.cli_process import SAMPLES, run

ORPHAN = SAMPLES / "orphan_tool_reply.json"
CLEAN = SAMPLES / "clean_parallel_calls.json"


def call(cid, name="f"):
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": "{}"}}


MSGS = [
    {"role": "user", "content": "hi"},
    {"role": "assistant", "content": None, "tool_calls": [call("a")]},
    {"role": "tool", "tool_call_id": "a", "content": "ok"},
    {"role": "tool", "tool_call_id": "b", "content": "stray"},
]


def test_several_files_one_summary_worst_exit_code():
    p = run("check", str(CLEAN), str(ORPHAN))
    assert p.returncode == 1
    out = p.stdout.decode().splitlines()
    assert out[-1].startswith("2 file(s), ")
    assert "1 failing (--fail-on error)" in out[-1]
    assert any(line.startswith(f"{ORPHAN}:2: TC002") for line in out)


def test_directory_and_glob(tmp_path):
    shutil.copy(CLEAN, tmp_path / "a.json")
    (tmp_path / "sub").mkdir()
    shutil.copy(ORPHAN, tmp_path / "sub" / "b.json")
    (tmp_path / "sub" / "c.log").write_text("[]")
    p = run("check", str(tmp_path), "--format", "json")
    summary = json.loads(p.stdout)["summary"]
    assert (p.returncode, summary["files"], summary["failing"]) == (1, 2, 1)
    p = run("check", str(tmp_path), "--glob", "a.*")
    assert p.returncode == 0 and p.stdout.decode().splitlines()[-1].startswith("1 file(s)")


def test_unreadable_file_among_good_ones_exits_2_and_others_still_reported(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[{")
    p = run("check", str(ORPHAN), str(bad))
    assert p.returncode == 2
    assert p.stderr.decode().count("\n") == 1 and str(bad) in p.stderr.decode()
    assert b"TC002" in p.stdout and b"1 unreadable" in p.stdout


def test_fail_on_lowers_the_bar():
    # The orphan sample also has a TC019 note; a clean file with nothing has no reason to fail.
    assert run("check", str(CLEAN), "--fail-on", "info").returncode == 0
    half = SAMPLES / "tool_result_as_user_text.json"  # one error, one warning
    assert run("check", str(half)).returncode == 1
    text = json.dumps([MSGS[0], {"role": "assistant", "content": None, "tool_calls": [call("a")]}]).encode()
    assert run("check", "-", stdin=text).returncode == 0  # a pending call is a warning only
    assert run("check", "-", "--fail-on", "warning", stdin=text).returncode == 1


def test_jsonl_findings_name_the_line(tmp_path):
    f = tmp_path / "t.jsonl"
    lines = [json.dumps(m) for m in MSGS]
    f.write_text(lines[0] + "\n\n" + "\n".join(lines[1:]) + "\n")  # a blank line shifts the rest
    p = run("check", str(f))
    assert f"{f}:5: TC002 error" in p.stdout.decode()
    records = tmp_path / "r.jsonl"
    records.write_text("\n".join(json.dumps({"model": "m", "messages": MSGS[: k + 1]}) for k in range(4)) + "\n")
    p = run("check", str(records))
    out = p.stdout.decode()
    assert f"{records}:4: TC002 error" in out and "$[3]" not in out


def test_github_annotations(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text("\n".join(json.dumps(m) for m in MSGS) + "\n")
    p = run("check", str(f), str(ORPHAN), "--format", "github")
    lines = p.stdout.decode().splitlines()
    assert p.returncode == 1
    assert f"::error file={f},line=4,title=TC002 orphan_tool_result::Message #3 is a result" in "\n".join(lines)
    json_one = next(x for x in lines if x.startswith(f"::error file={ORPHAN}"))
    assert ",line=" not in json_one and "::$[2]: Message #2" in json_one  # JSON: a file annotation with the path
    assert all("\n" not in x for x in lines) and "%0A" in json_one  # multi-line text escaped
    notice = next(x for x in lines if x.startswith("::notice "))
    assert "TC019" in notice


def test_sarif_log(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text("\n".join(json.dumps(m) for m in MSGS) + "\n")
    p = run("check", str(f), str(ORPHAN), "--format", "sarif")
    log = json.loads(p.stdout)
    assert log["version"] == "2.1.0" and "sarif-2.1.0" in log["$schema"]
    run_ = log["runs"][0]
    rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    assert "TC002" in rules
    res = [r for r in run_["results"] if r["ruleId"] == "TC002"]
    assert {r["level"] for r in res} == {"error"}
    by_uri = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r for r in res}
    jsonl = by_uri[f.as_uri()]
    assert jsonl["locations"][0]["physicalLocation"]["region"] == {"startLine": 4}
    assert rules[jsonl["ruleIndex"]] == "TC002"
    plain = by_uri[ORPHAN.as_uri()]
    assert plain["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "$[2]"
    assert run_["invocations"][0]["executionSuccessful"] is True


OPENAI_ORPHAN = ("Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
                 "with 'tool_calls'. param: messages.[2].role")


def test_explain_names_the_message_rule_and_fix():
    p = run("explain", str(ORPHAN), "--error", OPENAI_ORPHAN)
    out = p.stdout.decode()
    assert p.returncode == 0, p.stderr
    assert f"{ORPHAN}:2: message #2 (tool)" in out
    assert "TC002 error orphan_tool_result" in out
    assert "Fix: inspector repair" in out


def test_explain_reads_the_error_from_stdin_and_says_when_an_id_is_not_in_the_file():
    text = "messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_nothere."
    p = run("explain", str(ORPHAN), stdin=text.encode())
    out = p.stdout.decode()
    assert "Not in this file: id toolu_nothere" in out
    p = run("explain", str(ORPHAN), "--format", "json", stdin=text.encode())
    assert json.loads(p.stdout)["not_in_file"]["ids"] == ["toolu_nothere"]


def test_explain_without_an_error_text_exits_2():
    p = run("explain", str(ORPHAN), stdin=b"  \n")
    assert p.returncode == 2 and p.stderr.decode().count("\n") == 1


def test_python_repr_is_named_and_can_be_read(tmp_path):
    f = tmp_path / "printed.txt"
    f.write_text(repr(MSGS))
    p = run("check", str(f))
    err = p.stderr.decode()
    assert p.returncode == 2 and err.count("\n") == 1
    assert "looks like a Python repr" in err and "--python-repr" in err
    p = run("check", str(f), "--python-repr")
    assert p.returncode == 1 and b"TC002" in p.stdout
    f.write_text("[{'role': 'user', 'content': object()}]")
    p = run("check", str(f), "--python-repr")
    assert p.returncode == 2 and b"cannot be read safely" in p.stderr
