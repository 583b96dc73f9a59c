"""``inspector COMMAND``: the registry of commands, the parser and the entry point.

Each command is one module of this package that registers itself with ``command`` when it is
imported; ``COMMAND_MODULES`` says which module holds which command, so a run imports only the
module of the command it names (help and an unknown command import them all).

Exit codes: 0 no error-severity finding, 1 at least one, 2 the input cannot be read (one line on
stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from ..errors import InputError

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT = 0, 1, 2

# What a command read stays referenced until ``entry`` ends the process with ``os._exit``:
# freeing a 35 MB parsed document object by object costs more than checking it.
keep_until_exit: list[object] = []

Arguments = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]

# Subcommands: name -> (help, add arguments, run). Modules add theirs with ``command``.
_COMMANDS: dict[str, tuple[str, Arguments, Run]] = {}
# The commands that run whole with the cyclic GC paused (``command(..., pause_gc=True)``).
_PAUSED: set[str] = set()


class _Help(argparse.HelpFormatter):
    """argparse's own formatter, told the terminal's width: argparse makes one per ``add_argument``
    (to check its metavar), and each asked ``shutil`` for it, an import of shutil, bz2 and lzma
    on every start-up of the CLI."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


def _columns() -> int:
    """``shutil.get_terminal_size().columns``: ``COLUMNS``, else the terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _no_arguments(p: argparse.ArgumentParser) -> None:
    return None


def command(name: str, help: str, arguments: Arguments | None = None, *, pause_gc: bool = False) -> Callable[[Run], Run]:
    """Register a subcommand: decorate ``run(args) -> exit code``; ``arguments(parser)`` adds its
    options (or ``run.arguments``, as commands written before this parameter set it).
    ``pause_gc``: the command runs whole with the cyclic GC paused (see ``main``): for a command
    that makes no garbage cycles to speak of and holds what it read until the process ends."""

    def wrap(run: Run) -> Run:
        add: Arguments = arguments if arguments is not None else getattr(run, "arguments", _no_arguments)
        _COMMANDS[name] = (help, add, run)
        if pause_gc:
            _PAUSED.add(name)
        return run

    return wrap


# Every command, by the module that registers it on import, in the order help lists them.
COMMAND_MODULES = {
    "check": "inspector.cli.check",
    "repair": "inspector.cli.repair",
    "fit": "inspector.cli.fit",
    "share": "inspector.cli.share",
    "unshare": "inspector.cli.share",
    "explain": "inspector.cli.explain",
    "scan": "inspector.cli.scan",
    "proxy": "inspector.cli.proxy",
    "inbox": "inspector.cli.inbox",
    "rules": "inspector.cli.rules",
    "sessions": "inspector.cli.sessions",
    "watch": "inspector.cli.watch",
    "diff": "inspector.cli.diff",
}


def load_commands(only: str | None = None) -> None:
    """Import the module of the command ``only`` names, or of every command."""
    import importlib

    wanted = [COMMAND_MODULES[only]] if only in COMMAND_MODULES else COMMAND_MODULES.values()
    for mod in dict.fromkeys(wanted):
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name != mod:
                raise


def _command_named(argv: list[str]) -> str | None:
    """The subcommand ``argv`` names (its first word, the top-level parser having no options but
    --help), or None."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given ``argv``, with only the subcommand it names when that one is known."""
    only = _command_named(argv) if argv is not None else None
    load_commands(only)
    parser = argparse.ArgumentParser(
        prog="inspector", description="Check and repair tool-call transcripts of LLM agents.", formatter_class=_Help
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (help, add, run) in _COMMANDS.items():
        if only in _COMMANDS and name != only:
            continue
        p = sub.add_parser(name, help=help, description=help, formatter_class=_Help)
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
    """Run the command ``argv`` names. Its start-up (its modules imported, its parser built) runs
    with the cyclic GC paused (``gc_pause.gc_paused``): those imports allocate tens of thousands of
    objects and no garbage, and the collections they set off cost a 4-message check about a tenth
    of its CPU time (issue 37). A ``pause_gc`` command keeps it paused to its end (the engine's
    imports are in its run); any other gets it back, as it was, once its arguments are read."""
    from ..gc_pause import gc_paused

    argv = sys.argv[1:] if argv is None else argv
    with gc_paused():
        parser = build_parser(argv)
        args = parser.parse_args(argv)
        if args.command in _PAUSED:
            return _run(args)
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    run: Run = args.run
    try:
        return run(args)
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
    except OSError as exc:  # writing the output: a full disk or a closed device is not a bug to report
        where = getattr(exc, "filename", None) or "the output"
        sys.stderr.write(f"inspector: cannot write {where} ({exc.strerror or exc})\n")
        return EXIT_INPUT
    except Exception as exc:  # the last line of defence: a user never sees a traceback
        if os.environ.get("INSPECTOR_DEBUG"):
            raise
        sys.stderr.write(f"inspector: could not process this input ({type(exc).__name__}: {exc}); please report it\n")
        return EXIT_INPUT
