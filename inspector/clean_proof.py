"""The proof that the general reading would note no issue at all on a typed Chat Completions list.

``messages_clean`` takes a message list read as the engine's typed structs
(``dialects.openai_typed``), and the names a tools list beside it declares, and proves in one pass
that the general path (read into the neutral view, pair, run every rule) would find nothing:

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

``HOLDS`` says, for every rule of the catalogue, how the proof holds it: a rule added to the
catalogue without an entry there fails tests/scan/test_fast.py, which holds the two paths equal
over generated examples mutated in the ways the list above names, so "clean" here cannot go
stale. The rules it proves are the catalogue's, with the predicates it shares with the general
path named in ``HOLDS``. Its users:

- the dataset scan's fast path (``scan.fast``): ``proved_clean`` of a fine-tuning line read as a
  ``Record`` (its messages and the tools it declares);
- the engine (``checking.analysed``, so every door that goes through ``check_plain``: check,
  explain, the app, the guard, scan of a whole file, repair's and fit's own checks):
  ``transcript_clean`` of a document or request body read typed (``reading.typed_document``,
  ``reading.typed_request``), where everything else the analysis depends on (dialect, target,
  what stands beside the list) is what this proof assumes; its report is then built without the
  analysis (``checking.ProvedClean``). tests/test_typed_reading.py and tests/test_differential.py
  hold that report equal to the general path's, byte for byte, at every door.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Literal

import orjson

from .dialects.base import NAME_RE, Dialect
from .dialects.openai_chat import OpenAIChat
from .dialects.openai_typed import (
    _NULL,
    UNSET,
    Assistant,
    Message,
    Record,
    Tool,
    ToolDef,
    TypedItems,
    User,
    content_is_text,
    decode_text,
)
from .loops import DEFAULT as DEFAULT_LOOPS
from .loops import LoopOptions, canonical_args, repeat_candidates, runs_within
from .rules.sequence import id_rule

TARGET = "openai"  # the one target the proof serves (openai-chat's default)
ID_LIMIT, ID_PATTERN = id_rule(TARGET)  # TC009: the target's format of a call id
_PARAMETERS_KEPT = 4096  # tool schemas known to be JSON orjson reads (a dataset repeats a few)

# How the proof holds each rule of the catalogue (``rules.catalogue``), one entry per code:
# tests/scan/test_fast.py fails when a rule has none, when a "checked" or "shape" rule has no
# change of an example that the general path finds it in, and when a "not for openai" rule applies
# to openai after all. "checked": ``proved_clean`` tests it (the predicate it shares with the general
# path is named); "shape": a line that could break it does not decode as a ``Record``; "not for
# openai": the rule has no severity for openai, the only target this path serves (``scan.work``).
Held = Literal["checked", "shape", "not for openai"]
HOLDS: dict[str, tuple[Held, str]] = {
    "TC001": ("checked", "every call is answered in the run of tool messages right after its message"),
    "TC002": ("checked", "a tool message outside such a run, or naming another id, is refused"),
    "TC003": ("checked", "a result must come in the run right after its call's message"),
    "TC004": ("checked", "a result before its call is outside every run"),
    "TC005": ("checked", "each call is answered once: a second result finds no open id"),
    "TC006": ("checked", "a call id seen before in the example is refused (``seen``)"),
    "TC007": ("checked", "an assistant message whose tool_calls list is empty is refused"),
    "TC008": ("checked", "an empty id or \"null\" is refused; a non-string id does not decode"),
    "TC009": ("checked", "the id is held to openai's limit and pattern (``rules.sequence.id_rule``)"),
    "TC010": ("shape", "arguments decode only as a string"),
    "TC011": ("checked", "non-empty arguments must parse as JSON (orjson, as the dialect reads them)"),
    "TC012": ("checked", "the name must match ``dialects.base.NAME_RE``, the dialects' own test"),
    "TC013": ("shape", "a tool message has no name field to disagree with its call's"),
    "TC014": ("checked", "results must come in their calls' order"),
    "TC015": ("not for openai", "results split across messages concern combined turns"),
    "TC016": ("not for openai", "a tool result not first in a message concerns content blocks"),
    "TC017": ("shape", "no function role and no function_call field decode"),
    "TC018": ("checked", "an assistant message without calls needs content; every other content must be a string"),
    "TC019": ("checked", "no user message right after a tool message; no tool message outside a run"),
    "TC020": ("checked", "every call is answered, so no user message stands in for a missing result"),
    "TC021": ("shape", "no reasoning_content field decodes (openai-chat finds TC021 only beside one)"),
    "TC022": ("checked", "the last call block must be answered"),
    "TC023": ("checked", "a call id seen before in the example is refused (``seen``)"),
    "TC024": ("shape", "only the roles system, user, assistant and tool decode"),
    "TC025": ("not for openai", "blocks after a tool call concern content blocks"),
    "TC026": ("checked", "a name the tools list does not declare is refused"),
}


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
    """True when the general path would read the fine-tuning example ``rec`` and note no issue at
    all (see the module doc): its tools' schemas read, and ``messages_clean`` of its messages
    against the names its tools declare.

    ``schemas_ok``: tool ``parameters`` orjson already read (they repeat across lines)."""
    if rec.tools is not None and not _parameters_read(rec.tools, schemas_ok):
        return False
    declared = None if rec.tools is None else {t.function.name for t in rec.tools}
    return messages_clean(rec.messages, declared, names_ok, loops)


def messages_clean(messages: Sequence[Message], declared: Collection[str] | None, names_ok: set[str],
                   loops: LoopOptions = DEFAULT_LOOPS, *, texts: bool = False) -> bool:
    """True when the general path would read the message list ``messages``, beside a tools list
    declaring the names ``declared`` (None: no tools list), and note no issue at all (the module doc).

    ``names_ok``: tool names already matched against ``NAME_RE`` (they repeat across lines).
    ``texts``: every content is known to be a string, null or missing (``openai_typed.document``
    proved it), so a content is text when it is there and not null."""
    proof = Proof(declared, names_ok, loops, texts=texts)
    return proof.feed(messages) and proof.done(lambda: messages)


class Proof:
    """``messages_clean`` of a message list given a slice at a time (``feed`` each slice in order,
    then ``done``), so that a reading need not hold every message's struct at once
    (``openai_typed.document``): it keeps only what spans slices (the open call block, the ids
    seen, the last calls and the repeated ones that loop detection looks at)."""

    __slots__ = ("_answered", "_any_call", "_calls", "_declared", "_loops", "_names_ok", "_open_ids",
                 "_prev_tool", "_repeats", "_seen", "_tail", "_texts", "failed")

    def __init__(self, declared: Collection[str] | None, names_ok: set[str], loops: LoopOptions = DEFAULT_LOOPS,
                 *, texts: bool = False) -> None:
        self._declared, self._names_ok, self._loops, self._texts = declared, names_ok, loops, texts
        self._seen: set[str] = set()
        self._open_ids: list[str] | None = None  # the ids of the call block whose results may follow
        self._answered = 0
        self._prev_tool = False
        self._any_call = False
        self._calls = 0  # calls fed so far
        self._tail: tuple[list[str], list[str]] = ([], [])  # the last slice's calls' names and arguments
        self._repeats: dict[int, tuple[str, str]] = {}  # calls repeating one at most ``window`` calls away
        self.failed = False  # a slice held something the general path notes

    def feed(self, messages: Sequence[Message]) -> bool:
        """False (for good) when the slice ``messages``, after those fed before, holds something the
        general path notes; True while nothing is seen."""
        if self.failed or not self._feed(messages):
            self.failed = True
            return False
        return True

    def _feed(self, messages: Sequence[Message]) -> bool:
        seen, open_ids, answered, prev_tool = self._seen, self._open_ids, self._answered, self._prev_tool
        declared, names_ok, texts = self._declared, self._names_ok, self._texts
        names: list[str] = []  # every call's tool, in order
        args: list[str] = []  # and its arguments
        tool, assistant, user, unset, null = Tool, Assistant, User, UNSET, _NULL  # (locals: faster)
        is_text = content_is_text
        loads, bad_json, limit, pattern = orjson.loads, orjson.JSONDecodeError, ID_LIMIT, ID_PATTERN
        for m in messages:
            t = type(m)
            if t is tool:
                body = m.content
                if open_ids is None or answered >= len(open_ids) or m.tool_call_id != open_ids[answered] or (  # type: ignore[union-attr]
                        (body is unset or body == null) if texts else not is_text(body)):
                    return False
                answered += 1  # (the j-th tool message answers the j-th call: ``done`` finds it so)
                prev_tool = True
                continue
            if open_ids is not None and answered < len(open_ids):
                return False
            open_ids = None
            if t is assistant:
                calls = m.tool_calls  # type: ignore[union-attr]
                if calls is None or calls is unset:
                    body = m.content
                    if (body is unset or body == null) if texts else not is_text(body):
                        return False
                else:
                    text = m.content
                    if not calls or not (texts or text is unset or text == null or is_text(text)):
                        return False
                    ids = []
                    for c in calls:
                        cid, fn = c.id, c.function
                        if not cid or cid == "null" or cid in seen or (limit is not None and len(cid) > limit) or (
                                pattern is not None and not pattern.fullmatch(cid)):
                            return False
                        seen.add(cid)
                        name = fn.name
                        if name not in names_ok:
                            if not NAME_RE.fullmatch(name):
                                return False
                            names_ok.add(name)
                        if declared is not None and name not in declared:
                            return False
                        a = fn.arguments
                        if a:
                            try:
                                loads(a)
                            except bad_json:
                                return False
                        names.append(name)
                        args.append(a)
                        ids.append(cid)
                    open_ids, answered, self._any_call = ids, 0, True
            else:
                body = m.content
                if (t is user and prev_tool) or ((body is unset or body == null) if texts else not is_text(body)):
                    return False
            prev_tool = False
        self._open_ids, self._answered, self._prev_tool = open_ids, answered, prev_tool
        if args:
            self._note_repeats(names, args)
        return True

    def _note_repeats(self, names: list[str], args: list[str]) -> None:
        """Keep the calls whose arguments, as written, equal those of a call at most ``window``
        calls away (``loops.repeat_candidates``, over the last slice's calls and this one's)."""
        window = self._loops.window
        before_names, before_args = self._tail
        keep = min(window, len(before_args))
        if keep:
            names, args = before_names[-keep:] + names, before_args[-keep:] + args
        first = self._calls - keep  # the number of the first call of ``args``
        self._calls = first + len(args)
        for k in repeat_candidates(args, window):
            self._repeats[first + k] = (names[k], args[k])
        self._tail = (names, args)

    def done(self, messages: Callable[[], Sequence[Message]]) -> bool:
        """True when the whole list fed is clean: every call answered, one call at least, no loop.
        ``messages``: the whole list, asked for only when repeated calls may loop."""
        if self.failed or not self._any_call or (self._open_ids is not None and self._answered < len(self._open_ids)):
            self.failed = True
            return False
        if self._looped(messages):
            self.failed = True
            return False
        return True

    def _looped(self, messages: Callable[[], Sequence[Message]]) -> bool:
        """True when loop detection (``inspector.loops``) would report a loop here, which only the
        general path words. In this shape every call is answered, in call order, by a tool message
        whose text is its content: a run of repeats is a loop exactly when every answer in it is the
        same (a change is a poll), the same test ``loops`` makes."""
        options = self._loops
        if self._calls < options.lowest or not self._repeats:
            return False
        groups: dict[tuple[str, str], list[int]] = {}
        for k in sorted(self._repeats):
            name, a = self._repeats[k]
            groups.setdefault((name, canonical_args(a)), []).append(k)
        answers: list[Message] | None = None
        for (name, _), positions in groups.items():
            n = options.threshold_for(name)
            if n is None or len(positions) < n:
                continue
            for run in runs_within(positions, options.window):
                if len(run) >= n:
                    if answers is None:  # the j-th tool message answers the j-th call
                        answers = [m for m in messages() if type(m) is Tool]
                    if len({decode_text(answers[k].content) for k in run}) == 1:  # type: ignore[arg-type]
                        return True
        return False


def transcript_clean(items: Sequence[Any], extra: Mapping[str, Any], dialect: Dialect, target: str,
                     loops: LoopOptions = DEFAULT_LOOPS) -> bool:
    """True when ``check``'s analysis of one transcript (``checking.analyse``) would note no issue
    and no loop: every door's report of it is then the clean one, made without that analysis.

    Only where everything the analysis depends on is what the proof assumes: ``items`` is a
    message list read as the typed structs (``openai_typed.TypedItems``: every content a string
    or null, no repeated key, no other key); nothing stands beside the list but, for a request
    body (``reading.typed_request``), the body (``request``: openai-chat reads only its
    ``thinking`` setting, which lifts a finding and adds none) and the names its ``tools`` declare
    (``declared_tools``, held as ``rules.tools.undeclared_tools`` holds them: TC026); it is read
    as openai-chat itself (not another package's dialect, however alike) for ``openai`` (no
    gateway, no other target's rules); and ``messages_clean`` holds. The model a request names
    changes nothing here: it chose the target, and its rules (``model_rules``) concern only the
    legacy function role, which does not decode; judged as a request or a log, a clean list
    is clean (``rules.requests.judge`` only rewords findings)."""
    if type(items) is not TypedItems or type(dialect) is not OpenAIChat or target != TARGET:
        return False
    if extra and (set(extra) - {"request", "declared_tools"} or "request" not in extra):
        return False
    declared = extra.get("declared_tools")
    if declared is not None and type(declared) is not frozenset:
        return False
    if declared is None and loops == DEFAULT_LOOPS and items.clean is not None:  # proved as it was read
        return items.clean
    return messages_clean(items.structs, declared, set(), loops, texts=True)
