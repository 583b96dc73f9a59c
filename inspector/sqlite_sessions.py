"""OpenAI Agents SDK ``SQLiteSession`` databases: one transcript per session, read-only.

The SDK (openai/openai-agents-python ``src/agents/memory/sqlite_session.py``, since v0.2.0 of
2025-07-10, schema unchanged through 2026-08) keeps a session's history in two tables::

    agent_sessions(session_id TEXT PRIMARY KEY, created_at, updated_at)
    agent_messages(id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
                   message_data TEXT NOT NULL, created_at)

(both names can be changed: ``sessions_table=`` / ``messages_table=``). Each ``message_data`` is
one Responses input item written with ``json.dumps``; ``get_items`` reads a session's rows
``ORDER BY id ASC`` and skips a row that is not JSON. The database is in WAL mode
(``PRAGMA journal_mode=WAL``).

Reading: a file is opened read-only (``file:PATH?mode=ro``, with ``immutable=1`` when no WAL file
is beside it) and copied into memory; bytes (an
upload) are copied into memory as they are. The document's root (format ``sqlite``) is::

    {"sqlite_session_store": {"tables": [...], "message_tables": [...]},
     "sessions": [{"table": ..., "session_id": ..., "items": [...], "rows": [row ids],
                   "skipped_rows": [{"id", "message_data"}]}],
     "database": <the database's bytes, base64>}

and each session's ``items`` is a transcript (``sessions[k].items``), read as Responses items.
A database of other tables is refused, naming them.

Writing (``database_bytes``): the database as it came, with each session whose items changed
rewritten from its first changed row on (rows before it keep their ids and text; rows not JSON
stay among them); a new database, never the input file.
"""

from __future__ import annotations

import base64
import os
from typing import Any

from .containers import Path, register
from .errors import InputError

HEADER = b"SQLite format 3\x00"
MESSAGE_COLUMNS = frozenset({"id", "session_id", "message_data"})
_WAL_BYTES = slice(18, 20)  # the file format's write/read versions: 2 = WAL, 1 = rollback journal


def is_database(head: bytes) -> bool:
    return head[:16] == HEADER


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _memory_copy(data: bytes) -> Any:
    """An in-memory connection on a copy of the database bytes (a WAL-mode image is opened in
    rollback mode: an in-memory database cannot read it otherwise)."""
    import sqlite3

    image = bytearray(data)
    if image[_WAL_BYTES] == b"\x02\x02":
        image[_WAL_BYTES] = b"\x01\x01"
    con = sqlite3.connect(":memory:")
    try:
        con.deserialize(bytes(image))
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        con.close()
        raise InputError(f"a SQLite database that cannot be opened ({exc})") from None
    return con


def database_of_path(path: str) -> bytes:
    """The database at ``path``, opened read-only, as bytes (what its WAL holds included)."""
    import pathlib
    import sqlite3

    # A WAL file beside it holds commits not yet in the database (an agent running): read them
    # (``mode=ro`` shares the writer's ``-shm``). Without one, ``immutable=1``: nothing is created
    # beside the file (``mode=ro`` alone would create an empty ``-wal`` and ``-shm``).
    wal = os.path.exists(f"{path}-wal")
    uri = pathlib.Path(path).resolve().as_uri() + ("?mode=ro" if wal else "?mode=ro&immutable=1")
    try:
        src = sqlite3.connect(uri, uri=True)
        try:
            mem = sqlite3.connect(":memory:")
            src.backup(mem)
            data = mem.serialize()
            mem.close()
        finally:
            src.close()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"a SQLite database that cannot be opened read-only ({exc})", path) from None
    return data


def _tables(con: Any) -> dict[str, list[str]]:
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY rowid")]
    return {n: [r[1] for r in con.execute(f"PRAGMA table_info({_quote(n)})")] for n in names
            if not n.startswith("sqlite_")}


def read_database(data: bytes, label: str) -> dict[str, Any]:
    """The document root of a session store's bytes (see the module doc), or ``InputError``
    naming what the database holds when it is not one."""
    import json

    con = _memory_copy(data)
    try:
        tables = _tables(con)
        message_tables = [n for n, cols in tables.items() if MESSAGE_COLUMNS <= set(cols)]
        if not message_tables:
            shown = ", ".join(list(tables)[:8]) + (", ..." if len(tables) > 8 else "")
            what = f"tables {shown}" if tables else "no tables"
            raise InputError(f"SQLite database with {what}: not a session store the inspector reads (an OpenAI "
                             "Agents SDK SQLiteSession has agent_messages(session_id, message_data))", label)
        sessions: list[dict[str, Any]] = []
        for table in message_tables:
            by_session: dict[str, dict[str, Any]] = {}
            for row_id, sid, text in con.execute(
                    f"SELECT id, session_id, message_data FROM {_quote(table)} ORDER BY id ASC"):
                s = by_session.setdefault(str(sid), {"table": table, "session_id": str(sid), "items": [], "rows": [],
                                                     "skipped_rows": []})
                try:
                    s["items"].append(json.loads(text))
                    s["rows"].append(row_id)
                except (json.JSONDecodeError, TypeError):  # the SDK skips such a row (get_items)
                    s["skipped_rows"].append({"id": row_id, "message_data": text if type(text) is str else repr(text)})
            sessions.extend(by_session.values())
        if not sessions:
            raise InputError(f"an OpenAI Agents SDK session store whose {', '.join(message_tables)} holds no "
                             "session: nothing to check", label)
    finally:
        con.close()
    return {"sqlite_session_store": {"tables": list(tables), "message_tables": message_tables},
            "sessions": sessions, "database": base64.b64encode(data).decode("ascii")}


def session_store(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    """The container recogniser: each session of a database read by ``read_database``."""
    if fmt != "sqlite" or type(root) is not dict or type(root.get("sessions")) is not list:
        return []
    tables = root.get("sqlite_session_store", {}).get("message_tables", [])
    out: list[tuple[Path, Any]] = []
    for k, s in enumerate(root["sessions"]):
        table = "" if s["table"] == "agent_messages" and len(tables) == 1 else f" ({s['table']})"
        extra: dict[str, Any] = {"label": f"session {s['session_id']}{table}", "dialect": "openai-responses"}
        if s["skipped_rows"]:
            extra["skipped_rows"] = [r["id"] for r in s["skipped_rows"]]
        out.append((("sessions", k, "items"), ("OpenAI Agents SDK SQLiteSession", extra)))
    return out


register(session_store)


def row_text(root: dict[str, Any], path: Path, index: int) -> str:
    """Where item ``index`` of the session at ``path`` is stored: ``session S, TABLE row ID``."""
    s = root["sessions"][path[1]]
    rows = s["rows"]
    row = f", {s['table']} row {rows[index]}" if 0 <= index < len(rows) else f", item {index}"
    return f"session {s['session_id']}{row}"


def database_bytes(root: dict[str, Any]) -> bytes:
    """The database of ``root`` (see the module doc): the original's bytes with each changed
    session's rows rewritten from its first changed one on."""
    import json

    original = base64.b64decode(root["database"])
    con = _memory_copy(original)
    try:
        changed = False
        for s in root["sessions"]:
            table = _quote(s["table"])
            rows = con.execute(f"SELECT id, message_data, created_at FROM {table} WHERE session_id = ? ORDER BY id ASC",
                               (s["session_id"],)).fetchall()
            keep = 0  # rows kept as they are: the longest prefix whose items are unchanged
            items = s["items"]
            j = 0
            for row_id, text, _ in rows:
                try:
                    value = json.loads(text)
                except (json.JSONDecodeError, TypeError):
                    keep += 1  # a row the SDK skips stays where it was
                    continue
                if j < len(items) and items[j] == value:
                    keep += 1
                    j += 1
                    continue
                break
            if j == len(items) and keep == len(rows):
                continue
            changed = True
            rest = rows[keep:]
            skipped = [r for r in rest if not _is_json(r[1])]
            stamp = rows[keep - 1][2] if keep else (rest[0][2] if rest else None)
            con.executemany(f"DELETE FROM {table} WHERE id = ?", [(r[0],) for r in rest])
            for item in items[j:]:
                con.execute(f"INSERT INTO {table} (session_id, message_data, created_at) VALUES (?, ?, "
                            "coalesce(?, CURRENT_TIMESTAMP))", (s["session_id"], json.dumps(item), stamp))
            for _, text, at in skipped:  # kept, after the rewritten items (never dropped)
                con.execute(f"INSERT INTO {table} (session_id, message_data, created_at) VALUES (?, ?, ?)",
                            (s["session_id"], text, at))
        if not changed:
            return original
        con.commit()
        out = bytearray(con.serialize())
    finally:
        con.close()
    out[_WAL_BYTES] = original[_WAL_BYTES]  # the journal mode the input had
    return bytes(out)


def _is_json(text: Any) -> bool:
    import json

    try:
        json.loads(text)
        return True
    except (json.JSONDecodeError, TypeError):
        return False
