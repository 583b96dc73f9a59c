"""Builds ``adk_sqlite_session.db`` beside it: a Google ADK ``DatabaseSessionService`` store (SQLite).

The tables are those of ADK's v1 schema (google/adk-python ``src/google/adk/sessions/schemas/v1.py``,
commit 0c505fe, read 2026-11-27) as SQLAlchemy creates them on SQLite (``DynamicJSON`` is TEXT
holding ``json.dumps``, ``PreciseTimestamp`` a DATETIME written ``YYYY-MM-DD HH:MM:SS.ffffff``),
with ``adk_internal_metadata`` naming schema version ``"1"`` as ``prepare_tables`` writes it
(``migration/_schema_check_utils.py``). Each ``events.event_data`` is an event as
``StorageEvent.from_event`` writes it: ``Event.model_dump(exclude_none=True, mode="json")``, whose
keys are the field names (``invocation_id``, ``function_call``), not the camelCase aliases of the
JSON export. Two sessions of app ``hello_world`` (the ``roll_die`` agent of ADK's
``contributing/samples/hello_world``):

- ``s_clean``: the user asks, the model calls ``roll_die``, the result, the answer;
- ``s_open``: the model calls ``roll_die`` and the next event is the user's next question: the
  call has no ``function_response``, which Gemini refuses.

    python sample_logs/adk_sqlite_session.py
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_suffix(".db")
APP, USER = "hello_world", "user_123"
T0 = 1764230400.0  # 2025-11-27 08:00:00 UTC, fixed so that the file is the same each time
ACTIONS = {"state_delta": {}, "artifact_delta": {}, "requested_auth_configs": {}, "requested_tool_confirmations": {}}


def _event(eid: str, inv: str, author: str, role: str, parts: list[dict[str, Any]], dt: float) -> dict[str, Any]:
    return {"content": {"parts": parts, "role": role}, "invocation_id": inv, "author": author,
            "actions": ACTIONS, "id": eid, "timestamp": T0 + dt}


def _call(cid: str) -> dict[str, Any]:
    return {"function_call": {"id": cid, "args": {"sides": 20}, "name": "roll_die"}}


SESSIONS: dict[str, list[dict[str, Any]]] = {
    "s_clean": [
        _event("ev-c1", "e-c", "user", "user", [{"text": "Roll a 20 sided die."}], 0),
        _event("ev-c2", "e-c", "hello_world_agent", "model", [_call("adk-c")], 1.25),
        _event("ev-c3", "e-c", "hello_world_agent", "user",
               [{"function_response": {"id": "adk-c", "name": "roll_die", "response": {"result": 7}}}], 1.5),
        _event("ev-c4", "e-c", "hello_world_agent", "model", [{"text": "I rolled a 7."}], 2),
    ],
    "s_open": [
        _event("ev-o1", "e-o", "user", "user", [{"text": "Roll a 20 sided die."}], 10),
        _event("ev-o2", "e-o", "hello_world_agent", "model", [_call("adk-o")], 11.25),
        _event("ev-o3", "e-o2", "user", "user", [{"text": "And again?"}], 30),
    ],
}

SCHEMA = """
CREATE TABLE adk_internal_metadata (
    "key" VARCHAR(128) NOT NULL, value VARCHAR(256) NOT NULL, PRIMARY KEY ("key"));
CREATE TABLE sessions (
    app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL, id VARCHAR(128) NOT NULL,
    state TEXT NOT NULL, create_time DATETIME NOT NULL, update_time DATETIME NOT NULL,
    event_sequence INTEGER NOT NULL, PRIMARY KEY (app_name, user_id, id));
CREATE TABLE app_states (
    app_name VARCHAR(128) NOT NULL, state TEXT NOT NULL, update_time DATETIME NOT NULL, PRIMARY KEY (app_name));
CREATE TABLE user_states (
    app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL, state TEXT NOT NULL,
    update_time DATETIME NOT NULL, PRIMARY KEY (app_name, user_id));
CREATE TABLE events (
    id VARCHAR(128) NOT NULL, app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL,
    session_id VARCHAR(128) NOT NULL, invocation_id VARCHAR(256) NOT NULL, timestamp DATETIME NOT NULL,
    event_data TEXT, PRIMARY KEY (id, app_name, user_id, session_id),
    FOREIGN KEY(app_name, user_id, session_id) REFERENCES sessions (app_name, user_id, id) ON DELETE CASCADE);
CREATE INDEX idx_events_app_user_session_ts ON events (app_name, user_id, session_id, timestamp DESC);
"""


def _stamp(t: float) -> str:
    """A naive UTC datetime as SQLAlchemy's DateTime writes it on SQLite."""
    return datetime.fromtimestamp(t, tz=timezone.utc).replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")


def build(path: Path = OUT) -> Path:
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    con.execute("INSERT INTO adk_internal_metadata VALUES ('schema_version', '1')")
    con.execute("INSERT INTO app_states VALUES (?, '{}', ?)", (APP, _stamp(T0)))
    con.execute("INSERT INTO user_states VALUES (?, ?, '{}', ?)", (APP, USER, _stamp(T0)))
    for sid, events in SESSIONS.items():
        con.execute("INSERT INTO sessions VALUES (?, ?, ?, '{}', ?, ?, ?)",
                    (APP, USER, sid, _stamp(T0), _stamp(events[-1]["timestamp"]), len(events)))
        # written newest first: the reader must order by timestamp, as get_session does
        con.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [(e["id"], APP, USER, sid, e["invocation_id"], _stamp(e["timestamp"]), json.dumps(e))
                         for e in reversed(events)])
    con.commit()
    con.close()
    return path


if __name__ == "__main__":
    print(build())
