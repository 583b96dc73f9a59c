"""``inspector watch PATH [--fail-fast]``: follow a session file while an agent appends to it and
print each new finding once, when it appears, in ``check``'s format (``inspector.watching``).

Exit codes: 1 at the first error with ``--fail-fast``; 0 when interrupted (or, with ``--once``,
after reading the file as it is and printing its findings); 2 when the file cannot be read."""

from __future__ import annotations

import argparse
import os
import sys
import time

from ..errors import InputError
from .parser import EXIT_FINDINGS, EXIT_OK, command


def _arguments(p: argparse.ArgumentParser) -> None:
    from ..dialects import names
    from ..targets import TARGETS

    p.add_argument("path", help="the session file (JSON Lines) to follow")
    p.add_argument("--fail-fast", action="store_true", help="exit 1 at the first error")
    p.add_argument("--target", choices=sorted(TARGETS), help="the provider whose rules apply (default: the file's)")
    p.add_argument("--from", dest="dialect", choices=names(), help="the file's format (default: detected)")
    p.add_argument("--interval", type=float, default=0.25, help="seconds between two looks at the file (default 0.25)")
    p.add_argument("--once", action="store_true", help="read the file as it is, print its findings and stop")


def run_watch(args: argparse.Namespace) -> int:
    from ..watching import Follower
    from .check import _colour, _text_lines

    if os.path.isdir(args.path):  # an OpenHands conversation folder: one file per event, not one file appended to
        raise InputError("is a directory: watch follows one session file as it grows (check reads a conversation "
                         "folder)", args.path)
    follower = Follower(args.path, args.target, args.dialect)
    paint = _colour(sys.stdout.isatty())
    out = sys.stdout
    while True:
        new, loc, report = follower.poll()
        if follower.restarted:
            out.write(f"{args.path}: {follower.restarted}: reading it again from the start\n")
        if new and report is not None:
            out.write("\n".join(_text_lines(report, args.path, loc, paint)) + "\n")
            out.flush()
            if args.fail_fast and any(f["severity"] == "error" for f in new):
                return EXIT_FINDINGS
        if args.once:
            return EXIT_OK
        out.flush()
        time.sleep(args.interval)  # polling the file: the agent appends whenever it likes


run_watch.arguments = _arguments  # type: ignore[attr-defined]
command("watch", "follow a session file as an agent appends to it; print each new finding once")(run_watch)
