"""Where coding agents keep their session files, and a one-line verdict on each (``inspector sessions``).

Each session-log dialect says where its agent keeps them (``Dialect.session_files``: Claude Code's
``.claude/projects/<project>/*.jsonl``, Codex's ``.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``
or ``$CODEX_HOME/sessions``, Gemini CLI's ``.gemini/tmp/<project hash>/chats/session-*``, Copilot
CLI's ``.copilot/session-state/<id>/events.jsonl``, OpenHands' ``.openhands/conversations/<id>/``
folders), under a
home directory (``--root``, default ``~``). A row is read with ``check`` (the same reading as
every other door): its agent, project, start, message count, the verdict for the target the
session names, and its first error.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .dialects.base import SessionFiles
from .errors import InputError


def agents() -> dict[str, SessionFiles]:
    """Every agent whose sessions a dialect reads, by the name ``--agent`` takes."""
    from .dialects import all_dialects

    return {d.session_files.agent: d.session_files for d in all_dialects() if d.session_files is not None}


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


def agent_folder(where: SessionFiles, root: Path) -> Path:
    if where.env and os.environ.get(where.env):
        return Path(os.environ[where.env]) / Path(where.folder).name
    return root / where.folder


def find(agent: str | None = None, root: str | os.PathLike[str] | None = None) -> list[tuple[str, Path, float]]:
    """``(agent, path, mtime)`` of every session file, newest first."""
    known = agents()
    if agent is not None and agent not in known:
        raise InputError(f"--agent {agent!r}: the agents are {', '.join(known)}")
    home = Path(root).expanduser() if root is not None else Path.home()
    if root is not None and not home.is_dir():
        raise InputError("is not a directory", str(home))
    out: list[tuple[str, Path, float]] = []
    for name in [agent] if agent else list(known):
        folder = agent_folder(known[name], home)
        for pattern in known[name].patterns:
            for p in folder.glob(pattern):
                try:
                    out.append((name, p, p.stat().st_mtime))
                except OSError:
                    continue
    out.sort(key=lambda x: (-x[2], str(x[1])))
    return out


def _project(where: SessionFiles, path: Path, folder: Path) -> str:
    """The project's folder name, where the agent names a folder after it (else "": the cwd the
    session records is used)."""
    try:
        rel = path.relative_to(folder)
    except ValueError:
        return ""
    return rel.parts[0] if where.project_folder and len(rel.parts) > 1 else ""


def _started_and_cwd(doc: Any) -> tuple[str | None, str | None]:
    """The first timestamp a session records, and the cwd it names (Codex's session_meta, ...)."""
    started = cwd = None
    root = doc.root if type(doc.root) is list else [doc.root]
    for e in root[:50]:
        if type(e) is not dict:
            continue
        payload: dict[str, Any] = next((e[k] for k in ("payload", "data") if type(e.get(k)) is dict), e)  # Codex, Copilot
        if started is None:
            t = e.get("timestamp") or e.get("startTime")
            started = t if type(t) is str else None
        context: dict[str, Any] = payload["context"] if type(payload.get("context")) is dict else payload
        for where in (payload, context):
            if cwd is None and type(where.get("cwd")) is str:
                cwd = where["cwd"]
        if started and cwd:
            break
    return started, cwd


def row(agent: str, path: Path, mtime: float, root: Path) -> SessionRow:
    """One session, read and checked as ``check`` reads it."""
    from .checking import check_document
    from .reading import load_path

    where = agents()[agent]
    r = SessionRow(agent=agent, path=str(path), project=_project(where, path, agent_folder(where, root)),
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


def sessions(agent: str | None = None, root: str | os.PathLike[str] | None = None, last: int = 20) -> list[SessionRow]:
    """The newest ``last`` sessions, each read and checked."""
    home = Path(root).expanduser() if root is not None else Path.home()
    return [row(a, p, m, home) for a, p, m in find(agent, root)[: max(last, 0)]]
