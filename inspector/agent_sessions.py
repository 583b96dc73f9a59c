"""Where coding agents keep their session files, and a one-line verdict on each (``inspector sessions``).

Each agent's folder under a home directory (``--root``, default ``~``; ``CODEX_HOME`` moves
Codex's as Codex itself does):

- ``claude-code``: ``.claude/projects/<project>/<session>.jsonl``;
- ``codex``: ``.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``;
- ``gemini``: ``.gemini/tmp/<project hash>/chats/session-*.jsonl`` (``.json`` before v0.39).

A row is read with ``check`` (the same reading as every other door): its agent, project, start,
message count, the verdict for the target the session names, and its first error.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .errors import InputError

AGENTS = {
    "claude-code": (".claude/projects", ("*/*.jsonl",)),
    "codex": (".codex/sessions", ("*/*/*/rollout-*.jsonl", "rollout-*.jsonl")),
    "gemini": (".gemini/tmp", ("*/chats/session-*.jsonl", "*/chats/session-*.json")),
}


@dataclass
class SessionRow:
    agent: str
    path: str
    project: str
    modified: float
    started: str | None = None
    messages: int | None = None
    dialect: str | None = None
    target: str | None = None
    errors: int | None = None
    verdict: str = ""
    first_error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def agent_folder(agent: str, root: Path) -> Path:
    rel, _ = AGENTS[agent]
    if agent == "codex" and os.environ.get("CODEX_HOME"):
        return Path(os.environ["CODEX_HOME"]) / "sessions"
    return root / rel


def find(agent: str | None = None, root: str | os.PathLike | None = None) -> list[tuple[str, Path, float]]:
    """``(agent, path, mtime)`` of every session file, newest first."""
    if agent is not None and agent not in AGENTS:
        raise InputError(f"--agent {agent!r}: the agents are {', '.join(AGENTS)}")
    home = Path(root).expanduser() if root is not None else Path.home()
    if root is not None and not home.is_dir():
        raise InputError("is not a directory", str(home))
    out: list[tuple[str, Path, float]] = []
    for name in [agent] if agent else list(AGENTS):
        folder = agent_folder(name, home)
        for pattern in AGENTS[name][1]:
            for p in folder.glob(pattern):
                try:
                    out.append((name, p, p.stat().st_mtime))
                except OSError:
                    continue
    out.sort(key=lambda x: (-x[2], str(x[1])))
    return out


def _project(agent: str, path: Path, folder: Path) -> str:
    try:
        rel = path.relative_to(folder)
    except ValueError:
        return ""
    if agent == "claude-code":
        return rel.parts[0]  # Claude Code's own name for the project's folder (the path, dashed)
    if agent == "gemini":
        return rel.parts[0]  # the project's hash
    return ""


def _started_and_cwd(doc: Any) -> tuple[str | None, str | None]:
    """The first timestamp a session records, and the cwd it names (Codex's session_meta, ...)."""
    started = cwd = None
    root = doc.root if type(doc.root) is list else [doc.root]
    for e in root[:50]:
        if type(e) is not dict:
            continue
        payload = e.get("payload") if type(e.get("payload")) is dict else e
        if started is None:
            t = e.get("timestamp") or e.get("startTime")
            started = t if type(t) is str else None
        if cwd is None and type(payload.get("cwd")) is str:
            cwd = payload["cwd"]
        if started and cwd:
            break
    return started, cwd


def row(agent: str, path: Path, mtime: float, root: Path) -> SessionRow:
    """One session, read and checked as ``check`` reads it."""
    from .checking import check_document
    from .reading import load_path

    r = SessionRow(agent=agent, path=str(path), project=_project(agent, path, agent_folder(agent, root)),
                   modified=mtime)
    try:
        doc = load_path(path)
        report, _ = check_document(doc)
    except InputError as exc:
        r.verdict = f"unreadable: {exc}"
        return r
    r.started, cwd = _started_and_cwd(doc)
    if cwd and not r.project:
        r.project = cwd
    r.messages, r.dialect, r.target = report.message_count, report.dialect, report.target
    errs = [f for f in report.findings if f.severity == "error"]
    r.errors = len(errs)
    r.verdict = "would reject" if errs else "would accept"
    r.first_error = errs[0].text if errs else None
    return r


def sessions(agent: str | None = None, root: str | os.PathLike | None = None, last: int = 20) -> list[SessionRow]:
    """The newest ``last`` sessions, each read and checked."""
    home = Path(root).expanduser() if root is not None else Path.home()
    return [row(a, p, m, home) for a, p, m in find(agent, root)[: max(last, 0)]]
