"""The state of one transcript's repair: what every family of fixes reads and writes.

``PlanState`` sets and types all of it in one place: the analysed transcript and the options,
the edited raw items, the output slots, the change records, the quarantine and the id map. It is one
object, passed explicitly: ``plan.Plan`` is a ``PlanState`` that builds its three families of
fixes (``results.ResultFixes``, ``messages.MessageFixes``, ``order.OrderFixes``), each holding the
state as ``self.state``, and runs them in rules.md §4's order. A family keeps only its own
working values (``ResultFixes.relinked``, ``MessageFixes.renamed``, ...).
"""

from __future__ import annotations

from typing import Any

from ..checking import Analysis
from ..model import Issue
from ..rules import severity
from .base import Rec, Slot


class PlanState:
    """One transcript's repair in progress (see the module doc)."""

    def __init__(self, a: Analysis, target: str, options: Any, editor: Any):
        self.a = a
        self.items = a.transcript.items
        self.msgs = a.msgs
        self.target = target
        self.opt = options
        self.ed = editor
        self.cur: dict[int, Any] = {}  # edited raw items by input index (copy on write)
        self.slots: dict[int, Slot] = {}  # the output slot of each input index that stays
        self.recs: list[Rec] = []
        self.quarantine: list[tuple[int, str, str, Any]] = []  # (index, code, reason, content)
        self.id_map: dict[str, str] = {}
        self.unfixed: list[str] = []
        self.skip: set[int] = set()  # input indices not emitted at their own place
        self.after: dict[int, list[Slot]] = {}  # slots emitted right after an input index
        self.instead: dict[int, Slot] = {}  # slot emitted in place of a skipped input index
        self.final_id: dict[int, str | None] = {}  # id(call) -> the id it ends up with
        self.keeper_of: dict[int, set[int]] = {}  # input index of a kept result -> id() of the calls it answers
        self.notes_after: dict[int, list[Slot]] = {}  # orphan notes, emitted after a block's results
        self.idless_bad: set[int] = set()  # id() of calls whose id-less pairing is ambiguous
        # Indices of items an earlier pass of this repair wrote whole (its placeholders): no input
        # data, so never kept over a result of the input (``ResultFixes._keeper``). Set by the run.
        self.written: frozenset[int] = frozenset()
        self.by_code: dict[str, list[Issue]] = {}
        for iss in a.issues:
            self.by_code.setdefault(iss.code, []).append(iss)

    # --- helpers ------------------------------------------------------------------------------

    def acts(self, code: str) -> bool:
        return severity(code, self.target) in ("error", "warning")

    def raw(self, i: int) -> Any:
        return self.cur[i] if i in self.cur else self.items[i]

    def slot(self, i: int) -> Slot:
        s = self.slots.get(i)
        if s is None:
            s = self.slots[i] = Slot(None, i)
        return s

    def log(self, action: str, code: str, call_id: Any, before: int | None, slot: Slot | None, text: str,
            new_id: Any = None) -> None:
        self.recs.append(Rec(action, code, call_id, before, slot, text, new_id))

    def take_out(self, i: int, code: str, reason: str, action: str, call_id: str | None, text: str) -> None:
        """Remove message ``i`` from the output; its original content goes to the quarantine."""
        self.skip.add(i)
        self.quarantine.append((i, code, reason, self.items[i]))
        self.log(action, code, call_id, i, None, text)
