"""Options several commands share, each added by one public helper."""

from __future__ import annotations

import argparse


def add_input_options(p: argparse.ArgumentParser) -> None:
    """Options every command that reads a transcript shares."""
    from ..dialects import names
    from ..targets import TARGETS

    p.add_argument("--target", choices=TARGETS, help="provider whose rules apply (default: the dialect's own)")
    p.add_argument("--from", dest="dialect", choices=names(), help="read as this dialect instead of detecting it")
    p.add_argument("--python-repr", action="store_true",
                   help="read input that is a Python repr (print(messages)) as a Python literal (ast.literal_eval)")


def add_token_options(p: argparse.ArgumentParser) -> None:
    """``--tokens`` and ``--tokenizer``: token counts in a report."""
    from ..tokens import COUNTERS

    p.add_argument("--tokens", action="store_true", help="add token counts: the total and each message's")
    p.add_argument("--tokenizer", choices=COUNTERS,
                   help="how --tokens counts (default: o200k_base for OpenAI targets, a labelled estimate for the others)")


def add_loop_options(p: argparse.ArgumentParser) -> None:
    """Options of loop detection (``inspector.loops``), shared by check and scan."""
    p.add_argument("--loop-threshold", action="append", metavar="N|TOOL=N",
                   help="calls with the same tool and arguments that make a loop (default 3); TOOL=N sets one "
                        "tool's own (repeatable)")
    p.add_argument("--loop-allow", action="append", default=[], metavar="TOOL",
                   help="never report repeated calls of TOOL (repeatable)")
    p.add_argument("--loop-window", type=int, metavar="N",
                   help="a repeat counts when it comes within N calls of the one before "
                        "(default 2: one other call may come between; 1: in a row)")


def loop_options_of(args: argparse.Namespace):
    """The ``LoopOptions`` the loop flags ask for (``InputError`` on a bad value)."""
    from ..loops import loop_options

    return loop_options(args.loop_threshold, args.loop_allow, args.loop_window)
