"""What to scan: paths (files and walked directories) cut into parts a worker can scan alone.

A part is one of

- ``lines``: a byte range of a JSON Lines *dataset* (one transcript or request per line:
  fine-tuning data, OpenAI Batch input, eval exports), read by whoever scans it;
- ``whole``: a file that holds its transcripts as one document (a JSON transcript, an Inspect
  eval log, an agent trajectory, a JSON Lines file of *messages* such as a Claude Code session);
- ``parquet``: one row group of a Parquet file with a messages column;
- ``unreadable``: a name found under a directory that is no regular file (a named pipe, a
  socket, a device, a link to nothing): never opened (opening a named pipe waits for a writer),
  it gives one row whose problem says what it is, and the scan goes on.

A SQLite file (``*.db``, ``*.sqlite``, ``*.sqlite3`` under a directory, or named) is a ``whole``
part: a session store (an Agents SDK ``SQLiteSession``, Google ADK's ``DatabaseSessionService``)
read as ``check`` reads it, one transcript per session; a database that is not one gives one row
whose problem says what its tables are, and the scan goes on.

Which of ``lines`` and ``whole`` a ``.jsonl`` file is follows from its first line: a record
holding a message list makes a dataset; a single message (a role, a type) makes one transcript.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .. import dialects  # its hook loads every dialect, each saying what its messages are
from ..containers import looks_like_message
from ..errors import InputError
from ..reading import read_folder
from ..special_files import not_a_file
from ..sqlite_sessions import STORE_FOLDERS, is_database
from . import lines

DEFAULT_GLOBS = ("*.jsonl", "*.ndjson", "*.json", "*.traj", "*.har", "*.parquet", "*.db", "*.sqlite", "*.sqlite3")


@dataclass(frozen=True)
class Part:
    """One unit of work: ``kind`` is lines, whole or parquet (see the module docstring)."""

    kind: str
    path: str
    start: int = 0  # lines: byte range; parquet: row group
    end: int = 0
    row0: int = 0  # parquet: index of the row group's first row in the file
    weight: int = 0  # bytes, for the progress bar
    problem: str = ""  # unreadable: what the file is ("a named pipe, not a regular file")


def agent_folders() -> dict[str, str]:
    """The hidden folders coding agents keep their sessions in (``.claude``, ``.codex``, ...; each
    session-log dialect's ``session_files``), by name: the session folder under it
    (``.claude/projects``), which must be there for the folder to count as one."""
    found = {}
    for d in dialects.all_dialects():
        where = d.session_files
        if where is not None and where.folder.startswith("."):
            found[where.folder.split("/")[0]] = where.folder
    return found


def expand(paths: list[str], globs: list[str] | None = None, passed_over: list[str] | None = None) -> list[str]:
    """Files named, and files under directories named (walked, matching ``globs``), in order.

    A walk leaves hidden folders out (``.git``, ``.venv``, ...) but for those a session store is
    kept in (``STORE_FOLDERS``: ADK's ``.adk``), which are walked; a coding agent's hidden session
    folder (``.claude``, ``.codex``, ...: ``agent_folders``) is left out too (a home folder holds
    every session ever run) and added to ``passed_over``, for the caller to say so."""
    pats = globs or list(DEFAULT_GLOBS)
    agents = agent_folders() if passed_over is not None else {}
    out: list[str] = []
    for name in paths:
        p = Path(name)
        if p.is_dir() and read_folder(name) is not None:
            out.append(name)  # a folder that is one conversation (OpenHands V1): read whole, as check reads it
        elif p.is_dir():
            found = []
            for root, dirs, files in os.walk(p):
                if passed_over is not None:
                    passed_over.extend(os.path.join(root, d) for d in sorted(dirs)
                                       if d in agents and os.path.isdir(os.path.join(root, agents[d])))
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") or d in STORE_FOLDERS)
                for f in sorted(files):
                    if not f.startswith(".") and any(fnmatch.fnmatch(f, g) for g in pats):
                        found.append(os.path.join(root, f))
            out.extend(found)
        elif p.exists():
            what = not_a_file(name)
            if what is not None:  # named on its own: refused (``check`` reads a pipe it is given)
                raise InputError(f"{what} (scan reads files and folders; to check what a pipe gives, use "
                                 "inspector check)", name)
            out.append(name)
        else:
            raise InputError("no such file or directory", name)
    if not out:
        skipped = f"; passed over {', '.join(passed_over)}: name one to scan it" if passed_over else ""
        raise InputError(f"no files to scan (looked for {', '.join(pats)}{skipped})", ", ".join(paths))
    return out


def _is_record(value: Any) -> bool:
    """A JSON Lines value that is a whole transcript (a request, a batch line, a sample), not one
    message of one: the same test the whole-file reader applies (``containers.looks_like_message``,
    which asks every dialect), so ``scan`` and ``check`` cut a file the same way."""
    if type(value) is list:
        return True
    return type(value) is dict and not looks_like_message(value)


def kind_of(path: str) -> str:
    """``lines``, ``whole`` or ``parquet`` for one file (see the module docstring)."""
    if path.endswith(".parquet"):
        return "parquet"
    if os.path.isdir(path):
        return "whole"  # a conversation folder (``expand`` keeps only those)
    with open(path, "rb") as f:
        if is_database(f.read(16)):
            return "whole"  # a SQLite session store, read whole as check reads it
    if not lines.has_second_line(path):
        # a one-line file is one document (with a byte-order mark too, issue 33), read as check
        # reads it (a compact message array typed): never parsed here first just to say so
        return "whole"
    first = lines.first_line_bytes(path)
    try:
        value = orjson.loads(first)
    except orjson.JSONDecodeError:
        return "whole"  # pretty-printed JSON (or text that the whole-file reader will explain)
    return "lines" if _is_record(value) else "whole"


def plan(files: list[str], chunk: int = lines.CHUNK_BYTES) -> list[Part]:
    """Every file's parts, in file order (a dataset's ranges in byte order)."""
    parts: list[Part] = []
    for path in files:
        what = not_a_file(path)
        if what is not None:  # found under a directory: said in its row, never opened
            parts.append(Part("unreadable", path, problem=what))
            continue
        try:
            size = os.path.getsize(path)
            kind = kind_of(path)
        except OSError as exc:
            raise InputError(exc.strerror or str(exc), path) from None
        if kind == "lines":
            parts.extend(Part("lines", path, s, e, weight=e - s) for s, e in lines.ranges(size, chunk))
        elif kind == "parquet":
            parts.extend(_parquet_parts(path, size))
        else:
            parts.append(Part("whole", path, weight=size))
    return parts


def _parquet_parts(path: str, size: int) -> list[Part]:
    from .parquet_in import row_groups

    groups = row_groups(path)
    total_rows = sum(n for n, _ in groups) or 1
    out, row0 = [], 0
    for i, (n, _) in enumerate(groups):
        out.append(Part("parquet", path, i, i + 1, row0=row0, weight=max(1, size * n // total_rows)))
        row0 += n
    return out
