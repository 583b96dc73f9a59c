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

from .base import Rec, Slot
from .messages import MessageFixes
from .order import OrderFixes
from .results import ResultFixes

__all__ = ["Plan", "Rec", "Slot"]


class Plan(ResultFixes, MessageFixes, OrderFixes):
    """Builds the repaired list for one analysed transcript. ``run()`` returns the new items.

    Its state is ``state.PlanState``'s, which every family of fixes is written against."""

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
