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
