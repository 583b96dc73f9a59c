"""Editors: the few raw edits repair needs, one ``Editor`` subclass per dialect, in the dialect's file.

Repair decides *what* to do on the neutral view (``Msg``, ``Call``, ``Result``, ``Pairing``) and
never touches a dialect's dicts itself: every edit goes through the dialect's editor
(``dialect.editor``). An editor never mutates its input; each method returns a new item (a
shallow copy where a field changed), so that the caller's data stays as it was and unchanged
messages keep their identity, key order and unknown fields.

Interface (see ``Editor`` for the exact signatures). ``raw`` is the dialect's item at
``msg.index``; ``call``/``result`` are the neutral ``Call``/``Result`` inside it:

- ``placeholder(call, call_id, text) -> item``: a synthesized result answering ``call`` (marked
  as an error where the dialect has a flag for it);
- ``set_call_id(raw, call, new_id)`` / ``set_result_id(raw, result, new_id)``: rename one id;
- ``set_result_name(raw, result, name)``: give a result its call's tool name (TC013);
- ``drop_calls(raw, calls) -> (item, [removed raw calls])``: the message without those calls,
  never leaving an empty call array behind;
- ``call_item(raw, call)``: the raw call object, whole (for the quarantine);
- ``has_id_slot(raw, call)``: False for calls that carry no id by design (legacy ``function_call``);
- ``shape_fix(raw, issue) -> (item, sentence) | None``: the lossless fix for a shape issue the
  dialect's reader raised (TC007 empty call array, TC010 object arguments, TC018 null content);
- ``note_for_orphan(raw, result, text) -> item``: a user message quoting an orphan result;
- ``user_to_result(raw, call, call_id) -> item``: tool output sent as user text, made a result;
- ``bridge(text) -> item``: a synthesized assistant message (role-order repair);
- ``role_of(item) -> str``: the neutral role of an item the planner built itself;
- ``text_of(raw) -> str``: the dialect's ``text`` (placeholder detection, notes).

Dialects whose results are blocks of the next message (``Block.NEXT``) subclass ``BlockEditor``,
which adds ``explode`` and ``join``: repair (``fixes.join``) runs its plan on a copy where each
result block is a message of its own, then joins runs of one role back.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from ..model import Call, Issue, Result

if TYPE_CHECKING:
    from .base import Dialect

Raw = dict[str, Any]  # a raw message, block or part, as the format has it
_T = TypeVar("_T")


class Editor(ABC):
    """Raw edits for one dialect. Subclasses implement every abstract method (a class that misses
    one cannot be instantiated, so its dialect cannot be imported); none may mutate its input.
    ``tests/dialects/test_conformance.py`` drives each operation on every dialect."""

    def __init__(self, dialect: Dialect):
        self.dialect = dialect

    @abstractmethod
    def placeholder(self, call: Call, call_id: str | None, text: str) -> Any:
        raise NotImplementedError

    @abstractmethod
    def set_call_id(self, raw: Any, call: Call, new_id: str) -> Any:
        raise NotImplementedError

    @abstractmethod
    def set_result_id(self, raw: Any, result: Result, new_id: str) -> Any:
        raise NotImplementedError

    @abstractmethod
    def set_result_name(self, raw: Any, result: Result, name: str) -> Any | None:
        """The item with the result's name set, or None when the result carries no name field."""
        raise NotImplementedError

    @abstractmethod
    def drop_calls(self, raw: Any, calls: list[Call]) -> tuple[Any, list[Any]]:
        raise NotImplementedError

    @abstractmethod
    def call_item(self, raw: Any, call: Call) -> Any:
        raise NotImplementedError

    @abstractmethod
    def has_id_slot(self, raw: Any, call: Call) -> bool:
        raise NotImplementedError

    @abstractmethod
    def shape_fix(self, raw: Any, issue: Issue) -> tuple[Any, str] | None:
        raise NotImplementedError

    @abstractmethod
    def note_for_orphan(self, raw: Any, result: Result, text: str) -> Any:
        raise NotImplementedError

    @abstractmethod
    def user_to_result(self, raw: Any, call: Call, call_id: str | None) -> Any:
        raise NotImplementedError

    @abstractmethod
    def bridge(self, text: str) -> Any:
        raise NotImplementedError

    @abstractmethod
    def role_of(self, item: Any) -> str:
        raise NotImplementedError

    def answer_in_place(self, raw: Any, call: Call, text: str) -> Any | None:
        """The message with ``call`` answered inside it (marked as failed with ``text``), for formats
        that keep a call's outcome in the call itself (a Vercel UIMessage tool part); None (the
        default) when a result is a message or block of its own and ``placeholder`` makes it."""
        return None

    def text_of(self, raw: Any) -> str:
        return self.dialect.text(raw) if type(raw) is dict else ""

    # --- fixes a provider documents (issue 34): None where the format has no such thing ----------

    def sign_call(self, raw: Any, call: Call, signature: str) -> Any | None:
        """The message with ``call`` carrying ``signature`` as its thought signature (Gemini)."""
        return None

    def add_reasoning(self, raw: Any, text: str) -> Any | None:
        """The message with a ``reasoning_content`` of ``text`` (DeepSeek thinking mode)."""
        return None

    def rename_call(self, raw: Any, call: Call, name: str) -> Any | None:
        """The message with ``call`` naming the tool ``name``."""
        return None

    def user_text(self, text: str) -> Any | None:
        """A new user message holding ``text`` (a bridge before a history that starts with a call)."""
        return None

    def drop_empty_text(self, raw: Any) -> tuple[Any, list[Any]] | None:
        """The message without its empty text blocks, and those blocks; None when none is there or
        none would be left."""
        return None

    def fold_system(self, request: Mapping[str, Any], raws: list[Any]) -> tuple[str, Any] | None:
        """The request's top-level system field and its value with the text of the system messages
        ``raws`` appended after what it held, in order; None where the format has no such field or a
        message holds more than text (Anthropic's top-level ``system``)."""
        return None



class BlockEditor(Editor):
    """Shared by the three dialects: ``KEY`` names the block list, ``is_result`` spots a result."""

    KEY = "content"
    USER = "user"
    ASSISTANT = "assistant"
    # True when the target refuses tool results and other blocks in one message (Bedrock
    # Converse): repair then moves the other blocks into a user message of their own.
    RESULTS_ALONE = False
    # True when a result block inside an assistant message is refused (Anthropic: "`tool_result`
    # blocks can only be in `user` messages"): explode moves it into a user message of its own,
    # and the blocks after it into an assistant message after that.
    RESULTS_TO_USER = False
    # True when a user message holding calls and their results is refused (Gemini: "function call
    # turn ... can not be mixed with function_response parts"): explode splits it into the user's
    # own blocks, a model message with the calls, and the results after it.
    CALLS_TO_MODEL = False

    # --- what the dialects differ in ---------------------------------------------------------

    @abstractmethod
    def is_result(self, block: Any) -> bool:
        raise NotImplementedError

    @abstractmethod
    def result_block(self, call: Call, call_id: str | None, text: str, error: bool) -> Raw:
        raise NotImplementedError

    @abstractmethod
    def with_call_id(self, block: Raw, new_id: str) -> Raw:
        raise NotImplementedError

    @abstractmethod
    def with_result_id(self, block: Raw, new_id: str) -> Raw:
        raise NotImplementedError

    def text_block(self, text: str) -> Raw:
        return {"type": "text", "text": text}

    # --- the Editor interface ------------------------------------------------------------------

    def _blocks(self, raw: Raw) -> list[Any]:
        b = raw.get(self.KEY)
        if type(b) is list:
            return list(b)
        if type(b) is str and b:
            return [self.text_block(b)]
        return []

    def placeholder(self, call: Call, call_id: str | None, text: str) -> Raw:
        return {"role": self.USER, self.KEY: [self.result_block(call, call_id, text, True)]}

    def set_call_id(self, raw: Raw, call: Call, new_id: str) -> Raw:
        blocks = self._blocks(raw)
        blocks[call.pos] = self.with_call_id(blocks[call.pos], new_id)
        return {**raw, self.KEY: blocks}

    def set_result_id(self, raw: Raw, result: Result, new_id: str) -> Raw:
        blocks = self._blocks(raw)
        blocks[result.pos] = self.with_result_id(blocks[result.pos], new_id)
        return {**raw, self.KEY: blocks}

    def set_result_name(self, raw: Raw, result: Result, name: str) -> Raw | None:
        return None

    def drop_calls(self, raw: Raw, calls: list[Call]) -> tuple[Raw, list[Any]]:
        drop = {c.pos for c in calls}
        blocks = self._blocks(raw)
        kept = [b for j, b in enumerate(blocks) if j not in drop]
        removed = [b for j, b in enumerate(blocks) if j in drop]
        if not kept:  # a message may not be empty: say what was there
            kept = [self.text_block("[tool call removed by repair: no result was recorded]")]
        return {**raw, self.KEY: kept}, removed

    def call_item(self, raw: Raw, call: Call) -> Any:
        return self._blocks(raw)[call.pos]

    def has_id_slot(self, raw: Raw, call: Call) -> bool:
        return True

    def shape_fix(self, raw: Raw, issue: Issue) -> tuple[Raw, str] | None:
        return None  # an empty value is refused too: nothing lossless to do

    def is_call(self, block: Any) -> bool:
        return False

    def user_text(self, text: str) -> Raw:
        return {"role": self.USER, self.KEY: [self.text_block(text)]}

    def rename_call(self, raw: Raw, call: Call, name: str) -> Raw | None:
        blocks = self._blocks(raw)
        b = blocks[call.pos] if call.pos < len(blocks) else None
        if type(b) is not dict:
            return None
        if "name" in b:
            blocks[call.pos] = {**b, "name": name}
        else:
            key = next((k for k in ("toolUse", "functionCall", "function_call") if type(b.get(k)) is dict), None)
            if key is None or "name" not in b[key]:
                return None
            blocks[call.pos] = {**b, key: {**b[key], "name": name}}
        return {**raw, self.KEY: blocks}

    @staticmethod
    def _empty_text(b: Any) -> bool:
        return (type(b) is dict and (b.get("type") == "text" or ("type" not in b and "text" in b and len(b) == 1))
                and not b.get("text"))

    def drop_empty_text(self, raw: Raw) -> tuple[Raw, list[Any]] | None:
        blocks = raw.get(self.KEY) if type(raw) is dict else None
        if type(blocks) is not list:
            return None
        empty = [b for b in blocks if self._empty_text(b)]
        kept = [b for b in blocks if not self._empty_text(b)]
        if not empty or not kept:
            return None
        return {**raw, self.KEY: kept}, empty

    def calls_last(self, raw: Raw) -> Raw | None:
        """TC025: the blocks after the first call moved before it (their order kept), so that the
        calls end the message; None when nothing follows a call. Found by block kind, not by the
        positions read at check time: other fixes may have dropped calls since."""
        blocks = self._blocks(raw)
        first = next((j for j, b in enumerate(blocks) if self.is_call(b)), None)
        if first is None:
            return None
        tail = blocks[first:]
        moved = [b for b in tail if not self.is_call(b) and not self.stays_last(b)]
        if not moved:
            return None
        kept = [b for b in tail if self.is_call(b) or self.stays_last(b)]
        return {**raw, self.KEY: blocks[:first] + moved + kept}

    def stays_last(self, block: Any) -> bool:
        """Markers that may follow the calls (Bedrock's ``cachePoint``)."""
        return type(block) is dict and "cachePoint" in block

    def note_for_orphan(self, raw: Raw, result: Result, text: str) -> Raw:
        return {"role": self.USER, self.KEY: [self.text_block(text + "\n" + self.text_of(raw))]}

    def user_to_result(self, raw: Raw, call: Call, call_id: str | None) -> Raw:
        return {**raw, "role": self.USER, self.KEY: [self.result_block(call, call_id, self.text_of(raw), False)]}

    def bridge(self, text: str) -> Raw:
        return {"role": self.ASSISTANT, self.KEY: [self.text_block(text)]}

    def role_of(self, item: Any) -> str:
        return str(item.get("role", self.USER)) if type(item) is dict else "unknown"

    # --- explode, plan, join -------------------------------------------------------------------

    def explode(self, items: list[Any]) -> tuple[list[Any], list[int], dict[int, list[Any]]]:
        """Each result block its own message, the rest of its message after them."""
        out: list[Any] = []
        origin: list[int] = []
        pieces: dict[int, list[Any]] = {}
        for k, m in enumerate(items):
            blocks = m.get(self.KEY) if type(m) is dict else None
            if type(blocks) is not list or not any(self.is_result(b) for b in blocks):
                out.append(m)
                origin.append(k)
                continue
            if self.RESULTS_TO_USER and self.role_of(m) == self.ASSISTANT:
                mine = self._assistant_results(m, blocks)
            elif self.CALLS_TO_MODEL and self.role_of(m) == self.USER and any(self.is_call(b) for b in blocks):
                mine = self._user_calls(m, blocks)
            else:
                mine = [{**m, self.KEY: [b]} for b in blocks if self.is_result(b)]
                rest = [b for b in blocks if not self.is_result(b)]
                if rest:
                    mine.append({**m, self.KEY: rest})
            pieces[k] = mine
            out.extend(mine)
            origin.extend([k] * len(mine))
        return out, origin, pieces

    def _assistant_results(self, m: Raw, blocks: list[Any]) -> list[Any]:
        """An assistant message holding result blocks, as the turns it stands for: the blocks
        before the first result, each result as a user message, then the blocks after it."""
        first = next(j for j, b in enumerate(blocks) if self.is_result(b))
        before = [b for b in blocks[:first] if not self.is_result(b)]
        after = [b for b in blocks[first:] if not self.is_result(b)]
        out = [{**m, self.KEY: before}] if before else []
        out += [{**m, "role": self.USER, self.KEY: [b]} for b in blocks if self.is_result(b)]
        if after:
            out.append({**m, self.KEY: after})
        return out

    def _user_calls(self, m: Raw, blocks: list[Any]) -> list[Any]:
        """A user message holding calls and results, as the turns it stands for: its own blocks
        before the first call, the calls as an assistant message, then each result."""
        first = next(j for j, b in enumerate(blocks) if self.is_call(b))
        mine = [b for b in blocks if not (self.is_call(b) or self.is_result(b))]
        before = [b for b in blocks[:first] if not (self.is_call(b) or self.is_result(b))]
        after = mine[len(before):]
        out = [{**m, self.KEY: before}] if before else []
        out.append({**m, "role": self.ASSISTANT, self.KEY: [b for b in blocks if self.is_call(b)]})
        out += [{**m, self.KEY: [b]} for b in blocks if self.is_result(b)]
        if after:
            out.append({**m, self.KEY: after})
        return out

    def join(self, raws: list[Raw]) -> Raw:
        """One message from several of one role: result blocks first, then the others, in order."""
        blocks = [b for r in raws for b in self._blocks(r)]
        results = [b for b in blocks if self.is_result(b)]
        others = [b for b in blocks if not self.is_result(b)]
        return {**raws[0], self.KEY: results + others}


class PartsEditor(Editor):
    """For formats whose calls are parts of a message's ``KEY`` list (Vercel AI SDK, OpenTelemetry):
    part-level edits that keep every other part, and the message's fields, as they were."""

    KEY = "parts"

    def text_part(self, text: str) -> Raw:
        return {"type": "text", "text": text}

    def with_part(self, raw: Raw, pos: int, **fields: Any) -> Raw:
        parts = list(raw[self.KEY])
        parts[pos] = {**parts[pos], **fields}
        return {**raw, self.KEY: parts}

    def drop_calls(self, raw: Raw, calls: list[Call]) -> tuple[Raw, list[Any]]:
        drop = {c.pos for c in calls}
        parts = list(raw[self.KEY])
        kept = [p for j, p in enumerate(parts) if j not in drop]
        if not any(type(p) is dict and p.get("type") != "step-start" for p in kept):  # never an empty message
            kept.append(self.text_part("[tool call removed by repair: no result was recorded]"))
        return {**raw, self.KEY: kept}, [p for j, p in enumerate(parts) if j in drop]

    def call_item(self, raw: Raw, call: Call) -> Any:
        return raw[self.KEY][call.pos]

    def has_id_slot(self, raw: Raw, call: Call) -> bool:
        return True

    def shape_fix(self, raw: Raw, issue: Issue) -> tuple[Raw, str] | None:
        return None

    def role_of(self, item: Any) -> str:
        return str(item.get("role")) if type(item) is dict else "unknown"


class Written:
    """What a ``LogEditor.write_back`` made (``fixes.entries`` reads it): the new entries, for each
    the input entry it came from (None: new), the output entries of each repaired message, the
    output entries changed or new, the input entries that are gone, the message ids repair
    changed to join two replies (input entry, old id), and for an output entry a sentence the
    changes made there add to their text (how the log holds them)."""

    __slots__ = ("changed", "gone", "ids", "items", "notes", "origins", "spans")

    def __init__(self, items: list[Any], origins: list[int | None], spans: list[list[int]], changed: set[int],
                 gone: list[int] | None = None, ids: list[tuple[int, Any]] | None = None,
                 notes: dict[int, str] | None = None):
        self.items, self.origins, self.spans, self.changed = items, origins, spans, changed
        self.gone, self.ids, self.notes = gone or [], ids or [], notes or {}


class LogEditor(ABC):
    """For logs whose items are entries that make the messages (a Claude Code session log, a
    Codex CLI rollout): repair (``fixes.entries``) asks ``messages`` for the messages the entries
    make, runs the message dialect's plan on them with an editor of this class for the run
    (``for_run``), and hands the repaired messages to ``write_back``, which writes them as entries
    again. ``origins`` is set before ``write_back``: for each repaired message, the index of the
    message it came from (None: made by repair)."""

    message_dialect = ""  # the name of the dialect the messages are read as
    origins: list[int | None] | None = None

    def for_run(self) -> Any:
        """A fresh editor for one repair run (the dialect's own editor is shared by threads)."""
        return type(self)(self.dialect)  # type: ignore[call-arg, attr-defined]  # an Editor's constructor

    def owner_of(self, item: Any) -> int | None:
        """The entry a block the plan handles came from, when blocks are finer than messages."""
        return None

    @abstractmethod
    def messages(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[Any], list[list[int]]]:
        """The messages the entries make and, for each, the indices of its entries."""
        raise NotImplementedError

    @abstractmethod
    def write_back(self, items: list[Any], msgs: list[Any], groups: list[list[int]], out: list[Any]) -> Written:
        """The entries of the repaired messages ``out``."""
        raise NotImplementedError


class EntryEditor(LogEditor, BlockEditor):
    """For logs whose items are entries, several of which make one message (Claude Code: one entry
    per content block of a streamed reply, one per tool result).

    Repair (``fixes.entries``) does not plan on the entries: it asks ``messages`` for the messages
    the entries make, runs the message dialect's plan on them with an editor of this class for
    the run (``for_run``), and hands the repaired messages to ``write_back``, which writes them as
    entries again. To tell which entry each block of a repaired message came from, the editor
    remembers where every block it sees or makes came from: the blocks of the input entries
    (``own``), and the blocks it builds from one of them (a renamed id, a text made a block).
    Blocks made from nothing (a placeholder result, a note) belong to no entry: they become new
    entries. Subclasses give the block edits (the message dialect's ``BlockEditor``), and
    ``messages`` and ``write_back``.
    """

    owner: dict[int, tuple[Any, int]]  # id(block) -> (block, entry index), set by for_run
    text_owner: dict[int, int]  # id(text message) -> entry index

    def for_run(self) -> EntryEditor:
        """A fresh editor for one repair run (the dialect's own editor is shared by threads)."""
        ed = type(self)(self.dialect)
        ed.owner = {}
        ed.text_owner = {}
        return ed

    def own(self, block: Any, k: int) -> None:
        """Block ``block`` comes from entry ``k`` (the block is kept alive with its entry index)."""
        self.owner[id(block)] = (block, k)

    def owner_of(self, block: Any) -> int | None:
        got = self.owner.get(id(block))
        return got[1] if got is not None and got[0] is block else None

    # --- provenance of the blocks the plan builds ------------------------------------------------

    def _blocks(self, raw: Raw) -> list[Any]:
        blocks = super()._blocks(raw)
        if type(raw.get(self.KEY)) is str and blocks:  # a text message made a block: it is that entry's
            k = self.text_owner.get(id(raw))
            if k is not None:
                self.own(blocks[0], k)
        return blocks

    def _from(self, old: Any, new: _T) -> _T:
        k = self.owner_of(old)
        if k is not None:
            self.own(new, k)
        return new

    def with_call_id(self, block: Raw, new_id: str) -> Raw:
        return self._from(block, super().with_call_id(block, new_id))  # type: ignore[safe-super]  # the message dialect's

    def with_result_id(self, block: Raw, new_id: str) -> Raw:
        return self._from(block, super().with_result_id(block, new_id))  # type: ignore[safe-super]

    def user_to_result(self, raw: Raw, call: Call, call_id: str | None) -> Raw:
        item = super().user_to_result(raw, call, call_id)
        was = self._blocks(raw)
        if was:
            self._from(was[0], item[self.KEY][0])
        return item
