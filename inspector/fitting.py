"""``fit``: cut a transcript to a token budget by removing whole units, never half a tool call.

    >>> import inspector
    >>> msgs = [{"role": "user", "content": "old question " * 50},
    ...         {"role": "assistant", "content": None, "tool_calls": [
    ...             {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
    ...         {"role": "tool", "tool_call_id": "call_1", "content": "result " * 50},
    ...         {"role": "user", "content": "new question"}]
    >>> r = inspector.fit(msgs, 30)
    >>> [m["role"] for m in r.data], [u["kind"] for u in r.report["removed"]]
    (['user'], ['message', 'call block'])

A *unit* is a message without calls, or a call block: the message with the calls and every
message holding a result that answers them, wherever it is (a displaced result too). A run of
Responses ``reasoning`` items goes with the item after it, which the API needs to follow it.
Removing whole units keeps every pair whole, so the output cannot start with a result or hold a
call without its result. Role order (Mistral, Anthropic, Gemini) can still break at the seam a
removal leaves; so the output is checked with the project's own ``check``, and while it shows an
error the input did not have, the unit at that error goes too (or the one before it, when that
one is protected). The writer keeps the file's wrapper, format and every unknown field.

Invariants (tested with hypothesis on every dialect): the output is the input with some whole
units left out; it checks clean for the target when the input did; its tokens are within the
budget unless ``FitError`` is raised (the protected messages alone exceed it); the report holds
every removed item whole, so output + report hold the input; fitting the output again to the
same budget changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .checking import Analysis, check_plain
from .containers import Document, Transcript
from .errors import InputError
from .gc_pause import gc_paused
from .model import Msg
from .pairing import Pairing
from .reading import load, read_source
from .tokens import Counter, count_messages, counter_for
from .writing import pretty_like, put_back, serialise, source_bytes

STRATEGIES = ("drop-oldest", "drop-middle")
MAX_SEAM_PASSES = 64


class FitError(Exception):
    """The budget cannot be met: the protected messages alone need more tokens."""


@dataclass
class FitOptions:
    """What ``fit`` keeps and how it chooses. Protecting a message protects its whole unit."""

    max_tokens: int
    keep_system: bool = False
    keep_first_user: bool = False
    keep_last: int = 0
    strategy: Literal["drop-oldest", "drop-middle"] = "drop-oldest"
    counter: str | None = None  # o200k_base, cl100k_base or estimate; default: the target's own


@dataclass
class Unit:
    """Messages that stay or go together (indices into the neutral message list, ascending)."""

    msgs: list[int]
    tokens: int
    kind: str  # "call block" or "message"
    protected: bool = False

    @property
    def first(self) -> int:
        return self.msgs[0]


@dataclass
class Plan:
    """The units of one transcript and which of them a fit removes."""

    units: list[Unit]
    unit_of: list[int]  # message index -> unit number
    tokens: list[int]  # per message
    removed: set[int] = field(default_factory=set)  # unit numbers

    @property
    def total(self) -> int:
        return sum(self.tokens)

    @property
    def kept_tokens(self) -> int:
        return sum(u.tokens for n, u in enumerate(self.units) if n not in self.removed)

    def kept_msgs(self) -> list[int]:
        return [i for i in range(len(self.unit_of)) if self.unit_of[i] not in self.removed]

    def removed_msgs(self) -> set[int]:
        return {i for n in self.removed for i in self.units[n].msgs}


def units(msgs: list[Msg], pairing: Pairing, tokens: list[int]) -> tuple[list[Unit], list[int]]:
    """Group messages into units: call blocks (with every result of their calls) and single messages."""
    n = len(msgs)
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    for b in pairing.blocks:
        # The block's own run (items-mode blocks span several items); blocks never overlap, so
        # every message of the run points straight at the block's first message.
        for k in range(b.index + 1, b.ends + 1):
            parent[k] = b.index
        for k in b.result_msgs:  # results split over later messages (TC015)
            union(b.index, k)
    for link in pairing.links:
        if link.status != "ok":  # displaced, early and duplicate results go with their call
            union(link.call.msg, link.result.msg)
    k = 0
    while k < n:  # a run of reasoning items needs the item after it
        if msgs[k].role == "reasoning":
            start = k
            while k < n and msgs[k].role == "reasoning":
                k += 1
            if k < n:
                for j in range(start, k):
                    union(j, k)
        else:
            k += 1
    groups: dict[int, int] = {}
    out: list[Unit] = []
    unit_of = [0] * n
    for i in range(n):
        r = find(i)
        u = groups.get(r)
        if u is None:
            u = groups[r] = len(out)
            out.append(Unit([], 0, "message"))
        unit = out[u]
        unit.msgs.append(i)
        unit.tokens += tokens[i]
        if msgs[i].calls or msgs[i].results:
            unit.kind = "call block"
        unit_of[i] = u
    return out, unit_of


def protect(msgs: list[Msg], plan: Plan, options: FitOptions) -> None:
    """Mark the units holding the messages the options keep."""
    keep: list[int] = []
    if options.keep_system:
        keep += [m.index for m in msgs if m.role == "system"]
    if options.keep_first_user:
        first = next((m.index for m in msgs if m.role == "user" and not m.results), None)
        if first is not None:
            keep.append(first)
    if options.keep_last > 0:
        keep += range(max(0, len(msgs) - options.keep_last), len(msgs))
    for i in keep:
        plan.units[plan.unit_of[i]].protected = True


def removal_order(plan: Plan, strategy: str) -> list[int]:
    """Unit numbers in the order a fit removes them: oldest first, or nearest the middle first."""
    free = [n for n, u in enumerate(plan.units) if not u.protected]
    if strategy == "drop-middle":
        # The middle by tokens: the head and the tail each keep about half of what stays.
        half = plan.total / 2
        seen, mid_of = 0, {}
        for n, u in enumerate(plan.units):
            mid_of[n] = seen + u.tokens / 2
            seen += u.tokens
        return sorted(free, key=lambda n: (abs(mid_of[n] - half), n))
    return free


def shared_items(a: Analysis, plan: Plan) -> None:
    """Protect the units whose messages share a log entry with messages of another unit (a Codex
    rollout's ``compacted`` line holds every message of its replacement history): removing the
    entry would remove those too, and removing the messages alone cannot be written back."""
    groups = a.dialect.item_groups(a.transcript.items, a.transcript.path)
    if not groups:
        return
    owners: dict[int, set[int]] = {}
    for i, ks in enumerate(groups):
        for k in ks:
            owners.setdefault(k, set()).add(plan.unit_of[i] if i < len(plan.unit_of) else -1)
    for units_of_entry in owners.values():
        if len(units_of_entry) > 1:
            for n in units_of_entry:
                if 0 <= n < len(plan.units):
                    plan.units[n].protected = True


def make_plan(a: Analysis, counter: Counter, options: FitOptions) -> Plan:
    """Count, group, protect and choose the units to remove for one transcript (no seam check yet)."""
    tokens = count_messages([m.raw for m in a.msgs], counter)
    us, unit_of = units(a.msgs, a.pairing, tokens)
    plan = Plan(us, unit_of, tokens)
    protect(a.msgs, plan, options)
    shared_items(a, plan)
    kept = plan.total
    if kept <= options.max_tokens or "view" in a.transcript.extra:
        # A view (a Claude Code sub-agent or abandoned branch) is entries of a list fitted as its
        # main conversation; it is never written back on its own.
        return plan
    protected = sum(u.tokens for u in us if u.protected)
    if protected > options.max_tokens:
        raise FitError(f"the protected messages alone need {protected} tokens, {protected - options.max_tokens} more "
                       f"than the budget of {options.max_tokens} ({counter.name})")
    for n in removal_order(plan, options.strategy):
        if kept <= options.max_tokens:
            break
        plan.removed.add(n)
        kept -= us[n].tokens
    return plan


# --- writing the kept messages back -----------------------------------------------------------


def kept_items(a: Analysis, plan: Plan) -> tuple[list[Any], list[list[int]]]:
    """The transcript's items without the removed messages, and the item indices of each message."""
    t = a.transcript
    groups = a.dialect.item_groups(t.items, t.path)
    if groups is None:
        groups = [[i] for i in range(len(plan.unit_of))]
    gone = {k for i in plan.removed_msgs() for k in groups[i]}
    return [x for k, x in enumerate(t.items) if k not in gone], groups


class _Run:
    """One transcript's fit: its plan, and its current items."""

    def __init__(self, n: int, a: Analysis, plan: Plan):
        self.n, self.a, self.plan = n, a, plan
        self.items, self.groups = kept_items(a, plan)

    def rebuild(self) -> None:
        self.items, self.groups = kept_items(self.a, self.plan)

    def transcript(self) -> Transcript:
        t = self.a.transcript
        return Transcript(items=self.items, path=t.path, container=t.container, dialect=self.a.dialect.name,
                          extra=t.extra)


def _errors(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["severity"] == "error"]


def _input_index(run: _Run, out_msgs: list[Msg], j: int) -> int | None:
    """The input message a message of the output came from (by identity of its raw value)."""
    by_raw = {id(m.raw): m.index for m in run.a.msgs}
    for k in range(min(j, len(out_msgs) - 1), -1, -1):
        i = by_raw.get(id(out_msgs[k].raw))
        if i is not None:
            return i
    return None


def _settle(doc: Document, runs: list[_Run], target: str, dialect: str | None, before: dict[str, Any]) -> dict[str, Any]:
    """Check the output; while it has an error the input did not, remove the unit at that error.

    Raises ``FitError`` when that error sits between protected units (no removal can mend it)."""
    known = {(f["transcript"], f["code"]) for f in _errors(before)}
    for _ in range(MAX_SEAM_PASSES):
        out_doc = _document(doc, runs)
        after, analyses = check_plain(out_doc, target, dialect, empty_ok=True)
        new = [f for f in _errors(after) if (f["transcript"], f["code"]) not in known]
        if not new:
            return after
        f = new[0]
        run, a_out = runs[f["transcript"]], analyses[f["transcript"]]
        i = _input_index(run, a_out.msgs, f["message_index"])
        plan = run.plan
        step = None
        if i is not None:
            n = plan.unit_of[i]
            if not plan.units[n].protected and n not in plan.removed:
                step = n
            else:  # the other side of the seam: the kept unit before it
                prev = [plan.unit_of[k] for k in plan.kept_msgs() if k < plan.units[n].first]
                if prev and not plan.units[prev[-1]].protected:
                    step = prev[-1]
        if step is None:
            raise FitError(f"within the budget, the output would break a rule the input kept: {f['code']} at message "
                           f"#{f['message_index']} ({f['text']}), and the units on both sides of it are protected")
        plan.removed.add(step)
        run.rebuild()
    raise FitError(f"the output still broke a rule the input kept after {MAX_SEAM_PASSES} removals at seams")


def _document(doc: Document, runs: list[_Run]) -> Document:
    root = doc.root
    for run in runs:
        if run.plan.removed:
            root = put_back(root, run.a.transcript, run.items)
    return Document(root=root, format=doc.format, transcripts=[r.transcript() for r in runs], source=doc.source)


class FitResult:
    """The fitted file (``output`` bytes, ``data`` value, ``document``) and its ``report`` (a dict).

    ``report``: ``target``, ``dialect``, ``counter`` (name, exact, label), ``max_tokens``,
    ``strategy``, ``tokens_before``, ``tokens_after``, ``removed`` (one entry per unit: ``transcript``,
    ``first``/``last`` message index, ``messages``, ``kind``, ``tokens`` and ``items``, each removed
    raw item whole with its index), ``errors_before`` and ``errors_after``.
    """

    __slots__ = ("document", "output", "plans", "report")

    def __init__(self, output: bytes, document: Document, report: dict[str, Any], plans: list[Plan]):
        self.output, self.document, self.report, self.plans = output, document, report, plans

    @property
    def data(self) -> Any:
        return self.document.value()


def fit(source: Any, max_tokens: int, target: str | None = None, options: FitOptions | dict[str, Any] | None = None, *,
        dialect: str | None = None) -> FitResult:
    """Fit a transcript (messages, a request body, JSON text, bytes, a path or ``-``) to ``max_tokens``.

    ``options``: a ``FitOptions`` or a dict of its fields (``max_tokens`` comes from the argument).
    Raises ``FitError`` when the protected messages alone exceed the budget, ``InputError`` when the
    input cannot be read or an option is wrong.
    """
    opts = dict(options.__dict__) if isinstance(options, FitOptions) else dict(options or {})
    opts["max_tokens"] = max_tokens
    try:
        options = FitOptions(**opts)
    except TypeError as exc:
        raise InputError(f"invalid fit option: {exc}") from None
    if type(options.max_tokens) is not int or options.max_tokens < 0:
        raise InputError(f"the budget must be a whole number of tokens, 0 or more (got {options.max_tokens!r})")
    if options.strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {options.strategy!r}; known: {', '.join(STRATEGIES)}")
    if options.keep_last < 0:
        raise InputError("--keep-last must be 0 or more")
    original = source_bytes(source)
    if original is None and isinstance(source, str):
        original, name = read_source(source)
        doc = load(original, name=name, typed=True)
    else:
        doc = load(source, typed=True)
    with gc_paused():
        return _fit_document(doc, target, options, dialect, original)


def _fit_document(doc: Document, target: str | None, options: FitOptions, dialect: str | None,
                  original: bytes | None) -> FitResult:
    before, analyses = check_plain(doc, target, dialect)
    target = before["target"]
    counter = counter_for(target, options.counter)
    plans = [make_plan(a, counter, options) for a in analyses]
    runs = [_Run(n, a, p) for n, (a, p) in enumerate(zip(analyses, plans))]
    if any(p.removed for p in plans):
        after = _settle(doc, runs, target, dialect, before)
    else:
        after = before
    for p in plans:
        if p.units and len(p.removed) == len(p.units):
            # An empty message list is a request every provider refuses: not a fit.
            kept_last = min(u.tokens for u in p.units)
            raise FitError(f"removing units {options.strategy.replace('drop-', '')} first leaves no message within the "
                           f"budget of {options.max_tokens} tokens (the smallest unit alone needs {kept_last}, "
                           f"{counter.name})")
    out_doc = _document(doc, runs)
    if any(p.removed for p in plans):
        output = serialise(out_doc.root, doc.format, pretty_like(original))
    else:
        output = original if original is not None else serialise(doc.value(), doc.format, True)
    removed = []
    for run in runs:
        plan, items = run.plan, run.a.transcript.items
        for n in sorted(plan.removed, key=lambda n: plan.units[n].first):
            u = plan.units[n]
            idx = sorted(k for i in u.msgs for k in run.groups[i]) if run.groups else u.msgs
            removed.append({"transcript": run.n, "first": u.msgs[0], "last": u.msgs[-1], "messages": u.msgs,
                            "kind": u.kind, "tokens": u.tokens,
                            "items": [{"index": k, "content": items[k]} for k in idx]})
    report = {
        "target": target,
        "dialect": before["dialect"],
        "counter": {"name": counter.name, "exact": counter.exact, "label": counter.label},
        "max_tokens": options.max_tokens,
        "strategy": options.strategy,
        "tokens_before": sum(p.total for p in plans),
        "tokens_after": sum(p.kept_tokens for p in plans),
        "transcripts": [{"tokens_before": p.total, "tokens_after": p.kept_tokens} for p in plans],
        "removed": removed,
        "errors_before": len(_errors(before)),
        "errors_after": len(_errors(after)),
    }
    return FitResult(output, out_doc, report, plans)


def repair_and_fit(source: Any, max_tokens: int, target: str | None = None, options: FitOptions | dict[str, Any] | None = None,
                   *, dialect: str | None = None, repair_options: Any = None) -> FitResult:
    """Repair, then fit the repaired file: one step for an input the target would reject as it is.

    A fit keeps every error of its input (it removes whole units, it fixes nothing), so a fitted
    broken file is still refused. The report gains ``repair``: the input's errors, the repair's
    changes and what it could not fix (``unfixed``); ``errors_after`` is then the fitted file's.
    """
    from .repairing import repair

    fixed = repair(source, target, repair_options, dialect=dialect)
    result = fit(fixed.output, max_tokens, target, options, dialect=dialect)
    rep = fixed.report
    # The repair's own log and quarantine come along: output + report still hold the input.
    result.report["repair"] = {"errors_before": rep.findings_before.get("error", 0), "unfixed": list(rep.unfixed),
                               "changes": [c.model_dump(mode="json") for c in rep.changes],
                               "quarantine": [q.model_dump(mode="json") for q in rep.quarantine]}
    result.report["errors_before"] = rep.findings_before.get("error", 0)
    return result
