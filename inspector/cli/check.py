"""``inspector check``: the engine for scripts and CI.

Exit codes: 0 no error-severity finding, 1 at least one, 2 the input cannot be read (one line on
stderr, never a traceback). Output is text like a linter, or one JSON object (``--format json``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .options import add_input_options, add_loop_options, add_token_options, loop_options_of
from .parser import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, command, keep_until_exit

if TYPE_CHECKING:
    from ..checking import Analysis
    from ..ci_output import Locator

Report = dict[str, Any]  # the plain report of ``checking.check_plain``, the JSON contract
Paint = Callable[[str, str], str]


def _colour(enabled: bool) -> Paint:
    codes = {"error": "31", "warning": "33", "info": "36", "bold": "1"}

    def paint(text: str, what: str) -> str:
        return f"\x1b[{codes[what]}m{text}\x1b[0m" if enabled else text

    return paint


SEVERITY_RANK = {"info": 1, "warning": 2, "error": 3}
DEFAULT_GLOBS = ("*.json", "*.jsonl")


def _add_check_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="transcript files (JSON, JSON Lines, request body, log), directories, or - for stdin")
    add_input_options(p)
    p.add_argument("--glob", action="append", metavar="PATTERN",
                   help="files to check inside directories, searched recursively (repeatable; default: *.json and *.jsonl)")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), default="error",
                   help="lowest severity that makes the exit code 1 (default: error)")
    p.add_argument("--as-request", action="store_true",
                   help="judge the file as a request about to be sent, not as a log that simply ended "
                        "(a body naming a model is one already)")
    p.add_argument("--format", choices=("text", "json", "github", "sarif"), default="text",
                   help="output: text (default), json, github (Actions annotations) or sarif (SARIF 2.1.0)")
    add_token_options(p)
    add_loop_options(p)


def _loop_lines(report: Report, source: str, paint: Paint) -> list[str]:
    """One line per loop, then its calls' messages: after the rule findings, never an error."""
    lines = []
    many = report["transcripts"] > 1
    for f in report.get("loops", ()):
        at = f"{source}:{'t' + str(f['transcript'] + 1) + ':' if many else ''}#{f['message_index']}"
        lines.append(f"{at}: {f['code']} {paint(f['severity'], f['severity'])} {f['rule']}: {f['text']}")
        lines.append(f"    {f['count']} calls at messages {', '.join('#' + str(c['message_index']) for c in f['calls'])};"
                     f" {f['tokens']:,} tokens ({f['counter']})")
    return lines


def _loop_summary(report: Report) -> str:
    from ..loops import loop_totals

    t = loop_totals(report.get("loops", []))
    if not t["loops"]:
        return ""
    s = "s" if t["loops"] != 1 else ""
    return f" Loops: {t['loops']} loop{s}, {t['calls']:,} calls, {t['tokens']:,} tokens spent in them."


def _add_tokens(report: Report, analyses: list[Analysis], tokenizer: str | None) -> dict[str, Any]:
    """Put the ``tokens`` object (total, per-message counts, the counter's name) into ``report``."""
    from ..tokens import counter_for, token_summary

    counter = counter_for(report["target"], tokenizer)
    tokens: dict[str, Any] = token_summary([[m.raw for m in a.msgs] for a in analyses], counter)
    report["tokens"] = tokens
    return tokens


def expand_paths(paths: list[str], globs: list[str] | None) -> list[tuple[str, str | None]]:
    """Each file to check, with None, or the one-line reason a directory gave no file."""
    from pathlib import Path

    from ..reading import read_folder

    patterns = tuple(globs or DEFAULT_GLOBS)
    out: list[tuple[str, str | None]] = []
    for p in paths:
        if p != "-" and os.path.isdir(p) and read_folder(p) is None:
            found = sorted({str(f) for g in patterns for f in Path(p).rglob(g) if f.is_file()})
            if not found:
                out.append((p, f"{p}: is a directory with no file matching {' or '.join(patterns)}"))
            out.extend((f, None) for f in found)
        else:
            out.append((p, None))
    return out


def _fails(report: Report, fail_on: str) -> bool:
    floor = SEVERITY_RANK[fail_on]
    return any(SEVERITY_RANK[f["severity"]] >= floor for f in report["findings"])


def _why(report: Report) -> str:
    """`` (…)`` saying why the target was chosen, when the file chose it (a model or provider it
    names, a request URL) rather than the format's default."""
    if len(set(report.get("transcript_targets") or ())) > 1:
        return ""  # each transcript's reason is in the JSON report (transcript_target_reasons)
    reason = report.get("target_reason")
    return f" ({reason})" if reason and not reason.startswith("the default for") else ""


def _summary_line(report: Report) -> str:
    from ..checking import counts, dialects_text, targets_text, verdict

    c = counts(report["findings"])
    return (f"{report['message_count']:,} messages in {report['transcripts']:,} transcript(s), "
            f"{dialects_text(report)}, {targets_text(report)}{_why(report)}: {c['error']:,} errors, "
            f"{c['warning']:,} warnings, {c['info']:,} notes{_judged(report)}. {verdict(report)}{_loop_summary(report)}")


def _judged(report: dict[str, Any]) -> str:
    """`` (judged as a request: …)``: whether the file was read as a request or as a log, and why."""
    return f"; judged as a {report.get('judged_as', 'log')} ({report.get('judged_reason') or 'its own shape'})"


def _text_lines(report: Report, source: str, loc: Locator, paint: Paint) -> list[str]:
    from ..checking import value_line

    many = report["transcripts"] > 1
    lines = []
    for f in report["findings"]:
        name = loc.doc.transcripts[f["transcript"]].name  # a batch line's custom_id
        named = f" [{name}]" if many and name else ""
        lines.append(f"{loc.where(f, source, many)}:{named} {f['code']} {paint(f['severity'], f['severity'])} {f['rule']}: {f['text']}")
        if f["provider_error"]:
            lines.append(f"    {(report.get('transcript_targets') or [report['target']])[f['transcript']]} says: "
                         f"{f['provider_error']}")
        ev = f.get("evidence")
        seen = f" (evidence: {ev['source']}, {ev['date'] or 'undated'})" if ev else ""
        if f["hint"] or seen:
            lines.append(f"    hint: {f['hint'] or 'the provider behaviour behind this finding'}{seen}")
    for f in report.get("input_findings", ()):
        lines.append(f"{source}: {paint('warning', 'warning')} duplicate key at {f['path']}: {f['text']}")
        lines += [f"    value {k}: {value_line(v)}" for k, v in enumerate(f["values"], 1)]
    return lines


def run_check(args: argparse.Namespace) -> int:
    """Check every file; print findings in the chosen format, one summary; exit with the worst code."""
    from .. import __version__
    from ..checking import check_plain
    from ..ci_output import Locator, github_line, github_loop_line, github_unreadable, sarif_log
    from ..jsonio import dumps
    from ..reading import read_document, read_folder

    # One file named: its report is the output (the JSON contract) and its errors are the command's.
    # Directories and several paths give one report per file and a summary, however many are found.
    single = len(args.paths) == 1 and (args.paths[0] == "-" or not os.path.isdir(args.paths[0])
                                       or read_folder(args.paths[0]) is not None)
    files = expand_paths(args.paths, args.glob)
    paint = _colour(args.format == "text" and sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    checked: list[tuple[str, Report, Locator]] = []
    unreadable: list[tuple[str, str]] = []
    worst = EXIT_OK
    out = sys.stdout
    loops = loop_options_of(args)
    for path, problem in files:
        if problem is None:
            try:
                doc = read_document(path, args.python_repr)
                report, analyses = check_plain(doc, args.target, args.dialect, loops=loops,
                                               as_request=True if args.as_request else None)
            except InputError as exc:
                if single:
                    raise
                problem = f"{path}: {exc}" if not str(exc).startswith(path) else str(exc)
        if problem is not None:
            sys.stderr.write(f"inspector: {problem}\n")
            unreadable.append((path, problem))
            if args.format == "github":
                out.write(github_unreadable(path, problem) + "\n")
            worst = EXIT_INPUT
            continue
        keep_until_exit.append((doc, analyses))
        tokens = _add_tokens(report, analyses, args.tokenizer) if args.tokens or args.tokenizer else None
        loc = Locator(doc, analyses)
        checked.append((doc.source, report, loc))
        if _fails(report, args.fail_on):
            worst = max(worst, EXIT_FINDINGS)
        if args.format == "text":
            lines = _text_lines(report, doc.source, loc, paint) + _loop_lines(report, doc.source, paint)
            if tokens is not None:
                lines.append(f"{doc.source}: {tokens['total']:,} tokens ({tokens['label']})")
            if single:
                lines.append(paint(_summary_line(report), "bold"))
            if lines:
                out.write("\n".join(lines) + "\n")
        elif args.format == "github":
            for f in report["findings"]:
                out.write(github_line(f, doc.source, loc) + "\n")
            for f in report.get("loops", ()):  # after the rules' findings; never the exit code
                out.write(github_loop_line(f, doc.source, loc) + "\n")
    if args.format == "json":
        if single:
            sys.stdout.flush()
            sys.stdout.buffer.write(dumps(checked[0][1]))
        else:
            files_out = [{"path": src, **rep} for src, rep, _ in checked]
            files_out += [{"path": p, "error": msg} for p, msg in unreadable]
            sys.stdout.flush()
            sys.stdout.buffer.write(dumps({"files": files_out, "summary": _summary(checked, unreadable, args.fail_on)}))
    elif args.format == "sarif":
        sys.stdout.flush()
        sys.stdout.buffer.write(dumps(sarif_log(checked, unreadable, __version__)))
    elif not single or args.format == "github":
        s = _summary(checked, unreadable, args.fail_on)
        c = s["counts"]
        text = (f"{s['files']:,} file(s), {s['messages']:,} messages: {c['error']:,} errors, {c['warning']:,} warnings, "
                f"{c['info']:,} notes; {s['failing']:,} failing (--fail-on {args.fail_on})"
                + (f", {s['unreadable']:,} unreadable" if s["unreadable"] else "") + ".")
        if single:
            text = _summary_line(checked[0][1])
        out.write(paint(text, "bold") + "\n")
    return worst


def _summary(checked: list[tuple[str, Report, Locator]], unreadable: list[tuple[str, str]],
             fail_on: str) -> dict[str, Any]:
    from ..checking import counts

    total = {"error": 0, "warning": 0, "info": 0}
    for _, rep, _ in checked:
        for k, v in counts(rep["findings"]).items():
            total[k] += v
    return {
        "files": len(checked) + len(unreadable),
        "messages": sum(rep["message_count"] for _, rep, _ in checked),
        "counts": total,
        "failing": sum(1 for _, rep, _ in checked if _fails(rep, fail_on)),
        "unreadable": len(unreadable),
        "fail_on": fail_on,
    }


# (a check holds every document it read until the process ends: no garbage for the GC to find)
command("check", "check transcripts and report every rule break", _add_check_args, pause_gc=True)(run_check)
