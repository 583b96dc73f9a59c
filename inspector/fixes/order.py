"""Output and role order (rules.md §4.11): emit the new list, then the target's role rules.

``emit`` writes the list in one pass. For Mistral, a system message after an assistant or tool
message moves up, a user message right after a tool result gets a marked assistant bridge, and
what cannot be made valid without inventing a turn (the last message, a lone message) is said.
"""

from __future__ import annotations

from typing import Any

from ..dialects.base import MISTRAL_NEXT as ROLE_NEXT
from .base import Slot
from .state import PlanState


class OrderFixes:
    """A family of ``Plan``'s fixes, over ``PlanState``: the output list and its role order."""

    def __init__(self, state: PlanState) -> None:
        self.state = state  # the plan's state, which every family reads and writes

    def _put(self, s: Slot, raws: list[Any], origins: list[Any]) -> None:
        if s.raw is None:
            assert s.origin is not None  # only a slot of an input item is filled late
            s.raw = self.state.cur.get(s.origin, self.state.items[s.origin])
        s.pos = len(raws)
        raws.append(s.raw)
        origins.append(s.origin)

    def emit(self) -> tuple[list[Any], list[Any]]:
        """The output list in one pass, and the input index of each item (None for new ones)."""
        raws: list[Any] = []
        origins: list[Any] = []
        add, orig = raws.append, origins.append
        skip, after, notes, instead = self.state.skip, self.state.after, self.state.notes_after, self.state.instead
        slots, cur, items, put = self.state.slots, self.state.cur, self.state.items, self._put
        for i in range(len(items)):
            if i in skip:
                s = instead.get(i)
                if s is not None:
                    put(s, raws, origins)
            else:
                s = slots.get(i)
                if s is None:
                    add(cur[i] if i in cur else items[i])
                    orig(i)
                else:
                    put(s, raws, origins)
            if i in after:
                for s in after[i]:
                    put(s, raws, origins)
            if i in notes:
                for s in notes[i]:
                    put(s, raws, origins)
        return raws, origins

    def bridges(self, raws: list[Any], origins: list[Any]) -> tuple[list[Any], list[Any]]:
        """Role order for a target that refuses some transitions (Mistral, rules.md §4.11).

        A system message after an assistant or tool message moves up to just after the last user
        or system message before it (nothing else can follow there without inventing a turn);
        a user message right after a tool result gets a synthesized assistant message before it.
        """
        placed = {s.pos: s for s in (*self.state.slots.values(), *self._new_slots()) if s.pos is not None}
        out = [placed.get(k) or Slot(raw, origins[k]) for k, raw in enumerate(raws)]
        out = self._bridge_tool_user(self._move_systems(out))
        for k, s in enumerate(out):
            s.pos = k
        return [s.raw for s in out], [s.origin for s in out]

    def _new_slots(self) -> list[Slot]:
        extra = [s for lst in (*self.state.after.values(), *self.state.notes_after.values()) for s in lst]
        return extra + list(self.state.instead.values())

    def _role(self, s: Slot) -> str:
        r = self.state.ed.role_of(s.raw)
        return "tool" if r == "function" else r

    def _move_systems(self, out: list[Slot]) -> list[Slot]:
        res: list[Slot] = []
        prev = None
        at = None  # where a moved system message goes: after the last user or system message
        for s in out:
            r = self._role(s)
            if r == "system" and prev in ("assistant", "tool") and at is not None:
                res.insert(at, s)
                at += 1
                self.state.log("move_message", "TC019", None, s.origin, s,
                         f"Moved system message #{s.origin} up to follow the last user or system message before "
                         f"it: the target refuses a system message right after a {prev} message.")
                continue
            res.append(s)
            if r in ("user", "system"):
                at = len(res)
            prev = r
        return res

    def _bridge_tool_user(self, out: list[Slot]) -> list[Slot]:
        res: list[Slot] = []
        prev = None
        for s in out:
            r = self._role(s)
            if prev == "tool" and r == "user":
                b = Slot(self.state.ed.bridge(self.state.opt.bridge_text()), None)
                res.append(b)
                self.state.log("insert_bridge", "TC019", None, None, b,
                         "Inserted an assistant message marked as synthesized between a tool result and a user "
                         "message: the target refuses that order.")
            elif prev is not None and prev in ROLE_NEXT and r in ROLE_NEXT and r not in ROLE_NEXT[prev]:
                where = f"input #{s.origin}" if s.origin is not None else "a new message"
                self.state.unfixed.append(f"a {r} message ({where}) directly follows a {prev} message, an order the "
                                    "target refuses and no repair can make valid without inventing a turn")
            res.append(s)
            prev = r
        return res

    def last_message_rules(self, raws: list[Any]) -> None:
        if self.state.target != "mistral":
            return
        if not raws:
            self.state.unfixed.append("the transcript is empty; Mistral needs at least one message")
            return
        last = raws[-1]
        role = self.state.ed.role_of(last)
        if role == "assistant" and not (type(last) is dict and last.get("prefix") is True):
            if not any(m.calls for m in self.state.a.dialect.read([last], (), [])):  # the dialect says what a call is
                self.state.unfixed.append(
                    "the transcript ends with an assistant message; Mistral serving expects the last message to be "
                    "user or tool (or an assistant message with prefix=true), and repair does not invent a user turn")
        elif len(raws) == 1 and role not in ("user", "system"):
            self.state.unfixed.append("a one-message conversation must be a user or system message for Mistral")
