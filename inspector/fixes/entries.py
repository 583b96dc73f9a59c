"""Repair for logs whose entries make the messages (``LogEditor``: Claude Code session logs, Codex
CLI rollouts).

The plan runs on the messages the main conversation's entries make, exactly as it runs on a
request of the message dialect (``JoinPlan`` for Anthropic's, ``Plan`` for Responses items), and
the editor writes the repaired messages back as entries.
The report speaks in the log's terms: a change's ``index_before`` / ``index_after`` and a
quarantined item's ``index`` are entry indices (the lines of a JSON Lines log), while its text
keeps the message numbers the findings use (``messages.N`` in the API's error). What repair takes
out goes to the quarantine as the log had it: a whole entry when none of its blocks is left, the
block alone when the rest of its entry stays.
"""

from __future__ import annotations

from typing import Any

from ..checking import Analysis, analyse
from ..containers import Transcript
from ..dialects import get
from ..dialects.base import Block
from ..dialects.editing import LogEditor
from .base import same_json
from .join import JoinPlan
from .plan import Plan

# Changes that take something out: they show in the entry only when that entry was rewritten.
TAKE_OUT = {"quarantine_orphan", "quarantine_message", "quarantine_duplicate", "remove_duplicate", "remove_call"}


class _Slot:
    __slots__ = ("pos",)

    def __init__(self, pos: int | None):
        self.pos = pos


class _Rec:
    __slots__ = ("action", "before", "call_id", "code", "new_id", "slot", "text")

    def __init__(self, r: Any, before: int | None, slot: _Slot | None):
        self.action, self.code, self.call_id, self.text, self.new_id = r.action, r.code, r.call_id, r.text, r.new_id
        self.before, self.slot = before, slot


class EntryPlan:
    """``recs``/``quarantine``/``id_map``/``unfixed``/``origins`` as ``Plan``'s, over entries."""

    def __init__(self, a: Analysis, target: str, options: Any, ed: LogEditor):
        self.a, self.target, self.opt = a, target, options
        self.ed = ed.for_run()
        self.recs: list[Any] = []
        self.plan_recs: list[Any] = []
        self.quarantine: list[Any] = []
        self.id_map: dict[str, str] = {}
        self.unfixed: list[str] = []
        self.origins: list[int | None] | None = None

    def run(self) -> list[Any]:
        t = self.a.transcript
        items = t.items
        msgs, grp = self.ed.messages(items, t.path)
        # the log's harness goes with its messages: what it fixes before sending, repair leaves (harness_patches)
        harness = self.a.dialect.harness(items)
        inner = Transcript(items=msgs, path=t.path, container=t.container, dialect=self.ed.message_dialect,
                           extra={"harness": harness} if harness is not None else {})
        reader = get(self.ed.message_dialect)
        kind = JoinPlan if reader.block is Block.NEXT else Plan
        plan = kind(analyse(inner, self.target, reader, self.a.judged), self.target, self.opt, self.ed)
        out = plan.run()
        self.ed.origins = getattr(plan, "origins", None)
        self.unfixed = list(plan.unfixed)
        if not plan.recs:
            return items
        w = self.ed.write_back(items, msgs, grp, out)
        if len(w.items) == len(items) and same_json(w.items, items):
            # The log cannot hold what the plan did (a Gemini CLI session keeps two model records
            # apart, whatever joins their contents): nothing was done, and the log says nothing (issue 34).
            what = ", ".join(sorted({r.text.split(":")[-1].strip().rstrip(".") for r in plan.recs}))
            self.unfixed.append(f"the repair ({what}) cannot be written in this log's format: the log is left as it was")
            return items
        self.plan_recs = plan.recs
        self.origins = w.origins
        self.id_map = plan.id_map

        def after(slot: Any) -> _Slot | None:
            pos = getattr(slot, "pos", None) if slot is not None else None
            if pos is None or pos >= len(w.spans) or not w.spans[pos]:
                return None
            span = w.spans[pos]
            return _Slot(next((n for n in span if n in w.changed), span[0]))

        for r in plan.recs:
            slot = after(r.slot)
            if r.action in TAKE_OUT and slot is not None and slot.pos not in w.changed:
                slot = None  # the entry that held it is gone whole; the message's other entries are as they were
            rec = _Rec(r, self._entry_before(r.before, slot, grp, w), slot)
            if slot is not None and slot.pos in w.notes:
                rec.text = f"{rec.text} {w.notes[slot.pos]}"
            self.recs.append(rec)
        self._quarantine(items, msgs, grp, plan.quarantine, w)
        self._unlogged(items, w)
        written: list[Any] = w.items
        return written

    @staticmethod
    def _entry_before(before: int | None, slot: _Slot | None, grp: list[list[int]], w: Any) -> int | None:
        """The input entry a change of message ``before`` was made to: the one its output entry
        was written from, when that is one of the message's entries (a result re-linked in the
        second entry of a user message is logged there, not at the message's first entry)."""
        if before is None or before >= len(grp):
            return None
        if slot is not None and slot.pos is not None and slot.pos < len(w.origins):
            o: int | None = w.origins[slot.pos]
            if o is not None and o in grp[before]:
                return o
        return grp[before][0]

    def _unlogged(self, items: list[Any], w: Any) -> None:
        """An entry written back changed that no change names (its ``parentUuid`` follows an entry
        that moved, or it was made from the blocks of another): one change says so, so that the
        log is the whole truth (issue 34)."""
        named = {r.slot.pos for r in self.recs if r.slot is not None}
        for k, entry in enumerate(w.items):
            o = w.origins[k] if k < len(w.origins) else None
            if k in named or (o is not None and o < len(items) and entry is items[o]):
                continue
            if o is not None and o < len(items) and same_json(entry, items[o]):
                continue
            code = self.recs[0].code if self.recs else "TC019"
            what = (f"Log entry #{o} was written again to follow the repaired entries around it (a link such as "
                    "parentUuid, or its place)" if o is not None
                    else f"A new log entry (#{k} of the output) holds blocks split off the entry before it")
            r = _Rec.__new__(_Rec)
            r.action, r.code, r.call_id, r.new_id = "rewrite_entry", code, None, None
            r.text = f"{what}."
            r.before, r.slot = o, _Slot(k)
            self.recs.append(r)

    def _quarantine(self, items: list[Any], msgs: list[Any], grp: list[list[int]], held: list[Any], w: Any) -> None:
        """The plan's quarantine in the log's terms: a block whose entry is gone becomes that
        entry, whole; an entry gone without a word from the plan (rewritten into new ones) too."""
        gone = set(w.gone)
        whole: set[int] = set()
        index_of = {id(m): i for i, m in enumerate(msgs)}
        for index, code, reason, content in held:
            if code == "TC019" and reason.startswith("message fields"):
                continue  # joined entries keep their own message fields
            i = index_of.get(id(content))
            if i is not None:  # a whole message: its entries
                for k in grp[i]:
                    if k not in whole:
                        whole.add(k)
                        self.quarantine.append((k, code, reason, items[k]))
                continue
            k = self.ed.owner_of(content)
            if k is None:
                k = grp[index][0] if 0 <= index < len(grp) else index
            elif k in gone:
                if k not in whole:
                    whole.add(k)
                    self.quarantine.append((k, code, reason + " (the whole log entry that held it)", items[k]))
                continue
            self.quarantine.append((k, code, reason, content))
        code_of = {}  # message index -> the code of the first change made to it
        for r in reversed(self.plan_recs):
            if r.before is not None:
                code_of[r.before] = r.code
        message_of = {k: i for i, ks in enumerate(grp) for k in ks}
        for k in sorted(gone - whole):
            self.quarantine.append((k, code_of.get(message_of.get(k), "repair"), ("a log entry that repair took out or "
                                    "rewrote into the entries around it (the changes say why)"), items[k]))
        for k, old in w.ids:
            self.quarantine.append((k, "TC019", ("the message id of an entry joined to the assistant reply before it "
                                    "(the entry is in the output with that reply's id)"), {"id": old}))
