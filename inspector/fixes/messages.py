"""Id and in-message fixes (rules.md §4.1, 4.7, 4.8): shapes, ids, names, unknown roles.

Shape fixes lose nothing (TC007 empty call arrays, TC010 object arguments, TC018 null content);
ids that are missing (TC008, only when the pairing is unambiguous), repeated in one message
(TC006) or refused by the target's format (TC009) get a deterministic new id, and every kept
result follows its call's id; a result's name follows its call's (TC013).
"""

from __future__ import annotations

import itertools
from typing import Any

from ..model import Call
from ..pairing import DUPLICATE, OK, Link
from ..rules import severity
from .base import tool_label
from .ids import fits, make_id
from .state import PlanState

_PROBE = "\x00inspector: the id slot\x00"


def _path_to(value: Any, target: Any) -> list[Any] | None:
    """The keys and indexes that lead to ``target`` (a string, compared by identity) in ``value``."""
    if value is target:
        return []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        sub = _path_to(v, target)
        if sub is not None:
            return [k, *sub]
    return None


def replaced_id(edit: Any, raw: Any) -> str:
    """What an id edit overwrites in ``raw``, said for the change log: " in place of the id {"id":
    "x"} it had, which is no usable id" (issue 33: a wrong-typed id, or the string "null", must not
    vanish without a trace); "" when the slot was absent or null. Editors never edit in place, so
    writing a probe where the new id goes and reading the same place in ``raw`` finds it for every
    dialect."""
    import orjson

    path = _path_to(edit(raw, _PROBE), _PROBE)
    cur = raw
    for k in path or ():
        try:
            cur = cur[k]
        except (KeyError, IndexError, TypeError):
            return ""
    if path is None or cur is None:
        return ""
    try:
        shown = orjson.dumps(cur).decode()
    except TypeError:
        shown = repr(cur)
    return f" in place of the id {shown} it had, which is no usable id"


ACTION = {
    "TC007": "drop_empty_tool_calls",
    "TC010": "stringify_arguments",
    "TC018": "fill_null_content",
}


class MessageFixes:
    """A family of ``Plan``'s fixes, over ``PlanState``: what changes inside messages."""

    def __init__(self, state: PlanState) -> None:
        self.state = state  # the plan's state, which every family reads and writes

    def unknown_roles(self) -> None:
        for iss in self.state.by_code.get("TC024", ()):
            if severity("TC024", self.state.target, iss.data.get("kind")) not in ("error", "warning"):
                continue  # a note (a harness record in a log): repair acts only on what check reports
            role = iss.data.get("role")
            if self.state.opt.unknown_role == "keep":
                self.state.unfixed.append(f"message #{iss.index} has role {role!r}, kept as asked (unknown_role=keep)")
                continue
            kind = iss.data.get("kind")
            if kind == "function_model_unknown":
                continue  # a valid legacy result for older models: a warning to read, nothing to take out
            if kind == "function_role_refused":
                # taking the result out would leave its function_call unanswered: the call and its result
                # must become tool_calls and a tool message, which repair does not write
                self.state.unfixed.append(f"message #{iss.index} uses the legacy function role, which the request's "
                                          "model refuses; send the call as tool_calls and the result as a tool message")
                continue
            raw = self.state.raw(iss.index)
            if role == "developer" and type(raw) is dict and raw.get("role") == "developer":
                # A target without OpenAI's developer role (Mistral): the same instructions as system.
                self.state.cur[iss.index] = {**raw, "role": "system"}
                self.state.log("rename_role", "TC024", None, iss.index, self.state.slot(iss.index),
                         f"Message #{iss.index}: the developer role became system, which the target has.")
                continue
            self.state.take_out(iss.index, "TC024", f"role {role!r} is not a role of this format", "quarantine_message",
                          None, f"Took message #{iss.index} (role {role!r}) out into the quarantine.")

    def dangling_reasoning(self) -> None:
        """A Responses ``reasoning`` item whose following item is gone is refused (TC021, error for
        the Responses API): take it out into the quarantine. Reasoning items may be left out of an
        input; repair never fabricates the item it belonged to (rules.md §4.12)."""
        for iss in self.state.by_code.get("TC021", ()):
            if iss.data.get("kind") != "reasoning_item" or severity(iss.code, self.state.target, "reasoning_item") != "error":
                continue
            end = iss.other if iss.other is not None else len(self.state.msgs)
            for i in range(iss.index, end):
                if self.state.msgs[i].role == "reasoning" and i not in self.state.skip:
                    item = self.state.raw(i).get("id") if type(self.state.raw(i)) is dict else None
                    self.state.take_out(i, "TC021", "a reasoning item without its required following item",
                                  "quarantine_message", None,
                                  f"Took reasoning item #{i} ({item or 'no id'}) out into the quarantine: the item "
                                  "it was produced with is not in the input, and the target refuses it alone.")

    def assign_ids(self) -> None:
        self.renamed: list[tuple[int, Call, str]] = []  # (message index, call, new id)
        self.rename_code: dict[int, str] = {}  # id(call) -> the rule its new id answers
        idless_ok = self._idless_blocks()
        reuse = bool(self.state.by_code.get("TC023")) and severity("TC023", self.state.target) == "error"
        if not (self.state.by_code.get("TC006") or self.state.by_code.get("TC008") or reuse
                or (self.state.by_code.get("TC009") and self.state.acts("TC009"))):
            return  # every id stays as it is
        taken = {c.id for m in self.state.msgs for c in m.calls if c.id is not None}
        fitted: dict[str, str] = {}
        used_in: dict[str, int] = {}  # id -> how many messages have used it so far (TC023)
        for m in self.state.msgs:
            if not m.calls or m.index in self.state.skip:
                continue
            raw = self.state.items[m.index]
            seen: set[str] = set()
            for c in m.calls:
                cid = c.id
                if cid is None:
                    if not self.state.ed.has_id_slot(raw, c):
                        self.state.final_id[id(c)] = None
                        continue
                    if idless_ok.get(id(c), True):
                        new = make_id(f"{m.index}:{c.pos}:{c.name}", self.state.target, taken)
                        self.state.final_id[id(c)] = new
                        self.renamed.append((m.index, c, new))
                        was = replaced_id(lambda r, v, c=c: self.state.ed.set_call_id(r, c, v), raw)
                        self.state.log("assign_id", "TC008", None, m.index, self.state.slot(m.index),
                                 f"Gave call {c.pos} of message #{m.index} ({tool_label(c.name)}) the id {new}{was}.",
                                 new)
                    else:
                        self.state.final_id[id(c)] = None
                    continue
                new = cid
                if cid in seen:
                    if not self.state.opt.rename_ids:
                        self.state.unfixed.append(f"message #{m.index} has two calls with id {cid}, kept as asked (rename_ids=false)")
                    else:
                        new = make_id(f"{cid}#{m.index}#{c.pos}", self.state.target, taken)
                        self.rename_code[id(c)] = "TC006"
                        self.state.log("rename_id", "TC006", cid, m.index, self.state.slot(m.index),
                                 f"Renamed the second call with id {cid} in message #{m.index} ({tool_label(c.name)}) "
                                 f"to {new}, and its result with it.", new)
                elif reuse and used_in.get(cid) and self.state.opt.rename_ids:
                    # The same id in an earlier message, which the target refuses (TC023): the later
                    # call gets a new id, and its results follow; id_map keys it "old@n", the n-th use.
                    n = used_in[cid] + 1
                    new = make_id(f"{cid}@{n}", self.state.target, taken)
                    self.rename_code[id(c)] = "TC023"
                    self.state.id_map[f"{cid}@{n}"] = new
                    self.state.log("rename_id", "TC023", cid, m.index, self.state.slot(m.index),
                             f"Renamed call id {cid} in message #{m.index} ({tool_label(c.name)}), already used by a "
                             f"call of an earlier message, to {new}, and its result with it.", new)
                seen.add(cid)
                if new == cid and self.state.acts("TC009") and not fits(cid, self.state.target):
                    if not self.state.opt.rename_ids:
                        self.state.unfixed.append(f"message #{m.index}: call id {cid} does not fit the target's format, kept as asked (rename_ids=false)")
                    else:
                        if cid not in fitted:
                            fitted[cid] = make_id(cid, self.state.target, taken)
                        new = fitted[cid]
                        self.state.id_map[cid] = new
                        self.rename_code[id(c)] = "TC009"
                        self.state.log("rename_id", "TC009", cid, m.index, self.state.slot(m.index),
                                 f"Renamed call id {cid} in message #{m.index} to {new} to fit the target's id format, "
                                 "and its result with it.", new)
                self.state.final_id[id(c)] = new
                if new is not None and new != cid:
                    self.renamed.append((m.index, c, new))
            for cid in seen:
                used_in[cid] = used_in.get(cid, 0) + 1

    def _idless_blocks(self) -> dict[int, bool]:
        """For calls paired without ids: True when their block pairs unambiguously (rules.md §4.8).

        Unambiguous: each result without an id names the same tool as its call (or no tool), and
        the results come in the order of their calls. Placeholders added later get new ids of
        their own, so they never make a block ambiguous.
        """
        ok: dict[int, bool] = {}
        by_block: dict[int, list[Link]] = {}
        for l in self.state.a.pairing.links:
            if l.status == DUPLICATE or (l.call.id is not None and l.result.id is not None):
                continue
            if l.result.legacy:
                if self.state.ed.has_id_slot(self.state.items[l.call.msg], l.call):
                    # A tool call answered by a legacy function message: an id would unpair them.
                    ok[id(l.call)] = False
                    self.state.idless_bad.add(id(l.call))
                    self.state.unfixed.append(f"message #{l.call.msg}: a call without an id is answered by the legacy "
                                        f"function message #{l.result.msg}; no id was given")
                continue
            by_block.setdefault(l.call.msg, []).append(l)
        for index, ls in by_block.items():
            ls.sort(key=lambda l: (l.result.msg, l.result.pos))
            fine = all(l.result.name is None or l.result.name == l.call.name for l in ls) and all(
                a.call.pos < b.call.pos for a, b in itertools.pairwise(ls))
            for l in ls:
                ok[id(l.call)] = fine
                if not fine:
                    self.state.idless_bad.add(id(l.call))
            if not fine:
                self.state.unfixed.append(
                    f"message #{index}: calls and results without ids cannot be paired unambiguously "
                    "(names differ or the results come in another order), so no ids were given")
        return ok

    # --- edits inside messages ----------------------------------------------------------------

    def edit_messages(self, converted: dict[int, Call]) -> None:
        for code in ("TC007", "TC010", "TC018"):
            if not self.state.acts(code):
                continue
            for iss in self.state.by_code.get(code, ()):
                i = iss.index
                if i in self.state.skip and i not in self.state.keeper_of:
                    continue
                fixed = self.state.ed.shape_fix(self.state.raw(i), iss)
                if fixed is not None:
                    self.state.cur[i], text = fixed
                    self.state.log(ACTION[code], code, iss.call_id, i, self.state.slot(i), f"Message #{i}: {text}.")
        # Calls renamed or given an id; their kept results follow.
        for i, c, new in self.renamed:
            self.state.cur[i] = self.state.ed.set_call_id(self.state.raw(i), c, new)
        # A result moved into its block may only then show a name mismatch: check kept ones too.
        names = self.state.acts("TC013") and bool(self.state.by_code.get("TC013") or self.state.keeper_of)
        if self.renamed or names or self.state.by_code.get("TC008"):
            self._edit_results(names)
        for k, c in converted.items():
            final = self.state.final_id.get(id(c), c.id)
            self.state.cur[k] = self.state.ed.user_to_result(self.state.items[k], c, final)
            self.state.log("user_to_result", "TC020", final, k, self.state.slot(k),
                     f"Made user message #{k} the result of call {final} ({tool_label(c.name)}) from message #{c.msg}.")

    def calls_last(self) -> None:
        """TC025: text and other blocks after the calls of an assistant message move before them
        (lossless; run after every fix that may drop or rename calls)."""
        if not self.state.acts("TC025"):
            return
        for iss in self.state.by_code.get("TC025", ()):
            i = iss.index
            if i in self.state.skip:
                continue
            calls_last = getattr(self.state.ed, "calls_last", None)
            if calls_last is None:  # a format of one call list per message, joined by a gateway (issue 31)
                self.state.unfixed.append(f"message #{i}: not fixed (TC025): the gateway joins it with the assistant "
                                          "message after it, whose text then follows its tool calls; put that text "
                                          "before the calls, or a user message between the two")
                continue
            moved = calls_last(self.state.raw(i))
            if moved is not None:
                self.state.cur[i] = moved
                self.state.log("move_blocks_before_calls", "TC025", None, i, self.state.slot(i),
                         f"Message #{i}: moved {iss.data.get('count', 1)} block(s) that followed the tool calls "
                         "before the first call, keeping their order.")

    def _edit_results(self, names: bool) -> None:
        """Kept results take their call's final id (and, for TC013, its name)."""
        keeper_of, skip = self.state.keeper_of, self.state.skip
        for link in self.state.a.pairing.links:
            i = link.result.msg
            kept = keeper_of.get(i)
            if kept is None:
                if link.status != OK or i in skip:
                    continue
            elif id(link.call) not in kept:
                continue
            c, r = link.call, link.result
            new = self.state.final_id.get(id(c), c.id)
            if new is not None and new != r.id and not (r.id is None and id(c) in self.state.idless_bad):
                before = self.state.raw(i)
                self.state.cur[i] = self.state.ed.set_result_id(before, r, new)
                if r.id is None:
                    was = replaced_id(lambda raw, v, r=r: self.state.ed.set_result_id(raw, r, v), before)
                    self.state.log("assign_id", "TC008", new, i, self.state.slot(i),
                             f"Gave the result in message #{i} the id {new} of the call it answers "
                             f"(message #{c.msg}){was}.", new)
                else:
                    self.state.log("follow_call_id", self.rename_code.get(id(c), "TC008"), r.id, i, self.state.slot(i),
                             f"Message #{i}: the result for call {r.id} now carries its call's new id {new} "
                             f"(message #{c.msg}).", new)
            if id(c) in self.state.idless_bad:
                continue  # an ambiguous pairing: its names are not ours to change either
            if (names and r.name is not None and c.name is not None and r.name != c.name
                    and type(c.name) is str and c.name):
                named = self.state.ed.set_result_name(self.state.raw(i), r, c.name)
                if named is not None:
                    self.state.cur[i] = named
                    self.state.log("set_result_name", "TC013", new, i, self.state.slot(i),
                             f"Message #{i}: set the result's name {r.name!r} to its call's name {c.name!r}.")

    def unfixable_shapes(self) -> None:
        for iss in self.state.by_code.get("TC012", ()):
            if iss.index in self.state.skip or not self.state.acts("TC012"):
                continue
            what = "has no function name" if iss.data.get("kind") == "missing_name" else f"has the name {iss.data.get('name')!r}"
            self.state.unfixed.append(f"message #{iss.index}: call {iss.data.get('pos', 0)} {what}, which the target "
                                "refuses; repair does not rename tools")
