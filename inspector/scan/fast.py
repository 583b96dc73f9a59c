"""A dataset scan's fast path: a Chat Completions tool-use example proved clean in one typed decode.

Most lines of a fine-tuning dataset are the same shape, ``{"messages": [...], "tools": [...]}``
with string contents and ``function`` tool calls, and most of them are clean. For such a line the
general path (parse to dicts, find the message list, ask every dialect, read into the neutral
view, pair, run every rule, build findings) spends about ten times its parse to say "no finding".

Here msgspec decodes the line straight into structs of exactly that shape (``Record``: no other
key anywhere, every field of its one type; any difference is a decode error). A short pass then
proves that the general path would note no issue at all:

- roles system, user, assistant and tool only; each call's id a non-empty string other than
  "null" in OpenAI's format, at most 40 characters (TC008, TC009), unique in the example
  (TC006, TC023); its name a valid tool name (TC012) the ``tools`` list declares when there is
  one (TC026); its arguments empty or JSON (TC011); an assistant message without calls has
  content (TC018), one with calls has at least one (TC007); each tool's ``parameters`` JSON that
  orjson reads (else the line cannot be read);
- every call answered in the run of tool messages right after its message, in the calls' order,
  once each (TC001-TC005, TC014, TC022); no tool message outside such a run; no user message right
  after a tool message (TC019, noted for every target); so no unanswered call (TC020);
- no loop (``inspector.loops``): no run of repeated calls answered the same every time;
- at least one call, so openai-chat's detection is sure (score 2) and no other dialect, each of
  which needs keys or content parts this shape does not have, scores at all; no ``model`` key, so
  the target is openai-chat's default, ``openai``.

A line that decodes and passes gets the clean row the general path would give. Anything else (a
finding of any severity, another key, another dialect, invalid JSON) goes down the general path,
which says what is wrong and where: this path only ever says "clean", never why not.

The decision is made per line, but the shape's reading is settled once per run of lines: the
first line of a part the fast path passes is also checked by the general path, and if the two
rows differ (a dialect package installed beside ours that reads this shape differently, say) the
part goes the general way. A part whose lines keep failing to decode (a dataset in another
format) stops trying after ``GIVE_UP`` lines in a row. tests/scan/test_fast.py holds the two
paths equal over generated examples, each mutated in the ways the list above names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec
import orjson

from ..dialects.base import NAME_RE
from ..loops import DEFAULT as DEFAULT_LOOPS
from ..loops import LoopOptions, canonical_args, repeat_candidates, runs_within
from ..rules.sequence import id_rule

ID_LIMIT, ID_PATTERN = id_rule("openai")  # TC009: the target's format of a call id
GIVE_UP = 32  # lines in a row that do not decode before a part stops trying


class Function(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    name: str
    arguments: str


class ToolCall(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    id: str
    function: Function
    type: Literal["function"] = "function"


class System(msgspec.Struct, tag_field="role", tag="system", forbid_unknown_fields=True, gc=False):
    content: str


class User(msgspec.Struct, tag_field="role", tag="user", forbid_unknown_fields=True, gc=False):
    content: str


class Assistant(msgspec.Struct, tag_field="role", tag="assistant", forbid_unknown_fields=True, gc=False):
    content: str | None = None
    tool_calls: list[ToolCall] | None = None


class Tool(msgspec.Struct, tag_field="role", tag="tool", forbid_unknown_fields=True, gc=False):
    tool_call_id: str
    content: str


class FunctionDef(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    name: str
    description: str = ""
    parameters: msgspec.Raw = msgspec.Raw(b"{}")  # JSON Schema: validated as JSON, never decoded
    strict: bool | None = None


class ToolDef(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    type: Literal["function"]
    function: FunctionDef


class Record(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    messages: list[System | User | Assistant | Tool]
    tools: list[ToolDef] | None = None


_decode = msgspec.json.Decoder(Record).decode
# What msgspec raises on a line it does not decode as a ``Record``: not JSON, not that shape, not
# UTF-8 (``UnicodeDecodeError`` is a ``ValueError``), nested past the interpreter's recursion.
_NOT_DECODED = (msgspec.MsgspecError, ValueError, RecursionError)
_PARAMETERS_KEPT = 4096  # tool schemas known to be JSON orjson reads (a dataset repeats a few)


def _parameters_read(tools: list[ToolDef], known: set[bytes]) -> bool:
    """True when orjson reads every tool's ``parameters`` as the general path's parse of the
    line would. msgspec only checks their syntax; orjson also refuses a number beyond a double
    (``1e400``) and nesting past 1024 levels, so each schema is parsed once, inside the four
    levels it has in the line (the record, ``tools``, the tool, ``function``)."""
    for t in tools:
        text = bytes(t.function.parameters)
        if text in known:
            continue
        try:
            orjson.loads(b"[[[[" + text + b"]]]]")
        except orjson.JSONDecodeError:
            return False
        if len(known) >= _PARAMETERS_KEPT:
            known.clear()
        known.add(text)
    return True


def proved_clean(rec: Record, names_ok: set[str], schemas_ok: set[bytes], loops: LoopOptions = DEFAULT_LOOPS) -> bool:
    """True when the general path would read ``rec`` and note no issue at all (see the module doc).

    ``names_ok``: tool names already matched against ``NAME_RE``; ``schemas_ok``: tool
    ``parameters`` orjson already read (both repeat across lines)."""
    if rec.tools is not None and not _parameters_read(rec.tools, schemas_ok):
        return False
    declared = None if rec.tools is None else {t.function.name for t in rec.tools}
    seen: set[str] = set()
    open_ids: list[str] | None = None  # the ids of the call block whose results may follow
    answered = 0
    prev_tool = False
    any_call = False
    seq: list[tuple[str, str]] = []  # every call in order: (tool, arguments)
    answers: list[str] = []  # the content answering each, in the same order (answered in call order)
    for m in rec.messages:
        if type(m) is Tool:
            if open_ids is None or answered >= len(open_ids) or m.tool_call_id != open_ids[answered]:
                return False
            answered += 1
            answers.append(m.content)
            prev_tool = True
            continue
        if open_ids is not None and answered < len(open_ids):
            return False
        open_ids = None
        if type(m) is Assistant:
            calls = m.tool_calls
            if calls is None:
                if m.content is None:
                    return False
            else:
                if not calls:
                    return False
                ids = []
                for c in calls:
                    cid, fn = c.id, c.function
                    if not cid or cid == "null" or cid in seen or (ID_LIMIT is not None and len(cid) > ID_LIMIT) or (
                            ID_PATTERN is not None and not ID_PATTERN.fullmatch(cid)):
                        return False
                    seen.add(cid)
                    name = fn.name
                    if name not in names_ok:
                        if not NAME_RE.fullmatch(name):
                            return False
                        names_ok.add(name)
                    if declared is not None and name not in declared:
                        return False
                    if fn.arguments:
                        try:
                            orjson.loads(fn.arguments)
                        except orjson.JSONDecodeError:
                            return False
                    seq.append((name, fn.arguments))
                    ids.append(cid)
                open_ids, answered, any_call = ids, 0, True
        elif type(m) is User and prev_tool:
            return False
        prev_tool = False
    return any_call and (open_ids is None or answered == len(open_ids)) and not _loops(seq, answers, loops)


def _loops(seq: list[tuple[str, str]], answers: list[str], options: LoopOptions) -> bool:
    """True when loop detection (``inspector.loops``) would report a loop here, which only the
    general path words. In this shape every call is answered, in call order, by a tool message
    whose text is its content: a run of repeats is a loop exactly when every answer in it is the
    same (a change is a poll), the same test ``loops`` makes."""
    if len(seq) < options.lowest:
        return False
    groups: dict[tuple[str, str], list[int]] = {}
    for k in repeat_candidates([a for _, a in seq], options.window):
        groups.setdefault((seq[k][0], canonical_args(seq[k][1])), []).append(k)
    for (name, _), positions in groups.items():
        n = options.threshold_for(name)
        if n is None or len(positions) < n:
            continue
        for run in runs_within(positions, options.window):
            if len(run) >= n and len({answers[k] for k in run}) == 1:
                return True
    return False


class FastPath:
    """The fast path for one part: ``row(text, line)`` is the clean row of the line ``text`` (its
    number ``line``), or None for the general path.

    ``clean_row(line, messages)`` makes a clean row; ``general(text, line)`` is the general
    path's rows for a line, asked once to confirm the first line this path passes."""

    def __init__(self, clean_row: Callable[[int, int], dict[str, Any]],
                 general: Callable[[bytes, int], list[dict[str, Any]]], loops: LoopOptions = DEFAULT_LOOPS) -> None:
        self._loops = loops
        self._clean_row = clean_row
        self._general = general
        self._names_ok: set[str] = set()
        self._schemas_ok: set[bytes] = set()
        self._confirmed = False
        self._misses = 0  # lines in a row that did not decode
        self.on = True

    def row(self, text: bytes, line: int) -> dict[str, Any] | None:
        try:
            rec = _decode(text)
        except _NOT_DECODED:
            self._misses += 1
            if self._misses >= GIVE_UP:
                self.on = False
            return None
        self._misses = 0
        if not proved_clean(rec, self._names_ok, self._schemas_ok, self._loops):
            return None
        row = self._clean_row(line, len(rec.messages))
        if not self._confirmed:
            self._confirmed = True
            if self._general(text, line) != [row]:
                self.on = False
                return None
        return row
