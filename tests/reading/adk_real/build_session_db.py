"""Builds ``session.db``, ``orphan_response.db`` and ``database_session.db`` beside it with Google ADK's own session store, in a scratch virtualenv
that has ``google-adk`` (never a dependency of the inspector)::

    python3 -m venv /tmp/adk-venv && /tmp/adk-venv/bin/pip install "google-adk[db]==2.13.0"
    /tmp/adk-venv/bin/python tests/reading/adk_real/build_session_db.py

``session.db`` and ``orphan_response.db`` come from ``SqliteSessionService``
(``google.adk.sessions.sqlite_session_service``), the store ``adk web`` / ``adk api_server`` open at
``.adk/session.db`` by default (``google.adk.cli.utils.local_storage``); ``database_session.db`` from
``DatabaseSessionService`` on ``sqlite+aiosqlite://`` (SQLAlchemy, the ``[db]`` extra, what a
``--session_service_uri`` that no other service claims gets). Both through ADK's own
``create_session`` / ``append_event``: the
rows, their ``event_data`` JSON and the schema are what ADK writes. No model is called: the events
are built as a model turn would make them, from ``google.genai.types`` parts. Ids and timestamps are
given so that a rebuild gives the same rows (``create_time`` is the clock's). Sessions (app
``dice_agent``, user ``u_1``); ``session.db`` and ``database_session.db`` hold the first two,
``orphan_response.db`` the third:

- ``s_clean``: the user asks, the model calls ``roll_die``, its response, the model's answer;
- ``s_open``: the model calls ``roll_die`` and the next event is the user's next question: the call
  has no ``function_response`` (what a restart between the call and its result leaves);
- ``s_orphan``: a ``function_response`` whose call is not in the session (a history edited by hand
  or stitched together from two sources).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import google.adk
from google.adk.events.event import Event
from google.adk.sessions.base_session_service import BaseSessionService
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types

HERE = Path(__file__).parent
DATABASES = {"session.db": ("s_clean", "s_open"), "orphan_response.db": ("s_orphan",),
             "database_session.db": ("s_clean", "s_open")}
APP, USER, AGENT = "dice_agent", "u_1", "dice_agent"
T0 = 1795824000.0  # 2026-11-28 00:00:00 UTC


def text(eid: str, inv: str, author: str, role: str, words: str, dt: float) -> Event:
    return Event(id=eid, invocation_id=inv, author=author, timestamp=T0 + dt,
                 content=types.Content(role=role, parts=[types.Part(text=words)]))


def call(eid: str, inv: str, cid: str, sides: int, dt: float) -> Event:
    return Event(id=eid, invocation_id=inv, author=AGENT, timestamp=T0 + dt,
                 content=types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(
                     id=cid, name="roll_die", args={"sides": sides}))]))


def response(eid: str, inv: str, cid: str, result: int, dt: float) -> Event:
    return Event(id=eid, invocation_id=inv, author=AGENT, timestamp=T0 + dt,
                 content=types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
                     id=cid, name="roll_die", response={"result": result}))]))


SESSIONS: dict[str, list[Event]] = {
    "s_clean": [
        text("ev-c1", "e-c1", "user", "user", "Roll a 20 sided die.", 0),
        call("ev-c2", "e-c1", "adk-7f1c2a10-0001", 20, 1.5),
        response("ev-c3", "e-c1", "adk-7f1c2a10-0001", 7, 1.75),
        text("ev-c4", "e-c1", AGENT, "model", "I rolled a 7.", 2.5),
    ],
    "s_open": [
        text("ev-o1", "e-o1", "user", "user", "Roll a 20 sided die.", 10),
        call("ev-o2", "e-o1", "adk-7f1c2a10-0002", 20, 11.5),
        text("ev-o3", "e-o2", "user", "user", "And again?", 30),
    ],
    "s_orphan": [
        text("ev-r1", "e-r1", "user", "user", "What did the last roll give?", 40),
        response("ev-r2", "e-r1", "adk-7f1c2a10-0009", 4, 41),
        text("ev-r3", "e-r1", AGENT, "model", "The last roll gave 4.", 42),
    ],
}


async def build(out: Path, sessions: tuple[str, ...]) -> None:
    for p in (out, out.with_name(out.name + "-wal"), out.with_name(out.name + "-shm")):
        p.unlink(missing_ok=True)
    service: BaseSessionService
    if out.name == "database_session.db":
        service = DatabaseSessionService(db_url=f"sqlite+aiosqlite:///{out}")
    else:
        service = SqliteSessionService(db_path=str(out))
    for sid in sessions:
        session = await service.create_session(app_name=APP, user_id=USER, session_id=sid)
        for event in SESSIONS[sid]:
            await service.append_event(session, event)
    await service.close()


if __name__ == "__main__":
    where = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    for name, sessions in DATABASES.items():
        asyncio.run(build(where / name, sessions))
        print(f"google-adk {google.adk.__version__}: wrote {where / name}")
