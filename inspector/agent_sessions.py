"""Where coding agents keep their session files, and a one-line verdict on each (``inspector sessions``).

Each session-log dialect says where its agent keeps them (``Dialect.session_files``: Claude Code's
``.claude/projects/<project>/*.jsonl``, Codex's ``.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``
or ``$CODEX_HOME/sessions``, Gemini CLI's ``.gemini/tmp/<project hash>/chats/session-*``, Copilot
CLI's ``.copilot/session-state/<id>/events.jsonl``, OpenHands' ``.openhands/conversations/<id>/``
folders), under a
home directory (``--root``, default ``~``). A row is read with ``check`` (the same reading as
every other door): its agent, project, start, message count (the messages the harness sends, not
the log's lines), the verdict for the target the session names, and its first error.

The OpenAI Agents SDK (``SQLiteSession``) and Google ADK (``DatabaseSessionService``) keep their
sessions in a SQLite database the program names, wherever it likes: ``*.db``, ``*.sqlite`` and
``*.sqlite3`` files are looked for under ``--root`` (default: the current directory), walked
(hidden folders but ``STORE_FOLDERS``, ADK's ``.adk``, virtual environments and ``node_modules`` left out, at most
``STORE_DEPTH`` folders down); a database that is no session store is passed over. Each session of
a store is a row of its own (``session``: its id), whose path is the database (``check`` of it
reports every session).
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .dialects.base import SessionFiles
from .errors import InputError
from .special_files import not_a_file
from .sqlite_sessions import DATABASE_FILES, MESSAGE_SESSIONS, STORE_FOLDERS

# The Agents SDK's store is read as Responses items by ``sqlite_sessions`` (no dialect of its own).
AGENTS_SDK = SessionFiles("agents-sdk", "", DATABASE_FILES, project_folder=False, store=MESSAGE_SESSIONS)
STORE_DEPTH = 6  # how many folders down a walk for session stores goes
_NOT_WALKED = frozenset({"node_modules", "__pycache__", "site-packages", "venv", "env"})


def agents() -> dict[str, SessionFiles]:
    """Every agent whose sessions a dialect reads, by the name ``--agent`` takes."""
    from .dialects import all_dialects

    found = {d.session_files.agent: d.session_files for d in all_dialects() if d.session_files is not None}
    return {**found, AGENTS_SDK.agent: AGENTS_SDK}


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
    session: str | None = None  # a session store's row: the session's id (its path is the database)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def agent_folder(where: SessionFiles, root: Path) -> Path:
    if where.env and os.environ.get(where.env):
        return Path(os.environ[where.env]) / Path(where.folder).name
    return root / where.folder


def _databases(top: Path, patterns: tuple[str, ...]) -> list[Path]:
    """The files under ``top`` whose names match ``patterns`` (see the module doc for what is walked)."""
    import fnmatch

    out: list[Path] = []
    base = len(top.parts)
    for here, dirs, files in os.walk(top):
        depth = len(Path(here).parts) - base
        dirs[:] = [] if depth >= STORE_DEPTH else sorted(
            d for d in dirs if (not d.startswith(".") or d in STORE_FOLDERS) and d not in _NOT_WALKED
            and not os.path.exists(os.path.join(here, d, "pyvenv.cfg")))
        out.extend(Path(here) / f for f in sorted(files) if any(fnmatch.fnmatch(f, p) for p in patterns))
    return out


def find(agent: str | None = None, root: str | os.PathLike[str] | None = None) -> list[tuple[str, Path, float]]:
    """``(agent, path, mtime)`` of every session file (or session store), newest first."""
    from .sqlite_sessions import store_keys

    known = agents()
    if agent is not None and agent not in known:
        raise InputError(f"--agent {agent!r}: the agents are {', '.join(known)}")
    home = Path(root).expanduser() if root is not None else Path.home()
    if root is not None and not home.is_dir():
        raise InputError("is not a directory", str(home))
    names = [agent] if agent else list(known)
    out: list[tuple[str, Path, float]] = []
    stores = [n for n in names if known[n].store is not None]
    if stores:  # one walk for every store agent; each database is its agents' whose sessions it holds
        top = home if root is not None else Path.cwd()
        for p in _databases(top, DATABASE_FILES):
            keys = store_keys(str(p))
            for name in stores:
                if known[name].store in keys:
                    try:
                        out.append((name, p, p.stat().st_mtime))
                    except OSError:
                        continue
    for name in names:
        if known[name].store is not None:
            continue
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


def _verdict(r: SessionRow, report: Any, k: int | None) -> None:
    """The row's counts and verdict from ``check``'s report: of transcript ``k``, or all (None)."""
    r.messages = report.message_count if k is None else report.transcript_messages[k]
    r.dialect = report.dialect if k is None else report.transcript_dialects[k]
    r.target = report.target if k is None else report.transcript_targets[k]
    errs = [f for f in report.findings if f.severity == "error" and (k is None or f.transcript == k)]
    r.errors = len(errs)
    r.verdict = "would reject" if errs else "would accept"
    r.first_error = errs[0].text if errs else None


def rows(agent: str, path: Path, mtime: float, root: Path) -> list[SessionRow]:
    """The session of a file (one row), or each session of a store the agent keeps in it, read and
    checked as ``check`` reads the file."""
    from .checking import check_document
    from .reading import load_path

    where = agents()[agent]
    r = SessionRow(agent=agent, path=str(path), project=_project(where, path, agent_folder(where, root)),
                   modified=mtime)
    what = not_a_file(str(path))
    if what is not None:  # a named pipe where a session file goes: never opened (it waits for a writer)
        r.verdict = f"unreadable: {path}: {what}"
        return [r]
    try:
        doc = load_path(path)
        report, _ = check_document(doc)
    except InputError as exc:
        r.verdict = f"unreadable: {exc}"
        return [r]
    if where.store is None:
        r.started, cwd = _started_and_cwd(doc)
        if cwd and not r.project:
            r.project = cwd
        _verdict(r, report, None)
        return [r]
    from .sqlite_sessions import session_starts

    out = []
    starts = session_starts(doc.root)
    for k, t in enumerate(doc.transcripts):
        if not t.path or t.path[0] != where.store:
            continue
        s = doc.root[t.path[0]][t.path[1]]
        one = SessionRow(agent=agent, path=str(path), project=str(s.get("app_name") or ""), modified=mtime,
                         started=starts.get((t.path[0], t.path[1])), session=str(s["session_id"]))
        _verdict(one, report, k)
        out.append(one)
    return out


def sessions(agent: str | None = None, root: str | os.PathLike[str] | None = None, last: int = 20) -> list[SessionRow]:
    """The newest ``last`` sessions, each read and checked."""
    home = Path(root).expanduser() if root is not None else Path.home()
    out: list[SessionRow] = []
    for a, p, m in find(agent, root):
        if len(out) >= last:
            break
        out.extend(rows(a, p, m, home))
    return out[: max(last, 0)]
