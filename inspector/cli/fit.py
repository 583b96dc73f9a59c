"""``inspector fit``: cut a transcript to a token budget by whole units, with a report of what went.

Exit codes: 0 the output fits the budget and the target accepts it; 1 it cannot (the protected
messages alone exceed the budget, or only a seam between protected messages would be left), or
the input has errors a fit cannot remove: one line saying why, and no fitted file is written (a
fit removes whole units and fixes nothing; ``--repair`` repairs first, then fits, in one step);
2 the input cannot be read or an option is wrong.

The system prompt and the first user message (the task) are kept unless ``--no-keep-system`` /
``--no-keep-first-user`` say otherwise: a fitted file without its task is another conversation.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import InputError
from .parser import EXIT_FINDINGS, EXIT_OK, command


def _arguments(p: argparse.ArgumentParser) -> None:
    from ..tokens import COUNTERS
    from .options import add_input_options

    p.add_argument("path", help="transcript file (JSON, JSON Lines, request body, log) or - for stdin")
    p.add_argument("--max-tokens", type=int, required=True, metavar="N", help="the budget, in tokens")
    add_input_options(p)
    p.add_argument("--keep-system", action=argparse.BooleanOptionalAction, default=True,
                   help="never remove system (and developer) messages (default: kept)")
    p.add_argument("--keep-first-user", action=argparse.BooleanOptionalAction, default=True,
                   help="never remove the first user message, the task (default: kept)")
    p.add_argument("--repair", action="store_true",
                   help="repair first (default repair options), then fit the repaired file: for an input the "
                        "target rejects as it is")
    p.add_argument("--keep-last", type=int, default=0, metavar="K", help="never remove the last K messages (and their units)")
    p.add_argument("--strategy", choices=("drop-oldest", "drop-middle"), default="drop-oldest",
                   help="remove the oldest units first (default), or those nearest the middle, keeping head and tail")
    p.add_argument("--tokenizer", dest="counter", choices=COUNTERS,
                   help="how to count (default: o200k_base for OpenAI targets, a labelled estimate for the others)")
    p.add_argument("-o", "--output", default="-", help="where to write the fitted file (- for stdout, the default)")
    p.add_argument("--report", help="write the fit report (JSON: every removed unit, whole) to this file")


def run_fit(args: argparse.Namespace) -> int:
    from ..fitting import FitError, fit, repair_and_fit
    from ..jsonio import dumps
    from .repair import folder_format, write_output

    if args.output == "-" and args.report == "-":
        raise InputError("only one of --output and --report can be - (stdout)")
    folder = folder_format(args.path)
    if folder is not None and (args.output == "-" or os.path.exists(args.output)):
        raise InputError("is a conversation folder (one file per event): fit writes it back as a folder; name a "
                         "new folder with -o", args.path)
    options = {"keep_system": args.keep_system, "keep_first_user": args.keep_first_user,
               "keep_last": args.keep_last, "strategy": args.strategy, "counter": args.counter}
    source = args.path
    if args.python_repr:
        from ..reading import read_document

        source = read_document(args.path, True)
    try:
        if args.repair:
            result = repair_and_fit(source, args.max_tokens, args.target, options, dialect=args.dialect)
        else:
            result = fit(source, args.max_tokens, args.target, options, dialect=args.dialect)
    except FitError as exc:
        sys.stderr.write(f"inspector: cannot fit: {exc}\n")
        return EXIT_FINDINGS
    rep = result.report
    if rep["errors_after"]:
        # Never hand over a file the provider rejects: say why, write nothing but the report.
        if args.report:
            write_output(args.report, dumps(rep))
        if args.repair:
            why = "; ".join(rep["repair"]["unfixed"]) or "see the report"
            sys.stderr.write(f"inspector: cannot fit: the repaired, fitted file still has {rep['errors_after']} "
                             f"error(s) for {rep['target']} (not fixed: {why}); no file written.\n")
        else:
            sys.stderr.write(f"inspector: cannot fit: the input has {rep['errors_before']} error(s) for {rep['target']} "
                             f"and a fit keeps them ({rep['errors_after']} in the fitted file); no file written. "
                             "Run with --repair to repair, then fit, in one step.\n")
        return EXIT_FINDINGS
    if folder is not None:
        folder.write_folder(result.output, args.path, args.output)
    else:
        write_output(args.output, result.output)
    if args.report:
        write_output(args.report, dumps(rep))
    counter = rep["counter"]
    lines = [(f"inspector: repaired first: {rep['repair']['errors_before']} error(s) before, "
             f"{len(rep['repair']['changes'])} change(s), {len(rep['repair']['quarantine'])} taken out (in the report).")
             ] if "repair" in rep else []
    lines += [(f"inspector: {rep['tokens_before']} -> {rep['tokens_after']} tokens (budget {rep['max_tokens']}, "
             f"{counter['label']}); {len(rep['removed'])} units removed "
             f"({sum(len(u['messages']) for u in rep['removed'])} messages), each in the report whole.")]
    sys.stderr.write("\n".join(lines) + "\n")
    return EXIT_OK


command("fit", "cut a transcript to a token budget by whole units, never breaking a tool call from its result",
        _arguments)(run_fit)
