"""Loop detection: a model calling the same tool with the same arguments again and again.

A family of findings of its own, apart from the provider rules (``rules.catalogue``): a loop
never makes a request "rejected", it says where an agent burnt its budget. Two kinds:

- **LP001 repeated call**: the same tool with the same arguments (compared as canonical JSON:
  keys sorted, whitespace ignored, among the calls whose arguments recur as written within the
  window: ``repeat_candidates``) called ``threshold`` times or more (default 3), in a row or each
  within ``window`` calls of the one before, whose results cannot show it is a poll making
  progress (some are missing, or cannot be compared);
- **LP002 stuck loop**: the same repeats whose results are also the same every time, or every
  one an error, or every one missing or sent as user text: the model learns nothing new.

Few false positives by design: a repeat whose results change (a job-status poll going from
"pending" to "done") is no loop and is not reported; a repeat with other arguments (page 2 of a
search) is no repeat. A tool may be allowed (never reported) or given its own threshold
(``LoopOptions``; the CLI's ``--loop-allow`` and ``--loop-threshold TOOL=N``, the app's sidebar).

Each finding names its calls (message index and call id), the count, the tokens the messages
holding them and their results cost (the ``fit`` command's counts: ``tokens.count_messages``
with the target's counter), and the likely cause the transcript shows: results sent as user
text (TC020), results missing (TC001), an error result every time.

Everything here reads the neutral view (``Msg``, ``Call``, the pairing, the issues) and the
dialect's ``text`` and ``result_failed``: it works the same for every format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import compress, count, islice, pairwise
from operator import eq
from typing import TYPE_CHECKING, Any, cast

import msgspec
import orjson

if TYPE_CHECKING:
    from .checking import Analysis
    from .model import Call

DEFAULT_THRESHOLD = 3
DEFAULT_WINDOW = 2  # a repeat counts when it comes within this many calls of the one before (one other call between)
MIN_THRESHOLD = 2


LOOP_RULES = {"LP001": "repeated_call", "LP002": "stuck_loop"}
LOOP_SEVERITY = {"LP001": "info", "LP002": "warning"}


class LoopOptions(msgspec.Struct, frozen=True):
    """How loops are found: the default threshold, a threshold per tool, tools never reported,
    and the window (in calls) within which a repeat still counts. (A frozen struct, not a frozen
    dataclass: making a dataclass compiles its methods, a millisecond of every start of the CLI.)"""

    threshold: int = DEFAULT_THRESHOLD
    # ``{tool: threshold}``, kept as sorted pairs so that the options hash (the app caches by them)
    per_tool: Mapping[str, int] | tuple[tuple[str, int], ...] = ()  # kept as sorted pairs (__post_init__)
    allow: frozenset[str] = frozenset()
    window: int = DEFAULT_WINDOW

    def __post_init__(self) -> None:
        pairs = self.per_tool.items() if isinstance(self.per_tool, Mapping) else self.per_tool
        msgspec.structs.force_setattr(self, "per_tool", tuple(sorted(pairs)))
        msgspec.structs.force_setattr(self, "allow", frozenset(self.allow))

    def threshold_for(self, name: Any) -> int | None:
        """The threshold of tool ``name``; None when it is allowed to repeat."""
        if name in self.allow:
            return None
        for tool, n in self._pairs():
            if tool == name:
                return n
        return self.threshold

    @property
    def lowest(self) -> int:
        return min([self.threshold, *(n for _, n in self._pairs())])

    def _pairs(self) -> tuple[tuple[str, int], ...]:
        """``per_tool`` as sorted pairs (``__post_init__`` made it so)."""
        return cast("tuple[tuple[str, int], ...]", self.per_tool)


DEFAULT = LoopOptions()


def loop_options(threshold: Sequence[str] | int | None = None, allow: Sequence[str] = (),
                 window: int | None = None) -> LoopOptions:
    """Options from what a user typed: ``threshold`` items are ``N`` (every tool) or ``TOOL=N``;
    raises ``InputError`` on a value that is not one."""
    from .errors import InputError

    base, per = DEFAULT_THRESHOLD, {}
    items = [str(threshold)] if isinstance(threshold, int) else list(threshold or ())
    for item in items:
        name, _, n = item.rpartition("=")
        try:
            value = int(n)
        except ValueError:
            raise InputError(f"--loop-threshold {item!r}: expected N or TOOL=N with N a whole number") from None
        if value < MIN_THRESHOLD:
            raise InputError(f"--loop-threshold {item!r}: a loop needs at least {MIN_THRESHOLD} calls")
        if name:
            per[name] = value
        else:
            base = value
    if window is not None and window < 1:
        raise InputError(f"--loop-window {window}: expected a whole number of calls, 1 or more")
    return LoopOptions(base, per, frozenset(allow), window if window is not None else DEFAULT_WINDOW)


def canonical_args(args: Any) -> str:
    """The arguments as canonical JSON (keys sorted, no whitespace): a JSON string is read first,
    so ``'{"a": 1, "b": 2}'`` and ``{"b": 2, "a": 1}`` compare equal. A string that is not JSON
    stays itself (marked, so that it never equals the JSON text of a value)."""
    if type(args) is str:
        try:
            args = orjson.loads(args) if args.strip() else {}
        except orjson.JSONDecodeError:
            return "\x00" + str(args)
    if args is None:
        args = {}
    try:
        return orjson.dumps(args, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return "\x00" + repr(args)


# What became of one call: its outcome, and a value to compare (None: cannot be compared).
MISSING, USER_TEXT, ERROR, OK, PENDING = "missing", "user_text", "error", "ok", "pending"
_ID_KEYS = frozenset({"id", "tool_use_id", "toolUseId", "tool_call_id", "toolCallId", "call_id", "callId"})


def result_value(raw: Any, pos: int, only: bool, text: Callable[[Any], str]) -> str | None:
    """What one result says, for comparing two of them: the message's text when it carries this
    result alone, else the result block at ``pos`` of its content, without its ids."""
    if only:
        return text(raw)
    if type(raw) is dict:
        for key in ("content", "parts"):
            blocks = raw.get(key)
            if type(blocks) is list and 0 <= pos < len(blocks) and type(blocks[pos]) is dict:
                b = {k: v for k, v in blocks[pos].items() if k not in _ID_KEYS}
                for k, v in b.items():  # a wrapper (toolResult, functionResponse) holds the id too
                    if type(v) is dict:
                        b[k] = {kk: vv for kk, vv in v.items() if kk not in _ID_KEYS}
                try:
                    return orjson.dumps(b, option=orjson.OPT_SORT_KEYS).decode()
                except TypeError:
                    return None
    return None


class _Outcome(msgspec.Struct):
    kind: str
    value: str | None = None
    result_index: int | None = None


class _Answers:
    """What answered each call of one transcript (built once, on the first loop's question)."""

    def __init__(self, a: Analysis) -> None:
        self.answered = {id(link.call): link.result for link in a.pairing.links if link.status != "duplicate"}
        self.pending = {id(c) for c in a.pairing.pending}
        self.as_text: dict[int, int] = {}  # call message -> the user message holding its results (TC020)
        for iss in a.issues:
            if iss.code == "TC020" and iss.other is not None:
                self.as_text[iss.other] = iss.index


def _outcomes(a: Analysis, answers: _Answers, calls: list[Call]) -> list[_Outcome]:
    """What became of each call of ``calls``."""
    msgs, d = a.msgs, a.dialect
    out = []
    for c in calls:
        r = answers.answered.get(id(c))
        if r is not None:
            m = msgs[r.msg]
            if d.result_failed(m.raw, r.id):
                out.append(_Outcome(ERROR, None, r.msg))
            else:
                out.append(_Outcome(OK, result_value(m.raw, r.pos, len(m.results) == 1, d.text), r.msg))
        elif c.msg in answers.as_text:
            u = answers.as_text[c.msg]
            out.append(_Outcome(USER_TEXT, d.text(msgs[u].raw), u))
        elif id(c) in answers.pending:
            out.append(_Outcome(PENDING))
        else:
            out.append(_Outcome(MISSING))
    return out


NO_NEWS = frozenset({MISSING, USER_TEXT, ERROR})


def _changed(prev: _Outcome, cur: _Outcome) -> bool:
    """True when the second result says something else than the first: two readable successes
    that differ, or a success after an error (a retry that worked) or before one."""
    if prev.kind == cur.kind == OK:
        return prev.value is not None and cur.value is not None and prev.value != cur.value
    return {prev.kind, cur.kind} == {OK, ERROR}


def _classify(outs: list[_Outcome]) -> tuple[str | None, list[str]]:
    """``(code, causes)`` for a run of repeats: None when the results change (a poll making
    progress: not a loop); LP002 when every known result is the same or none brings anything
    (errors, missing, sent as user text); else LP001 (too few results, or some that cannot be
    compared)."""
    known = [o for o in outs if o.kind != PENDING]
    if any(_changed(p, c) for p, c in pairwise(known)):
        return None, []
    kinds = {o.kind for o in known}
    causes = []
    if USER_TEXT in kinds:
        causes.append("TC020")
    if MISSING in kinds:
        causes.append("TC001")
    if kinds == {ERROR}:
        causes.append("error")
    if len(known) < 2:
        return "LP001", causes
    answers = {o.value for o in known if o.kind == OK}
    if kinds <= NO_NEWS:
        return "LP002", causes
    if None not in answers and len(answers) == 1:  # the same answer every time it was answered
        return "LP002", ["same_result", *causes]
    return "LP001", causes


CAUSE_TEXT = {
    "TC020": "its results were sent as user text, not as tool results (TC020): the model never sees an answer to its call",
    "TC001": "its results are missing (TC001): the calls were never answered",
    "error": "the tool returned an error every time",
    "same_result": "the tool returned the same result every time",
}


def runs_within(positions: list[int], window: int) -> list[list[int]]:
    """Split ascending call positions into runs where each is within ``window`` of the one before."""
    runs: list[list[int]] = [[positions[0]]]
    for p in positions[1:]:
        if p - runs[-1][-1] <= window:
            runs[-1].append(p)
        else:
            runs.append([p])
    return runs


def repeat_candidates(args: list[Any], window: int) -> list[int]:
    """Positions of the calls whose arguments equal, as the file holds them, those of a call at
    most ``window`` calls away: the only ones that can be in a loop, and the only ones read as
    JSON and grouped by tool and canonical arguments. Found in C-level passes (``map`` of ``eq``
    over the list and its shifts, ``compress``): a check of a transcript without repeats pays
    little for loop detection (``benchmarks/bench_loops.py``)."""
    cand: set[int] = set()
    for d in range(1, min(window, len(args) - 1) + 1):
        if not any(map(eq, args, islice(args, d, None))):  # no repeat at this distance: one pass, stops at the first
            continue
        for k in compress(count(), map(eq, args, islice(args, d, None))):
            cand.add(k)
            cand.add(k + d)
    return sorted(cand)


def find_loops(a: Analysis, options: LoopOptions = DEFAULT) -> list[dict[str, Any]]:
    """The loops of one analysed transcript, without token counts (``count_tokens`` adds them)."""
    # Every call in order (``pairing.pair`` keeps them flat: ``Pairing.calls``). Only the
    # arguments as the file holds them: the calls, their names and canonical JSON are read for
    # the candidates alone.
    calls = a.pairing.calls
    args = [c.args for c in calls]
    if len(args) < options.lowest:
        return []
    found = repeat_candidates(args, options.window)
    if not found:
        return []
    by_key: dict[tuple[str, str], list[int]] = {}
    canonical: dict[str, str] = {}  # arguments as written -> canonical JSON: a repeat is read once
    for k in found:
        c = calls[k]
        name = c.name if isinstance(c.name, str) else repr(c.name)
        raw = c.args
        if type(raw) is str:
            key = canonical.get(raw)
            if key is None:
                key = canonical[raw] = canonical_args(raw)
        else:
            key = canonical_args(raw)
        by_key.setdefault((name, key), []).append(k)
    out = []
    answers = None
    for (name, canon), positions in by_key.items():
        n = options.threshold_for(name)
        if n is None or len(positions) < n:
            continue
        for run in runs_within(positions, options.window):
            if len(run) < n:
                continue
            members = [calls[p] for p in run]
            if answers is None:
                answers = _Answers(a)
            outs = _outcomes(a, answers, members)
            code, causes = _classify(outs)
            if code is None:
                continue
            in_a_row = run[-1] - run[0] == len(run) - 1
            out.append(_finding(code, name, canon, members, outs, causes, in_a_row, options.window))
    out.sort(key=lambda f: (f["message_index"], f["code"]))
    return out


def _finding(code: str, name: str, args: str, calls: list[Call], outs: list[_Outcome], causes: list[str],
             in_a_row: bool, window: int) -> dict[str, Any]:
    shown = args.removeprefix("\x00")
    short = shown if len(shown) <= 120 else shown[:120] + "…"
    results = {o.kind for o in outs if o.kind != PENDING}
    same = "same result" if code == "LP002" and results == {OK} else (
        "results sent as user text" if results == {USER_TEXT} else
        "no result" if results == {MISSING} else "an error every time" if results == {ERROR} else
        "no new result" if code == "LP002" else "results that cannot be compared")
    how = "in a row" if in_a_row else f"each within {window} calls of the one before"
    first, last = calls[0].msg, calls[-1].msg
    what = "stuck loop" if code == "LP002" else "repeated call"
    text = (f"{what}: tool '{name}' called {len(calls)} times with the same arguments {short} {how} "
            f"(messages #{first} to #{last}), {same}.")
    if causes:
        text += " Likely cause: " + "; ".join(CAUSE_TEXT[c] for c in causes) + "."
    return {
        "code": code,
        "rule": LOOP_RULES[code],
        "severity": LOOP_SEVERITY[code],
        "message_index": first,
        "last_index": last,
        "tool": name,
        "arguments": shown,
        "count": len(calls),
        "in_a_row": in_a_row,
        "result": same,
        "causes": causes,
        "calls": [{"message_index": c.msg, "tool_call_id": c.id, "result_index": o.result_index, "result": o.kind}
                  for c, o in zip(calls, outs)],
        "text": text,
    }


def count_tokens(found: list[dict[str, Any]], a: Analysis, counter: Any) -> None:
    """Add ``tokens`` to each loop of one transcript: the messages holding its calls and their
    results (each message once), counted as ``fit`` counts them."""
    if not found:
        return
    from .tokens import count_messages

    need = sorted({i for f in found for c in f["calls"] for i in (c["message_index"], c["result_index"]) if i is not None})
    per = dict(zip(need, count_messages([a.msgs[i].raw for i in need], counter)))
    for f in found:
        mine = {i for c in f["calls"] for i in (c["message_index"], c["result_index"]) if i is not None}
        f["tokens"] = sum(per[i] for i in mine)
        f["counter"] = counter.name


def loops_for(analyses: list[Analysis], targets: list[str], options: LoopOptions = DEFAULT) -> list[dict[str, Any]]:
    """Every loop of a checked file, each with its transcript number and token count."""
    out: list[dict[str, Any]] = []
    for n, (a, target) in enumerate(zip(analyses, targets)):
        found = find_loops(a, options)
        if found:
            from .tokens import counter_for

            count_tokens(found, a, counter_for(target))
            for f in found:
                f["transcript"] = n
            out.extend(found)
    return out


def loop_totals(loops: list[dict[str, Any]]) -> dict[str, int]:
    """How many loops, calls and tokens they cost (a transcript's or a file's)."""
    return {"loops": len(loops), "calls": sum(f["count"] for f in loops), "tokens": sum(f.get("tokens", 0) for f in loops)}
