"""``inspector repair``: write the repaired file, the report and a Markdown transcript.

Exit codes: 0 the output checks clean for the target, 1 something could not be fixed safely
(the report's ``unfixed`` and stderr say what and why), 2 the input cannot be read or an
option is wrong (one line on stderr).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ..errors import InputError
from .parser import EXIT_FINDINGS, EXIT_OK, command

if TYPE_CHECKING:
    from ..repairing import RepairOptions, RepairReport, RepairResult


def _arguments(p: argparse.ArgumentParser) -> None:
    from ..dialects import names
    from ..targets import TARGETS

    p.add_argument("path", help="transcript file (JSON, JSON Lines, request body, log) or - for stdin")
    p.add_argument("-o", "--output", default="-", help="where to write the repaired file (- for stdout, the default)")
    p.add_argument("--target", choices=TARGETS, help="provider the output must satisfy (default: the dialect's own)")
    p.add_argument("--from", dest="dialect", choices=names(), help="read as this dialect instead of detecting it")
    p.add_argument("--report", help="write the repair report (JSON) to this file")
    p.add_argument("--markdown", help="write a readable Markdown transcript of the repaired file here")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="RULE=ACTION",
                   help="choose an action, e.g. TC001=remove_call, TC002=note, TC005=first, TC022=placeholder, "
                        "TC019=drop_leading, TC009=keep, TC020=convert, TC024=keep, relink=false (option names work "
                        "too: orphan=note); every default and choice: docs/repair.md")
    p.add_argument("--dry-run", action="store_true",
                   help="print the plan (every change, what would go to the quarantine, what cannot be fixed) "
                        "and write nothing")
    p.add_argument("--placeholder", help="text of placeholder results ({id} and {name} are filled in)")
    p.add_argument("--bridge", help="text of a synthesized assistant message that bridges a role order")
    p.add_argument("--unfixable", metavar="OUT",
                   help="JSON Lines datasets: write the records repair cannot fix safely here (as they came), "
                        "and only the others to --output")
    p.add_argument("--jobs", "-j", type=int, default=None,
                   help="JSON Lines datasets: worker processes (default: the core count)")


def write_output(target: str, data: bytes | RepairResult) -> None:
    """Write bytes, or a ``RepairResult``'s output streamed, to a path or - (stdout)."""
    if not isinstance(data, bytes) and target != "-" and data.reads_back(target):
        data = data.output  # the output is the input file read again: read it before truncating it
    if isinstance(data, bytes):
        raw = data

        def write(f: BinaryIO) -> None:
            f.write(raw)
    else:
        write = data.write
    if target == "-":
        write(sys.stdout.buffer)
        sys.stdout.buffer.flush()
        return
    try:
        with open(target, "wb") as f:
            write(f)
    except InputError:  # the output cannot be written (a store repair cannot write): no half-written file
        os.remove(target)
        raise
    except OSError as exc:
        raise InputError(f"cannot write the file ({exc.strerror or exc})", target) from None


def folder_format(path: str) -> Any:
    """The dialect that keeps a conversation in the folder ``path`` (``Dialect.read_folder``), or None."""
    if path == "-" or not os.path.isdir(path):
        return None
    from ..dialects import all_dialects

    return next((d for d in all_dialects() if d.read_folder(path) is not None), None)


def run_repair(args: argparse.Namespace) -> int:
    from ..export import to_markdown
    from ..repairing import options_from_settings, repair

    base = {k: v for k, v in (("placeholder", args.placeholder), ("bridge", args.bridge)) if v is not None}
    options = options_from_settings(args.settings, base)
    outs = [x for x in (args.output, args.report, args.markdown) if x == "-"]
    if len(outs) > 1:
        raise InputError("only one of --output, --report and --markdown can be - (stdout)")
    dataset = _is_dataset(args.path)
    if args.dry_run and dataset:
        raise InputError("--dry-run is for one transcript; for a JSON Lines dataset, write the changes with --report",
                         args.path)
    if dataset:
        return _repair_dataset(args, options)
    if args.unfixable:
        raise InputError("--unfixable applies to JSON Lines datasets (one transcript per line)", args.path)
    folder = folder_format(args.path)
    if folder is not None and not args.dry_run and (args.output == "-" or os.path.exists(args.output)):
        raise InputError("is a conversation folder (one file per event): repair writes it back as a folder; name a "
                         "new folder with -o", args.path)
    if not args.dry_run:
        _new_database_only(args.path, args.output)
    result = repair(args.path, args.target, options, dialect=args.dialect)
    rep = result.report
    if args.dry_run:
        sys.stdout.write(plan_text(rep))
        sys.stdout.flush()
        return EXIT_OK if rep.ok else EXIT_FINDINGS
    if folder is not None:
        folder.write_folder(result.output, args.path, args.output)
    else:
        write_output(args.output, result)
    if args.report:
        write_output(args.report, rep.to_json())
    if args.markdown:
        write_output(args.markdown, to_markdown(result.document, rep).encode())
    fb, fa = rep.findings_before, rep.findings_after
    lines = [(f"inspector: {len(rep.changes)} changes, {len(rep.quarantine)} taken out into the report's quarantine; "
             f"target {rep.target}: {fb['error']} errors before, {fa['error']} after.")]
    lines += [f"inspector: not fixed: {u}" for u in rep.unfixed]
    for f in rep.input_findings:
        kept = ("the output is the input unchanged, key and all" if result.unchanged
                else f"the output keeps the last of its {len(f['values'])} values")
        lines.append(f"inspector: duplicate key at {f['path']}: {kept}; every value is in the report's input_findings"
                     + ("" if args.report else " (write it with --report)"))
    sys.stderr.write("\n".join(lines) + "\n")
    return EXIT_OK if rep.ok else EXIT_FINDINGS


def _new_database_only(path: str, output: str) -> None:
    """A SQLite session store is repaired into a new database file: never to stdout, never over its input."""
    import os

    from ..reading import path_is_database

    if not path_is_database(path):
        return
    if output == "-":
        raise InputError("a SQLite session store is repaired into a new database file: name it with -o", path)
    if os.path.exists(output) and os.path.samefile(path, output):
        raise InputError("the repaired database is written to a new file, never over its input: name another with -o",
                         path)


def plan_text(rep: RepairReport) -> str:
    """What repair would do, for ``--dry-run``: one line per change, per quarantined item, per
    thing it cannot fix; nothing is written."""
    def where(i: int | None) -> str:
        return "new" if i is None else f"#{i}"

    lines = [f"Repair plan for target {rep.target} ({rep.dialect}); nothing written (--dry-run)."]
    fb, fa = rep.findings_before, rep.findings_after
    lines.append(f"{len(rep.changes)} change(s); errors {fb['error']} before, {fa['error']} after.")
    for n, c in enumerate(rep.changes, 1):
        moved = f"{where(c.index_before)} -> {'out' if c.index_after is None else where(c.index_after)}"
        t = f"transcript {c.transcript}, " if c.transcript else ""
        lines.append(f"  {n}. {c.action} ({c.code}) {t}{moved}: {c.text}")
    if rep.quarantine:
        lines.append(f"{len(rep.quarantine)} item(s) would go to the report's quarantine:")
        lines += [f"  - message #{q.index} ({q.code}): {q.reason}" for q in rep.quarantine]
    if rep.id_map:
        lines.append("ids renamed: " + ", ".join(f"{k} -> {v}" for k, v in rep.id_map.items()))
    lines += [f"not fixed: {u}" for u in rep.unfixed]
    return "\n".join(lines) + "\n"


def _is_dataset(path: str) -> bool:
    """A JSON Lines file with one transcript per line: repaired streamed, record by record."""
    from ..scan.sources import kind_of

    if path == "-" or not Path(path).is_file():
        return False
    try:
        return kind_of(path) == "lines"
    except OSError:
        return False


def _repair_dataset(args: argparse.Namespace, options: RepairOptions) -> int:
    from ..scan.local import default_jobs
    from ..scan.progress import Progress
    from ..scan.repair_stream import repair_dataset

    if args.markdown:
        raise InputError("--markdown is for one transcript; a dataset's changes go to --report (JSON Lines)")
    outs = [x for x in (args.output, args.report, args.unfixable) if x == "-"]
    if len(outs) > 1:
        raise InputError("only one of --output, --report and --unfixable can be - (stdout)")
    jobs = args.jobs or default_jobs()
    progress = Progress(Path(args.path).stat().st_size, False if args.output == "-" else None)
    try:
        t = repair_dataset(args.path, args.output, args.unfixable, args.report, args.target, options,
                           args.dialect, jobs, sys.stdout.buffer, progress)
    finally:
        progress.close()
    if t["records"] and t["unreadable"] == t["records"]:  # no line is a transcript: refused, as check and scan do
        for name in {args.output, args.unfixable, args.report} - {None, "-"}:
            Path(name).unlink(missing_ok=True)
        raise InputError(f"no transcript could be read in {args.path}; first: {t['first_problem']}")
    where = f" (written to {args.unfixable})" if args.unfixable else " (kept in the output, repaired as far as safe)"
    lines = [(f"inspector: {t['records']} records: {t['repaired']} repaired, {t['clean']} already clean, "
             f"{t['unfixed']} not fixed safely{where if t['unfixed'] else ''}.")]
    if t["first_problem"]:
        lines.append(f"inspector: first not fixed: {t['first_problem']}")
    sys.stderr.write("\n".join(lines) + "\n")
    return EXIT_OK if not t["unfixed"] else EXIT_FINDINGS


command("repair", "repair a transcript for a target, losing nothing, with a report of every change",
        _arguments)(run_repair)
