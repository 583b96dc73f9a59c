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

    def chat(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[dict[str, Any]], list[list[int]]]:
        raise NotImplementedError

    def call_ids(self, msg: dict[str, Any]) -> list[Any]:
        """The ids of the tool calls message ``msg`` makes."""
        return [c["id"] for c in msg.get("tool_calls") or () if type(c) is dict and c.get("id") is not None]

    def result_event(self, items: list[Any], calls: dict[Any, int], msg: Any) -> dict[str, Any] | None:
        """The event that records ``msg`` (a result repair made) for its call (``calls``: each
        call's id, the event it was read from); None when ``msg`` is no result of a known call."""
        if type(msg) is not dict or msg.get("role") != "tool" or msg.get("tool_call_id") not in calls:
            return None
        return self.tool_event(items, calls[msg["tool_call_id"]], msg)

    def added_results(self, old: Any, new: Any) -> Any | None:
        """The result message repair put at the start of message ``old`` (now ``new``), or None when
        ``new`` is ``old`` changed otherwise. A Chat Completions message never gains results."""
        return None

    def tool_event(self, items: list[Any], call_event: int, tool_msg: dict[str, Any]) -> dict[str, Any]:
        """The event that records ``tool_msg`` (a placeholder tool message) for the call read from
        event ``call_event``."""
        raise NotImplementedError

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Any]) -> list[Any]:
        msgs, _ = self.chat(items, where)
        return openai_chat.normalize(msgs, where, issues)

    def through_gateway(self, items: list[Any], target: str, model: str | None = None,
                        issues: list[Any] | None = None) -> tuple[Any, list[Any], list[list[int]]] | None:
        """The gateway's translation of the messages the events make (indexes: those messages')."""
        msgs, _ = self.chat(items, ())
        return super().through_gateway(msgs, target, model, issues)

    def item_groups(self, items: list[Any], where: tuple[Any, ...] = ()) -> list[list[int]]:
        return self.chat(items, where)[1]

    def names_list(self, key: str | None, request: Any, target: str | None) -> bool:
        return False

    def continues_stored(self, request: Any) -> bool:
        return False


class EventsEditor(LogEditor):
    """Repair of an event log (any message format): the plan runs on the messages the events
    make; ``write_back`` writes each result message repair added as a new event, right after the
    events of the message before it, and refuses any other change (see the module doc). The
    dialect gives ``chat``, ``call_ids`` and ``result_event``."""

    def messages(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[Any], list[list[int]]]:
        d: Any = self.dialect  # type: ignore[attr-defined]  # a ChatEvents, or another dialect with its hooks
        got: tuple[list[Any], list[list[int]]] = d.chat(items, where)
        return got

    def write_back(self, items: list[Any], msgs: list[Any], grp: list[list[int]], out: list[Any]) -> Written:
        d: Any = self.dialect  # type: ignore[attr-defined]  # a ChatEvents, or another dialect with its hooks
        origins = self.origins if self.origins is not None and len(self.origins) == len(out) else [
            next((i for i, m in enumerate(msgs) if m is x), None) for x in out]
        kept = [o for o in origins if o is not None]
        if kept != list(range(len(msgs))):
            raise InputError(CANNOT.format(what=d.what, change="take out or move a message"))
        # A message repair gave results at its start (a Gemini user content that now answers the
        # calls before it): those results are a new event before the message's own, kept as it was.
        lead: dict[int, Any] = {}
        for j, o in enumerate(origins):
            if o is not None and out[j] is not msgs[o]:
                added = d.added_results(msgs[o], out[j])
                if added is None:
                    raise InputError(CANNOT.format(what=d.what, change="rewrite a message"))
                lead[j] = added
        calls: dict[Any, int] = {}  # a call's id -> the event it was read from
        for i, m in enumerate(msgs):
            for cid in d.call_ids(m):
                calls.setdefault(cid, max(grp[i]))
        after: dict[int, list[tuple[int, dict[str, Any]]]] = {}  # event index -> (output message, new event) after it
        last = -1
        for j, o in enumerate(origins):
            if o is not None and j in lead:
                event = d.result_event(items, calls, lead[j])
                if event is None:
                    raise InputError(CANNOT.format(what=d.what, change="rewrite a message"))
                after.setdefault(last, []).append((j, event))
            if o is not None:
                last = max(grp[o], default=last)
                continue
            event = d.result_event(items, calls, out[j])
            if event is None:
                raise InputError(CANNOT.format(what=d.what, change="add a message other than a tool call's result"))
            after.setdefault(last, []).append((j, event))
        new: list[Any] = []
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
                spans[j] = [*spans[j], *(at[k] for k in grp[o])]
        return Written(new, new_origin, spans, changed)


class ChatEventsEditor(EventsEditor, openai_chat.OpenAIChatEditor):
    """Repair of an event log read as Chat Completions messages."""

    message_dialect = "openai-chat"
