"""Repair for the dialects whose results are blocks of the next message: anthropic, bedrock, gemini.

Repair's plan works on lists where every result is its own message (openai-chat). Here, several
``tool_result`` blocks share one user message, maybe with text after them. So the plan runs on an
*exploded* copy: each result block becomes a message of its own, and the other blocks of that
message follow as one more message. After the plan, runs of messages of one role are joined back
(results first, then the other blocks), which also merges results split over several messages
(TC015), puts results before text (TC016) and joins two messages of one role (TC019), as rules.md
§4 asks. A message the plan did not touch comes back as the very object it was.

Change and quarantine indices are the input's own: an exploded piece reports the index of the
message it came from, and a quarantined result block is quarantined as the block itself.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..containers import Transcript
from ..dialects import get
from ..dialects.shared_rules import user_as_result
from ..links import pair
from ..model import Call, Issue, Result
from ..rules.sequence import sequence_issues, text_of
from . import Editor, register

JOIN_CODES = ("TC015", "TC016", "TC019")
_MSG_NO = re.compile(r"(?<=message )#(\d+)")


class _Out:
    """An output position, for the report (the plan's records point at one)."""

    __slots__ = ("pos", "raw", "origin")

    def __init__(self, pos: int, raw: Any, origin: int | None):
        self.pos, self.raw, self.origin = pos, raw, origin


class _Rec:
    __slots__ = ("action", "code", "call_id", "before", "slot", "text", "new_id")

    def __init__(self, action, code, call_id, before, slot, text, new_id=None):
        self.action, self.code, self.call_id, self.before = action, code, call_id, before
        self.slot, self.text, self.new_id = slot, text, new_id


class BlockEditor(Editor):
    """Shared by the three dialects: ``KEY`` names the block list, ``is_result`` spots a result."""

    KEY = "content"
    USER = "user"
    ASSISTANT = "assistant"

    # --- what the dialects differ in ---------------------------------------------------------

    def is_result(self, block: Any) -> bool:
        raise NotImplementedError

    def result_block(self, call: Call, call_id: str | None, text: str, error: bool) -> dict:
        raise NotImplementedError

    def with_call_id(self, block: dict, new_id: str) -> dict:
        raise NotImplementedError

    def with_result_id(self, block: dict, new_id: str) -> dict:
        raise NotImplementedError

    def text_block(self, text: str) -> dict:
        return {"type": "text", "text": text}

    def block_text(self, block: Any) -> str:
        raise NotImplementedError

    # --- the Editor interface ------------------------------------------------------------------

    def _blocks(self, raw: dict) -> list:
        b = raw.get(self.KEY)
        if type(b) is list:
            return list(b)
        if type(b) is str and b:
            return [self.text_block(b)]
        return []

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict:
        return {"role": self.USER, self.KEY: [self.result_block(call, call_id, text, True)]}

    def set_call_id(self, raw: dict, call: Call, new_id: str) -> dict:
        blocks = self._blocks(raw)
        blocks[call.pos] = self.with_call_id(blocks[call.pos], new_id)
        return {**raw, self.KEY: blocks}

    def set_result_id(self, raw: dict, result: Result, new_id: str) -> dict:
        blocks = self._blocks(raw)
        blocks[result.pos] = self.with_result_id(blocks[result.pos], new_id)
        return {**raw, self.KEY: blocks}

    def set_result_name(self, raw: dict, result: Result, name: str) -> dict | None:
        return None

    def drop_calls(self, raw: dict, calls: list[Call]) -> tuple[dict, list[Any]]:
        drop = {c.pos for c in calls}
        blocks = self._blocks(raw)
        kept = [b for j, b in enumerate(blocks) if j not in drop]
        removed = [b for j, b in enumerate(blocks) if j in drop]
        if not kept:  # a message may not be empty: say what was there
            kept = [self.text_block("[tool call removed by repair: no result was recorded]")]
        return {**raw, self.KEY: kept}, removed

    def call_item(self, raw: dict, call: Call) -> Any:
        return self._blocks(raw)[call.pos]

    def has_id_slot(self, raw: dict, call: Call) -> bool:
        return True

    def shape_fix(self, raw: dict, issue: Issue) -> tuple[dict, str] | None:
        return None  # an empty value is refused too: nothing lossless to do

    def note_for_orphan(self, raw: dict, result: Result, text: str) -> dict:
        return {"role": self.USER, self.KEY: [self.text_block(text + "\n" + self.text_of(raw))]}

    def user_to_result(self, raw: dict, call: Call, call_id: str | None) -> dict:
        return {**raw, "role": self.USER, self.KEY: [self.result_block(call, call_id, self.text_of(raw), False)]}

    def bridge(self, text: str) -> dict:
        return {"role": self.ASSISTANT, self.KEY: [self.text_block(text)]}

    def role_of(self, item: Any) -> str:
        return str(item.get("role", self.USER)) if type(item) is dict else "unknown"

    def text_of(self, raw: Any) -> str:
        if type(raw) is not dict:
            return ""
        return "\n".join(t for t in (self.block_text(b) for b in self._blocks(raw)) if t)

    # --- explode, plan, join -------------------------------------------------------------------

    def explode(self, items: list) -> tuple[list, list[int], dict[int, list]]:
        """Each result block its own message, the rest of its message after them."""
        out: list = []
        origin: list[int] = []
        pieces: dict[int, list] = {}
        for k, m in enumerate(items):
            blocks = m.get(self.KEY) if type(m) is dict else None
            if type(blocks) is not list or not any(self.is_result(b) for b in blocks):
                out.append(m)
                origin.append(k)
                continue
            mine = [{**m, self.KEY: [b]} for b in blocks if self.is_result(b)]
            rest = [b for b in blocks if not self.is_result(b)]
            if rest:
                mine.append({**m, self.KEY: rest})
            pieces[k] = mine
            out.extend(mine)
            origin.extend([k] * len(mine))
        return out, origin, pieces

    def join(self, raws: list[dict]) -> dict:
        """One message from several of one role: result blocks first, then the others, in order."""
        blocks = [b for r in raws for b in self._blocks(r)]
        results = [b for b in blocks if self.is_result(b)]
        others = [b for b in blocks if not self.is_result(b)]
        return {**raws[0], self.KEY: results + others}

    def make_plan(self, a: Any, target: str, options: Any, _editor: Any = None) -> "JoinPlan":
        return JoinPlan(a, target, options, self)


class JoinPlan:
    """Explode, run repair's own plan, join back; ``recs``/``quarantine``/... as the plan's."""

    def __init__(self, a: Any, target: str, options: Any, ed: BlockEditor):
        self.a, self.target, self.opt, self.ed = a, target, options, ed
        self.recs: list = []
        self.quarantine: list = []
        self.id_map: dict[str, str] = {}
        self.unfixed: list[str] = []
        self.resolved: list = []

    def _analyse(self, items: list) -> Any:
        from ..check import Analysis

        t = self.a.transcript
        mod = get(t.dialect)
        issues: list[Issue] = []
        msgs = mod.normalize(items, t.path, issues)
        pairing = pair(msgs, "run")
        issues.extend(pairing.issues)
        issues.extend(sequence_issues(msgs, pairing, self.target, t.dialect))
        user_as_result(msgs, pairing, issues.append, self.ed.text_of)
        ex = Transcript(items=items, path=t.path, container=t.container, dialect=t.dialect, extra=t.extra)
        return Analysis(ex, msgs, pairing, issues)

    def run(self) -> list:
        from ..fixes.plan import Plan

        items = self.a.transcript.items
        ex, origin, pieces = self.ed.explode(items)
        inner = Plan(self._analyse(ex), self.target, self.opt, self.ed)
        out = inner.run()
        joins = [iss for iss in self.a.issues if iss.code in JOIN_CODES]
        if not inner.recs and not joins:
            self.resolved = [_Out(k, m, k) for k, m in enumerate(items)]
            return list(items)
        # Group runs of one role; remember which output group each inner position went to.
        groups: list[list[int]] = []
        for k, raw in enumerate(out):
            if groups and self.ed.role_of(out[groups[-1][-1]]) == self.ed.role_of(raw):
                groups[-1].append(k)
            else:
                groups.append([k])
        by_piece = {id(p): k for k, ps in pieces.items() for p in ps}
        new: list = []
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
                    self._keep_fields(raws, ex, origin)
            slot = _Out(len(new), raw, None)
            new.append(raw)
            for k in g:
                group_of[k] = slot
        self.resolved = [group_of[g[0]] for g in groups]
        inner_pos = self._inner_positions(inner)

        def ours(text: str) -> str:  # the plan's "message #k" are exploded indices
            return _MSG_NO.sub(lambda mo: f"#{origin[int(mo[1])]}" if int(mo[1]) < len(origin) else mo[0], text)

        for r in inner.recs:
            before = origin[r.before] if r.before is not None else None
            pos = inner_pos.get(id(r.slot)) if r.slot is not None else None
            slot = group_of.get(pos) if pos is not None else None
            self.recs.append(_Rec(r.action, r.code, r.call_id, before, slot, ours(r.text), r.new_id))
        for index, code, reason, content in inner.quarantine:
            k = origin[index]
            if k in pieces and type(content) is dict and len(content.get(self.ed.KEY) or ()) == 1:
                content = content[self.ed.KEY][0]  # the result block itself
            self.quarantine.append((k, code, reason, content))
        for iss in joins:
            slot = self._slot_of_input(iss.index, out, group_of, by_piece, items)
            what = {"TC015": ("merge_results", "joined the tool results split over several user messages into one"),
                    "TC016": ("results_first", "put the tool results before the other blocks of the message"),
                    "TC019": ("merge_messages", "joined two messages of one role into one")}[iss.code]
            self.recs.append(_Rec(what[0], iss.code, iss.call_id, iss.index, slot, f"Message #{iss.index}: {what[1]}."))
        self.id_map = inner.id_map
        self.unfixed = [ours(u) for u in inner.unfixed]
        return new

    def _keep_fields(self, raws: list, ex: list, origin: list[int]) -> None:
        """A joined message keeps the first one's fields; another's differing fields go to the report."""
        at = {id(x): origin[i] for i, x in enumerate(ex)}
        first = raws[0]
        for r in raws[1:]:
            extra = {k: v for k, v in r.items() if k not in (self.ed.KEY, "role") and first.get(k) != v}
            if extra:
                k = at.get(id(r), at.get(id(first), 0))
                self.quarantine.append((k, "TC019", "message fields that the message it was joined into does not "
                                        "have (the blocks themselves are in the output)", extra))

    @staticmethod
    def _inner_positions(inner) -> dict[int, int]:
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

    def _slot_of_input(self, index: int, out: list, group_of: dict, by_piece: dict, items: list):
        """The output message holding (a piece of) input message ``index``, if it is still there."""
        target = items[index] if 0 <= index < len(items) else None
        for k, raw in enumerate(out):
            if raw is target or by_piece.get(id(raw)) == index:
                return group_of.get(k)
        return None


class AnthropicEditor(BlockEditor):
    dialect = "anthropic"

    def is_result(self, block: Any) -> bool:
        return type(block) is dict and block.get("type") == "tool_result"

    def result_block(self, call, call_id, text, error):
        b = {"type": "tool_result", "tool_use_id": call_id, "content": text}
        if error:
            b["is_error"] = True
        return b

    def with_call_id(self, block, new_id):
        return {**block, "id": new_id}

    def with_result_id(self, block, new_id):
        return {**block, "tool_use_id": new_id}

    def block_text(self, block):
        if type(block) is not dict:
            return ""
        if block.get("type") == "text":
            return block.get("text") or ""
        if block.get("type") == "tool_result":
            return text_of(block)  # a string, or the text of its text blocks
        return ""


class BedrockEditor(BlockEditor):
    dialect = "bedrock"

    def is_result(self, block: Any) -> bool:
        return type(block) is dict and type(block.get("toolResult")) is dict

    def text_block(self, text):
        return {"text": text}

    def result_block(self, call, call_id, text, error):
        r = {"toolUseId": call_id, "content": [{"text": text}]}
        if error:
            r["status"] = "error"
        return {"toolResult": r}

    def with_call_id(self, block, new_id):
        return {**block, "toolUse": {**block["toolUse"], "toolUseId": new_id}}

    def with_result_id(self, block, new_id):
        return {**block, "toolResult": {**block["toolResult"], "toolUseId": new_id}}

    def block_text(self, block):
        if type(block) is not dict:
            return ""
        if type(block.get("text")) is str:
            return block["text"]
        tr = block.get("toolResult")
        if type(tr) is dict and type(tr.get("content")) is list:
            return "\n".join(x["text"] if type(x.get("text")) is str else json.dumps(x.get("json"))
                             for x in tr["content"] if type(x) is dict)
        return ""


class GeminiEditor(BlockEditor):
    dialect = "gemini"
    KEY = "parts"
    ASSISTANT = "model"

    def is_result(self, part: Any) -> bool:
        return type(part) is dict and ("functionResponse" in part or "function_response" in part)

    def text_block(self, text):
        return {"text": text}

    def result_block(self, call, call_id, text, error):
        fr: dict = {"name": call.name, "response": {"error" if error else "output": text}}
        if call_id:
            fr["id"] = call_id
        return {"functionResponse": fr}

    def _key(self, part, camel, snake):
        return camel if camel in part else snake

    def with_call_id(self, part, new_id):
        k = self._key(part, "functionCall", "function_call")
        return {**part, k: {**part[k], "id": new_id}}

    def with_result_id(self, part, new_id):
        k = self._key(part, "functionResponse", "function_response")
        return {**part, k: {**part[k], "id": new_id}}

    def has_id_slot(self, raw, call):
        return False  # Gemini ids are optional: repair never invents them

    def block_text(self, part):
        if type(part) is not dict:
            return ""
        if type(part.get("text")) is str:
            return part["text"]
        fr = part.get("functionResponse") or part.get("function_response")
        return json.dumps(fr.get("response"), ensure_ascii=False) if type(fr) is dict else ""


for _ed in (AnthropicEditor(), BedrockEditor(), GeminiEditor()):
    register(_ed)
