"""``inspector check|...``: the engine for scripts and CI.

Exit codes: 0 no error-severity finding, 1 at least one, 2 the input cannot be read (one line on
stderr, never a traceback). Output is text like a linter, or one JSON object (``--format json``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable

from .errors import InputError

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT = 0, 1, 2

# What a command read stays referenced until ``entry`` ends the process with ``os._exit``:
# freeing a 35 MB parsed document object by object costs more than checking it.
_keep_until_exit: list = []

# Subcommands: name -> (add arguments, run). Modules add theirs with ``command``.
_COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {}


def command(name: str, help: str):
    """Register a subcommand: decorate ``run(args) -> exit code``; ``run.arguments(parser)`` adds options."""

    def wrap(run):
        _COMMANDS[name] = (help, getattr(run, "arguments", lambda p: None), run)
        return run

    return wrap


def _colour(enabled: bool):
    codes = {"error": "31", "warning": "33", "info": "36", "bold": "1"}

    def paint(text: str, what: str) -> str:
        return f"\x1b[{codes[what]}m{text}\x1b[0m" if enabled else text

    return paint


def _add_check_args(p: argparse.ArgumentParser) -> None:
    from .dialects import names
    from .targets import TARGETS

    p.add_argument("path", help="transcript file (JSON, JSON Lines, request body, log) or - for stdin")
    p.add_argument("--target", choices=TARGETS, help="provider whose rules apply (default: the dialect's own)")
    p.add_argument("--from", dest="dialect", choices=names(), help="read as this dialect instead of detecting it")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def run_check(args: argparse.Namespace) -> int:
    from . import load
    from .check import check_plain, counts, verdict
    from .jsonio import dumps

    doc = load(args.path)
    report, analyses = check_plain(doc, args.target, args.dialect)
    _keep_until_exit.append((doc, analyses))
    if args.format == "json":
        sys.stdout.buffer.write(dumps(report))
    else:
        paint = _colour(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
        label = doc.source
        many = report["transcripts"] > 1
        labels = report["transcript_labels"]
        lines = []
        for f in report["findings"]:
            at = f"{label}:{labels[f['transcript']]}:{f['message_index']}" if many else f"{label}:{f['message_index']}"
            lines.append(f"{at}: {f['code']} {paint(f['severity'], f['severity'])} {f['rule']}: {f['text']}")
            if f["provider_error"]:
                lines.append(f"    {report['target']} says: {f['provider_error']}")
            if f["hint"]:
                lines.append(f"    hint: {f['hint']}")
        c = counts(report["findings"])
        lines.append(
            paint(
                f"{report['message_count']} messages in {report['transcripts']} transcript(s), "
                f"dialect {report['dialect']}, target {report['target']}: {c['error']} errors, "
                f"{c['warning']} warnings, {c['info']} notes. {verdict(report)}",
                "bold",
            )
        )
        sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_FINDINGS if counts(report["findings"])["error"] else EXIT_OK


run_check.arguments = _add_check_args
command("check", "check a transcript and report every rule break")(run_check)


def _load_extra_commands() -> None:
    # Commands that live beside their engine; importing them registers them.
    import importlib

    for mod in ("inspector.repair_cli", "inspector.share_cli"):
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name != mod:
                raise


def build_parser() -> argparse.ArgumentParser:
    _load_extra_commands()
    parser = argparse.ArgumentParser(
        prog="inspector", description="Check and repair tool-call transcripts of LLM agents."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (help, add, run) in _COMMANDS.items():
        p = sub.add_parser(name, help=help, description=help)
        add(p)
        p.set_defaults(run=run)
    return parser


def entry() -> None:
    """Console entry point: run, flush, and leave without tearing down what was read."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except InputError as exc:
        sys.stderr.write(f"inspector: {exc}\n")
        return EXIT_INPUT
    except RecursionError:
        sys.stderr.write("inspector: the input is nested too deeply to be a transcript\n")
        return EXIT_INPUT
    except MemoryError:
        sys.stderr.write("inspector: the input is too large to hold in memory\n")
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the last line of defence: a user never sees a traceback
        if os.environ.get("INSPECTOR_DEBUG"):
            raise
        sys.stderr.write(f"inspector: could not process this input ({type(exc).__name__}: {exc}); please report it\n")
        return EXIT_INPUT
