"""Repair for the dialects whose results are blocks of the next message (``Block.NEXT``:
anthropic, bedrock, gemini, claude-code).

Repair's plan works on lists where every result is its own message (openai-chat). Here, several
``tool_result`` blocks share one user message, maybe with text after them. So the plan runs on an
*exploded* copy (``BlockEditor.explode``): each result block becomes a message of its own, and the
other blocks of that message follow as one more message. After the plan, runs of messages of one
role are joined back (results first, then the other blocks), which also merges results split over
several messages (TC015), puts results before text (TC016) and joins two messages of one role
(TC019), as rules.md §4 asks. A message the plan did not touch comes back as the very object it was.

For a target that combines consecutive messages of one role into one turn itself (``merges``: the
Anthropic Messages API), two messages of one role in a row are no error, so they are not joined
unasked: a run is joined only where a message of it has an order error on the combined turn
(TC016, TC025), and otherwise each input message comes back as its own message (the results moved
in, and the placeholders, stay with the message before them).

Change and quarantine indices are the input's own: an exploded piece reports the index of the
message it came from, and a quarantined result block is quarantined as the block itself; when
every block of a message is taken out, the message is quarantined whole, as it was.
"""

from __future__ import annotations

import re
from typing import Any

from ..checking import Analysis
from ..containers import Transcript
from ..dialects.base import Block, user_as_result
from ..dialects.editing import BlockEditor
from ..model import Issue
from ..pairing import pair, pair_turns
from ..rules import severity
from ..rules.sequence import sequence_issues
from ..turns import Turns
from .base import same_json
from .plan import Plan

JOIN_CODES = ("TC015", "TC016", "TC019")
# Cases of those codes that joining does not answer: a tool result inside an assistant message,
# a Gemini content that mixes function calls and responses.
NOT_JOINED = ("result_in_assistant", "mixed_call_response")
_MSG_NO = re.compile(r"(?<=message )#(\d+)")


class _Out:
    """An output position, for the report (the plan's records point at one)."""

    __slots__ = ("origin", "pos", "raw")

    def __init__(self, pos: int, raw: Any, origin: int | None) -> None:
        self.pos, self.raw, self.origin = pos, raw, origin


class _Rec:
    __slots__ = ("action", "before", "call_id", "code", "new_id", "slot", "text")

    def __init__(self, action: str, code: str, call_id: Any, before: int | None, slot: _Out | None, text: str,
                 new_id: Any = None) -> None:
        self.action, self.code, self.call_id, self.before = action, code, call_id, before
        self.slot, self.text, self.new_id = slot, text, new_id


class JoinPlan:
    """Explode, run repair's own plan, join back; ``recs``/``quarantine``/... as the plan's."""

    def __init__(self, a: Analysis, target: str, options: Any, ed: BlockEditor) -> None:
        self.a, self.target, self.opt, self.ed = a, target, options, ed
        self.recs: list[Any] = []
        self.quarantine: list[Any] = []
        self.id_map: dict[str, str] = {}
        self.unfixed: list[str] = []
        self.resolved: list[Any] = []
        self._split: list[Any] = []  # messages the Bedrock split added (bridges and the moved blocks)
        self.merging = target in a.dialect.merges  # the target combines consecutive messages of one role
        self.origins: list[int | None] = []  # the input index of each output message (None: new)

    def _analyse(self, items: list[Any]) -> Analysis:
        t = self.a.transcript
        d = self.a.dialect
        issues: list[Issue] = []
        msgs = d.read(items, t.path, issues)
        turns = Turns(msgs, d.block_count, d.merges[self.target]) if self.merging else None
        pairing = pair_turns(msgs, turns) if turns is not None and turns.merged else pair(msgs, Block.RUN)
        issues.extend(pairing.issues)
        issues.extend(sequence_issues(msgs, pairing, self.target))
        user_as_result(msgs, pairing, issues.append, d.text)
        d.model_rules(msgs, issues, self.target, self.a.judged.model)  # what the request's model accepts
        ex = Transcript(items=items, path=t.path, container=t.container, dialect=d.name, extra=t.extra)
        return Analysis(ex, d, msgs, pairing, issues, judged=self.a.judged)

    def run(self) -> list[Any]:
        items = self.a.transcript.items
        ex, origin, pieces = self.ed.explode(items)
        inner = Plan(self._analyse(ex), self.target, self.opt, self.ed)
        out = inner.run()
        joins = [iss for iss in self.a.issues if (iss.code in JOIN_CODES or iss.data.get("merged"))
                 and iss.data.get("kind") not in NOT_JOINED
                 and severity(iss.code, self.target, iss.data.get("kind")) in ("error", "warning")]
        split = {"result_in_assistant"} if self.ed.RESULTS_TO_USER else set()
        if self.ed.CALLS_TO_MODEL:
            split.add("mixed_call_response")
        moved = [iss for iss in self.a.issues if iss.data.get("kind") in split]
        if not inner.recs and not joins and not moved:
            self.resolved = [_Out(k, m, k) for k, m in enumerate(items)]
            self.origins = list(range(len(items)))
            return list(items)
        # Group runs of one role; remember which output group each inner position went to.
        groups: list[list[int]] = []
        for k, raw in enumerate(out):
            if groups and self.ed.role_of(out[groups[-1][-1]]) == self.ed.role_of(raw):
                groups[-1].append(k)
            else:
                groups.append([k])
        if self.merging:
            # An order error on a combined turn, or two messages of one role the route may refuse
            # (an Anthropic body for Bedrock's InvokeModel: TC019 is a warning there).
            forced = {iss.index for iss in joins if iss.data.get("merged") or iss.code == "TC019"}
            groups = self._own_messages(groups, getattr(inner, "origins", None), origin, forced)
        by_piece = {id(p): k for k, ps in pieces.items() for p in ps}
        new: list[Any] = []
        group_of: dict[int, _Out] = {}
        for g in groups:
            raws = [out[k] for k in g]
            src = {by_piece.get(id(r)) for r in raws}
            k0 = src.pop() if len(src) == 1 else None
            if len(raws) == 1 and k0 is None:
                raw = raws[0]
            else:
                raw = self.ed.join(raws)
                # All the pieces of one input message, unedited, already in the joined order: the input itself.
                key = self.ed.KEY
                if k0 is not None and [id(r) for r in raws] == [id(p) for p in pieces[k0]] and \
                        [id(b) for b in raw[key]] == [id(b) for b in items[k0][key]]:
                    raw = items[k0]
                else:
                    raw = self._keep_fields(raw, raws, ex, origin)
            slot = _Out(len(new), raw, None)
            new.append(raw)
            for k in g:
                group_of[k] = slot
            if self.ed.RESULTS_ALONE:
                self._results_alone(slot, new, {by_piece.get(id(out[j]), None) for j in g} - {None})
        self.resolved = [group_of[g[0]] for g in groups]
        self.resolved += [s for s in self._split if s not in self.resolved]
        self.resolved.sort(key=lambda s: s.pos)
        inner_pos = self._inner_positions(inner)
        at_out = {id(raw): k for k, raw in enumerate(out)}
        # The input index each output message came from (its first piece's; None for a new one).
        self.origins = [None] * len(new)
        inner_origin = getattr(inner, "origins", None) or []
        for g in groups:
            srcs = [origin[inner_origin[k]] if k < len(inner_origin) and inner_origin[k] is not None
                    else by_piece.get(id(out[k])) for k in g]
            first = next((x for x in srcs if x is not None), None)
            if first is not None and self.origins[group_of[g[0]].pos] is None:
                self.origins[group_of[g[0]].pos] = first

        def ours(text: str) -> str:
            """The plan's "message #k" (exploded indices) as the input's message numbers; two pieces of
            one input message the text names apart keep apart, by their part numbers (a duplicate
            result quarantined beside the copy kept in the same message, issue 31)."""
            named = [int(n) for n in _MSG_NO.findall(text) if int(n) < len(origin)]
            shared = {origin[n] for n in named if sum(1 for x in set(named) if origin[x] == origin[n]) > 1}

            def one(mo: re.Match[str]) -> str:
                n = int(mo[1])
                if n >= len(origin):
                    return mo[0]
                if origin[n] in shared:
                    return f"#{origin[n]} (part {sum(1 for x in range(n) if origin[x] == origin[n]) + 1})"
                return f"#{origin[n]}"

            return _MSG_NO.sub(one, text)

        home: dict[int, _Out] = {}  # input index -> the first output message holding a piece of it
        for k, raw in enumerate(out):
            piece_of = by_piece.get(id(raw))
            if piece_of is not None and k in group_of:
                home.setdefault(piece_of, group_of[k])
        for r in inner.recs:
            before = origin[r.before] if r.before is not None else None
            pos = inner_pos.get(id(r.slot)) if r.slot is not None else None
            if pos is None and r.slot is not None and getattr(r.slot, "raw", None) is not None:
                pos = at_out.get(id(r.slot.raw))  # an item the plan added, joined into a message
            at_slot = group_of.get(pos) if pos is not None else None
            if at_slot is None and before is not None:
                at_slot = home.get(before)  # a block taken out of a message that stays: the change shows there
            self.recs.append(_Rec(r.action, r.code, r.call_id, before, at_slot, ours(r.text), r.new_id))
        # A piece taken out is quarantined as its block; when every piece of an input message went,
        # the message went whole, and the quarantine holds it exactly as it was (its other fields too).
        taken: dict[int, set[int]] = {}
        for index, _, _, content in inner.quarantine:
            if origin[index] in pieces and content is ex[index]:
                taken.setdefault(origin[index], set()).add(index)
        whole = {k for k, got in taken.items() if len(got) == len(pieces[k])}
        for index, code, reason, content in inner.quarantine:
            k = origin[index]
            reason = ours(reason)
            if k in whole:
                if content is ex[index]:
                    if k in taken:  # once per message, with the first piece's code and reason
                        del taken[k]
                        self.quarantine.append((k, code, reason, items[k]))
                    continue
            elif k in pieces and type(content) is dict and len(content.get(self.ed.KEY) or ()) == 1:
                content = content[self.ed.KEY][0]  # the result block itself
            self.quarantine.append((k, code, reason, content))
        for iss in joins:
            if iss.code == "TC016" and self.ed.RESULTS_ALONE:
                continue  # said by the separate_results change
            joined_at = self._slot_of_input(iss.index, out, group_of, by_piece, items)
            if joined_at is None or joined_at.raw is items[iss.index] or same_json(joined_at.raw, items[iss.index]):
                continue  # nothing was joined there: the log lists only what the output shows
            if iss.data.get("merged"):
                what = ("join_turn", "joined the messages of its turn (the API combines them into one) into one message, "
                        + ("tool results first" if iss.code == "TC016" else "so that its tool_use blocks can end it"))
            else:
                what = {"TC015": ("merge_results", "joined the tool results split over several user messages into one"),
                        "TC016": ("results_first", "put the tool results before the other blocks of the message"),
                        "TC019": ("merge_messages", "joined two messages of one role into one")}[iss.code]
            self.recs.append(_Rec(what[0], iss.code, iss.call_id, iss.index, joined_at, f"Message #{iss.index}: {what[1]}."))
        for iss in moved:
            joined_at = self._slot_of_input(iss.index, out, group_of, by_piece, items)
            if joined_at is None or joined_at.raw is items[iss.index] or same_json(joined_at.raw, items[iss.index]):
                continue
            if iss.data.get("kind") == "mixed_call_response":
                self.recs.append(_Rec("split_call_turn", iss.code, iss.call_id, iss.index, joined_at,
                                      f"Message #{iss.index}: split it into its own parts, a model turn with its "
                                      "function calls and a turn with their responses: one content may not mix "
                                      "function calls and function responses."))
                continue
            self.recs.append(_Rec("results_to_user", iss.code, iss.call_id, iss.index, joined_at,
                                  f"Message #{iss.index}: moved its tool_result block(s) out of the assistant message "
                                  "into a user message right after the blocks before them (the blocks after them "
                                  "follow as an assistant message): tool results can only be in user messages."))
        self._unlogged(new, items)
        self.id_map = inner.id_map
        self.unfixed = [ours(u) for u in inner.unfixed]
        return new

    def _unlogged(self, new: list[Any], items: list[Any]) -> None:
        """A message joined back in another shape than the input's, which no change names (its
        blocks put back results first): one change says so, so that the log is the whole truth."""
        named = {id(r.slot) for r in self.recs if r.slot is not None}
        at = {s.pos: s for s in self.resolved}
        for k, raw in enumerate(new):
            src = self.origins[k]
            if src is None or raw is items[src]:
                continue
            slot = at.get(k)
            if slot is None or id(slot) in named or same_json(raw, items[src]):
                continue
            split = next((r for r in self.recs if r.before == src), None)
            if split is not None:  # another part of a message a change already split
                self.recs.append(_Rec(split.action, split.code, split.call_id, src, slot,
                                      f"Message #{src}: another part of it, as a message of its own (see the change "
                                      f"'{split.action}' of message #{src})."))
                continue
            self.recs.append(_Rec("results_first", "TC016", None, src, slot,
                                  f"Message #{src}: written back with its function or tool results before its other "
                                  "parts, as the results of a call are joined back."))

    def _results_alone(self, slot: _Out, new: list[Any], sources: set[Any]) -> None:
        """Bedrock Converse refuses tool results and other blocks in one message (TC016): the
        results keep the message, the other blocks follow in a user message of their own, after an
        assistant message marked as synthesized (two user messages in a row are refused too)."""
        raw = slot.raw
        blocks = raw.get(self.ed.KEY) if type(raw) is dict else None
        if type(blocks) is not list or self.ed.role_of(raw) != self.ed.USER:
            return
        results = [b for b in blocks if self.ed.is_result(b) or self.ed.stays_last(b)]
        others = [b for b in blocks if not (self.ed.is_result(b) or self.ed.stays_last(b))]
        if not others or not any(self.ed.is_result(b) for b in results):
            return
        slot.raw = new[slot.pos] = {**raw, self.ed.KEY: results}
        bridge = _Out(len(new), self.ed.bridge(self.opt.bridge_text()), None)
        new.append(bridge.raw)
        rest = _Out(len(new), {"role": self.ed.USER, self.ed.KEY: others}, None)
        new.append(rest.raw)
        self._split += [bridge, rest]
        k = min(sources) if sources else None
        self.recs.append(_Rec("insert_bridge", "TC016", None, None, bridge,
                              f"Inserted an assistant message marked as synthesized after the tool results of message "
                              f"#{k}: the blocks moved out of it follow as a user message, and the target refuses two "
                              "user messages in a row."))
        self.recs.append(_Rec("keep_results_alone", "TC016", None, k, slot,
                              f"Message #{k}: kept only its tool results; its other block(s) follow after an "
                              "assistant message marked as synthesized (the next two changes)."))
        self.recs.append(_Rec("separate_results", "TC016", None, k, rest,
                              f"Message #{k}: moved {len(others)} block(s) that shared the message with tool results "
                              "into a user message of their own, after an assistant message marked as synthesized: "
                              "the target refuses tool results and other blocks in one message."))

    @staticmethod
    def _own_messages(groups: list[list[int]], inner_origin: list[Any] | None, origin: list[int],
                      forced: set[int]) -> list[list[int]]:
        """For a target that combines a run of one role itself: split each run back into the input
        messages it came from, unless a message of the run has an order error on the combined turn
        (``forced``). An item the plan added or moved in stays with the message before it."""
        if inner_origin is None:
            return groups
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        for x, k in enumerate(origin):
            first.setdefault(k, x)
            last[k] = x
        out: list[list[int]] = []
        for g in groups:
            src = [origin[inner_origin[k]] if k < len(inner_origin) and inner_origin[k] is not None else None
                   for k in g]
            if len(g) == 1 or any(s in forced for s in src if s is not None):
                out.append(g)
                continue
            part = [g[0]]
            before = inner_origin[g[0]] if g[0] < len(inner_origin) else None  # last item of the input kept so far
            for k, s in zip(g[1:], src[1:]):
                o = inner_origin[k] if k < len(inner_origin) else None
                if o is not None and s is not None and first[s] == o and before is not None and last[origin[before]] == before \
                        and origin[before] != s:
                    out.append(part)
                    part = []
                part.append(k)
                if o is not None:
                    before = o
            out.append(part)
        return out

    def _keep_fields(self, joined: Any, raws: list[Any], ex: list[Any], origin: list[int]) -> Any:
        """A joined message keeps every field of the messages it joins: the first one's, then the
        fields another has that it lacks (a placeholder joined in before a user message must not
        cost that message its ``x_trace``, issue 34); a field two of them hold with different
        values keeps the first value, and the other goes to the quarantine whole."""
        at = {id(x): origin[i] for i, x in enumerate(ex)}
        first = raws[0]
        added: dict[str, Any] = {}
        for r in raws[1:]:
            extra = {}
            for k, v in r.items():
                if k in (self.ed.KEY, "role"):
                    continue
                if k not in first and k not in added:
                    added[k] = v
                elif (added[k] if k in added else first[k]) != v:
                    extra[k] = v
            if extra:
                k = at.get(id(r), at.get(id(first), 0))
                self.quarantine.append((k, "TC019", ("message fields that the message it was joined into holds with "
                                        "other values (the blocks themselves are in the output)"), extra))
        return {**joined, **added} if added else joined

    @staticmethod
    def _inner_positions(inner: Any) -> dict[int, int]:
        pos: dict[int, int] = {}
        for r in inner.recs:
            s = r.slot
            if s is not None and getattr(s, "pos", None) is not None:
                pos[id(s)] = s.pos
        resolved = getattr(inner, "resolved", None)
        if resolved:
            for k, s in enumerate(resolved):
                pos.setdefault(id(s), k)
        return pos

    def _slot_of_input(self, index: int, out: list[Any], group_of: dict[int, _Out], by_piece: dict[int, int],
                       items: list[Any]) -> _Out | None:
        """The output message holding (a piece of) input message ``index``, if it is still there."""
        target = items[index] if 0 <= index < len(items) else None
        for k, raw in enumerate(out):
            if raw is target or by_piece.get(id(raw)) == index:
                return group_of.get(k)
        return None
