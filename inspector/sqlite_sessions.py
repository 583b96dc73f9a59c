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

Google ADK's ``DatabaseSessionService`` (google/adk-python ``src/google/adk/sessions/``, read
2026-11-27: ``schemas/v1.py`` at commit 0c505fe; ``schemas/v0.py``, ADK 1.19 to 1.21, at 0e57908;
``database_session_service.py`` at 0012809; docs/provider-evidence.md) keeps its sessions in
``sessions(app_name, user_id, id, state, ...)`` and their events in::

    events(id, app_name, user_id, session_id, invocation_id, timestamp, event_data)      -- v1
    events(id, app_name, user_id, session_id, invocation_id, author, actions, content,
           partial, branch, timestamp, ...)                                              -- v0

(ADK's ``SqliteSessionService``, the ``.adk/session.db`` of ``adk web``, writes the v1 columns with
a REAL ``timestamp``, and reads each event from ``event_data`` alone.) v1's ``event_data`` is the
event as ``Event.model_dump(exclude_none=True, mode="json")`` writes
it (snake_case keys: ``invocation_id``, ``content.parts[].function_call``); ``to_event`` lays the
row's ``id`` and ``invocation_id`` over it. v0 keeps the content JSON in ``content`` and the
``actions`` pickled (never unpickled here: an event is read without them). ``get_session`` reads
a session's events ``ORDER BY timestamp`` (ties, whose order ADK leaves undefined: in rowid order). Each ADK
session is one transcript of the root's ``event_sessions`` (``{"table", "app_name", "user_id",
"session_id", "schema": "v0"|"v1", "items", "rows": [event ids], "skipped_rows"}``), read by the
dialect whose recogniser names it.

Writing (``database_bytes``): the database as it came, with each session whose items changed
rewritten from its first changed row on (rows before it keep their ids and text; rows not JSON
stay among them); a new database, never the input file. An ADK v1 session is rewritten the same
way (a new event is stamped one microsecond after the event before it, and refused when that
would not sort before the next); an ADK v0 session (pickled ``actions``) is not written: repair
says so.
"""

from __future__ import annotations

import os
from typing import Any

from .containers import Path, api_format, register
from .errors import InputError

HEADER = b"SQLite format 3\x00"
MESSAGE_COLUMNS = frozenset({"id", "session_id", "message_data"})
EVENT_COLUMNS = frozenset({"id", "app_name", "user_id", "session_id", "invocation_id", "timestamp"})
EVENT_TABLE = "events"  # ADK's name (``StorageEvent.__tablename__``)
DATABASE_FILES = ("*.db", "*.sqlite", "*.sqlite3")  # the names a session store's file takes (scan, sessions)
MESSAGE_SESSIONS, EVENT_SESSIONS = "sessions", "event_sessions"  # the root's keys of each store's sessions
# Hidden folders a session store is kept in, walked where other hidden folders are not (``scan DIR``,
# ``sessions``): ADK's ``adk web`` and ``adk api_server`` keep ``.adk/session.db`` in the agent's folder.
STORE_FOLDERS = (".adk",)
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


def store_keys(path: str) -> set[str]:
    """Which sessions the SQLite file at ``path`` holds (``MESSAGE_SESSIONS``, ``EVENT_SESSIONS``),
    from its tables alone (opened read-only, nothing read but the schema); empty when it is no
    session store or no database."""
    import pathlib
    import sqlite3

    from .special_files import not_a_file

    if not_a_file(path) is not None:  # a named pipe called x.db would be waited on forever
        return set()
    try:
        with open(path, "rb") as f:
            if not is_database(f.read(16)):
                return set()
        con = sqlite3.connect(pathlib.Path(path).resolve().as_uri() + "?mode=ro&immutable=1", uri=True)
        try:
            tables = _tables(con)
        finally:
            con.close()
    except (OSError, sqlite3.DatabaseError):
        return set()
    keys = {MESSAGE_SESSIONS} if any(MESSAGE_COLUMNS <= set(c) for c in tables.values()) else set()
    return keys | ({EVENT_SESSIONS} if _event_schema(tables.get(EVENT_TABLE, [])) is not None else set())


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
        schema = _event_schema(tables.get(EVENT_TABLE, []))
        if not message_tables and schema is None:
            shown = ", ".join(list(tables)[:8]) + (", ..." if len(tables) > 8 else "")
            what = f"tables {shown}" if tables else "no tables"
            raise InputError(f"SQLite database with {what}: not a session store the inspector reads (an OpenAI "
                             "Agents SDK SQLiteSession has agent_messages(session_id, message_data), a Google ADK "
                             "DatabaseSessionService events(app_name, user_id, session_id, event_data))", label)
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
        event_sessions = _event_sessions(con, schema) if schema is not None else []
        if not sessions and not event_sessions:
            where = ", ".join(message_tables + ([EVENT_TABLE] if schema is not None else []))
            raise InputError(f"a session store whose {where} holds no session: nothing to check", label)
    finally:
        con.close()
    import base64  # here: reading a session store is rare, and every check's start-up imports this module

    root: dict[str, Any] = {"sqlite_session_store": {"tables": list(tables), "message_tables": message_tables},
                            "sessions": sessions, "database": base64.b64encode(data).decode("ascii")}
    if schema is not None:
        root["event_sessions"] = event_sessions
    return root


def _event_schema(cols: list[str]) -> str | None:
    """``v1`` or ``v0`` when ``cols`` are those of ADK's ``events`` table, else None."""
    if not EVENT_COLUMNS <= set(cols):
        return None
    if "event_data" in cols:
        return "v1"
    return "v0" if {"author", "content"} <= set(cols) else None


_V0_FIELDS = ("author", "branch", "partial")  # v0 columns an event keeps as they are (besides content)


def _event_item(schema: str, row: dict[str, Any]) -> dict[str, Any]:
    """The event a row of ADK's ``events`` table holds (as ``StorageEvent.to_event`` builds it,
    v0's pickled ``actions`` left out); ``ValueError`` when its JSON does not parse to an object."""
    import json

    if schema == "v1":
        data = json.loads(row["event_data"])
        if type(data) is not dict:
            raise ValueError("event_data is not an object")
        return {**data, "id": row["id"], "invocation_id": row["invocation_id"]}
    event: dict[str, Any] = {"id": row["id"], "invocation_id": row["invocation_id"]}
    if row["content"] is not None:
        event["content"] = json.loads(row["content"])
    for key in _V0_FIELDS:
        if row.get(key) is not None:
            event[key] = bool(row[key]) if key == "partial" else row[key]
    event["timestamp"] = row["timestamp"]
    return event


def _event_rows(con: Any, schema: str, where: str = "", args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    have = {r[1] for r in con.execute(f"PRAGMA table_info({EVENT_TABLE})")}
    v0 = ["content", *(c for c in _V0_FIELDS if c in have)]  # ``author`` is there (``_event_schema``)
    cols = ["rowid", *sorted(EVENT_COLUMNS), *(["event_data"] if schema == "v1" else v0)]
    cur = con.execute(f"SELECT {', '.join(_quote(c) if c != 'rowid' else c for c in cols)} FROM {EVENT_TABLE} "
                      f"{where} ORDER BY app_name, user_id, session_id, timestamp ASC, rowid ASC", args)
    return [dict(zip(cols, r)) for r in cur]


def _event_sessions(con: Any, schema: str) -> list[dict[str, Any]]:
    """ADK's sessions, each its events in ``get_session``'s order."""
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in _event_rows(con, schema):
        key = (str(row["app_name"]), str(row["user_id"]), str(row["session_id"]))
        s = out.setdefault(key, {"table": EVENT_TABLE, "app_name": key[0], "user_id": key[1], "session_id": key[2],
                                 "schema": schema, "items": [], "rows": [], "skipped_rows": []})
        try:
            s["items"].append(_event_item(schema, row))
            s["rows"].append(row["id"])
        except (ValueError, TypeError):  # JSON that is not an event: ADK's own read would fail on it
            s["skipped_rows"].append({"id": row["id"], "event_data": str(row.get("event_data", row.get("content")))})
    return list(out.values())


def session_starts(root: dict[str, Any]) -> dict[tuple[str, int], str]:
    """When each session of a store's ``root`` began, as the store records it, in ISO 8601 UTC:
    ``(key, k)`` (the session's place in the root: ``("sessions", 2)``) -> ``2026-11-27T09:00:00.000Z``.

    An Agents SDK session: ``created_at`` of its row in the sessions table (``agent_sessions``, or
    the one table besides the message tables with ``session_id`` and ``created_at``: the SDK lets a
    program rename it), else its first message row's ``created_at``. An ADK session: ``create_time``
    of its row in ADK's ``sessions`` table (a REAL of seconds in ``SqliteSessionService``, SQLAlchemy's
    naive UTC text in ``DatabaseSessionService``), else its first event's ``timestamp``. A session
    whose store records no time is left out."""
    import base64
    import sqlite3

    con = _memory_copy(base64.b64decode(root["database"]))
    out: dict[tuple[str, int], str] = {}
    try:
        tables = _tables(con)
        message_tables = set(root.get("sqlite_session_store", {}).get("message_tables", []))
        holders = [n for n, cols in tables.items()
                   if n not in message_tables and {"session_id", "created_at"} <= set(cols)]
        holder = "agent_sessions" if "agent_sessions" in holders else holders[0] if len(holders) == 1 else None
        adk = {"app_name", "user_id", "id", "create_time"} <= set(tables.get("sessions", []))
        asked: list[tuple[tuple[str, int], list[str], tuple[str, ...]]] = []  # (place, queries in turn, their args)
        for k, s in enumerate(root.get(MESSAGE_SESSIONS, [])):
            asks = [f"SELECT created_at FROM {_quote(holder)} WHERE session_id = ?"] if holder else []
            if "created_at" in tables.get(s["table"], []):
                asks.append(f"SELECT min(created_at) FROM {_quote(s['table'])} WHERE session_id = ?")
            asked.append(((MESSAGE_SESSIONS, k), asks, (s["session_id"],)))
        for k, s in enumerate(root.get(EVENT_SESSIONS, [])):
            asks = ["SELECT create_time FROM sessions WHERE app_name = ? AND user_id = ? AND id = ?"] if adk else []
            asks.append(f"SELECT min(timestamp) FROM {EVENT_TABLE} WHERE app_name = ? AND user_id = ? AND session_id = ?")
            asked.append(((EVENT_SESSIONS, k), asks, (s["app_name"], s["user_id"], s["session_id"])))
        for place, asks, args in asked:
            at = next((t for t in (_iso(con.execute(a, args).fetchone()) for a in asks) if t is not None), None)
            if at is not None:
                out[place] = at
    except sqlite3.DatabaseError:
        pass  # a store whose tables do not answer: no times, the rows say the rest
    finally:
        con.close()
    return out


def _iso(row: Any) -> str | None:
    """A stored time (seconds, or SQLite's / SQLAlchemy's UTC text) as ISO 8601 UTC; text that is
    no time as it is; None for nothing."""
    import datetime

    stamp = row[0] if row else None
    try:
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
            t = datetime.datetime.fromtimestamp(stamp, datetime.UTC)
        elif isinstance(stamp, str):
            t = datetime.datetime.fromisoformat(stamp)
            t = t.replace(tzinfo=datetime.UTC) if t.tzinfo is None else t.astimezone(datetime.UTC)
        else:
            return None
    except (ValueError, OverflowError, OSError):
        return stamp if isinstance(stamp, str) and stamp else None
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def session_store(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    """The container recogniser: each session of a database read by ``read_database``."""
    if fmt != "sqlite" or type(root) is not dict or type(root.get("sessions")) is not list:
        return []
    tables = root.get("sqlite_session_store", {}).get("message_tables", [])
    out: list[tuple[Path, Any]] = []
    for k, s in enumerate(root["sessions"]):
        table = "" if s["table"] == "agent_messages" and len(tables) == 1 else f" ({s['table']})"
        extra: dict[str, Any] = {"label": f"session {s['session_id']}{table}", "dialect": api_format("responses")}
        if s["skipped_rows"]:
            extra["skipped_rows"] = [r["id"] for r in s["skipped_rows"]]
        out.append((("sessions", k, "items"), ("OpenAI Agents SDK SQLiteSession", extra)))
    return out


register(session_store)


def row_text(root: dict[str, Any], path: Path, index: int) -> str:
    """Where item ``index`` of the session at ``path`` is stored: ``session S, TABLE row ID``."""
    s = root[path[0]][path[1]]
    rows = s["rows"]
    row = f", {s['table']} row {rows[index]}" if 0 <= index < len(rows) else f", item {index}"
    return f"session {s['session_id']}{row}"


def database_bytes(root: dict[str, Any]) -> bytes:
    """The database of ``root`` (see the module doc): the original's bytes with each changed
    session's rows rewritten from its first changed one on."""
    import base64
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
        for e in root.get("event_sessions", []):
            changed = _rewrite_events(con, e) or changed
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


def _later(stamp: Any) -> Any:
    """One microsecond after a stored ``timestamp`` (SQLAlchemy's text, or a number)."""
    import datetime

    if type(stamp) is str:
        t = datetime.datetime.fromisoformat(stamp) + datetime.timedelta(microseconds=1)
        return t.isoformat(sep=" ", timespec="microseconds")
    return stamp + 1e-6


def _epoch(stamp: Any) -> Any:
    """A stored ``timestamp`` as the seconds an event's ``timestamp`` holds (SQLAlchemy's text is naive UTC)."""
    import datetime

    if type(stamp) is str:
        return datetime.datetime.fromisoformat(stamp).replace(tzinfo=datetime.UTC).timestamp()
    return stamp


def _rewrite_events(con: Any, s: dict[str, Any]) -> bool:
    """Rewrite an ADK session's events from its first changed one on (see the module doc); True
    when something changed."""
    import json

    key = (s["app_name"], s["user_id"], s["session_id"])
    rows = _event_rows(con, s["schema"], "WHERE app_name = ? AND user_id = ? AND session_id = ?", key)
    parsed: list[dict[str, Any] | None] = []
    for row in rows:
        try:
            parsed.append(_event_item(s["schema"], row))
        except (ValueError, TypeError):
            parsed.append(None)
    items, keep, j = s["items"], 0, 0
    for value in parsed:
        if value is not None and not (j < len(items) and items[j] == value):
            break
        keep += 1
        j += value is not None
    if j == len(items) and keep == len(rows):
        return False
    where = f"session {s['session_id']} of Google ADK's {EVENT_TABLE} table"
    if s["schema"] != "v1":
        raise InputError(f"{where} is in ADK's v0 schema (1.19 to 1.21, event actions pickled): repair cannot "
                         "write it; migrate the database to ADK's v1 schema first")
    rest = rows[keep:]
    full = {r["rowid"]: con.execute(f"SELECT * FROM {EVENT_TABLE} WHERE rowid = ?", (r["rowid"],)).fetchone()
            for r in rest}
    columns = [d[1] for d in con.execute(f"PRAGMA table_info({EVENT_TABLE})")]
    same = {json.dumps(v, sort_keys=True): r["rowid"] for r, v in zip(rest, parsed[keep:]) if v is not None}
    con.executemany(f"DELETE FROM {EVENT_TABLE} WHERE rowid = ?", [(r["rowid"],) for r in rest])
    put = f"INSERT INTO {EVENT_TABLE} ({', '.join(_quote(c) for c in columns)}) VALUES ({', '.join('?' * len(columns))})"
    stamp = rows[keep - 1]["timestamp"] if keep else None
    for item in items[j:]:
        old = same.pop(json.dumps(item, sort_keys=True), None)
        if old is not None:  # an event as it was: its row again, every column as stored
            con.execute(put, full[old])
            stamp = full[old][columns.index("timestamp")]
            continue
        if stamp is None or type(item) is not dict or type(item.get("id")) is not str:
            raise InputError(f"{where}: repair cannot place a new first event")
        try:
            stamp = _later(stamp)
        except (ValueError, TypeError):
            raise InputError(f"{where}: a timestamp repair cannot read ({stamp!r})") from None
        later = [r["timestamp"] for r in rest if r["timestamp"] is not None and r["rowid"] in same.values()]
        if any(type(t) is not type(stamp) for t in later) or (later and min(later) <= stamp):
            raise InputError(f"{where}: no room for a new event after {stamp} (ADK orders events by timestamp)")
        if "timestamp" in item:  # the event's own time is the row's (ADK's SqliteSessionService reads only event_data)
            item = {**item, "timestamp": _epoch(stamp)}
        con.execute(f"INSERT INTO {EVENT_TABLE} (id, app_name, user_id, session_id, invocation_id, timestamp, "
                    "event_data) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (item["id"], *key, item.get("invocation_id"), stamp, json.dumps(item)))
    for rowid in same.values():  # rows not JSON, or events no longer in the items: kept, never dropped
        con.execute(put, full[rowid])
    for r, v in zip(rest, parsed[keep:]):
        if v is None:
            con.execute(put, full[r["rowid"]])
    return True
