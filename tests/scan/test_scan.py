"""``inspector scan`` and dataset repair as a user runs them on datasets, eval logs and folders."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_process import run
from support.datasets import GOOD, MISSING, ORPHAN, dataset

import inspector
from inspector.checking import counts
from inspector.scan import local, sources
from inspector.scan.work import ScanOptions

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"
CORPUS = ROOT.parent / "shared" / "corpus"

def test_dataset_summary_counts_rules_and_points_at_path_line(tmp_path):
    ds = dataset(tmp_path / "train.jsonl", 300, {7: ORPHAN, 120: MISSING, 299: ORPHAN})
    p = run("scan", ds)
    assert p.returncode == 1, p.stderr
    out = p.stdout.decode()
    assert out.startswith("300 transcripts scanned")
    assert "OpenAI would reject 3 (1.0%)" in out
    assert f"{ds}:7: 1 errors" in out and f"{ds}:120: 1 errors" in out and f"{ds}:299: 1 errors" in out
    assert p.stderr == b""  # piped: no progress bar

    p = run("scan", ds, "--format", "json")
    s = json.loads(p.stdout)
    assert (s["transcripts"], s["rejected"], s["unreadable"]) == (300, 3, 0)
    rules = {r["code"]: r for r in s["rules"]}
    assert rules["TC002"]["transcripts"] == 2 and rules["TC001"]["transcripts"] == 1


def test_clean_dataset_exits_0_and_missing_path_exits_2(tmp_path):
    ds = dataset(tmp_path / "clean.jsonl", 20, {})
    assert run("scan", ds).returncode == 0
    # A call id used again in a later round is only a note for OpenAI; --fail-on info makes it count.
    again = [*GOOD["messages"][:3], *GOOD["messages"][1:]]
    noted = dataset(tmp_path / "noted.jsonl", 3, {2: {"messages": again}})
    s = json.loads(run("scan", noted, "--format", "json").stdout)
    assert [r["code"] for r in s["rules"]] == ["TC023"] and s["rejected"] == 0
    assert run("scan", noted).returncode == 0
    assert run("scan", noted, "--fail-on", "warning").returncode == 0
    assert run("scan", noted, "--fail-on", "info").returncode == 1
    p = run("scan", tmp_path / "nope.jsonl")
    assert p.returncode == 2 and p.stderr.decode() == f"inspector: {tmp_path / 'nope.jsonl'}: no such file or directory\n"


def test_bad_line_is_reported_with_its_line_and_the_rest_is_scanned(tmp_path):
    ds = tmp_path / "d.jsonl"
    ds.write_text("\ufeff" + json.dumps(GOOD) + "\n" + '{"messages": [}\n' + "\n" + json.dumps(ORPHAN) + "\n")
    s = json.loads(run("scan", ds, "--format", "json").stdout)
    assert (s["transcripts"], s["unreadable"], s["rejected"]) == (3, 1, 1)
    assert s["unreadable_examples"][0]["where"] == f"{ds}:2"
    assert s["worst"][0]["where"] == f"{ds}:4"  # the blank line 3 still counts


def test_target_changes_what_is_rejected(tmp_path):
    # A developer message: OpenAI takes it, Mistral refuses the role (TC024). (call_1, not nine
    # alphanumerics, is only a warning for Mistral since the live probe of 2026-10-04: issue 31.)
    line = {**GOOD, "messages": [{"role": "developer", "content": "be brief"}, *GOOD["messages"]]}
    ds = tmp_path / "d.jsonl"
    ds.write_text("".join(json.dumps(line) + "\n" for _ in range(5)))
    assert run("scan", ds, "--target", "openai").returncode == 0
    s = json.loads(run("scan", ds, "--target", "mistral", "--format", "json").stdout)
    assert s["rejected"] == 5 and s["targets"] == {"mistral": 5}


@pytest.mark.parametrize("jobs", [1, 2])
def test_line_numbers_are_exact_across_ranges(tmp_path, jobs):
    broken = {k: ORPHAN for k in (1, 2, 33, 64, 65, 200, 401)}
    ds = dataset(tmp_path / "d.jsonl", 401, broken)
    parts = sources.plan([str(ds)], chunk=997)  # ranges cut lines in the middle
    assert len(parts) > 50
    rows = []
    local.scan(parts, ScanOptions(), jobs, lambda part, got: rows.extend(got))
    assert [r["line"] for r in rows] == list(range(1, 402))
    assert [r["line"] for r in rows if r["rejected"]] == sorted(broken)


def test_outputs_one_row_per_transcript_and_per_finding(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    ds = dataset(tmp_path / "d.jsonl", 50, {10: ORPHAN, 20: MISSING})
    assert run("scan", ds, "-o", tmp_path / "out.jsonl", "-j", "2").returncode == 1
    ts = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    fs = [json.loads(x) for x in (tmp_path / "out.findings.jsonl").read_text().splitlines()]
    assert len(ts) == 50 and [t["line"] for t in ts] == list(range(1, 51))
    assert ts[9]["codes"] and ts[9]["rejected"] and ts[9]["dialect"] == "openai-chat" and ts[9]["messages"] == 2
    assert {(f["line"], f["code"]) for f in fs if f["severity"] == "error"} == {(10, "TC002"), (20, "TC001")}

    assert run("scan", ds, "-o", tmp_path / "out.parquet").returncode == 1
    t = pq.read_table(tmp_path / "out.parquet").to_pylist()
    f = pq.read_table(tmp_path / "out.findings.parquet").to_pylist()
    assert [r["line"] for r in t] == list(range(1, 51))
    assert {(r["line"], r["code"]) for r in f if r["severity"] == "error"} == {(10, "TC002"), (20, "TC001")}


def test_jsonl_stdout_streams_a_row_per_transcript(tmp_path):
    ds = dataset(tmp_path / "d.jsonl", 12, {3: ORPHAN})
    p = run("scan", ds, "--format", "jsonl")
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert len(rows) == 12 and rows[2]["findings"][0]["code"] == "TC002"
    assert b"12 transcripts scanned" in p.stderr


def test_openai_batch_lines_are_named_by_custom_id(tmp_path):
    ds = tmp_path / "batch.jsonl"
    lines = [{"custom_id": f"req-{i}", "method": "POST", "url": "/v1/chat/completions",
              "body": {"model": "gpt-4o", **(ORPHAN if i == 2 else GOOD)}} for i in range(4)]
    ds.write_text("".join(json.dumps(x) + "\n" for x in lines))
    s = json.loads(run("scan", ds, "--format", "json").stdout)
    assert s["transcripts"] == 4 and s["rejected"] == 1
    assert s["worst"][0]["where"] == f"{ds}:3 (req-2)"


@pytest.mark.skipif(not CORPUS.exists(), reason=f"corpus not found at {CORPUS}")
def test_every_shape_the_inspector_reads_works_as_a_dataset_line(tmp_path):
    """Each single-transcript corpus file, as one line of a dataset, is judged as ``check`` judges the file."""
    import orjson

    want = []
    lines = [json.dumps(GOOD)]
    for path in [*sorted(CORPUS.rglob("*.json*")), *sorted(SAMPLES.iterdir())]:
        if path.name in ("expected.json", "manifest.json"):
            continue
        if path.suffix not in (".json", ".jsonl", ".har"):  # a session database, or the script that builds it: no JSON line
            continue
        doc = inspector.load(str(path))
        if len(doc.transcripts) != 1:
            continue
        rep = inspector.check(str(path))
        lines.append(orjson.dumps(doc.root).decode())
        want.append((path.name, rep.dialect, counts(rep.findings)["error"], counts(rep.findings)["warning"]))
    assert len({w[1] for w in want}) >= 9  # the new dialects (AG-UI, Vercel, Pydantic AI) included
    ds = tmp_path / "shapes.jsonl"
    ds.write_text("\n".join(lines) + "\n")
    p = run("scan", ds, "-o", tmp_path / "rows.jsonl")
    rows = [json.loads(x) for x in (tmp_path / "rows.jsonl").read_text().splitlines()][1:]
    got = [(name, r["dialect"], r["errors"], r["warnings"]) for (name, *_), r in zip(want, rows)]
    assert got == want
    assert p.returncode == 1


@pytest.mark.skipif(not CORPUS.exists(), reason=f"corpus not found at {CORPUS}")
def test_folders_of_eval_logs_and_trajectories(tmp_path):
    s = json.loads(run("scan", CORPUS / "broken", CORPUS / "trajectories", "--format", "json").stdout)
    # The Inspect log's samples are one transcript each, named by their JSON path and id.
    inspect_log = inspector.load(str(CORPUS / "broken" / "inspect-ai_log_tool_call_error_fixture.json"))
    assert s["transcripts"] >= len(inspect_log.transcripts) + 5
    assert any("inspect-ai_log_tool_call_error_fixture.json:$.samples[0].messages" in w["where"] for w in s["worst"])
    only = json.loads(run("scan", CORPUS, "--glob", "*.traj.json", "--format", "json").stdout)
    trajs = list(CORPUS.rglob("*.traj.json"))
    assert only["transcripts"] == sum(len(inspector.load(str(t)).transcripts) for t in trajs) > 0


def test_parquet_with_a_messages_column(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    recs = [{"messages": r["messages"]} for r in (GOOD, ORPHAN, GOOD, MISSING, GOOD)]
    # As Hugging Face stores chat data: a list of structs (every struct gets every field, nulls for absent ones).
    pq.write_table(pa.Table.from_pylist(recs), tmp_path / "structs.parquet", row_group_size=2)
    # And as JSON text.
    pq.write_table(pa.table({"messages": [json.dumps(r["messages"]) for r in recs], "split": ["a"] * 5}),
                   tmp_path / "text.parquet")
    for name in ("structs.parquet", "text.parquet"):
        p = run("scan", tmp_path / name, "--format", "json")
        s = json.loads(p.stdout)
        assert (s["transcripts"], s["rejected"], s["unreadable"]) == (5, 2, 0), (name, s)
        assert {w["where"] for w in s["worst"]} == {f"{tmp_path / name}:row 1", f"{tmp_path / name}:row 3"}


def test_progress_bar_only_when_asked_or_on_a_terminal(tmp_path):
    ds = dataset(tmp_path / "d.jsonl", 30, {})
    p = run("scan", ds, "--progress")
    err = p.stderr.decode()
    assert "transcripts" in err and "/s" in err and "ETA" in err
    assert run("scan", ds).stderr == b""


def test_repair_streams_a_dataset_and_holds_out_what_it_cannot_fix(tmp_path):
    ds = dataset(tmp_path / "d.jsonl", 40, {5: ORPHAN, 9: MISSING})
    with open(ds, "a") as f:
        f.write("{broken\n")
    fixed, held, rep = tmp_path / "fixed.jsonl", tmp_path / "unfixable.jsonl", tmp_path / "report.jsonl"
    p = run("repair", ds, "-o", fixed, "--unfixable", held, "--report", rep, "-j", "2")
    assert p.returncode == 1, p.stderr
    assert b"41 records: 2 repaired, 38 already clean, 1 not fixed safely" in p.stderr
    src = ds.read_bytes().splitlines(keepends=True)
    out = fixed.read_bytes().splitlines(keepends=True)
    assert held.read_bytes() == b"{broken\n"  # as it came
    assert len(out) == 40
    assert [x for k, x in enumerate(out) if k not in (4, 8)] == [x for k, x in enumerate(src[:40]) if k not in (4, 8)]
    assert run("scan", fixed).returncode == 0
    reports = [json.loads(x) for x in rep.read_text().splitlines()]
    assert [r["line"] for r in reports] == [5, 9, 41]
    assert reports[0]["quarantine"][0]["content"] == ORPHAN["messages"][1]  # nothing lost


def test_repair_of_a_dataset_without_unfixable_keeps_every_record(tmp_path):
    ds = dataset(tmp_path / "d.jsonl", 6, {2: {"messages": [{"role": "user", "content": "hi"}]}})
    p = run("repair", ds, "-o", tmp_path / "out.jsonl", "--target", "mistral")
    assert p.returncode == 1
    assert len((tmp_path / "out.jsonl").read_bytes().splitlines()) == 6


def test_scan_and_cli_stay_light(tmp_path):
    ds = dataset(tmp_path / "d.jsonl", 5, {})
    code = (
        "import sys, contextlib, io, inspector\n"
        "from inspector.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['scan', {!r}, '-j', '1', '-o', {!r}])\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed', 'pyarrow', 'pandas', 'streamlit')]\n"
        "assert not heavy, heavy\n"
    ).format(str(ds), str(tmp_path / "o.jsonl"))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr.decode()


def test_a_file_the_scan_cannot_read_is_named_once(tmp_path):
    (tmp_path / "good.json").write_text(json.dumps(GOOD))
    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:  # a sparse file over the 2 GB cap: refused by its size, never read
        f.truncate(3 * 10**9)
    p = run("scan", tmp_path)
    out = p.stdout.decode()
    (line,) = [x for x in out.splitlines() if "huge.json" in x]
    assert line.strip() == f"{huge}: the file is 3.0 GB, more than the 2 GB this tool reads"
    s = json.loads(run("scan", tmp_path, "--format", "json").stdout)
    assert s["unreadable_examples"] == [{"where": str(huge),
                                         "problem": "the file is 3.0 GB, more than the 2 GB this tool reads"}]
