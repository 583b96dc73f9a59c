"""``inspector fit``: cut a transcript to a token budget by whole units, with a report of what went.

Exit codes: 0 the output fits the budget and breaks no rule the input kept; 1 it cannot (the
protected messages alone exceed the budget, or only a seam between protected messages would be
left): one line saying why, and by how much; 2 the input cannot be read or an option is wrong.
"""

from __future__ import annotations

import argparse
import sys

from .cli import EXIT_FINDINGS, EXIT_OK, command
from .errors import InputError


def _arguments(p: argparse.ArgumentParser) -> None:
    from .cli import _add_input_args
    from .tokens import COUNTERS

    p.add_argument("path", help="transcript file (JSON, JSON Lines, request body, log) or - for stdin")
    p.add_argument("--max-tokens", type=int, required=True, metavar="N", help="the budget, in tokens")
    _add_input_args(p)
    p.add_argument("--keep-system", action="store_true", help="never remove system (and developer) messages")
    p.add_argument("--keep-first-user", action="store_true", help="never remove the first user message")
    p.add_argument("--keep-last", type=int, default=0, metavar="K", help="never remove the last K messages (and their units)")
    p.add_argument("--strategy", choices=("drop-oldest", "drop-middle"), default="drop-oldest",
                   help="remove the oldest units first (default), or those nearest the middle, keeping head and tail")
    p.add_argument("--tokenizer", dest="counter", choices=COUNTERS,
                   help="how to count (default: o200k_base for OpenAI targets, a labelled estimate for the others)")
    p.add_argument("-o", "--output", default="-", help="where to write the fitted file (- for stdout, the default)")
    p.add_argument("--report", help="write the fit report (JSON: every removed unit, whole) to this file")


def run_fit(args: argparse.Namespace) -> int:
    from .fitting import FitError, fit
    from .jsonio import dumps
    from .repair_cli import _write

    if args.output == "-" and args.report == "-":
        raise InputError("only one of --output and --report can be - (stdout)")
    options = {"keep_system": args.keep_system, "keep_first_user": args.keep_first_user,
               "keep_last": args.keep_last, "strategy": args.strategy, "counter": args.counter}
    source = args.path
    if args.python_repr:
        from .cli import read_document

        source = read_document(args.path, True)
    try:
        result = fit(source, args.max_tokens, args.target, options, dialect=args.dialect)
    except FitError as exc:
        sys.stderr.write(f"inspector: cannot fit: {exc}\n")
        return EXIT_FINDINGS
    rep = result.report
    _write(args.output, result.output)
    if args.report:
        _write(args.report, dumps(rep))
    counter = rep["counter"]
    lines = [f"inspector: {rep['tokens_before']} -> {rep['tokens_after']} tokens (budget {rep['max_tokens']}, "
             f"{counter['label']}); {len(rep['removed'])} units removed "
             f"({sum(len(u['messages']) for u in rep['removed'])} messages), each in the report whole."]
    sys.stderr.write("\n".join(lines) + "\n")
    return EXIT_OK


run_fit.arguments = _arguments
command("fit", "cut a transcript to a token budget by whole units, never breaking a tool call from its result")(run_fit)
