"""GitHub Copilot CLI sessions: ``~/.copilot/session-state/<session id>/events.jsonl``.

Each line is an event ``{type, data, id, timestamp, parentId}`` (github/copilot-sdk
``session-events.schema.json``): ``session.start`` (``data.sessionId``, ``copilotVersion``,
``selectedModel``, ``context.cwd``), ``user.message`` (``data.content``),
``assistant.message`` (``data.content``, ``toolRequests[{toolCallId, name, arguments}]``),
``tool.execution_start`` / ``tool.execution_complete`` (``data.toolCallId``, ``success``,
``result.content`` or ``error.message``), and events the model never sees (``session.info``,
``assistant.turn_start``, usage, deltas). What the model receives is a Chat Completions history
(Copilot's API speaks it for every model): a user message per ``user.message``, an assistant
message with ``tool_calls`` per ``assistant.message``, a tool message per
``tool.execution_complete`` (its ``result.content``, "the concise tool result text sent to the
LLM"), a system message per ``system.message``. Events of a sub-agent are its own conversation,
not the session's: each sub-agent's is a transcript of its own (as Claude Code's sidechains and
Codex's sub-agent threads are), read from its events alone. A sub-agent's event carries the
envelope's ``agentId`` ("Sub-agent instance identifier. Absent for events from the root/main agent
and session-level events", github/copilot-sdk ``nodejs/src/generated/session-events.ts`` and
``docs/features/custom-agents.md`` at commit cc0438d, 2026-08-21), or, before that (deprecated
since), ``data.parentToolCallId``, the id of the parent's tool call that started it;
``subagent.started`` names it (``data.agentName``, ``data.toolCallId``). A successful
``session.compaction_complete`` starts the history again from its ``summaryContent``. Copilot
CLI's own fix-up of calls left open, and ``session.truncation`` (which drops messages before
sending), are not modelled: the log is judged as recorded.

Repair adds a ``tool.execution_complete`` with ``success: false`` for a call left without one,
right after the message before it; anything else it says plainly it cannot write.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from ..containers import Path
from .base import Samples, SessionFiles, objects, word
from .chat_events import ChatEvents, ChatEventsEditor

SENT = frozenset({"user.message", "assistant.message", "tool.execution_complete", "system.message"})


def is_event(e: Any) -> bool:
    """One line: ``{type, data, id, timestamp}`` with a dotted Copilot event type."""
    t = word(e.get("type")) if type(e) is dict else None
    return (t is not None and "." in t and t.split(".", 1)[0] in ("session", "user", "assistant", "tool", "subagent",
                                                                   "hook", "skill", "system", "abort")
            and type(e.get("data")) is dict and "id" in e and "timestamp" in e)


def agent_of(e: Any) -> str | None:
    """The sub-agent an event belongs to (see the module doc), None for the session's own."""
    if type(e) is not dict:
        return None
    a = e.get("agentId")
    data = e.get("data")
    parent = data.get("parentToolCallId") if type(data) is dict else None
    return a if type(a) is str else parent if type(parent) is str else None


def sub_agents(items: list[Any]) -> dict[str, list[int]]:
    """Each sub-agent's events (the indices of those the model is sent), in order."""
    out: dict[str, list[int]] = {}
    for k, e in enumerate(items):
        who = agent_of(e)
        if who is not None and is_event(e) and e["type"] in SENT:
            out.setdefault(who, []).append(k)
    return out


def _sub_agent_name(items: list[Any], who: str) -> str:
    for e in items:
        data = e.get("data") if is_event(e) and e["type"] == "subagent.started" else None
        if type(data) is dict and (e.get("agentId") == who or data.get("toolCallId") == who) \
                and type(data.get("agentName")) is str:
            return f"sub-agent {data['agentName']} ({who})"
    return f"sub-agent {who}"


def copilot_session(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    """A Copilot CLI session with sub-agents: the session's conversation, then each sub-agent's
    as a view of its own (a session without sub-agents is left to detection)."""
    if type(root) is not list or not claims(root):
        return []
    subs = sub_agents(root)
    if not subs:
        return []
    what = "Copilot CLI session"
    return [((), (what, {"dialect": "copilot"}))] + [
        ((), (what, {"view": ks, "label": _sub_agent_name(root, who), "dialect": "copilot"}))
        for who, ks in subs.items()]


def claims(items: list[Any]) -> bool:
    return any(is_event(e) and (e["type"] in SENT or e["type"] == "session.start") for e in items[:50])


def detect(items: list[Any]) -> int:
    return 4 if claims(items) else 0


def _arguments(a: Any) -> Any:
    return a if type(a) is str else json.dumps(a if a is not None else {})


def _result(data: dict[str, Any]) -> Any:
    r = data.get("result")
    if type(r) is dict and "content" in r:
        return r["content"]
    err = data.get("error")
    if type(err) is dict and "message" in err:
        return err["message"]
    if type(err) is str:
        return err
    return json.dumps(r) if r is not None else ""


def chat(items: list[Any], where: tuple[Any, ...]) -> tuple[list[dict[str, Any]], list[list[int]]]:
    """The messages of the conversation whose events come first: the session's, or in a
    sub-agent's view (its events only) that sub-agent's."""
    out: list[dict[str, Any]] = []
    groups: list[list[int]] = []
    whose = next((agent_of(e) for e in items if is_event(e) and e["type"] in SENT), None)
    for k, e in objects(items, where, "a Copilot CLI event object"):
        t = e.get("type")
        data: dict[str, Any] = e["data"] if type(e.get("data")) is dict else {}
        if agent_of(e) != whose:
            continue  # another conversation's event (a sub-agent's, a transcript of its own)
        if t == "session.compaction_complete" and data.get("success") is True:
            # The history is compacted: what follows is sent after the summary, not what preceded.
            out, groups = [], []
            if type(data.get("summaryContent")) is str:
                out.append({"role": "user", "content": data["summaryContent"]})
                groups.append([k])
            continue
        if t == "user.message":
            sent = data.get("transformedContent")
            out.append({"role": "user", "content": sent if type(sent) is str else data.get("content", "")})
        elif t == "system.message":
            out.append({"role": data.get("role") or "system", "content": data.get("content", "")})
        elif t == "assistant.message":
            msg: dict[str, Any] = {"role": "assistant", "content": data.get("content") or None}
            reqs = [r for r in data.get("toolRequests") or () if type(r) is dict]
            if reqs:
                msg["tool_calls"] = [{"id": r.get("toolCallId"), "type": "function",
                                      "function": {"name": r.get("name"), "arguments": _arguments(r.get("arguments"))}}
                                     for r in reqs]
            elif msg["content"] is None:
                msg["content"] = ""
            out.append(msg)
        elif t == "tool.execution_complete":
            out.append({"role": "tool", "tool_call_id": data.get("toolCallId"), "content": _result(data)})
        else:
            continue
        groups.append([k])
    return out, groups


class CopilotEditor(ChatEventsEditor):
    pass


def _event(eid: str, t: str, data: dict[str, Any], parent: str | None) -> dict[str, Any]:
    return {"type": t, "data": data, "id": eid, "timestamp": f"2026-03-04T02:31:0{eid[-1]}.000Z", "parentId": parent}


_START = _event("e0", "session.start", {"sessionId": "7d6c0a1e-2f4b-4c1e-9a55-3b8e2d1f0c40", "version": 1,
                                        "producer": "copilot-agent", "copilotVersion": "0.0.369",
                                        "startTime": "2026-03-04T02:31:00.000Z", "selectedModel": "gpt-5",
                                        "context": {"cwd": "/work/project"}}, None)
_ASK = _event("e1", "user.message", {"content": "Print hello.", "attachments": []}, "e0")
_CALL = _event("e2", "assistant.message", {"messageId": "m-1", "content": "I will run it.", "toolRequests": [
    {"toolCallId": "toolu-bash", "name": "bash", "arguments": {"command": "printf hello"}}]}, "e1")
_RUN = _event("e3", "tool.execution_start", {"toolCallId": "toolu-bash", "toolName": "bash",
                                             "arguments": {"command": "printf hello"}}, "e2")


class Copilot(ChatEvents):
    """GitHub Copilot CLI sessions, read as the Chat Completions history Copilot sends."""

    name = "copilot"
    what = "a Copilot CLI session"
    tool_fields = frozenset({"tool_call_id", "tool_calls", "toolCallId", "toolRequests", "toolName"})  # toolName: tool.execution_start
    editor_class = CopilotEditor
    recognisers = (copilot_session,)
    session_files = SessionFiles("copilot", ".copilot/session-state", ("*/events.jsonl",), env="COPILOT_HOME",
                                 project_folder=False)
    samples = Samples(
        clean=[_START, _ASK, _CALL, _RUN,
               _event("e4", "tool.execution_complete", {"toolCallId": "toolu-bash", "success": True,
                                                        "result": {"content": "hello"}}, "e3"),
               _event("e5", "assistant.message", {"messageId": "m-2", "content": "It printed hello."}, "e4")],
        broken=[_START, _ASK, _CALL, _RUN, _event("e4", "user.message", {"content": "Never mind."}, "e3")],
        jsonl=True,
    )

    detect = staticmethod(detect)

    def is_message(self, item: Any) -> bool:
        return is_event(item)

    def chat(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[dict[str, Any]], list[list[int]]]:
        return chat(items, where)

    def tool_event(self, items: list[Any], call_event: int, tool_msg: dict[str, Any]) -> dict[str, Any]:
        """A failed ``tool.execution_complete`` for the call, its parent the call's event."""
        e = items[call_event]
        text = tool_msg.get("content") if type(tool_msg.get("content")) is str else ""
        data: dict[str, Any] = {"toolCallId": tool_msg["tool_call_id"], "success": False, "error": {"message": text}}
        src = e.get("data") if type(e.get("data")) is dict else {}
        if "parentToolCallId" in src:  # a sub-agent's call: its result stays in that sub-agent's conversation
            data["parentToolCallId"] = src["parentToolCallId"]
        out = {"type": "tool.execution_complete", "data": data,
               "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"inspector-repair:{e.get('id')}:{tool_msg['tool_call_id']}")),
               "timestamp": e.get("timestamp"), "parentId": e.get("id")}
        return {**out, "agentId": e["agentId"]} if "agentId" in e else out

    def agent(self, items: list[Any]) -> tuple[str, str | None] | None:
        """Copilot CLI, and the ``copilotVersion`` of ``session.start``."""
        v = next((e["data"].get("copilotVersion") for e in items[:50] if is_event(e) and e["type"] == "session.start"),
                 None)
        return "Copilot CLI", v if type(v) is str else None

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        return False

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        """The last model the session names (``session.model_change``'s ``newModel``, else
        ``session.start``'s ``selectedModel``)."""
        from ..target_from_model import model_named

        for e in reversed(items):
            if is_event(e) and e["type"] in ("session.model_change", "session.start"):
                m = e["data"].get("newModel") if e["type"] == "session.model_change" else e["data"].get("selectedModel")
                if m:
                    # Copilot's own API translates for other vendors' models, not as LiteLLM does:
                    # only an OpenAI model names the target (else the Chat Completions default).
                    target, why = model_named(m, "the session names model")
                    return (target, why) if target in self.targets else (None, "")
        return None, ""


DIALECT = Copilot()
