"""The repair plan for one transcript: decide on the neutral view, edit through the dialect's editor.

Order of work (rules.md §4): decide the fate of every result first (duplicates, displaced and
early results, orphans, missing ones, tool output sent as user text), then the ids every call
ends up with (missing ids, duplicate ids, ids the target's format refuses), then the edits
inside messages (shape fixes, renames, result names), then emit the new list in one pass:
each call block is followed by its results in place, the results moved in, and the
placeholders; finally role-order bridges and the target's last-message rule.

Only findings the target rates ``error`` or ``warning`` are acted on (and TC022/TC020 only on
request), so a transcript the target would accept without remarks comes back untouched.
Nothing is dropped silently: a message taken out goes whole into ``quarantine`` with its index,
and every edit is one ``Change``.
"""

from __future__ import annotations

from typing import Any

from ..checking import Analysis
from ..model import Issue
from ..rules import severity
from .base import Rec, Slot
from .messages import MessageFixes
from .order import OrderFixes
from .results import ResultFixes

__all__ = ["Plan", "Rec", "Slot"]


class Plan(ResultFixes, MessageFixes, OrderFixes):
    """Builds the repaired list for one analysed transcript. ``run()`` returns the new items."""

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

    def log(self, action, code, call_id, before, slot, text, new_id=None) -> None:
        self.recs.append(Rec(action, code, call_id, before, slot, text, new_id))

    def take_out(self, i: int, code: str, reason: str, action: str, call_id: str | None, text: str) -> None:
        """Remove message ``i`` from the output; its original content goes to the quarantine."""
        self.skip.add(i)
        self.quarantine.append((i, code, reason, self.items[i]))
        self.log(action, code, call_id, i, None, text)

    # --- the plan -----------------------------------------------------------------------------

    def run(self) -> list[Any]:
        self.unknown_roles()
        self.dangling_reasoning()
        converted = self.user_as_result()
        self.relink(converted)
        self.place_results(converted)
        self.orphans()
        self.assign_ids()
        self.edit_messages(converted)
        self.relink_results()
        self.add_missing()
        self.calls_last()
        if self.recs or self.skip:
            raws, origins = self.emit()
        else:
            raws, origins = self.items, list(range(len(self.items)))  # nothing moved or changed
        if self.target == "mistral" and self.acts("TC019") and raws:
            raws, origins = self.bridges(raws, origins)  # other targets' role order is the dialect's to join
        self.origins: list[int | None] = origins  # the input index of each output item (None: new)
        self.last_message_rules(raws)
        self.unfixable_shapes()
        return raws
