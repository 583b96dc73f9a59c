"""Agents' event logs that the harness turns into Chat Completions messages (OpenHands, Copilot CLI).

Such a log is a list of events (one per JSON file, line or array item): a user message, a model
reply with tool calls (one event per call, or one for the reply), a tool's result, and events the
model never sees (state changes, progress). The dialect says which events make which message
(``ChatEvents.chat``); the messages are judged as the Chat Completions messages they are.

Repair (``ChatEventsEditor``) can add what a harness itself writes when a tool call ends without
an answer: a result event for that call, written right after the events of the message before it.
Any other change (a message taken out, an id renamed, an order changed) would rewrite events the
agent recorded; the editor says so plainly, and the report keeps the findings.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import InputError
from . import openai_chat
from .editing import LogEditor, Written

CANNOT = ("repair of {what} can only add a result for a tool call that has none (a new event, as the agent writes "
          "one); this repair would {change}, which rewrites events the agent recorded; repair the messages it sends "
          "instead (--from openai-chat on the exported messages)")


class ChatEvents(openai_chat.OpenAIChat):
    """A log of events read as the Chat Completions messages the harness builds from them.
    Subclasses give ``chat`` (the messages and, for each, the indices of its events) and
    ``result_event`` (the event that records a tool's result, for repair)."""

    what: ClassVar[str] = ""  # "an OpenHands conversation": what repair's refusal names

    def chat(self, items: list, where: tuple) -> tuple[list[dict], list[list[int]]]:
        raise NotImplementedError

    def result_event(self, items: list, call_event: int, tool_msg: dict) -> dict:
        """The event that records ``tool_msg`` (a placeholder result) for the call read from event
        ``call_event``."""
        raise NotImplementedError

    def read(self, items: list, where: tuple, issues: list) -> list:  # type: ignore[override]
        msgs, _ = self.chat(items, where)
        return openai_chat.normalize(msgs, where, issues)

    def through_gateway(self, items: list, target: str) -> tuple[Any, list, list[list[int]]] | None:
        """The gateway's translation of the messages the events make (indexes: those messages')."""
        msgs, _ = self.chat(items, ())
        return super().through_gateway(msgs, target)

    def item_groups(self, items: list, where: tuple = ()) -> list[list[int]]:
        return self.chat(items, where)[1]

    def names_list(self, key: str | None, request: Any, target: str | None) -> bool:
        return False

    def continues_stored(self, request: Any) -> bool:
        return False


class ChatEventsEditor(LogEditor, openai_chat.OpenAIChatEditor):
    """Repair of an event log: the plan runs on the Chat Completions messages; ``write_back``
    writes each result repair added as a new event (see the module doc)."""

    message_dialect = "openai-chat"

    def messages(self, items: list, where: tuple) -> tuple[list, list[list[int]]]:
        d: ChatEvents = self.dialect  # type: ignore[attr-defined]
        return d.chat(items, where)

    def write_back(self, items: list, msgs: list, grp: list[list[int]], out: list) -> Written:
        d: ChatEvents = self.dialect  # type: ignore[attr-defined]
        origins = self.origins if self.origins is not None and len(self.origins) == len(out) else [
            next((i for i, m in enumerate(msgs) if m is x), None) for x in out]
        kept = [o for o in origins if o is not None]
        if kept != list(range(len(msgs))):
            raise InputError(CANNOT.format(what=d.what, change="take out or move a message"))
        if any(o is not None and out[j] is not msgs[o] for j, o in enumerate(origins)):
            raise InputError(CANNOT.format(what=d.what, change="rewrite a message"))
        calls: dict[Any, int] = {}  # a call's id -> the event it was read from
        for i, m in enumerate(msgs):
            for c in m.get("tool_calls") or ():
                if type(c) is dict and c.get("id") is not None:
                    calls.setdefault(c["id"], max(grp[i]))
        after: dict[int, list[tuple[int, dict]]] = {}  # event index -> (output message, new event) after it
        last = -1
        for j, o in enumerate(origins):
            if o is not None:
                last = max(grp[o], default=last)
                continue
            m = out[j]
            if type(m) is not dict or m.get("role") != "tool" or m.get("tool_call_id") not in calls:
                raise InputError(CANNOT.format(what=d.what, change="add a message other than a tool call's result"))
            after.setdefault(last, []).append((j, d.result_event(items, calls[m["tool_call_id"]], m)))
        new: list = []
        new_origin: list[int | None] = []
        at: dict[int, int] = {}
        spans: list[list[int]] = [[] for _ in out]
        changed: set[int] = set()

        def insert(k: int) -> None:
            for j, e in after.get(k, ()):
                new.append(e)
                new_origin.append(None)
                changed.add(len(new) - 1)
                spans[j].append(len(new) - 1)

        insert(-1)
        for k, e in enumerate(items):
            at[k] = len(new)
            new.append(e)
            new_origin.append(k)
            insert(k)
        for j, o in enumerate(origins):
            if o is not None:
                spans[j] = [at[k] for k in grp[o]]
        return Written(new, new_origin, spans, changed)
