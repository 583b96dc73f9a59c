"""Read a provider's 400 error text and say which messages and rules it is about.

A developer whose agent broke usually has one thing in hand: the error the provider sent back.
Those texts name message indexes in several spellings (``messages.[3].role``,
``messages[7] and messages[8]``, ``messages.22:``, ``input[95].call_id``, ``message index 5``)
and often the tool call ids involved. ``parse_error`` pulls both out and maps the wording to
the rules behind it (protocol-research.md §10.1); ``locate`` turns that into the messages of a
checked transcript to look at, with the reason for each. Pure functions: no UI here.

A target that combines consecutive messages of one role into one turn (the Anthropic Messages
API) counts its turns, not our messages: ``messages.0.content.1`` in oh-my-pi #1165 is the second
block of the turn made of messages 0-4, that is message 1. Given the analysis' ``turns``, indexes
(and content positions) are mapped back through the combination.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .model import Msg
from .report import Finding
from .turns import Turns

# Key phrase (lower case, regex) -> (rule codes, provider that words it that way or None).
# Order matters only for the provider guess: the first phrase that matches names it.
PHRASES: list[tuple[str, tuple[str, ...], str | None]] = [
    (r"must be a response to a prece", ("TC002", "TC003", "TC004"), "openai"),
    (r"did not have response messages", ("TC001", "TC003", "TC020"), "openai"),
    (r"insufficient tool messages", ("TC001", "TC003", "TC020"), "deepseek"),
    (r"ids were found without", ("TC001", "TC003", "TC015", "TC020"), "anthropic"),
    (r"did not find \d+ tool_result", ("TC001", "TC003", "TC015", "TC016"), "anthropic"),
    (r"no tool output found", ("TC001", "TC003"), "responses"),
    (r"expected toolresult blocks", ("TC001", "TC003", "TC015"), "bedrock"),
    (r"number of function response parts", ("TC001", "TC003"), "gemini"),
    (r"not the same number of function calls", ("TC001", "TC003"), "mistral"),
    (r"tool result\(?s\)? (?:is|are)? ?missing", ("TC001", "TC003"), None),
    (r"unexpected `?tool_use_id`?", ("TC002", "TC003", "TC004"), "anthropic"),
    (r"no tool call found for function call output", ("TC002", "TC003", "TC004"), "responses"),
    (r"exceeds the number of tooluse blocks", ("TC002", "TC003", "TC004"), "bedrock"),
    (r"unexpected tool call id", ("TC002", "TC003", "TC004"), "mistral"),
    (r"function response turn comes immediately after", ("TC002", "TC003", "TC004"), "gemini"),
    (r"duplicate value for 'tool_call_id'", ("TC005",), "openai"),
    (r"single result", ("TC005",), "anthropic"),
    (r"duplicate tool call id \S+ in tool results", ("TC005",), "mistral"),
    (r"ids must be unique", ("TC006", "TC023"), "anthropic"),
    (r"duplicate tool call id \S+ in assistant message", ("TC006", "TC023"), "mistral"),
    (r"duplicate item found", ("TC006", "TC023"), "responses"),
    (r"duplicate 'call_id'", ("TC006", "TC023"), None),
    (r"tool_calls'?: empty array|empty tool_calls", ("TC007",), "openai"),
    (r"tool call id has to be defined|must be a non-empty string other than 'null'", ("TC008",), "mistral"),
    (r"with a length of 9|alphanumeric strings with length 9", ("TC009",), "mistral"),
    (r"(?:\.id|call_id)'?: string too long", ("TC009",), "openai"),
    (r"should match pattern", ("TC009", "TC008"), "anthropic"),
    (r"function\.arguments'?: expected a string", ("TC010",), "openai"),
    (r"function\.name'?: empty string", ("TC012",), "openai"),
    (r"function name was", ("TC012",), "mistral"),
    (r"unexpected role", ("TC019",), "mistral"),
    (r"roles must alternate|roles should be alternating", ("TC019",), "anthropic"),
    (r"function call turn comes immediately after a user turn", ("TC019",), "gemini"),
    (r"reasoning_content|thought_signature|required 'reasoning' item|expected `thinking`", ("TC021",), None),
    (r"role 'function' must have a 'name'|unknown variant `function`", ("TC017",), "openai"),
    # the legacy function role on a model that refuses it (OpenAI's reasoning models; Azure's words)
    (r"does not support 'function' with this model|'function' is not allowed role", ("TC024",), "openai"),
    # Converse on Claude Sonnet 5 / Fable 5.1: an assistant turn holding only reasoning
    (r"does not support assistant message prefill", ("TC021",), None),
    (r"expected a string, got null|either content or tool_calls", ("TC018",), "openai"),
    (r"conversation blocks and tool result blocks", ("TC016",), "bedrock"),
]
_PHRASES = [(re.compile(p, re.IGNORECASE), codes, who) for p, codes, who in PHRASES]

# Every way a provider names a message index. The number is the dialect's own 0-based index.
_INDEX_RES = [
    re.compile(r"\b(?:messages?|input|contents)\s*\.\s*\[\s*(\d+)\s*\]", re.IGNORECASE),  # messages.[3]
    re.compile(r"\b(?:messages?|input|contents)\s*\[\s*(\d+)\s*\]", re.IGNORECASE),  # messages[7], input[95]
    re.compile(r"\b(?:messages|contents)\s*\.\s*(\d+)\b", re.IGNORECASE),  # messages.22: / messages.48.content.1
    re.compile(r"\bmessage (?:at )?index (\d+)", re.IGNORECASE),  # deepseek / moonshot
]

# ``messages.48.content.1``: a message index and a content block inside it.
_BLOCK_RE = re.compile(r"\bmessages\s*\.\s*(\d+)\s*\.\s*content\s*\.\s*(\d+)", re.IGNORECASE)

# Ids with a provider prefix, found anywhere in the text.
_PREFIXED_ID = re.compile(r"\b(?:call|toolu|srvtoolu|tooluse|fc|rs)_[A-Za-z0-9_\-]+")
# Phrases followed by one id, or by a comma-separated list of ids.
_ID_AFTER = [
    re.compile(r"did not have response messages:\s*(.+?)(?:$|\n|\"|')", re.IGNORECASE),
    re.compile(r"immediately after:\s*(.+?)(?:\.\s|\.$|$|\n)", re.IGNORECASE),
    re.compile(r"for the following ids:\s*(.+?)(?:\.\s|\.$|$|\n|\")", re.IGNORECASE),
    re.compile(r"found in `?\w+`? blocks:\s*(\S+?)\.?(?:\s|$)", re.IGNORECASE),
    re.compile(r"function call output with call_id\s+(\S+?)\.?(?:\s|$|\")", re.IGNORECASE),
    re.compile(r"no tool output found for function call\s+(\S+?)\.?(?:\s|$|\")", re.IGNORECASE),
    re.compile(r"duplicate value for 'tool_call_id' of '([^']+)'", re.IGNORECASE),
    re.compile(r"(?:duplicate|unexpected) tool call id\s+(\S+)\s+in", re.IGNORECASE),
    re.compile(r"tool call id was\s+(\S+)\s+but", re.IGNORECASE),
    re.compile(r"duplicate item found with id\s+(\S+?)\.?(?:\s|$|\")", re.IGNORECASE),
    re.compile(r"multiple tool_result blocks with id\s+(\S+?)\.?(?:\s|$|\")", re.IGNORECASE),
]
_FIELD_WORDS = {"call_id", "call_ids", "fc_id"}  # field names that look like prefixed ids
_ID_TOKEN = re.compile(r"[A-Za-z0-9_\-:.]+")


@dataclass
class PastedError:
    """What a provider's error text says: message indexes, tool call ids and the rules behind it."""

    indexes: list[int] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    provider: str | None = None  # the provider whose wording matched, when it is distinctive
    blocks: dict[int, int] = field(default_factory=dict)  # index -> the content block named with it

    @property
    def empty(self) -> bool:
        return not (self.indexes or self.ids or self.rules)


_T = TypeVar("_T")


def _unique(xs: Iterable[_T]) -> list[_T]:
    seen: dict[_T, None] = {}
    for x in xs:
        seen.setdefault(x, None)
    return list(seen)


def _ids_in(text: str) -> list[str]:
    out: list[str] = []
    for rx in _ID_AFTER:
        for m in rx.finditer(text):
            for tok in re.split(r"[,\s]+", m.group(1)):
                tok = tok.strip("`'\"[]().;")
                if tok and _ID_TOKEN.fullmatch(tok) and not tok.lower().startswith("message"):
                    out.append(tok.rstrip(".:"))
    out.extend(m.group(0).rstrip(".") for m in _PREFIXED_ID.finditer(text))
    return _unique(i for i in out if i and i.lower() not in _FIELD_WORDS)


MAX_INDEX_DIGITS = 9  # int() refuses 4,301 digits; an index that long points at nothing anyway


def parse_error(text: str) -> PastedError:
    """Message indexes, tool call ids and rule codes named by a provider's error text."""
    text = text or ""
    indexes: list[tuple[int, int]] = []  # (position in text, index) so they come out in text order
    for rx in _INDEX_RES:
        for m in rx.finditer(text):
            digits = m.group(1)
            if digits.isascii() and len(digits) <= MAX_INDEX_DIGITS:  # no transcript has 10**9 messages
                indexes.append((m.start(), int(digits)))
    blocks: dict[int, int] = {}
    for m in _BLOCK_RE.finditer(text):
        a, b = m.group(1), m.group(2)
        if a.isascii() and b.isascii() and len(a) <= MAX_INDEX_DIGITS and len(b) <= MAX_INDEX_DIGITS:
            blocks.setdefault(int(a), int(b))
    rules: list[str] = []
    provider = None
    for rx, codes, who in _PHRASES:
        if rx.search(text):
            rules.extend(codes)
            if provider is None:
                provider = who
    return PastedError(
        indexes=_unique(i for _, i in sorted(indexes)),
        ids=_ids_in(text),
        rules=_unique(rules),
        provider=provider,
        blocks=blocks,
    )


@dataclass
class Hit:
    """A message the pasted error points at, and why."""

    index: int
    reasons: list[str]
    findings: list[Finding]


def ours(err: PastedError, index: int, turns: Turns | None = None) -> tuple[int, str] | None:
    """Our message for an index the error names, and how it was found; None when there is none.

    Without ``turns`` the index is ours. With them it is the target's turn: ``messages.T`` is the
    turn's first message, ``messages.T.content.J`` the message holding block J of the turn."""
    if turns is None:
        return index, f"the error names message {index}"
    j = err.blocks.get(index)
    hit = turns.ours(index, j)
    if hit is None:
        return None
    i, k = hit
    said = f"messages.{index}" + (f".content.{j}" if j is not None else "")
    if not turns.shared(i):
        if i == index:
            return i, f"the error names message {index}"
        return i, f"the error's {said} is message {i} here (the API combines consecutive messages of one role)"
    block = f", block {k}" if k is not None else ""
    return i, (f"the error's {said} is message {i}{block} here: the API combines messages {turns.span(i)} "
               f"into one turn")


def locate(err: PastedError, msgs: list[Msg], findings: list[Finding], turns: Turns | None = None) -> list[Hit]:
    """The messages of a checked transcript that ``err`` points at, in transcript order.

    A message is pointed at when the text names its index, when it holds a call or result with
    a named id, or when it has a finding of a rule the wording maps to (only when the text names
    neither an index nor an id that exists, so that a vague text still leads somewhere).
    ``turns`` (the analysis' ``turns``) maps the target's turn indexes back to our messages.
    """
    n = len(msgs)
    reasons: dict[int, list[str]] = {}

    def add(i: int, why: str) -> None:
        lst = reasons.setdefault(i, [])
        if why not in lst:
            lst.append(why)

    for t in err.indexes:
        hit = ours(err, t, turns)
        if hit is not None and 0 <= hit[0] < n:
            add(*hit)
    wanted = set(err.ids)
    if wanted:
        for m in msgs:
            for c in m.calls:
                if c.id in wanted:
                    add(m.index, f"calls {c.id}")
            for r in m.results:
                if r.id in wanted:
                    add(m.index, f"answers {r.id}")
    rules = set(err.rules)
    if not reasons and rules:
        for f in findings:
            if f.code in rules:
                add(f.message_index, f"has a {f.code} finding")
    by_msg: dict[int, list[Finding]] = {}
    for f in findings:
        if f.message_index in reasons and (not rules or f.code in rules):
            by_msg.setdefault(f.message_index, []).append(f)
    return [Hit(i, reasons[i], by_msg.get(i, [])) for i in sorted(reasons)]


def not_in_file(err: PastedError, msgs: list[Msg], turns: Turns | None = None) -> tuple[list[str], list[int]]:
    """The ids and message indexes the error names that this transcript does not have.

    An id that occurs nowhere usually means the error came from another request (another run, or
    a history trimmed differently); saying so beats pointing at an unrelated message.
    """
    present: set[Any] = set()
    for m in msgs:
        for c in m.calls:
            present.add(c.id)
        for r in m.results:
            present.add(r.id)
    ids = [i for i in err.ids if i not in present]
    count = len(turns.starts) if turns is not None else len(msgs)
    indexes = [i for i in err.indexes if not 0 <= i < count]
    return ids, indexes


def reading(err: PastedError, msgs: list[Msg], turns: Turns | None = None) -> list[str]:
    """Sentences saying what was read out of the text, for the app and ``inspector explain``."""
    from .rules import RULES

    said = []
    if err.provider:
        said.append(f"worded like {err.provider}")
    if err.indexes:  # a target that combines messages counts turns (explained below)
        said.append(("names turn " if turns is not None else "names message ") + ", ".join(f"#{i}" for i in err.indexes))
    if err.ids:
        said.append("names id " + ", ".join(err.ids))
    out = ["The error " + ("; ".join(said) if said else "names no message or id") + "."]
    if err.rules:
        out.append("Rules behind this wording: " + ", ".join(f"{c} {RULES.get(c, '')}" for c in err.rules))
    else:
        out.append("This wording is not one the inspector knows; the indexes and ids it names are still used.")
    if turns is not None and err.indexes:
        out.append(f"The target combines consecutive messages of one role into one turn: its {len(turns.starts):,} "
                   f"turns are this transcript's {len(msgs):,} messages, and the indexes it names are turns.")
    ids, indexes = not_in_file(err, msgs, turns)
    if ids:
        out.append(f"Not in this file: id {', '.join(ids)} occurs in no call or result here; "
                   "was the error from another request, or another transcript of the file?")
    if indexes:
        out.append(f"Not in this file: message {', '.join(f'#{i}' for i in indexes)} is beyond its "
                   + (f"{len(turns.starts):,} turns." if turns is not None else f"{len(msgs):,} messages."))
    return out
