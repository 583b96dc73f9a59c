"""``inspector scan --engine dask`` on a real multi-process ``LocalCluster`` (the ``scale`` extra).

The workers read their own partitions and write Parquet per partition; the summary must be the
one the local engine gives, line numbers included.
"""

from __future__ import annotations

import json

import pyarrow.parquet as pq
from support.cli_process import run
from support.datasets import MISSING, ORPHAN, dataset

from inspector.scan import dask_engine, sources
from inspector.scan.summary import Summary
from inspector.scan.work import ScanOptions


def test_dask_scan_matches_local_with_parquet_per_partition(tmp_path):
    broken = {k: ORPHAN for k in (1, 50, 51, 333)} | {400: MISSING}
    ds = dataset(tmp_path / "d.jsonl", 400, broken)
    parts = sources.plan([str(ds)], chunk=4093)  # partitions cut lines in the middle
    assert len(parts) > 10
    out = str(tmp_path / "rows.parquet")
    total = Summary()
    seen = []

    def done(part, s, rows):
        total.merge(s)
        seen.append(part)

    dask_engine.scan(parts, ScanOptions(), 2, None, out, done)
    assert sorted(seen, key=lambda p: p.start) == parts
    assert (total.scanned, total.rejected) == (400, 5)
    assert sorted(w["where"] for w in total.worst_examples()) == sorted(f"{ds}:{k}" for k in broken)
    files = sorted((tmp_path / "rows.parquet").iterdir())
    assert len(files) == len(parts)
    rows = pq.read_table(tmp_path / "rows.parquet").to_pylist()
    assert sorted(r["line"] for r in rows) == list(range(1, 401))
    assert sorted(r["line"] for r in rows if r["rejected"]) == sorted(broken)
    findings = pq.read_table(tmp_path / "rows.findings.parquet").to_pylist()
    assert {(f["line"], f["code"]) for f in findings if f["severity"] == "error"} == \
        {(k, "TC002") for k in (1, 50, 51, 333)} | {(400, "TC001")}


def test_cli_engine_dask_gives_the_local_summary(tmp_path):
    ds = dataset(tmp_path / "d.jsonl", 60, {3: ORPHAN, 44: MISSING})
    local = run("scan", ds, "--format", "json")
    on_dask = run("scan", ds, "--format", "json", "--engine", "dask", "--jobs", "2", "-o", tmp_path / "o.parquet")
    assert on_dask.returncode == local.returncode == 1, on_dask.stderr
    assert json.loads(on_dask.stdout) == json.loads(local.stdout)
    assert pq.read_table(tmp_path / "o.parquet").num_rows == 60
