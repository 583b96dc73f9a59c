"""``inspector diff A B``: two transcripts aligned call by call, and where they first diverge.

Exit codes as ``diff``: 0 when the runs do not diverge, 1 when they do, 2 when a file cannot be
read (one line on stderr). The JSON output is documented in ``docs/diff.md``.
"""

from __future__ import annotations

import argparse
import sys

from .options import add_input_options
from .parser import EXIT_FINDINGS, EXIT_OK, command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A", help="the first transcript (a file, or - for stdin)")
    p.add_argument("b", metavar="B", help="the second transcript")
    add_input_options(p)
    p.add_argument("--transcript", type=int, default=1, metavar="N",
                   help="which transcript of each file to compare, 1-based (default: the first)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output: text (default) or json")


def run_diff(args: argparse.Namespace) -> int:
    from ..diffing import diff_documents, diff_text
    from ..errors import InputError
    from ..jsonio import dumps
    from ..reading import read_document

    if args.transcript < 1:
        raise InputError(f"--transcript {args.transcript}: transcripts are numbered from 1")
    if args.a == "-" and args.b == "-":
        raise InputError("only one of A and B can be read from stdin")
    doc_a = read_document(args.a, args.python_repr)
    doc_b = read_document(args.b, args.python_repr)
    d = diff_documents(doc_a, doc_b, target=args.target, dialect=args.dialect, transcript=args.transcript - 1,
                       path_a=args.a, path_b=args.b)
    if args.format == "json":
        sys.stdout.flush()
        sys.stdout.buffer.write(dumps(d))
    else:
        sys.stdout.write(diff_text(d))
    return EXIT_OK if d["same"] else EXIT_FINDINGS


run_diff.arguments = _arguments  # type: ignore[attr-defined]
command("diff", "align two transcripts call by call and show where they diverge")(run_diff)
