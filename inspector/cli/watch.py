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

    p.add_argument("path", help="the session file (JSON Lines) to follow, or a session's folder (an OpenHands "
                                "conversation folder, a Copilot CLI session-state folder)")
    p.add_argument("--fail-fast", action="store_true", help="exit 1 at the first error")
    p.add_argument("--target", choices=sorted(TARGETS), help="the provider whose rules apply (default: the file's)")
    p.add_argument("--from", dest="dialect", choices=names(), help="the file's format (default: detected)")
    p.add_argument("--interval", type=float, default=0.25, help="seconds between two looks at the file (default 0.25)")
    p.add_argument("--once", action="store_true", help="read the file as it is, print its findings and stop")


def run_watch(args: argparse.Namespace) -> int:
    from ..watching import FolderFollower, Follower, session_file_in
    from .check import _colour, _text_lines

    path = args.path
    follower: Follower | FolderFollower
    if os.path.isdir(path) and session_file_in(path) is not None:  # a session's folder around its one log file
        path = str(session_file_in(path))
        follower = Follower(path, args.target, args.dialect)
    elif os.path.isdir(path):
        from ..reading import read_folder

        if read_folder(path) is None:
            raise InputError(_not_one_session(path), path)
        follower = FolderFollower(path, args.target, args.dialect)
    else:
        follower = Follower(path, args.target, args.dialect)
    waiting = None
    paint = _colour(sys.stdout.isatty())
    out = sys.stdout
    while True:
        new, loc, report = follower.poll()
        if follower.restarted:
            out.write(f"{path}: {follower.restarted}: reading it again from the start\n")
        if isinstance(follower, FolderFollower) and follower.waiting != waiting:
            waiting = follower.waiting
            if waiting is not None:
                out.write(f"{path}: cannot be read as it now is ({waiting}); waiting for the agent to write again\n")
        if new and report is not None:
            out.write("\n".join(_text_lines(report, path, loc, paint)) + "\n")
            out.flush()
            if args.fail_fast and any(f["severity"] == "error" for f in new):
                return EXIT_FINDINGS
        if args.once:
            return EXIT_OK
        out.flush()
        time.sleep(args.interval)  # polling the file: the agent appends whenever it likes


def _not_one_session(folder: str) -> str:
    """Why a folder cannot be watched, naming what to pass instead (its newest session file or folder)."""
    try:
        inside = [e for e in os.scandir(folder) if e.is_dir() and not e.name.startswith(".")
                  or e.is_file() and e.name.endswith(".jsonl")]
    except OSError:
        inside = []
    newest = max(inside, key=lambda e: e.stat().st_mtime, default=None)
    example = f" (the newest in it: {newest.path})" if newest is not None else ""
    return ("is a folder that is not one session: watch follows one session, a session file (JSON Lines) or a "
            "session's folder (an OpenHands conversation folder of event files, a Copilot CLI session-state/<id> "
            f"folder); pass one of those{example}")


run_watch.arguments = _arguments  # type: ignore[attr-defined]
command("watch", "follow a session file as an agent appends to it; print each new finding once")(run_watch)
