"""``inspector scan PATH...``: check every transcript of datasets, eval logs and trajectory folders.

Exit codes as ``check``: 0 when the target would accept every transcript, 1 when it would reject
at least one (or, with ``--fail-on``, one has a finding of that severity; a record that cannot
be read counts too: the provider refuses the file), 2 when the
input cannot be read at all (a missing path, or not one readable transcript), with one line on
stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .options import add_loop_options, loop_options_of
from .parser import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, command

if TYPE_CHECKING:
    from ..scan.sources import Part
    from ..scan.summary import Summary


def _arguments(p: argparse.ArgumentParser) -> None:
    from ..dialects import names
    from ..targets import TARGETS

    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files or directories: JSON Lines datasets, JSON transcripts, Inspect logs, trajectories, Parquet, "
                        "SQLite session stores")
    p.add_argument("--target", choices=TARGETS, help="provider whose rules apply (default: each transcript's dialect's own)")
    p.add_argument("--from", dest="dialect", choices=names(), help="read every transcript as this dialect")
    p.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: the core count)")
    p.add_argument("--format", choices=("text", "json", "jsonl"), default="text",
                   help="stdout: a text summary, the summary as JSON, or one JSON line per transcript")
    p.add_argument("-o", "--output", help="write one row per transcript to OUT (.parquet or .jsonl) and one per "
                                          "finding to OUT.findings.parquet|jsonl")
    p.add_argument("--engine", choices=("local", "dask"), default="local", help="local processes, or a Dask cluster")
    p.add_argument("--scheduler", help="Dask scheduler address (default: start a LocalCluster)")
    p.add_argument("--glob", action="append", default=None, metavar="PATTERN",
                   help="files to take from directories (repeatable; default *.jsonl *.ndjson *.json *.traj *.har *.parquet *.db *.sqlite "
                        "*.sqlite3)")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), default="error",
                   help="lowest severity that makes the exit code 1 (default: error)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    add_loop_options(p)


def run_scan(args: argparse.Namespace) -> int:
    import orjson

    from ..scan import sources
    from ..scan.local import default_jobs
    from ..scan.progress import Progress
    from ..scan.summary import Summary
    from ..scan.work import ScanOptions

    jobs = args.jobs or default_jobs()
    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    if args.scheduler and args.engine != "dask":
        raise InputError("--scheduler needs --engine dask")
    passed_over: list[str] = []
    parts = sources.plan(sources.expand(args.paths, args.glob, passed_over))
    if passed_over:  # one line: what the walk left out, and how to take it in
        sys.stderr.write(f"inspector scan: passed over {len(passed_over)} hidden agent session folder"
                         f"{'s' if len(passed_over) > 1 else ''} ({', '.join(passed_over)}); to scan one, name it: "
                         f"inspector scan {passed_over[0]}\n")
    opts = ScanOptions(args.target, args.dialect, loop_options_of(args))
    summary = Summary()
    progress = Progress(sum(p.weight for p in parts), args.progress)
    out = sys.stdout.buffer
    jsonl = args.format == "jsonl"

    def emit(rows: list[dict[str, Any]]) -> None:
        if jsonl and rows:
            out.write(b"".join(orjson.dumps(r, default=str) + b"\n" for r in rows))

    try:
        if args.engine == "dask":
            from ..scan import dask_engine

            if args.output and not args.output.endswith((".parquet", ".jsonl")):
                raise InputError("the output must end in .parquet or .jsonl", args.output)

            def done(part: Part, s: Summary, rows: list[dict[str, Any]] | None) -> None:
                summary.merge(s)
                emit(rows or [])
                progress.advance(part.weight, s.scanned)

            dask_engine.scan(parts, opts, jobs, args.scheduler, args.output, done, want_rows=jsonl)
        else:
            from ..scan.local import scan
            from ..scan.outputs import RowWriter

            writer = RowWriter(args.output) if args.output else None

            def got(part: Part, rows: list[dict[str, Any]]) -> None:
                for r in rows:
                    summary.add(r)
                if writer:
                    writer.write(rows)
                emit(rows)
                progress.advance(part.weight, len(rows))

            try:
                scan(parts, opts, jobs, got)
            finally:
                if writer:
                    writer.close()
    finally:
        progress.close()
    if summary.scanned == summary.unreadable:
        first = summary.problems[0] if summary.problems else None
        why = f"; first: {first[0]}: {first[1]}" if first else ""
        raise InputError(f"no transcript could be read in {', '.join(args.paths)}{why}")
    if args.format == "json":
        out.write(orjson.dumps(summary.to_dict(), option=orjson.OPT_INDENT_2) + b"\n")
    elif args.format == "text":
        sys.stdout.write(summary.text())
    else:
        sys.stderr.write(summary.text())
    return EXIT_FINDINGS if summary.fails(args.fail_on) else EXIT_OK


command("scan", "check every transcript of datasets, eval logs and trajectory folders, in parallel",
        _arguments)(run_scan)

__all__ = ["EXIT_INPUT", "run_scan"]
