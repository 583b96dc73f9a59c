"""Result fixes (rules.md §4.2-4.6, 4.9): one result per call, in its call's block.

Duplicates (TC005) keep one result and take the others out; displaced and early results
(TC003, TC004) move right after their call; an orphan whose id was rewritten is re-linked to the
one unanswered call of its block when that match is unambiguous (``relink``); other orphans
(TC002, TC017) go to the quarantine, become a quoting note, or stay; missing results (TC001, and TC022 on request) get a placeholder or lose
their call; tool output sent as user text (TC020) becomes the result on request.
"""

from __future__ import annotations

from typing import Any

from ..dialects.harness_patches import patched
from ..model import Call
from ..pairing import DISPLACED, EARLY, OK, Block, Link
from .base import Slot, same_json, tool_label
from .state import PlanState

PLACEHOLDER_WORDS = ("aborted", "cancelled", "canceled", "interrupted", "skipped", "no result was recorded")


class ResultFixes:
    """A family of ``Plan``'s fixes, over ``PlanState``: where every result goes."""

    def __init__(self, state: PlanState) -> None:
        self.state = state  # the plan's state, which every family reads and writes

    def user_as_result(self) -> dict[int, Call]:
        """TC020 on request: the user message becomes the result of the unanswered call."""
        converted: dict[int, Call] = {}
        if not self.state.opt.user_as_result:
            return converted
        answered = {id(l.call) for l in self.state.a.pairing.links}
        for iss in self.state.by_code.get("TC020", ()):
            if iss.other is None:
                continue  # TC020 always names the call's message
            block = self.state.msgs[iss.other]
            call = next((c for c in block.calls if id(c) not in answered and c.id == iss.call_id), None)
            if call is not None and iss.index not in self.state.skip:
                converted[iss.index] = call
        return converted

    def relink(self, converted: dict[int, Call]) -> None:
        """Orphans whose id was rewritten: a result that answers no call, inside a call block whose
        only unanswered call it may answer, takes that call's id (TC002, option ``relink``).

        Unambiguous means: the block holds no other orphan with an id, the block has exactly one call with no result anywhere (and with an id), and
        the result names no tool or the call's tool. Anything else stays an orphan; ``why`` keeps
        the reason for the orphan's change text.
        """
        self.relinked: dict[int, tuple[Any, Call]] = {}  # message index of the result -> (result, call)
        self.relinked_calls: set[int] = set()
        self.relink_why: dict[int, str] = {}
        dropped = patched(self.state.a.issues, "TC002")  # outputs the harness drops itself before sending: left as they are
        orphans = [r for r in self.state.a.pairing.orphans if r.id is not None and not r.legacy and r.msg not in self.state.skip
                   and (r.msg, r.id) not in dropped]
        if not orphans:
            return
        owner = {i: b for b in self.state.a.pairing.blocks for i in b.result_msgs}
        missing = {id(c) for c in self.state.a.pairing.missing}
        taken = {id(c) for c in converted.values()}
        by_block: dict[int, list[Any]] = {}
        for r in orphans:
            b = owner.get(r.msg)
            if b is not None:
                by_block.setdefault(b.index, []).append(r)
        blocks = {b.index: b for b in self.state.a.pairing.blocks}
        for k, rs in by_block.items():
            b = blocks[k]
            free = [c for c in b.calls if id(c) in missing and id(c) not in taken and c.msg not in self.state.skip]
            if not free:
                continue  # a true orphan: no call of its block waits for a result
            if len(free) > 1:
                ids = ", ".join(str(c.id or f"#{c.pos}") for c in free[:5]) + (", …" if len(free) > 5 else "")
                for r in rs:
                    self.relink_why[r.msg] = (f"not re-linked: the call block of message #{b.index} has {len(free)} "
                                              f"unanswered calls ({ids}), so which one it answers is not clear")
                continue
            c = free[0]
            if len(rs) > 1:
                for r in rs:
                    self.relink_why[r.msg] = (f"not re-linked: {len(rs)} results in the call block of message "
                                              f"#{b.index} answer no call, and only call {c.id} is unanswered")
                continue
            r = rs[0]
            if c.id is None:
                self.relink_why[r.msg] = "not re-linked: the one unanswered call of its block has no id"
                continue
            if r.name is not None and r.name != c.name:
                self.relink_why[r.msg] = (f"not re-linked to call {c.id}: it names tool {tool_label(r.name)}, "
                                          f"the call {tool_label(c.name)}")
                continue
            if not self.state.opt.relink:
                self.relink_why[r.msg] = f"not re-linked to call {c.id}, as asked (relink=false)"
                continue
            if self.state.ed.set_result_id(self.state.items[r.msg], r, c.id) is self.state.items[r.msg]:
                self.relink_why[r.msg] = f"not re-linked to call {c.id}: this kind of result carries no call id"
                continue
            self.relinked[r.msg] = (r, c)
            self.relinked_calls.add(id(c))

    def place_results(self, converted: dict[int, Call]) -> None:
        """Duplicates, displaced and early results: choose one result per call, in its block."""
        # A call's link, or its list of links when it has several (a list per call would cost
        # a big transcript a tenth of its size in memory, for the rare duplicate).
        by_call: dict[int, Link | list[Link]] = {}
        for link in self.state.a.pairing.links:
            key = id(link.call)
            got = by_call.get(key)
            if got is None:
                by_call[key] = link
            elif isinstance(got, list):
                got.append(link)
            else:
                by_call[key] = [got, link]
        conv_of = {id(c): i for i, c in converted.items()}
        self.missing: list[tuple[Any, Call]] = []
        for b in self.state.a.pairing.blocks:
            run = None
            for c in b.calls:
                links = by_call.get(id(c))
                if isinstance(links, Link):
                    if links.status == OK and id(c) not in conv_of:
                        continue  # the common case: one result, inside the block
                    links = [links]
                if run is None:
                    run = set(b.result_msgs)
                if id(c) in conv_of:
                    k = conv_of[id(c)]
                    self.state.skip.add(k)
                    self.state.keeper_of.setdefault(k, set()).add(id(c))
                    self.state.after.setdefault(b.ends, []).append(self.state.slot(k))
                    continue
                if not links:
                    if id(c) in self.relinked_calls:
                        continue  # answered by a result whose id was rewritten (``relink``)
                    self.missing.append((b, c))
                    continue
                links = sorted(links, key=lambda l: (l.result.msg, l.result.pos))
                if any(len(self.state.msgs[l.result.msg].results) > 1 for l in links):
                    if len(links) > 1 or links[0].result.msg not in run:
                        self.state.unfixed.append(
                            f"message #{links[0].result.msg} answers several calls at once (tool_call_ids); "
                            f"its result for call {c.id} cannot be moved or deduplicated safely")
                    self.state.keeper_of.setdefault(links[0].result.msg, set()).add(id(c))
                    continue
                self._choose(b, c, links, run)

    def _choose(self, b: Block, c: Call, links: list[Link], run: set[int]) -> None:
        keep = self._keeper(links)
        # Among copies identical to the keeper, prefer the one already in the block.
        kraw = self.state.items[keep.result.msg]
        if keep.result.msg not in run:
            for l in links:
                if l.result.msg in run and same_json(self.state.items[l.result.msg], kraw):
                    keep = l
                    break
        k = keep.result.msg
        self.state.keeper_of.setdefault(k, set()).add(id(c))
        replaced = False
        for l in links:
            i = l.result.msg
            if l is keep:
                continue
            # the one kept, named by its own place: another message, or another copy in this one
            # (a log whose entries make one message: Claude Code's results of one turn)
            kept = (f"message #{k}" if k != i else
                    f"the {'earlier' if keep.result.pos < l.result.pos else 'later'} copy in the same message")
            if same_json(self.state.items[i], kraw):
                self.state.skip.add(i)
                self.state.log("remove_duplicate", "TC005", c.id, i, None,
                         f"Removed message #{i}, an identical second result for call {c.id} ({tool_label(c.name)}); "
                         f"{kept} is kept.")
            else:
                self.state.take_out(i, "TC005", f"another result for call {c.id} was kept ({kept})",
                              "quarantine_duplicate", c.id,
                              f"Took message #{i}, a differing extra result for call {c.id} ({tool_label(c.name)}), "
                              f"out into the quarantine; {kept} is kept.")
            if k not in run and i in run and not replaced:
                self.state.instead[i] = self.state.slot(k)  # the keeper takes the place of the one dropped
                replaced = True
        if k not in run:
            self.state.skip.add(k)
            if not replaced:
                self.state.after.setdefault(b.ends, []).append(self.state.slot(k))
            code = {DISPLACED: "TC003", EARLY: "TC004"}.get(keep.status, "TC005")
            why = {"TC003": "other messages stood between them", "TC004": "it came before the call"}.get(
                code, "the result kept was outside the block")
            self.state.log("move_result", code, c.id, k, self.state.slot(k),
                     f"Moved message #{k}, the result for call {c.id} ({tool_label(c.name)}), right after the call "
                     f"in message #{b.index}: {why}.")

    def _keeper(self, links: list[Link]) -> Link:
        # A placeholder an earlier pass wrote is never kept over a result of the input, however
        # empty: the input's result is what the tool returned; the placeholder says none was recorded.
        links = [l for l in links if l.result.msg not in self.state.written] or links
        how = self.state.opt.duplicate
        if len(links) == 1 or how == "first":
            return links[0]
        if how == "last":
            return links[-1]
        first = self.state.items[links[0].result.msg]
        if all(same_json(self.state.items[l.result.msg], first) for l in links[1:]):
            return links[0]  # identical copies: keep the one the call was paired with
        real = [l for l in links if not self._looks_placeholder(self.state.items[l.result.msg])]
        return (real or links)[-1]

    def _looks_placeholder(self, raw: Any) -> bool:
        text = self.state.ed.text_of(raw).strip().lower()
        if not text:
            return True
        return len(text) < 300 and any(w in text for w in PLACEHOLDER_WORDS)

    def orphans(self) -> None:
        seen: set[int] = set()
        owner: dict[int, int] = {}
        for b in self.state.a.pairing.blocks:
            for i in b.result_msgs:
                owner[i] = b.ends
        orphaned = {id(r) for r in self.state.a.pairing.orphans}
        dropped = patched(self.state.a.issues, "TC002")
        for r in self.state.a.pairing.orphans:
            i = r.msg
            if i in seen or i in self.state.skip or i in self.relinked or (i, r.id) in dropped:
                continue
            seen.add(i)
            code = "TC017" if r.legacy else "TC002"
            m = self.state.msgs[i]
            why = self.relink_why.get(i)
            why = f" ({why})" if why else ""
            if len(m.results) > 1 and any(id(x) not in orphaned for x in m.results):
                self.state.unfixed.append(f"message #{i} answers several calls and some of its ids match no call; left as is{why}")
                continue
            what = f"result for call {r.id}" if r.id else ("legacy function result" if r.legacy else "result without a call id")
            if self.state.opt.orphan == "keep":
                self.state.unfixed.append(f"message #{i} is a {what} that answers no call, kept as asked (orphan=keep){why}")
                continue
            if self.state.opt.orphan == "note":
                note = self.state.ed.note_for_orphan(self.state.items[i], r, self.state.opt.note_text(r.id, r.name))
                s = Slot(note, None)
                if i in owner:
                    self.state.notes_after.setdefault(owner[i], []).append(s)
                else:
                    self.state.instead[i] = s
                self.state.skip.add(i)
                self.state.quarantine.append((i, code, "replaced by a user note quoting it", self.state.items[i]))
                self.state.log("orphan_to_note", code, r.id, i, s,
                         f"Replaced message #{i}, a {what} that answers no call, by a user note quoting it{why}.")
                continue
            self.state.take_out(i, code, "it answers no tool call", "quarantine_orphan", r.id,
                          f"Took message #{i}, a {what} that answers no call, out into the quarantine{why}.")

    def relink_results(self) -> None:
        """The re-linked results take their call's final id (after any rename of the call)."""
        for i, (r, c) in self.relinked.items():
            new = self.state.final_id.get(id(c), c.id)
            self.state.cur[i] = self.state.ed.set_result_id(self.state.raw(i), r, new)
            self.state.log("relink_result", "TC002", r.id, i, self.state.slot(i),
                     f"Re-linked message #{i}, a result for call {r.id} that answers no call, to call {new} "
                     f"({tool_label(c.name)}) of message #{c.msg}: it sits in that call's block, and that call is the "
                     f"block's only unanswered one ({r.id} → {new}).", new)

    def add_missing(self) -> None:
        pending = {id(c) for c in self.state.a.pairing.pending}
        removal: dict[int, list[Call]] = {}
        for b, c in self.missing:
            code = "TC022" if id(c) in pending else "TC001"
            if code == "TC022" and self.state.opt.pending in ("leave", "quarantine"):
                if self.state.target == "mistral":
                    self.state.unfixed.append(
                        f"message #{c.msg}: call {c.id or '(legacy function_call)'} ({tool_label(c.name)}) is still pending; Mistral refuses a request "
                        "that ends with an unanswered call (use --set TC022=placeholder to answer it with a placeholder)")
                continue
            cid = self.state.final_id.get(id(c), c.id)
            if cid is None and self.state.opt.missing == "placeholder":
                # Without an id (or, for a legacy function_call, a name) no result can answer it.
                legacy = not self.state.ed.has_id_slot(self.state.raw(c.msg), c)
                if not legacy or not (isinstance(c.name, str) and c.name):
                    self.state.unfixed.append(f"message #{c.msg}: call {c.pos} ({tool_label(c.name)}) has no result and "
                                        f"no {'name' if legacy else 'id'} a placeholder could answer")
                    continue
            if self.state.opt.missing == "remove_call":
                removal.setdefault(b.index, []).append(c)
                continue
            filled = self.state.ed.answer_in_place(self.state.raw(c.msg), c, self.state.opt.placeholder_text(cid, c.name))
            if filled is not None:
                # The part is rewritten, not removed: its state before goes to the report, whole.
                self.state.quarantine.append((c.msg, code, "the call as it was before repair marked it failed in place",
                                        self.state.ed.call_item(self.state.raw(c.msg), c)))
                self.state.cur[c.msg] = filled
                self.state.log("insert_placeholder", code, cid, c.msg, self.state.slot(c.msg),
                         f"Marked call {cid} ({tool_label(c.name)}) of message #{c.msg} as failed: "
                         "no result was recorded.")
                continue
            item = self.state.ed.placeholder(c, cid, self.state.opt.placeholder_text(cid, c.name))
            s = Slot(item, None)
            self.state.after.setdefault(b.ends, []).append(s)
            self.state.log("insert_placeholder", code, cid, None, s,
                     f"Inserted a placeholder result for call {cid or '(legacy function_call)'} ({tool_label(c.name)}) "
                     f"of message #{c.msg}: no result was recorded.")
        for i, calls in removal.items():
            raw_before = self.state.raw(i)
            self.state.cur[i], removed = self.state.ed.drop_calls(raw_before, calls)
            for c, item in zip(calls, removed):
                # The quarantine holds the call as the input had it, not as earlier steps of this
                # repair left it (a renamed id, arguments turned into a string).
                try:
                    item = self.state.ed.call_item(self.state.items[i], c)
                except NotImplementedError:
                    pass
                self.state.quarantine.append((i, "TC001", "the call had no result (missing=remove_call)", item))
                self.state.log("remove_call", "TC001", c.id, i, self.state.slot(i),
                         f"Removed call {c.id} ({tool_label(c.name)}) from message #{i}: it had no result; "
                         "the call is in the quarantine.")
