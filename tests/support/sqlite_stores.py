"""Helpers of the SQLite session-store tests (tests/reading/test_sqlite_sessions.py for the OpenAI
Agents SDK's ``SQLiteSession``, tests/reading/test_adk_sqlite.py for Google ADK's
``DatabaseSessionService``): each store's sample has the script that builds it beside it
(``sample_logs/<name>.py``), its rows are read without writing anything, the CLI runs as a process,
and repair must write a new database and never the input."""

from __future__ import annotations

import hashlib
import importlib.util
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def builder(sample: Path) -> ModuleType:
    """The script beside ``sample`` that builds it (``build(path)``, its ``SESSIONS``)."""
    spec = importlib.util.spec_from_file_location(sample.stem, sample.with_suffix(".py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    """``query``'s rows, the database opened read-only and immutable: nothing is created beside it."""
    con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        return con.execute(query).fetchall()
    finally:
        con.close()


@contextmanager
def written(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to change the database at ``path``, committed and closed at the end."""
    con = sqlite3.connect(path)
    try:
        yield con
        con.commit()
    finally:
        con.close()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m inspector`` as a process, from the repository's root."""
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, cwd=ROOT)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def repair_to(db: Path, out: Path) -> None:
    """``inspector repair db -o out`` succeeds and leaves ``db`` as it was."""
    before = digest(db)
    p = run("repair", str(db), "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert digest(db) == before


def repair_refuses_to_write_the_input(db: Path) -> None:
    """Repair never writes over the input nor a database to stdout: one line, exit 2, ``db`` unchanged."""
    before = digest(db)
    for args in (("-o", str(db)), ()):
        p = run("repair", str(db), *args)
        assert p.returncode == 2 and "new" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert digest(db) == before
