"""The loop findings at the command line: check's text and JSON, the loop flags, scan's column
and summary line."""

from __future__ import annotations

import json

from support import loop_shapes as shapes
from support.cli_process import run


def write(tmp_path, name, messages):
    p = tmp_path / name
    p.write_text(json.dumps(messages))
    return p


def test_check_prints_the_loop_and_its_cost_and_exit_code_stays_the_rules(tmp_path):
    p = write(tmp_path, "rig.json", shapes.rig_loop())
    out = run("check", p)
    text = out.stdout.decode()
    rules_only = run("check", p, "--loop-allow", "list_tables_tool")
    assert out.returncode == rules_only.returncode  # loops never change the verdict
    assert f"{p}:#1: LP002 warning stuck_loop: stuck loop: tool 'list_tables_tool' called 6 times" in text
    assert "6 calls at messages #1, #3, #5, #7, #9, #11;" in text
    assert "Loops: 1 loop, 6 calls," in text and "tokens spent in them." in text
    assert "LP002" not in rules_only.stdout.decode()


def test_check_json_has_the_loops_key(tmp_path):
    p = write(tmp_path, "loop.json", shapes.same_result_loop())
    out = json.loads(run("check", p, "--format", "json").stdout)
    (loop,) = out["loops"]
    assert {"code", "rule", "severity", "message_index", "last_index", "tool", "arguments", "count", "in_a_row",
            "result", "causes", "calls", "tokens", "counter", "text", "transcript"} <= set(loop)
    assert (loop["code"], loop["tool"], loop["count"]) == ("LP002", "read_file", 4)
    assert out["findings"] == []


def test_threshold_per_tool_and_window_flags(tmp_path):
    p = write(tmp_path, "loop.json", shapes.same_result_loop(4))
    assert json.loads(run("check", p, "--format", "json", "--loop-threshold", "read_file=5").stdout)["loops"] == []
    assert len(json.loads(run("check", p, "--format", "json", "--loop-threshold", "5",
                              "--loop-threshold", "read_file=4").stdout)["loops"]) == 1


def test_a_bad_threshold_exits_2_with_one_line(tmp_path):
    p = write(tmp_path, "loop.json", shapes.same_result_loop())
    out = run("check", p, "--loop-threshold", "read_file=one")
    assert out.returncode == 2
    assert out.stderr.decode().count("\n") == 1 and "--loop-threshold" in out.stderr.decode()


def test_poll_and_pages_are_left_alone(tmp_path):
    for name, shape in (("poll.json", shapes.job_poll), ("pages.json", shapes.paginated_search)):
        out = run("check", write(tmp_path, name, shape()), "--format", "json")
        assert json.loads(out.stdout)["loops"] == []


def test_scan_has_a_loop_column_and_a_summary_line(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({"messages": m}) + "\n" for m in (
        shapes.rig_loop(), shapes.job_poll(), shapes.paginated_search(), shapes.same_result_loop())))
    rows = [json.loads(x) for x in run("scan", data, "--format", "jsonl", "-j", "1").stdout.splitlines()]
    assert [r["loops"] for r in rows] == [1, 0, 0, 1]
    assert [r["loop_calls"] for r in rows] == [6, 0, 0, 4]
    assert rows[0]["loop_tokens"] > 0 and rows[1]["loop_tokens"] == 0
    text = run("scan", data, "-j", "1").stdout.decode()
    tokens = rows[0]["loop_tokens"] + rows[3]["loop_tokens"]
    assert f"loops: 2 transcripts with loops (2 loops, 10 calls, {tokens} tokens spent in them)." in text
    summary = json.loads(run("scan", data, "--format", "json", "-j", "1").stdout)
    assert summary["loops"] == {"transcripts": 2, "loops": 2, "calls": 10, "tokens": tokens}
    allowed = json.loads(run("scan", data, "--format", "json", "-j", "1", "--loop-allow", "list_tables_tool",
                             "--loop-allow", "read_file").stdout)
    assert allowed["loops"]["transcripts"] == 0


def test_github_annotations_carry_loops_apart_from_the_rules_and_keep_the_exit_code(tmp_path):
    rig = tmp_path / "rig.jsonl"  # JSON Lines: the annotation names the loop's first call's line
    rig.write_text("".join(json.dumps(m) + "\n" for m in shapes.rig_loop()))
    clean_loop = write(tmp_path, "loop.json", shapes.same_result_loop())
    out = run("check", rig, clean_loop, "--format", "github")
    lines = out.stdout.decode().splitlines()
    rules_only = run("check", rig, clean_loop, "--format", "github", "--loop-allow", "list_tables_tool",
                     "--loop-allow", "read_file")
    assert out.returncode == rules_only.returncode == 1  # the rig file's TC020 error; loops add nothing
    stuck = [x for x in lines if "LP002" in x]
    assert len(stuck) == 2 and all(x.startswith("::warning ") for x in stuck)
    (on_rig,) = [x for x in stuck if f"file={rig}," in x]
    assert ",line=2," in on_rig  # message #1, the first call, is the file's second line
    assert "title=LP002 stuck_loop (loop%2C not a provider rule)::stuck loop: tool 'list_tables_tool'" in on_rig
    (on_json,) = [x for x in stuck if f"file={clean_loop}," in x]
    assert ",line=" not in on_json and "::$[1]: stuck loop: tool 'read_file' called 4 times" in on_json
    # the rules' own annotations are the same with and without the loops
    assert [x for x in lines if "LP00" not in x][:-1] == rules_only.stdout.decode().splitlines()[:-1]
    assert not any("LP00" in x for x in rules_only.stdout.decode().splitlines())


def test_a_repeated_call_is_a_github_notice(tmp_path):
    # three calls of one tool with the same arguments and the log ends before any result: a
    # repeat whose results cannot say whether it is stuck
    last = shapes.call("call_0", "read_file", {"path": "src/app.py"})
    last["tool_calls"] += [{**last["tool_calls"][0], "id": f"call_{k}"} for k in (1, 2)]
    msgs = [{"role": "user", "content": "Read it."}, last]
    p = write(tmp_path, "repeat.json", msgs)
    lines = run("check", p, "--format", "github").stdout.decode().splitlines()
    (notice,) = [x for x in lines if "LP00" in x]
    assert notice.startswith("::notice ") and "title=LP001 repeated_call" in notice


def test_sarif_has_loop_rules_and_results_tagged_apart_and_keeps_the_exit_code(tmp_path):
    rig = tmp_path / "rig.jsonl"
    rig.write_text("".join(json.dumps(m) + "\n" for m in shapes.rig_loop()))
    clean_loop = write(tmp_path, "loop.json", shapes.same_result_loop())
    out = run("check", rig, clean_loop, "--format", "sarif")
    rules_only = run("check", rig, clean_loop, "--format", "sarif", "--loop-allow", "list_tables_tool",
                     "--loop-allow", "read_file")
    assert out.returncode == rules_only.returncode == 1
    (run_,) = json.loads(out.stdout)["runs"]  # one run: code scanning does not combine runs of one tool
    rules = run_["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert "TC020" in ids and ids[-1] == "LP002"
    lp = rules[-1]
    assert lp["properties"]["tags"] == ["loop"] and lp["defaultConfiguration"]["level"] == "warning"
    loops = [r for r in run_["results"] if r["ruleId"] == "LP002"]
    assert len(loops) == 2 and {r["level"] for r in loops} == {"warning"}
    assert all(ids[r["ruleIndex"]] == "LP002" and r["properties"]["family"] == "loop" for r in loops)
    by_uri = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r for r in loops}
    on_rig = by_uri[rig.as_uri()]
    assert on_rig["locations"][0]["physicalLocation"]["region"] == {"startLine": 2}
    assert on_rig["properties"]["tool"] == "list_tables_tool" and on_rig["properties"]["count"] == 6
    assert on_rig["properties"]["calls"] == [1, 3, 5, 7, 9, 11] and "TC020" in on_rig["properties"]["causes"]
    assert on_rig["properties"]["tokens"] > 0
    # the rules' results are the same with and without the loops
    rule_results = [r for r in run_["results"] if r["properties"].get("family") != "loop"]
    assert rule_results == json.loads(rules_only.stdout)["runs"][0]["results"]
    assert not any(r["id"].startswith("LP") for r in json.loads(rules_only.stdout)["runs"][0]["tool"]["driver"]["rules"])
