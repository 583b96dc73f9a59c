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

import orjson

from ..check import Analysis
from ..links import DISPLACED, DUPLICATE, EARLY, OK, Link
from ..model import Call, Issue, Result
from ..rules.sequence import MISTRAL_NEXT as ROLE_NEXT
from ..targets import severity
from .ids import fits, make_id

PLACEHOLDER_WORDS = ("aborted", "cancelled", "canceled", "interrupted", "skipped", "no result was recorded")
ACTION = {
    "TC007": "drop_empty_tool_calls",
    "TC010": "stringify_arguments",
    "TC018": "fill_null_content",
}


class Slot:
    """One item of the output list: the raw item and the input index it came from (None if new)."""

    __slots__ = ("raw", "origin", "pos")

    def __init__(self, raw: Any, origin: int | None):
        self.raw = raw
        self.origin = origin
        self.pos: int | None = None  # index in the output, once emitted


class Rec:
    """A change before output positions are known (``slot`` resolves the index after)."""

    __slots__ = ("action", "code", "call_id", "before", "slot", "text", "new_id")

    def __init__(self, action, code, call_id, before, slot, text, new_id=None):
        self.action, self.code, self.call_id, self.before = action, code, call_id, before
        self.slot, self.text, self.new_id = slot, text, new_id


def _same(a: Any, b: Any) -> bool:
    try:
        return orjson.dumps(a) == orjson.dumps(b)
    except TypeError:
        return a == b


def _tool(name: Any) -> str:
    return f"'{name}'" if isinstance(name, str) and name else "(unnamed tool)"


class Plan:
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
        converted = self.user_as_result()
        self.place_results(converted)
        self.orphans()
        self.assign_ids()
        self.edit_messages(converted)
        self.add_missing()
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

    def unknown_roles(self) -> None:
        for iss in self.by_code.get("TC024", ()):
            role = iss.data.get("role")
            if self.opt.unknown_role == "keep":
                self.unfixed.append(f"message #{iss.index} has role {role!r}, kept as asked (unknown_role=keep)")
                continue
            self.take_out(iss.index, "TC024", f"role {role!r} is not a role of this format", "quarantine_message",
                          None, f"Took message #{iss.index} (role {role!r}) out into the quarantine.")

    def user_as_result(self) -> dict[int, Call]:
        """TC020 on request: the user message becomes the result of the unanswered call."""
        converted: dict[int, Call] = {}
        if not self.opt.user_as_result:
            return converted
        answered = {id(l.call) for l in self.a.pairing.links}
        for iss in self.by_code.get("TC020", ()):
            block = self.msgs[iss.other]
            call = next((c for c in block.calls if id(c) not in answered and c.id == iss.call_id), None)
            if call is not None and iss.index not in self.skip:
                converted[iss.index] = call
        return converted

    def place_results(self, converted: dict[int, Call]) -> None:
        """Duplicates, displaced and early results: choose one result per call, in its block."""
        by_call: dict[int, list[Link]] = {}
        for link in self.a.pairing.links:
            by_call.setdefault(id(link.call), []).append(link)
        conv_of = {id(c): i for i, c in converted.items()}
        self.missing: list[tuple[Any, Call]] = []
        for b in self.a.pairing.blocks:
            run = None
            for c in b.calls:
                links = by_call.get(id(c))
                if links is not None and len(links) == 1 and links[0].status == OK and id(c) not in conv_of:
                    continue  # the common case: one result, inside the block
                if run is None:
                    run = set(b.result_msgs)
                if id(c) in conv_of:
                    k = conv_of[id(c)]
                    self.skip.add(k)
                    self.keeper_of.setdefault(k, set()).add(id(c))
                    self.after.setdefault(b.ends, []).append(self.slot(k))
                    continue
                if not links:
                    self.missing.append((b, c))
                    continue
                links = sorted(links, key=lambda l: (l.result.msg, l.result.pos))
                if any(len(self.msgs[l.result.msg].results) > 1 for l in links):
                    if len(links) > 1 or links[0].result.msg not in run:
                        self.unfixed.append(
                            f"message #{links[0].result.msg} answers several calls at once (tool_call_ids); "
                            f"its result for call {c.id} cannot be moved or deduplicated safely")
                    self.keeper_of.setdefault(links[0].result.msg, set()).add(id(c))
                    continue
                self._choose(b, c, links, run)

    def _choose(self, b, c: Call, links: list[Link], run: set[int]) -> None:
        keep = self._keeper(links)
        # Among copies identical to the keeper, prefer the one already in the block.
        kraw = self.items[keep.result.msg]
        if keep.result.msg not in run:
            for l in links:
                if l.result.msg in run and _same(self.items[l.result.msg], kraw):
                    keep = l
                    break
        k = keep.result.msg
        self.keeper_of.setdefault(k, set()).add(id(c))
        replaced = False
        for l in links:
            i = l.result.msg
            if l is keep:
                continue
            if _same(self.items[i], kraw):
                self.skip.add(i)
                self.log("remove_duplicate", "TC005", c.id, i, None,
                         f"Removed message #{i}, an identical second result for call {c.id} ({_tool(c.name)}); "
                         f"message #{k} is kept.")
            else:
                self.take_out(i, "TC005", f"another result for call {c.id} was kept (message #{k})",
                              "quarantine_duplicate", c.id,
                              f"Took message #{i}, a differing extra result for call {c.id} ({_tool(c.name)}), "
                              f"out into the quarantine; message #{k} is kept.")
            if k not in run and i in run and not replaced:
                self.instead[i] = self.slot(k)  # the keeper takes the place of the one dropped
                replaced = True
        if k not in run:
            self.skip.add(k)
            if not replaced:
                self.after.setdefault(b.ends, []).append(self.slot(k))
            code = {DISPLACED: "TC003", EARLY: "TC004"}.get(keep.status, "TC005")
            why = {"TC003": "other messages stood between them", "TC004": "it came before the call"}.get(
                code, "the result kept was outside the block")
            self.log("move_result", code, c.id, k, self.slot(k),
                     f"Moved message #{k}, the result for call {c.id} ({_tool(c.name)}), right after the call "
                     f"in message #{b.index}: {why}.")

    def _keeper(self, links: list[Link]) -> Link:
        how = self.opt.duplicate
        if len(links) == 1 or how == "first":
            return links[0]
        if how == "last":
            return links[-1]
        first = self.items[links[0].result.msg]
        if all(_same(self.items[l.result.msg], first) for l in links[1:]):
            return links[0]  # identical copies: keep the one the call was paired with
        real = [l for l in links if not self._looks_placeholder(self.items[l.result.msg])]
        return (real or links)[-1]

    def _looks_placeholder(self, raw: Any) -> bool:
        text = self.ed.text_of(raw).strip().lower()
        if not text:
            return True
        return len(text) < 300 and any(w in text for w in PLACEHOLDER_WORDS)

    def orphans(self) -> None:
        seen: set[int] = set()
        owner: dict[int, int] = {}
        for b in self.a.pairing.blocks:
            for i in b.result_msgs:
                owner[i] = b.ends
        orphaned = {id(r) for r in self.a.pairing.orphans}
        for r in self.a.pairing.orphans:
            i = r.msg
            if i in seen or i in self.skip:
                continue
            seen.add(i)
            code = "TC017" if r.legacy else "TC002"
            m = self.msgs[i]
            if len(m.results) > 1 and any(id(x) not in orphaned for x in m.results):
                self.unfixed.append(f"message #{i} answers several calls and some of its ids match no call; left as is")
                continue
            what = f"result for call {r.id}" if r.id else ("legacy function result" if r.legacy else "result without a call id")
            if self.opt.orphan == "keep":
                self.unfixed.append(f"message #{i} is a {what} that answers no call, kept as asked (orphan=keep)")
                continue
            if self.opt.orphan == "note":
                note = self.ed.note_for_orphan(self.items[i], r, self.opt.note_text(r.id, r.name))
                s = Slot(note, None)
                if i in owner:
                    self.notes_after.setdefault(owner[i], []).append(s)
                else:
                    self.instead[i] = s
                self.skip.add(i)
                self.quarantine.append((i, code, "replaced by a user note quoting it", self.items[i]))
                self.log("orphan_to_note", code, r.id, i, s,
                         f"Replaced message #{i}, a {what} that answers no call, by a user note quoting it.")
                continue
            self.take_out(i, code, "it answers no tool call", "quarantine_orphan", r.id,
                          f"Took message #{i}, a {what} that answers no call, out into the quarantine.")

    # --- ids ----------------------------------------------------------------------------------

    def assign_ids(self) -> None:
        self.renamed: list[tuple[int, Call, str]] = []  # (message index, call, new id)
        idless_ok = self._idless_blocks()
        if not (self.by_code.get("TC006") or self.by_code.get("TC008")
                or (self.by_code.get("TC009") and self.acts("TC009"))):
            return  # every id stays as it is
        taken = {c.id for m in self.msgs for c in m.calls if c.id is not None}
        fitted: dict[str, str] = {}
        for m in self.msgs:
            if not m.calls or m.index in self.skip:
                continue
            raw = self.items[m.index]
            seen: set[str] = set()
            for c in m.calls:
                cid = c.id
                if cid is None:
                    if not self.ed.has_id_slot(raw, c):
                        self.final_id[id(c)] = None
                        continue
                    if idless_ok.get(id(c), True):
                        new = make_id(f"{m.index}:{c.pos}:{c.name}", self.target, taken)
                        self.final_id[id(c)] = new
                        self.renamed.append((m.index, c, new))
                        self.log("assign_id", "TC008", None, m.index, self.slot(m.index),
                                 f"Gave call {c.pos} of message #{m.index} ({_tool(c.name)}) the id {new}.", new)
                    else:
                        self.final_id[id(c)] = None
                    continue
                new = cid
                if cid in seen:
                    if not self.opt.rename_ids:
                        self.unfixed.append(f"message #{m.index} has two calls with id {cid}, kept as asked (rename_ids=false)")
                    else:
                        new = make_id(f"{cid}#{m.index}#{c.pos}", self.target, taken)
                        self.log("rename_id", "TC006", cid, m.index, self.slot(m.index),
                                 f"Renamed the second call with id {cid} in message #{m.index} ({_tool(c.name)}) "
                                 f"to {new}, and its result with it.", new)
                seen.add(cid)
                if new == cid and self.acts("TC009") and not fits(cid, self.target):
                    if not self.opt.rename_ids:
                        self.unfixed.append(f"message #{m.index}: call id {cid} does not fit the target's format, kept as asked (rename_ids=false)")
                    else:
                        if cid not in fitted:
                            fitted[cid] = make_id(cid, self.target, taken)
                        new = fitted[cid]
                        self.id_map[cid] = new
                        self.log("rename_id", "TC009", cid, m.index, self.slot(m.index),
                                 f"Renamed call id {cid} in message #{m.index} to {new} to fit the target's id format, "
                                 "and its result with it.", new)
                self.final_id[id(c)] = new
                if new is not None and new != cid:
                    self.renamed.append((m.index, c, new))

    def _idless_blocks(self) -> dict[int, bool]:
        """For calls paired without ids: True when their block pairs unambiguously (rules.md §4.8).

        Unambiguous: each result without an id names the same tool as its call (or no tool), and
        the results come in the order of their calls. Placeholders added later get new ids of
        their own, so they never make a block ambiguous.
        """
        ok: dict[int, bool] = {}
        by_block: dict[int, list[Link]] = {}
        for l in self.a.pairing.links:
            if l.status == DUPLICATE or (l.call.id is not None and l.result.id is not None):
                continue
            if l.result.legacy:
                if self.ed.has_id_slot(self.items[l.call.msg], l.call):
                    # A tool call answered by a legacy function message: an id would unpair them.
                    ok[id(l.call)] = False
                    self.idless_bad.add(id(l.call))
                    self.unfixed.append(f"message #{l.call.msg}: a call without an id is answered by the legacy "
                                        f"function message #{l.result.msg}; no id was given")
                continue
            by_block.setdefault(l.call.msg, []).append(l)
        for index, ls in by_block.items():
            ls.sort(key=lambda l: (l.result.msg, l.result.pos))
            fine = all(l.result.name is None or l.result.name == l.call.name for l in ls) and all(
                a.call.pos < b.call.pos for a, b in zip(ls, ls[1:]))
            for l in ls:
                ok[id(l.call)] = fine
                if not fine:
                    self.idless_bad.add(id(l.call))
            if not fine:
                self.unfixed.append(
                    f"message #{index}: calls and results without ids cannot be paired unambiguously "
                    "(names differ or the results come in another order), so no ids were given")
        return ok

    # --- edits inside messages ----------------------------------------------------------------

    def edit_messages(self, converted: dict[int, Call]) -> None:
        for code in ("TC007", "TC010", "TC018"):
            if not self.acts(code):
                continue
            for iss in self.by_code.get(code, ()):
                i = iss.index
                if i in self.skip and i not in self.keeper_of:
                    continue
                fixed = self.ed.shape_fix(self.raw(i), iss)
                if fixed is not None:
                    self.cur[i], text = fixed
                    self.log(ACTION[code], code, iss.call_id, i, self.slot(i), f"Message #{i}: {text}.")
        # Calls renamed or given an id; their kept results follow.
        for i, c, new in self.renamed:
            self.cur[i] = self.ed.set_call_id(self.raw(i), c, new)
        # A result moved into its block may only then show a name mismatch: check kept ones too.
        names = self.acts("TC013") and bool(self.by_code.get("TC013") or self.keeper_of)
        if self.renamed or names or self.by_code.get("TC008"):
            self._edit_results(names)
        for k, c in converted.items():
            new = self.final_id.get(id(c), c.id)
            self.cur[k] = self.ed.user_to_result(self.items[k], c, new)
            self.log("user_to_result", "TC020", new, k, self.slot(k),
                     f"Made user message #{k} the result of call {new} ({_tool(c.name)}) from message #{c.msg}.")

    def _edit_results(self, names: bool) -> None:
        """Kept results take their call's final id (and, for TC013, its name)."""
        keeper_of, skip = self.keeper_of, self.skip
        for link in self.a.pairing.links:
            i = link.result.msg
            kept = keeper_of.get(i)
            if kept is None:
                if link.status != OK or i in skip:
                    continue
            elif id(link.call) not in kept:
                continue
            c, r = link.call, link.result
            new = self.final_id.get(id(c), c.id)
            if new is not None and new != r.id and not (r.id is None and id(c) in self.idless_bad):
                self.cur[i] = self.ed.set_result_id(self.raw(i), r, new)
                if r.id is None:
                    self.log("assign_id", "TC008", new, i, self.slot(i),
                             f"Gave the result in message #{i} the id {new} of the call it answers (message #{c.msg}).", new)
            if id(c) in self.idless_bad:
                continue  # an ambiguous pairing: its names are not ours to change either
            if (names and r.name is not None and c.name is not None and r.name != c.name
                    and type(c.name) is str and c.name):
                named = self.ed.set_result_name(self.raw(i), r, c.name)
                if named is not None:
                    self.cur[i] = named
                    self.log("set_result_name", "TC013", new, i, self.slot(i),
                             f"Message #{i}: set the result's name {r.name!r} to its call's name {c.name!r}.")

    def add_missing(self) -> None:
        pending = {id(c) for c in self.a.pairing.pending}
        removal: dict[int, list[Call]] = {}
        for b, c in self.missing:
            code = "TC022" if id(c) in pending else "TC001"
            if code == "TC022" and self.opt.pending == "leave":
                if self.target == "mistral":
                    self.unfixed.append(
                        f"message #{c.msg}: call {c.id or '(legacy function_call)'} ({_tool(c.name)}) is still pending; Mistral refuses a request "
                        "that ends with an unanswered call (use pending=close to answer it with a placeholder)")
                continue
            cid = self.final_id.get(id(c), c.id)
            if cid is None and self.opt.missing == "placeholder":
                # Without an id (or, for a legacy function_call, a name) no result can answer it.
                legacy = not self.ed.has_id_slot(self.raw(c.msg), c)
                if not legacy or not (isinstance(c.name, str) and c.name):
                    self.unfixed.append(f"message #{c.msg}: call {c.pos} ({_tool(c.name)}) has no result and "
                                        f"no {'name' if legacy else 'id'} a placeholder could answer")
                    continue
            if self.opt.missing == "remove_call":
                removal.setdefault(b.index, []).append(c)
                continue
            item = self.ed.placeholder(c, cid, self.opt.placeholder_text(cid, c.name))
            s = Slot(item, None)
            self.after.setdefault(b.ends, []).append(s)
            self.log("insert_placeholder", code, cid, None, s,
                     f"Inserted a placeholder result for call {cid or '(legacy function_call)'} ({_tool(c.name)}) "
                     f"of message #{c.msg}: no result was recorded.")
        for i, calls in removal.items():
            raw_before = self.raw(i)
            self.cur[i], removed = self.ed.drop_calls(raw_before, calls)
            for c, item in zip(calls, removed):
                self.quarantine.append((i, "TC001", "the call had no result (missing=remove_call)", item))
                self.log("remove_call", "TC001", c.id, i, self.slot(i),
                         f"Removed call {c.id} ({_tool(c.name)}) from message #{i}: it had no result; "
                         "the call is in the quarantine.")

    # --- output -------------------------------------------------------------------------------

    def _put(self, s: Slot, raws: list, origins: list) -> None:
        if s.raw is None:
            s.raw = self.cur.get(s.origin, self.items[s.origin])
        s.pos = len(raws)
        raws.append(s.raw)
        origins.append(s.origin)

    def emit(self) -> tuple[list, list]:
        """The output list in one pass, and the input index of each item (None for new ones)."""
        raws: list = []
        origins: list = []
        add, orig = raws.append, origins.append
        skip, after, notes, instead = self.skip, self.after, self.notes_after, self.instead
        slots, cur, items, put = self.slots, self.cur, self.items, self._put
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

    def bridges(self, raws: list, origins: list) -> tuple[list, list]:
        """Role order for a target that refuses some transitions (Mistral, rules.md §4.11).

        A system message after an assistant or tool message moves up to just after the last user
        or system message before it (nothing else can follow there without inventing a turn);
        a user message right after a tool result gets a synthesized assistant message before it.
        """
        placed = {s.pos: s for s in (*self.slots.values(), *self._new_slots()) if s.pos is not None}
        out = [placed.get(k) or Slot(raw, origins[k]) for k, raw in enumerate(raws)]
        out = self._bridge_tool_user(self._move_systems(out))
        for k, s in enumerate(out):
            s.pos = k
        return [s.raw for s in out], [s.origin for s in out]

    def _new_slots(self) -> list[Slot]:
        extra = [s for lst in (*self.after.values(), *self.notes_after.values()) for s in lst]
        return extra + list(self.instead.values())

    def _role(self, s: Slot) -> str:
        r = self.ed.role_of(s.raw)
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
                self.log("move_message", "TC019", None, s.origin, s,
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
                b = Slot(self.ed.bridge(self.opt.bridge), None)
                res.append(b)
                self.log("insert_bridge", "TC019", None, None, b,
                         "Inserted an assistant message marked as synthesized between a tool result and a user "
                         "message: the target refuses that order.")
            elif prev in ROLE_NEXT and r in ROLE_NEXT and r not in ROLE_NEXT[prev]:
                where = f"input #{s.origin}" if s.origin is not None else "a new message"
                self.unfixed.append(f"a {r} message ({where}) directly follows a {prev} message, an order the "
                                    "target refuses and no repair can make valid without inventing a turn")
            res.append(s)
            prev = r
        return res

    def last_message_rules(self, raws: list) -> None:
        if self.target != "mistral":
            return
        if not raws:
            self.unfixed.append("the transcript is empty; Mistral needs at least one message")
            return
        last = raws[-1]
        role = self.ed.role_of(last)
        if role == "assistant" and not (type(last) is dict and last.get("prefix") is True):
            has_calls = type(last) is dict and (last.get("tool_calls") or last.get("function_call"))
            if not has_calls:
                self.unfixed.append(
                    "the transcript ends with an assistant message; Mistral serving expects the last message to be "
                    "user or tool (or an assistant message with prefix=true), and repair does not invent a user turn")
        elif len(raws) == 1 and role not in ("user", "system"):
            self.unfixed.append("a one-message conversation must be a user or system message for Mistral")

    def unfixable_shapes(self) -> None:
        for iss in self.by_code.get("TC012", ()):
            if iss.index in self.skip or not self.acts("TC012"):
                continue
            what = "has no function name" if iss.data.get("missing") else f"has the name {iss.data.get('name')!r}"
            self.unfixed.append(f"message #{iss.index}: call {iss.data.get('pos', 0)} {what}, which the target "
                                "refuses; repair does not rename tools")
