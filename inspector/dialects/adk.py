"""Google ADK sessions: a session's JSON (``{id, appName, userId, state, events, lastUpdateTime}``,
what ``adk api_server``'s ``GET /apps/{app}/users/{user}/sessions/{id}`` returns and ``adk web``
exports) or its events alone (``POST /run``'s answer).

Each event (google/adk-python ``src/google/adk/events/event.py``, written with camelCase aliases)
is ``{content: {role, parts}, invocationId, author, actions, id, timestamp, partial?, branch?,
longRunningToolIds?}``; a tool call is a ``functionCall{id, name, args}`` part of a model
content, its result a ``functionResponse{id, name, response}`` part of a user content (ids
``adk-<uuid>``, made by ADK). What the model receives (``flows/llm_flows/contents.py``
``_get_contents``): the contents of the session's events in order, without ``partial`` events
and events without content; an event of another agent than the one answering (the author of the
last agent event) is sent as user text ("For context: [agent] called tool ..."). Those contents
are judged as the Gemini contents they are (target gemini). ADK's own fix-ups before sending
(it moves a late function response next to its call, and drops the ``adk-`` ids) are not
modelled: the session is judged as recorded.

Repair adds a result for a call left without one as a new event (the call's invocation and
author, a user content of ``functionResponse`` parts), right after the events of the content
before it; any other change it says plainly it cannot write.
"""

from __future__ import annotations

import json
from typing import Any

from ..containers import Path
from ..model import Issue, Msg
from ..sqlite_sessions import DATABASE_FILES, EVENT_SESSIONS, session_store
from . import gemini
from .base import Samples, SessionFiles, objects
from .chat_events import EventsEditor

SESSION_KEYS = ("appName", "userId", "events")


def is_event(e: Any) -> bool:
    """An ADK event: ``invocationId`` (``invocation_id`` as the SQL store keeps it) and ``author``
    beside its ``content`` or ``actions``."""
    return (type(e) is dict and ("invocationId" in e or "invocation_id" in e) and type(e.get("author")) is str
            and (type(e.get("content")) is dict or type(e.get("actions")) is dict))


def _part(p: Any, camel: str, snake: str) -> Any:
    """A part's ``functionCall`` / ``functionResponse`` (snake_case in the SQL store's JSON)."""
    if type(p) is not dict:
        return None
    v = p.get(camel, p.get(snake))
    return v if type(v) is dict else None


def claims(items: list[Any]) -> bool:
    return any(is_event(e) and type(e.get("content")) is dict for e in items[:50])


def detect(items: list[Any]) -> int:
    return 4 if claims(items) else 0


def _foreign(e: dict[str, Any]) -> dict[str, Any]:
    """Another agent's event as ADK sends it to the agent answering: user text."""
    who = e.get("author")
    parts: list[dict[str, Any]] = [{"text": "For context:"}]
    for p in (e.get("content") or {}).get("parts") or ():
        if type(p) is not dict or p.get("thought") is True:
            continue
        if type(p.get("text")) is str:
            parts.append({"text": f"[{who}] said: {p['text']}"})
        elif (fc := _part(p, "functionCall", "function_call")) is not None:
            parts.append({"text": f"[{who}] called tool `{fc.get('name')}` with parameters: "
                                  f"{json.dumps(fc.get('args'), ensure_ascii=False)}"})
        elif (fr := _part(p, "functionResponse", "function_response")) is not None:
            parts.append({"text": f"[{who}] `{fr.get('name')}` tool returned result: "
                                  f"{json.dumps(fr.get('response'), ensure_ascii=False)}"})
    return {"role": "user", "parts": parts}


def chat(items: list[Any], where: tuple[Any, ...]) -> tuple[list[dict[str, Any]], list[list[int]]]:
    """The Gemini contents the events make, and for each the event it came from."""
    agent = next((e.get("author") for e in reversed(items) if is_event(e) and e.get("author") != "user"
                  and type(e.get("content")) is dict), None)
    out: list[dict[str, Any]] = []
    groups: list[list[int]] = []
    for k, e in objects(items, where, "an ADK event object"):
        content = e.get("content")
        if type(content) is not dict or e.get("partial") is True or not content.get("parts"):
            continue
        author = e.get("author")
        out.append(_foreign(e) if author not in ("user", agent) and agent is not None else content)
        groups.append([k])
    return out, groups


def adk_session(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    """A session's JSON: its ``events`` (only that key: never another list the state holds)."""
    if type(root) is dict and all(k in root for k in SESSION_KEYS) and type(root["events"]) is list:
        return [(("events",), ("Google ADK session", {"dialect": "adk"}))]
    return []


def adk_store(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    """A SQLite database of ADK's ``DatabaseSessionService`` (read by ``sqlite_sessions``): each
    session of its ``events`` table, and the Agents SDK sessions the same database holds."""
    if fmt != "sqlite" or type(root) is not dict or type(root.get(EVENT_SESSIONS)) is not list:
        return []
    out: list[tuple[Path, Any]] = []
    for k, s in enumerate(root[EVENT_SESSIONS]):
        extra: dict[str, Any] = {"label": f"session {s['session_id']} ({s['app_name']}, user {s['user_id']})",
                                 "dialect": "adk"}
        if s["skipped_rows"]:
            extra["skipped_rows"] = [r["id"] for r in s["skipped_rows"]]
        out.append(((EVENT_SESSIONS, k, "items"), ("Google ADK DatabaseSessionService", extra)))
    return out + session_store(root, fmt)


class AdkEditor(EventsEditor, gemini.GeminiEditor):
    message_dialect = "gemini"


def _event(eid: str, role: str, parts: list[Any], author: str, t: float) -> dict[str, Any]:
    return {"content": {"parts": parts, "role": role}, "invocationId": "e-98e9c6ef-f1d5-4129-955c-fe78d3611c1c",
            "author": author, "actions": {"stateDelta": {}, "artifactDelta": {}, "requestedAuthConfigs": {}},
            "id": eid, "timestamp": t}


_ASK = _event("Q1user00", "user", [{"text": "Roll a 50 sided die"}], "user", 1750052501.2)
_CALL = _event("uolapJWG", "model", [{"functionCall": {"id": "adk-d98c7dbd-b808-42a1-94af-61320d522e82",
                                                       "args": {"sides": 50}, "name": "roll_die"}}],
               "hello_world_agent", 1750052502.569582)


class Adk(gemini.Gemini):
    """Google ADK session events, read as the Gemini contents ADK sends."""

    name = "adk"
    what = "a Google ADK session"
    recognisers = (adk_session, adk_store)
    editor_class = AdkEditor
    # DatabaseSessionService's SQLite files, wherever the program put them (``inspector sessions --root``)
    session_files = SessionFiles("adk", "", DATABASE_FILES, project_folder=False, store=EVENT_SESSIONS)
    tool_fields = frozenset({"functionCall", "functionResponse", "function_call", "function_response",
                             "longRunningToolIds"})
    samples = Samples(
        clean={"id": "session_abc", "appName": "1_hello_world", "userId": "user_123", "state": {},
               "events": [_ASK, _CALL,
                          _event("1pMoqAFd", "user", [{"functionResponse": {
                              "id": "adk-d98c7dbd-b808-42a1-94af-61320d522e82", "name": "roll_die",
                              "response": {"result": 13}}}], "hello_world_agent", 1750052502.990774),
                          _event("Q7gQktaR", "model", [{"text": "I rolled a 50 sided die and got 13.\n"}],
                                 "hello_world_agent", 1750052502.992469)],
               "lastUpdateTime": 1750052502.992469},
        broken={"id": "session_abc", "appName": "1_hello_world", "userId": "user_123", "state": {},
                "events": [_ASK, _CALL, _event("Q2user00", "user", [{"text": "Never mind."}], "user", 1750052510.0)],
                "lastUpdateTime": 1750052510.0},
    )

    detect = staticmethod(detect)

    def is_message(self, item: Any) -> bool:
        return is_event(item)

    def chat(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[dict[str, Any]], list[list[int]]]:
        return chat(items, where)

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        return gemini.normalize(chat(items, where)[0], where, issues)

    def item_groups(self, items: list[Any], where: tuple[Any, ...] = ()) -> list[list[int]]:
        return chat(items, where)[1]

    def call_ids(self, msg: dict[str, Any]) -> list[Any]:
        calls = [_part(p, "functionCall", "function_call") for p in msg.get("parts") or ()]
        return [fc.get("id") for fc in calls if fc is not None and fc.get("id") is not None]

    def added_results(self, old: Any, new: Any) -> Any | None:
        """The ``functionResponse`` parts repair put before a user content's own parts."""
        before, after = old.get("parts") or [], new.get("parts") if type(new) is dict else None
        if type(after) is not list or len(after) <= len(before) or new.get("role") != old.get("role"):
            return None
        n = len(after) - len(before)
        if any(a is not b for a, b in zip(after[n:], before)):
            return None
        return {"role": "user", "parts": after[:n]}

    def result_event(self, items: list[Any], calls: dict[Any, int], msg: Any) -> dict[str, Any] | None:
        """A user content of ``functionResponse`` parts answering known calls, as a new event of
        the first call's invocation and author."""
        parts = msg.get("parts") if type(msg) is dict else None
        responses = [_part(p, "functionResponse", "function_response") for p in parts or ()]
        ids = [fr.get("id") for fr in responses if fr is not None]
        if not parts or len(ids) != len(parts) or any(i not in calls for i in ids) or msg.get("role") != "user":
            return None
        call = items[calls[ids[0]]]
        if "invocation_id" in call:  # the SQL store's snake_case JSON (``Event.model_dump``)
            return {"content": {"parts": parts, "role": "user"}, "invocation_id": call.get("invocation_id"),
                    "author": call.get("author"), "actions": {"state_delta": {}, "artifact_delta": {},
                                                              "requested_auth_configs": {}},
                    "id": f"repair-{ids[0]}", "timestamp": call.get("timestamp")}
        return {"content": {"parts": parts, "role": "user"}, "invocationId": call.get("invocationId"),
                "author": call.get("author"), "actions": {"stateDelta": {}, "artifactDelta": {},
                                                          "requestedAuthConfigs": {}},
                "id": f"repair-{ids[0]}", "timestamp": call.get("timestamp")}

    def agent(self, items: list[Any]) -> tuple[str, str | None] | None:
        """Google ADK (its events name no version)."""
        return "Google ADK", None

    def names_list(self, key: str | None, request: Any, target: str | None) -> bool:
        return False

    def continues_stored(self, request: Any) -> bool:
        return False


DIALECT = Adk()
