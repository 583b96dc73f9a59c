"""``inspector explain PATH --error TEXT``: the app's "paste the error" reading on the command line.

The provider's 400 text (from ``--error`` or stdin) names message indexes, tool call ids and a
wording that maps to rules (``inspector.provider_errors``); the transcript is checked and each
message the text points at is printed with its findings, the provider's words and the fix.

Exit codes: 0 the error was traced to messages of the file, 1 nothing in the file matches it,
2 the input cannot be read (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..errors import InputError
from .options import add_input_options
from .parser import EXIT_FINDINGS, EXIT_OK, command

if TYPE_CHECKING:
    from ..containers import Document
    from ..provider_errors import PastedError


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="the transcript that was sent (JSON, JSON Lines, request body, log)")
    p.add_argument("--error", help="the provider's error text (default: read it from stdin)")
    p.add_argument("--transcript", type=int, default=0, help="which transcript of the file, 0-based (default 0)")
    add_input_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def _target_for(args: argparse.Namespace, err: PastedError, doc: Document) -> str | None:
    """The user's target, else the provider whose wording the error has, when it fits the dialect."""
    if args.target or not err.provider:
        named: str | None = args.target
        return named
    from ..checking import dialects_for

    read_as = dialects_for(doc, args.dialect)
    return err.provider if read_as and err.provider in read_as[0].targets else None


def run_explain(args: argparse.Namespace) -> int:
    from ..checking import check_plain
    from ..ci_output import Locator
    from ..jsonio import dumps
    from ..provider_errors import locate, not_in_file, parse_error, reading
    from ..reading import read_document
    from ..report import Finding

    text = args.error
    if text is None:
        if args.path == "-":
            raise InputError("the transcript comes from stdin, so give the error with --error TEXT")
        text = sys.stdin.read()
    if not text.strip():
        raise InputError("no error text: pass --error TEXT or pipe the provider's error on stdin")
    err = parse_error(text)
    doc = read_document(args.path, args.python_repr)
    report, analyses = check_plain(doc, _target_for(args, err, doc), args.dialect)
    n = args.transcript
    if not 0 <= n < len(analyses):
        raise InputError(f"--transcript {n}: the file has {len(analyses)} transcript(s)")
    a = analyses[n]
    plain = [f for f in report["findings"] if f["transcript"] == n]
    findings = [Finding.model_validate(f) for f in plain]
    hits = locate(err, a.msgs, findings, a.turns)
    loc = Locator(doc, analyses)
    if args.format == "json":
        ids, indexes = not_in_file(err, a.msgs, a.turns)
        out = {
            "target": report["target"], "dialect": report["dialect"],
            "read": {"indexes": err.indexes, "ids": err.ids, "rules": err.rules, "provider": err.provider},
            "not_in_file": {"ids": ids, "indexes": indexes},
            "messages": [{"index": h.index, "line": loc.line(n, h.index), "reasons": h.reasons,
                          "findings": [f.model_dump() for f in h.findings]} for h in hits],
        }
        sys.stdout.buffer.write(dumps(out))
        return EXIT_OK if hits else EXIT_FINDINGS
    lines = reading(err, a.msgs, a.turns)
    if not hits:
        lines.append("No message of this transcript matches it.")
    for h in hits:
        line = loc.line(n, h.index)
        where = f"{doc.source}:{line}" if line is not None else f"{doc.source}:{h.index}"
        lines.append("")
        lines.append(f"{where}: message #{h.index} ({a.msgs[h.index].role}): {'; '.join(h.reasons)}")
        for f in h.findings:
            lines.append(f"  {f.code} {f.severity} {f.rule}: {f.text}")
            if f.provider_error:
                lines.append(f"    {report['target']} says: {f.provider_error}")
            if f.hint:
                lines.append(f"    hint: {f.hint}")
        if not h.findings:
            lines.append("  no finding of the inspector's rules on this message")
    if hits and any(h.findings for h in hits):
        lines.append("")
        lines.append(f"Fix: inspector repair {doc.source} --target {report['target']} -o repaired.json "
                     "(see `inspector repair --help` for the choices per rule)")
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK if hits else EXIT_FINDINGS


command("explain", "trace a provider's error text to the messages and rules behind it", _arguments)(run_explain)
