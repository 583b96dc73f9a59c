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
from .base import Rec, Slot
from .messages import MessageFixes
from .order import OrderFixes
from .results import ResultFixes
from .state import PlanState

__all__ = ["Plan", "Rec", "Slot"]


class Plan(PlanState):
    """Builds the repaired list for one analysed transcript. ``run()`` returns the new items.

    The plan is the state (``state.PlanState``); its three families of fixes each hold it and
    read and write nothing else: ``results`` (the fate of every result), ``messages`` (ids and
    edits inside messages) and ``order`` (the output list and the target's role order)."""

    def __init__(self, a: Analysis, target: str, options: Any, editor: Any) -> None:
        super().__init__(a, target, options, editor)
        self.results = ResultFixes(self)
        self.messages = MessageFixes(self)
        self.order = OrderFixes(self)

    # --- the plan -----------------------------------------------------------------------------

    def run(self) -> list[Any]:
        self.messages.unknown_roles()
        self.messages.dangling_reasoning()
        converted = self.results.user_as_result()
        self.results.relink(converted)
        self.results.place_results(converted)
        self.results.orphans()
        self.messages.assign_ids()
        self.messages.edit_messages(converted)
        self.results.relink_results()
        self.results.add_missing()
        self.messages.calls_last()
        if self.recs or self.skip:
            raws, origins = self.order.emit()
        else:
            raws, origins = self.items, list(range(len(self.items)))  # nothing moved or changed
        if self.target == "mistral" and self.acts("TC019") and raws:
            raws, origins = self.order.bridges(raws, origins)  # other targets' role order is the dialect's to join
        self.origins: list[int | None] = origins  # the input index of each output item (None: new)
        self.order.last_message_rules(raws)
        self.messages.unfixable_shapes()
        return raws
