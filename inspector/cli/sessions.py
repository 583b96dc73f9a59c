"""``inspector sessions [--agent A] [--root DIR] [--last N] [--format json]``: the newest coding-agent
sessions on this machine, each with the verdict ``check`` gives it (``inspector.agent_sessions``).

Exit codes: 0 listed (whatever the verdicts), 2 the options or the root cannot be used."""

from __future__ import annotations

import argparse
import sys

from .parser import EXIT_OK, command


def _arguments(p: argparse.ArgumentParser) -> None:
    from ..agent_sessions import agents

    p.add_argument("--agent", choices=list(agents()), help="only this agent's sessions")
    p.add_argument("--root", help="the home directory the agents' folders are in (default: ~), and the folder "
                                  "walked for SQLite session stores (default: the current directory)")
    p.add_argument("--last", type=int, default=20, help="how many of the newest sessions (default 20)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def run_sessions(args: argparse.Namespace) -> int:
    from ..agent_sessions import sessions
    from ..jsonio import dumps

    rows = sessions(args.agent, args.root, args.last)
    if args.format == "json":
        sys.stdout.write(dumps([r.as_dict() for r in rows]).decode() + "\n")
        return EXIT_OK
    if not rows:
        sys.stdout.write("no sessions found\n")
        return EXIT_OK
    for r in rows:
        what = f"{r.messages} messages, {r.target}: {r.verdict}" if r.messages is not None else r.verdict
        where = f"{r.path} (session {r.session})" if r.session is not None else r.path
        sys.stdout.write(f"{r.agent}  {r.started or '-'}  {r.project or '-'}  {what}\n  {where}\n")
        if r.first_error:
            sys.stdout.write(f"  first error: {r.first_error}\n")
    return EXIT_OK


run_sessions.arguments = _arguments  # type: ignore[attr-defined]
command("sessions", "list the newest coding-agent sessions and their verdicts")(run_sessions)
