"""OpenHands conversations: V1 event folders (``events/event-*.json``) and V0 ``trajectory.json``.

V1 (OpenHands/software-agent-sdk ``openhands-sdk/openhands/sdk/event/``): a conversation folder
``~/.openhands/conversations/<id>/`` holds ``base_state.json`` and ``events/event-NNNNN-<uuid>.json``,
one event per file, ``{id, timestamp, source, kind, ...}``. What the LLM receives
(``LLMConvertibleEvent.events_to_messages``): a ``SystemPromptEvent`` is the system message; a
``MessageEvent`` its ``llm_message``; the ``ActionEvent`` s of one model response
(``llm_response_id``) one assistant message whose ``tool_calls`` are their ``tool_call`` s (id
``tool_call_id``); an ``ObservationEvent``, ``AgentErrorEvent`` or ``UserRejectObservation`` a
tool message answering ``tool_call_id``. A ``Condensation`` drops its ``forgotten_event_ids``
from what is sent. Other events (state updates, pauses) are not sent.

V0 (All-Hands-AI/OpenHands ``openhands/events/serialization``; ``save_trajectory_path`` writes
the list): events ``{id, timestamp, source, message, action | observation, args | extras,
tool_call_metadata?}``. ``ConversationMemory.process_events``: a user or agent ``message``
action is a user or assistant message; the actions of one model response
(``tool_call_metadata.model_response.id``) one assistant message with their calls (id
``tool_call_metadata.tool_call_id``); an observation with ``tool_call_metadata`` a tool message
answering it. Events without ``tool_call_metadata`` other than messages are not sent.

OpenHands talks to every provider through LiteLLM in Chat Completions shape: the target is the
model's vendor (``base_state.json`` or the model response names it), reached through LiteLLM's
translation where it is not OpenAI's. OpenHands patches the list before sending (it drops a call
left without an observation, V0 ``_filter_unmatched_tool_calls``); the log is judged as
recorded. A conversation folder is read as its events in file-name order; repair of a folder
says it cannot write one back (a ``trajectory.json`` or an events array is written back as it
was, with the results repair added as new events).

V0 also kept each conversation as a folder, in its file store (``~/.openhands`` by default):
``sessions/<sid>/`` (``users/<user>/conversations/<sid>/`` with a user) holds ``metadata.json``
and ``events/<id>.json``, one ``event_to_dict`` event per file named by its integer id
(All-Hands-AI/OpenHands ``openhands/storage/locations.py``: ``get_conversation_event_filename``;
``openhands/events/event_store.py`` reads them by id, from ``event_cache/<start>-<end>.json``
pages of 25 when there is one, the same events). Such a folder is read as its events in id order,
the same events as ``trajectory.json``; repair says it cannot write one back (OpenHands orders
events by id and serves them from its cache pages: a result added after a call would need an id
between two others).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..containers import Path as Path_
from ..errors import InputError
from ..special_files import not_a_file
from .base import Samples, SessionFiles, objects, parts_text, word
from .chat_events import ChatEvents, ChatEventsEditor

V1_KINDS = frozenset({"MessageEvent", "ActionEvent", "ObservationEvent", "AgentErrorEvent", "UserRejectObservation",
                      "SystemPromptEvent", "ConversationStateUpdateEvent", "Condensation", "CondensationRequest",
                      "CondensationSummaryEvent", "PauseEvent", "TokenEvent"})
V1_RESULTS = frozenset({"ObservationEvent", "AgentErrorEvent", "UserRejectObservation"})
SOURCES = frozenset({"agent", "user", "environment", "hook"})


def is_v1(e: Any) -> bool:
    return type(e) is dict and word(e.get("kind")) in V1_KINDS and "id" in e and word(e.get("source")) in SOURCES


def is_v0(e: Any) -> bool:
    return (type(e) is dict and word(e.get("source")) in SOURCES and type(e.get("id")) is int and "timestamp" in e
            and (type(e.get("action")) is str or type(e.get("observation")) is str))


def is_event(e: Any) -> bool:
    return is_v1(e) or is_v0(e)


def claims(items: list[Any]) -> bool:
    head = items[:50]
    return any(is_v1(e) and e["kind"] in ("MessageEvent", "ActionEvent", "SystemPromptEvent") for e in head) or any(
        is_v0(e) and (e.get("action") == "message" or type(e.get("tool_call_metadata")) is dict) for e in head)


def detect(items: list[Any]) -> int:
    return 4 if claims(items) else 0


def _obj(v: Any) -> dict[str, Any]:
    return v if type(v) is dict else {}


def _text(content: Any) -> Any:
    """A V1 ``TextContent`` list as Chat Completions content parts (the SDK's own extra keys,
    ``cache_prompt``, are not sent)."""
    if type(content) is list:
        return [{"type": "text", "text": p.get("text")} if type(p) is dict and p.get("type") == "text" else p
                for p in content]
    return content


def _v1(items: list[Any], where: tuple[Any, ...]) -> tuple[list[dict[str, Any]], list[list[int]]]:
    forgotten = {x for e in items if is_v1(e) and e["kind"] == "Condensation"
                 for x in (e.get("forgotten_event_ids") or ()) if type(x) is str}
    out: list[dict[str, Any]] = []
    groups: list[list[int]] = []
    reply: Any = object()  # the llm_response_id of the assistant message being built
    for k, e in objects(items, where, "an OpenHands event object"):
        kind = e.get("kind")
        if e.get("id") in forgotten:
            continue
        if kind == "ActionEvent":
            tc = _obj(e.get("tool_call"))
            call = {"id": e.get("tool_call_id", tc.get("id")), "type": "function",
                    "function": {"name": tc.get("name", e.get("tool_name")), "arguments": tc.get("arguments", "{}")}}
            rid = e.get("llm_response_id")
            if out and rid is not None and rid == reply and groups[-1] and items[groups[-1][-1]].get("kind") == "ActionEvent":
                out[-1]["tool_calls"].append(call)
                groups[-1].append(k)
                continue
            thought = parts_text(e.get("thought"))
            out.append({"role": "assistant", "content": thought or None, "tool_calls": [call]})
            groups.append([k])
            reply = rid
            continue
        reply = object()
        if kind == "MessageEvent" and type(e.get("llm_message")) is dict:
            lm = e["llm_message"]
            msg = {"role": lm.get("role"), "content": _text(lm.get("content"))}
            if lm.get("tool_calls"):
                msg["tool_calls"] = lm["tool_calls"]
            out.append(msg)
            groups.append([k])
        elif kind == "SystemPromptEvent":
            sp = e.get("system_prompt")
            out.append({"role": "system", "content": sp.get("text") if type(sp) is dict else sp})
            groups.append([k])
        elif kind in V1_RESULTS:
            if kind == "ObservationEvent":
                obs = _obj(e.get("observation"))
                content: Any = _text(obs.get("content"))
            else:
                content = e.get("error", e.get("rejection_reason", ""))
            out.append({"role": "tool", "tool_call_id": e.get("tool_call_id"), "name": e.get("tool_name"),
                        "content": content})
            groups.append([k])
    return out, groups


def _response(e: dict[str, Any]) -> dict[str, Any]:
    meta = e.get("tool_call_metadata")
    mr = meta.get("model_response") if type(meta) is dict else None
    return mr if type(mr) is dict else {}


def _v0_call(e: dict[str, Any]) -> dict[str, Any]:
    meta = e["tool_call_metadata"]
    cid = meta.get("tool_call_id")
    args: Any = None
    for choice in _response(e).get("choices") or ():
        for tc in ((choice.get("message") or {}).get("tool_calls") or ()) if type(choice) is dict else ():
            if type(tc) is dict and tc.get("id") == cid and type(tc.get("function")) is dict:
                args = tc["function"].get("arguments")
    if args is None:
        a = _obj(e.get("args"))
        args = json.dumps({k: v for k, v in a.items() if k not in ("thought", "confirmation_state", "hidden",
                                                                      "blocking", "is_input")})
    return {"id": cid, "type": "function", "function": {"name": meta.get("function_name"), "arguments": args}}


def _v0(items: list[Any], where: tuple[Any, ...]) -> tuple[list[dict[str, Any]], list[list[int]]]:
    forgotten: set[Any] = set()
    for e in items:
        if is_v0(e) and e.get("action") == "condensation" and type(e.get("args")) is dict:
            a = e["args"]
            forgotten.update(a.get("forgotten_event_ids") or ())
            lo, hi = a.get("forgotten_events_start_id"), a.get("forgotten_events_end_id")
            if type(lo) is int and type(hi) is int:
                forgotten.update(range(lo, hi + 1))
    out: list[dict[str, Any]] = []
    groups: list[list[int]] = []
    reply: Any = object()
    for k, e in objects(items, where, "an OpenHands event object"):
        if e.get("id") in forgotten:
            continue
        meta = e.get("tool_call_metadata")
        args = _obj(e.get("args"))
        if type(e.get("action")) is str and type(meta) is dict:
            rid = _response(e).get("id")
            if out and rid is not None and rid == reply and "tool_calls" in out[-1]:
                out[-1]["tool_calls"].append(_v0_call(e))
                groups[-1].append(k)
                continue
            thought = args.get("thought")
            out.append({"role": "assistant", "content": thought or None, "tool_calls": [_v0_call(e)]})
            groups.append([k])
            reply = rid
            continue
        reply = object()
        if type(e.get("observation")) is str and type(meta) is dict:
            out.append({"role": "tool", "tool_call_id": meta.get("tool_call_id"), "name": meta.get("function_name"),
                        "content": e.get("content", "")})
            groups.append([k])
        elif e.get("action") == "message" and e.get("source") in ("user", "agent"):
            out.append({"role": "user" if e["source"] == "user" else "assistant",
                        "content": args.get("content", e.get("message", ""))})
            groups.append([k])
        elif e.get("action") == "system":
            out.append({"role": "system", "content": args.get("content", "")})
            groups.append([k])
    return out, groups


def conversation_folder(path: str | os.PathLike[str]) -> list[Path] | None:
    """The event files of a V1 conversation folder (the folder, or its ``events`` folder), or of
    a V0 session folder (``events/<id>.json``), in the order OpenHands reads them; None when the
    folder is not one."""
    p = Path(path)
    for folder in (p / "events", p):
        files = sorted(folder.glob("event-*.json")) if folder.is_dir() else []
        if files:
            return files
    return v0_folder(p)


def v0_folder(p: Path) -> list[Path] | None:
    """The event files of a V0 session folder (the folder, or its ``events`` folder), in id order;
    None when it is not one (see the module doc)."""
    events = p / "events" if (p / "events").is_dir() else p if p.name == "events" else None
    if events is None:
        return None
    files = [f for f in events.glob("*.json") if f.stem.isdigit()]
    return sorted(files, key=lambda f: int(f.stem)) or None


def read_folder(path: str | os.PathLike[str]) -> bytes | None:
    """A V1 conversation folder as one JSON document: its events in order, as an array, or, when
    the folder has its ``base_state.json`` (which names the model), ``{"base_state": ...,
    "events": [...]}``. None: not such a folder."""
    files = conversation_folder(path)
    if files is None:
        return None
    for f in files:  # a named pipe among the events would be waited on forever: refused, named
        what = not_a_file(str(f))
        if what is not None:
            raise InputError(f"{what}, in a conversation folder", str(f))
    events = b"[" + b",\n".join(f.read_bytes().strip() for f in files) + b"]"
    state = files[0].parent.parent / "base_state.json" if files[0].parent.name == "events" else None
    if state is not None and state.is_file():
        return b'{"base_state": ' + state.read_bytes().strip() + b',\n"events": ' + events + b"}"
    return events


def openhands_folder(root: Any, fmt: str) -> list[tuple[Path_, Any]]:
    """A conversation folder read whole (``read_folder``): its ``events`` only."""
    if (type(root) is dict and type(root.get("base_state")) is dict and type(root.get("events")) is list
            and set(root) == {"base_state", "events"}):
        return [(("events",), ("OpenHands conversation", {"dialect": "openhands"}))]
    return []


def _state_model(holder: Any) -> Any:
    state = holder.get("base_state") if type(holder) is dict else None
    llm = _obj(_obj(_obj(state).get("agent")).get("llm"))
    return llm.get("model")


def write_folder(data: bytes, source: str, out: str) -> None:
    """The events of ``data`` (a JSON array) as ``out/events/event-NNNNN-<id>.json``, numbered in
    order as OpenHands numbers them, and the source folder's other files (``base_state.json``)
    copied; ``out`` must not exist yet (a conversation folder is never changed in place)."""
    import shutil

    if v0_folder(Path(source)) is not None:
        raise InputError("repair cannot write an OpenHands V0 session folder back (OpenHands reads its events by "
                         "their integer ids, a result for a call would need an id between two others); export the "
                         "conversation's trajectory.json and repair that", source)
    events = json.loads(data)
    if type(events) is dict:  # with its base_state (copied from the source folder below)
        events = events["events"]
    dest = Path(out)
    try:
        dest.mkdir(parents=True)
    except FileExistsError:
        raise InputError("exists already: repair writes a conversation folder to a new folder", out) from None
    src = Path(source)
    if (src / "events").is_dir():
        for f in src.iterdir():
            if f.name != "events":
                (shutil.copytree if f.is_dir() else shutil.copy2)(f, dest / f.name)
    (dest / "events").mkdir()
    for n, e in enumerate(events):
        eid = e.get("id") if type(e) is dict else None
        (dest / "events" / f"event-{n:05d}-{eid}.json").write_text(json.dumps(e, ensure_ascii=False), encoding="utf-8")


class OpenHandsEditor(ChatEventsEditor):
    pass


def _v1_event(eid: str, kind: str, source: str, **more: Any) -> dict[str, Any]:
    return {"id": eid, "timestamp": f"2026-02-05T11:24:4{eid[0]}.000000", "source": source, **more, "kind": kind}


_SYSTEM = _v1_event("0-sys", "SystemPromptEvent", "agent",
                    system_prompt={"cache_prompt": False, "type": "text", "text": "You are OpenHands agent."}, tools=[])
_ASK = _v1_event("1-ask", "MessageEvent", "user", llm_message={
    "role": "user", "content": [{"cache_prompt": False, "type": "text", "text": "Run pwd."}], "thinking_blocks": []},
                 activated_skills=[], extended_content=[])
_CALL = _v1_event("2-act", "ActionEvent", "agent", thought=[], thinking_blocks=[],
                  action={"command": "pwd", "is_input": False, "reset": False, "kind": "TerminalAction"},
                  tool_name="terminal", tool_call_id="call_KaQ0kUcBb5tbMzhxbIx9dvoZ",
                  tool_call={"id": "call_KaQ0kUcBb5tbMzhxbIx9dvoZ", "name": "terminal",
                             "arguments": "{\"command\":\"pwd\",\"security_risk\":\"LOW\"}", "origin": "completion"},
                  llm_response_id="chatcmpl-D5rlWUdHeehJ1YAPoStNh1wWFayTf", security_risk="LOW")


class OpenHands(ChatEvents):
    """OpenHands conversations (V1 events, V0 trajectories), read as the messages OpenHands sends."""

    name = "openhands"
    what = "an OpenHands conversation"
    tool_fields = frozenset({"tool_call_id", "tool_calls", "tool_call_metadata", "tool_call", "tool_name",
                             "function_name", "action_id"})
    editor_class = OpenHandsEditor
    sends_through_gateway = True  # LiteLLM, for every provider
    recognisers = (openhands_folder,)
    # V1 conversation folders (a row's path is the folder, which check, repair and the app read)
    session_files = SessionFiles("openhands", ".openhands/conversations", ("*/",), project_folder=False)
    samples = Samples(
        clean=[_SYSTEM, _ASK, _CALL,
               _v1_event("3-obs", "ObservationEvent", "environment", tool_name="terminal",
                         tool_call_id="call_KaQ0kUcBb5tbMzhxbIx9dvoZ",
                         observation={"content": [{"cache_prompt": False, "type": "text", "text": "/workspace"}],
                                      "is_error": False, "command": "pwd", "exit_code": 0,
                                      "kind": "TerminalObservation"},
                         action_id="2-act"),
               _v1_event("4-msg", "MessageEvent", "agent", llm_message={
                   "role": "assistant", "content": [{"cache_prompt": False, "type": "text", "text": "It is /workspace."}],
                   "thinking_blocks": []}, llm_response_id="chatcmpl-D5rlZyAE0lEpf0kEWhm5eSgodQ6HM",
                         activated_skills=[], extended_content=[])],
        broken=[_SYSTEM, _ASK, _CALL,
                _v1_event("3-ask", "MessageEvent", "user", llm_message={
                    "role": "user", "content": [{"cache_prompt": False, "type": "text", "text": "Never mind."}],
                    "thinking_blocks": []}, activated_skills=[], extended_content=[])],
        text_at=1,
    )

    detect = staticmethod(detect)

    def is_message(self, item: Any) -> bool:
        return is_event(item)

    def read_folder(self, path: str) -> bytes | None:
        return read_folder(path)

    def write_folder(self, data: bytes, source: str, out: str) -> None:
        write_folder(data, source, out)

    def chat(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[dict[str, Any]], list[list[int]]]:
        if any(is_v1(e) for e in items[:50]):
            return _v1(items, where)
        return _v0(items, where)

    def tool_event(self, items: list[Any], call_event: int, tool_msg: dict[str, Any]) -> dict[str, Any]:
        """V1: an ``AgentErrorEvent`` for the call (what the SDK records when a tool cannot run);
        V0: an ``ErrorObservation`` carrying the action's ``tool_call_metadata``."""
        action = items[call_event]
        text = tool_msg.get("content") if type(tool_msg.get("content")) is str else ""
        if is_v1(action):
            return {"id": f"repair-{tool_msg['tool_call_id']}", "timestamp": action.get("timestamp"),
                    "source": "agent", "tool_name": action.get("tool_name"), "tool_call_id": tool_msg["tool_call_id"],
                    "error": text, "kind": "AgentErrorEvent"}
        ids: list[int] = [e["id"] for e in items if type(e) is dict and type(e.get("id")) is int]
        meta = next((e["tool_call_metadata"] for e in items if type(e) is dict and type(e.get("action")) is str
                     and type(e.get("tool_call_metadata")) is dict
                     and e["tool_call_metadata"].get("tool_call_id") == tool_msg["tool_call_id"]),
                    {"tool_call_id": tool_msg["tool_call_id"]})
        return {"id": max(ids, default=0) + 1, "timestamp": action.get("timestamp"), "source": "agent",
                "message": text, "cause": action.get("id"), "observation": "error", "tool_call_metadata": meta,
                "content": text, "extras": {"error_id": ""}}

    def agent(self, items: list[Any]) -> tuple[str, str | None] | None:
        """OpenHands (its events name no version)."""
        return "OpenHands", None

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        """The model a V0 event's model response names (LiteLLM's, as the provider returned it)."""
        from ..target_from_model import model_named

        if _state_model(holder):  # V1: the agent's LLM in base_state.json ("anthropic/claude-…", LiteLLM's names)
            return model_named(_state_model(holder), "the conversation's base_state.json names model")
        for e in items:
            if is_v0(e) and _response(e).get("model"):
                return model_named(_response(e)["model"], "the trajectory's model response names model")
        return None, ""


DIALECT = OpenHands()
