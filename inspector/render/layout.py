"""Shape a checked transcript into pages of cards and connectors for the timeline component.

The browser gets one page of messages at a time (a few hundred cards, whatever the transcript's
length), so ``TimelineModel`` does the whole-transcript work once (which finding sits on which
message, which call links to which result, where results are missing, an overview of where the
problems are) and ``page()`` then cuts a page out of it in time proportional to the page.

Everything here is dialect-neutral: it reads the ``Msg`` view and the ``Pairing`` of
``inspector.check``, never a provider's field names. Text from the transcript is passed through
as plain strings; the component puts it into the page with ``textContent`` only.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from ..dialects import Dialect, detect
from ..model import Msg
from ..pairing import Pairing
from ..report import Finding
from .meta import meta_text

PAGE_SIZE = 300
OVERVIEW_BUCKETS = 160
PREVIEW_CHARS = 280
NAME_CHARS = 64
ARG_CHARS = 72  # a call chip's first string argument (the command, the path, the query), shortened
SEARCH_TEXT_CHARS = 20_000  # text of one message that search looks at
MAX_MATCHES = 5_000  # matches sent to the browser (the count says when there are more)
SEV_RANK = {"error": 3, "warning": 2, "info": 1}
SEV_NAME = {3: "error", 2: "warning", 1: "info", 0: ""}


def preview_text(raw: Any, limit: int = PREVIEW_CHARS, text: Callable[[Any], str] | None = None,
                 lines: bool = False) -> str:
    """A one-glance preview of a message's text, at most ``limit`` characters, whitespace folded.

    ``text`` is the dialect's ``text`` (the detail pane and the Markdown export show the same
    words); without it the message's own dialect is detected. ``lines`` keeps the newlines (a
    card shows tool output as its lines; blank lines fold to one)."""
    if text is None:
        text = detect([raw]).text
    full = text(raw)
    if len(full) > 8 * limit:
        full = full[: 8 * limit]
    if lines:
        kept = [" ".join(line.split()) for line in full.strip().splitlines()]
        folded = "\n".join(line for k, line in enumerate(kept) if line or (k and kept[k - 1]))
    else:
        folded = " ".join(full.split())
    return folded if len(folded) <= limit else folded[: limit - 1] + "…"


def first_string_arg(args: Any, limit: int = ARG_CHARS) -> str:
    """The first string argument of a call, on one line and shortened: ``git diff``, ``src/app.py``.

    Arguments come as a JSON string (OpenAI), a dict (Anthropic, Gemini) or anything else; a
    string that is not a JSON object is shown itself. Nested values are searched depth-first.
    """
    if isinstance(args, str):
        s = args.strip()
        if s[:1] in ("{", "["):
            try:
                import orjson

                args = orjson.loads(s)
            except Exception:  # noqa: BLE001 - unparseable arguments: show the text
                args = s
        else:
            args = s

    def walk(x: Any, depth: int) -> str | None:
        if isinstance(x, str):
            return x if x.strip() else None
        if depth > 3:
            return None
        if isinstance(x, dict):
            values: Iterable[Any] = x.values()
        elif isinstance(x, list):
            values = x[:10]
        else:
            return None
        for v in values:
            got = walk(v, depth + 1)
            if got is not None:
                return got
        return None

    found = walk(args, 0)
    if found is None:
        return ""
    text = " ".join(found.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# A page's rows are arrays (a page holds thousands of them); their fields are named here, and
# every page sends the names as ``shapes``: timeline.js reads each row by name (``rows``), and
# tests/render/test_page_shapes.py holds the script's names to these.


class CallChip(NamedTuple):
    id: str  # the call id ("" when it has none)
    name: str  # the tool name, shortened
    pos: int  # the call's position in its message
    arg: str  # its first string argument, on one line and shortened
    result_at: int  # the message of its (first) result; -1: none


class ResultChip(NamedTuple):
    id: str
    name: str  # its own name, else its call's
    pos: int
    orphan: int  # 1: no call answers to it
    failed: int  # 1: the tool reported an error when it ran (the dialect's ``result_failed``)
    call_at: int  # the message of its call; -1: none


class Mark(NamedTuple):
    code: str  # the rule, TC001 ...
    sev: str  # error, warning, info


class Bucket(NamedTuple):
    first: int  # the slice's first message
    last: int  # and its last
    worst: int  # its worst finding's rank (SEV_RANK; 0: none)
    count: int  # type: ignore[assignment]  # its findings (a field named like tuple.count, which it hides)
    target: int  # the message a click goes to (the first with its worst finding)


class LoopFold(NamedTuple):
    """A run of messages the timeline shows as one row until it is opened (a loop's repeated
    calls, ``inspector.loops``): its first and last message and what it says. Folded on the
    server (the page sends one row for the run; a jump into it opens it), unlike ``Fold``."""

    first: int
    last: int
    label: str  # "list_tables_tool × 6, same arguments, same result"


class Fold(NamedTuple):
    """A run of cards the timeline can fold into one row that opens on click: a turn (an
    assistant message with its calls and the results that follow), or any other group a
    detector names (``kind`` says which; the script treats every kind alike)."""

    first: int  # the group's first message
    last: int  # and its last
    kind: str  # "turn", ...
    label: str  # what the folded row says
    sev: str  # its worst finding's severity ("" when none)
    codes: str  # the rule codes of its findings, worst first, with counts ("TC001 ×2, TC015"; "" when none)


SHAPES: dict[str, tuple[str, ...]] = {"call": CallChip._fields, "result": ResultChip._fields,
                                      "mark": Mark._fields, "bucket": Bucket._fields, "fold": Fold._fields}
FOLD_LABEL_CHARS = 160


def _short(x: Any, n: int = NAME_CHARS) -> str:
    s = x if isinstance(x, str) else ("" if x is None else str(x))
    return s if len(s) <= n else s[: n - 1] + "…"


def assign_lanes(spans: list[tuple[int, int]]) -> list[int]:
    """Greedy interval colouring: a lane per span so that spans sharing rows never share a lane.

    Spans are (first row, last row). Shorter spans starting at the same row get the inner lanes,
    so parallel calls fan out from the cards. A lane is free again once its span has ended.
    """
    order = sorted(range(len(spans)), key=lambda k: (spans[k][0], spans[k][1]))
    lane_end: list[int] = []
    out = [0] * len(spans)
    for k in order:
        a, b = spans[k]
        for lane, end in enumerate(lane_end):
            if end < a:
                lane_end[lane] = b
                out[k] = lane
                break
        else:
            out[k] = len(lane_end)
            lane_end.append(b)
    return out


class TimelineModel:
    """Whole-transcript facts the timeline needs, computed once per checked transcript."""

    def __init__(self, msgs: list[Msg], pairing: Pairing, findings: list[Finding], dialect: Dialect,
                 page_size: int = PAGE_SIZE, items: list[Any] | None = None, loop_folds: list[LoopFold] | tuple[Any, ...] = ()):
        self.msgs = msgs
        # Runs shown as one row (folded) until opened; they never overlap (a later one that
        # would is dropped).
        self.loop_folds: list[LoopFold] = []
        for f in sorted(loop_folds):
            if f.last > f.first and (not self.loop_folds or f.first > self.loop_folds[-1].last):
                self.loop_folds.append(f)
        # The dialect the transcript was read as answers for its raw messages: their text, a
        # failed tool, time and tokens.
        self.dialect = dialect
        self.text = self.dialect.text
        # Envelopes: a log entry holding a message (Claude Code's keeps the timestamp beside it).
        self.envelope = self.dialect.envelopes(items or [])
        self.n = len(msgs)
        self.page_size = max(1, page_size)
        self.marks: dict[int, list[tuple[str, str]]] = {}
        self.worst: dict[int, int] = {}
        for f in findings:
            self.marks.setdefault(f.message_index, []).append((f.code, f.severity))
            r = SEV_RANK[f.severity]
            if r > self.worst.get(f.message_index, 0):
                self.worst[f.message_index] = r
        self.orphans = {(r.msg, r.pos) for r in pairing.orphans}
        # A result without a name of its own (openai-chat tool messages) shows its call's name.
        self.call_name = {(l.result.msg, l.result.pos): l.call.name for l in pairing.links}
        # Where a chip leads: a call to its (first) result, a result back to its call.
        self.answer: dict[tuple[int, int], int] = {}
        self.asked: dict[tuple[int, int], int] = {}
        for l in pairing.links:
            self.answer.setdefault((l.call.msg, l.call.pos), l.result.msg)
            self.asked.setdefault((l.result.msg, l.result.pos), l.call.msg)
        self._haystack: list[str] | None = None
        # Links: (id, call msg, call pos, result msg, result pos, status). Ghosts stand where a
        # missing result should have been: after the last message of the call's block.
        self.links: list[tuple[Any, ...]] = [
            (l.call.id, l.call.msg, l.call.pos, l.result.msg, l.result.pos, l.status) for l in pairing.links
        ]
        block_end = {b.index: b.ends for b in pairing.blocks}
        pending = {id(c) for c in pairing.pending}
        self.ghosts: list[tuple[Any, ...]] = []  # (id, name, call msg, call pos, anchor msg, status)
        for c in pairing.missing:
            anchor = block_end.get(c.msg, c.msg)
            self.ghosts.append((c.id, c.name, c.msg, c.pos, anchor, "pending" if id(c) in pending else "missing"))
        self._overviews: dict[int, list[Any]] = {}
        self._pages: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._lock = threading.Lock()
        self.by_msg: dict[int, list[int]] = {}
        for k, (_, cm, _, rm, _, _) in enumerate(self.links):
            self.by_msg.setdefault(cm, []).append(k)
            if rm != cm:
                self.by_msg.setdefault(rm, []).append(k)
        self.ghosts_at: dict[int, list[int]] = {}  # anchor msg -> ghost numbers
        self.ghosts_from: dict[int, list[int]] = {}  # call msg -> ghost numbers
        for g, gh in enumerate(self.ghosts):
            self.ghosts_at.setdefault(gh[4], []).append(g)
            self.ghosts_from.setdefault(gh[2], []).append(g)

    @property
    def pages(self) -> int:
        return max(1, -(-self.n // self.page_size))

    def page_of(self, index: int) -> int:
        """0-based page holding message ``index``."""
        return min(max(0, index), max(0, self.n - 1)) // self.page_size

    def overview(self, buckets: int = OVERVIEW_BUCKETS) -> list[Bucket]:
        """A ``Bucket`` per slice of the transcript."""
        cached = self._overviews.get(buckets)
        if cached is None:
            cached = self._overviews[buckets] = self._overview(buckets)
        return cached

    def _overview(self, buckets: int) -> list[Bucket]:
        if not self.n:
            return []
        k = min(buckets, self.n)
        out = []
        for b in range(k):
            a, z = b * self.n // k, (b + 1) * self.n // k - 1
            worst, count, target = 0, 0, a
            for i in range(a, z + 1):
                m = self.marks.get(i)
                if m:
                    count += len(m)
                    w = self.worst[i]
                    if w > worst:
                        worst, target = w, i
            out.append(Bucket(a, z, worst, count, target))
        return out

    def meta(self, i: int, full: bool = False) -> str:
        """Time, duration and tokens of message ``i`` in a few words ("" when the format has none)."""
        m = self.msgs[i]
        return meta_text(self.dialect.meta(m.raw, self.envelope.get(id(m.raw))), full)

    @property
    def finding_indexes(self) -> list[int]:
        """Messages with at least one finding, in transcript order (for next/previous finding)."""
        got = getattr(self, "_finding_indexes", None)
        if got is None:
            got = self._finding_indexes = sorted(self.marks)
        return got

    def turns(self) -> list[Fold]:
        """Each turn: a message with calls and the messages right after it that hold only
        results (the assistant's step and what its tools answered), when there is at least one."""
        got: list[Fold] | None = getattr(self, "_turns", None)
        if got is not None:
            return got
        out: list[Fold] = []
        i = 0
        while i < self.n:
            m = self.msgs[i]
            if not m.calls:
                i += 1
                continue
            j = i
            while j + 1 < self.n and self.msgs[j + 1].results and not self.msgs[j + 1].calls:
                j += 1
            if j > i:
                out.append(self._turn(i, j))
            i = j + 1
        self._turns = out
        return out

    def _turn(self, i: int, j: int) -> Fold:
        calls = [c for k in range(i, j + 1) for c in self.msgs[k].calls]
        results = sum(len(self.msgs[k].results) for k in range(i, j + 1))
        what = ", ".join(" ".join(x for x in (_short(c.name, 40), first_string_arg(c.args, 40)) if x) for c in calls[:4])
        if len(calls) > 4:
            what += f", … {len(calls) - 4} more"
        label = (f"{self.msgs[i].role} · {len(calls)} call{'s' if len(calls) != 1 else ''}: {what} · "
                 f"{results} result{'s' if results != 1 else ''}")
        if len(label) > FOLD_LABEL_CHARS:
            label = label[: FOLD_LABEL_CHARS - 1] + "…"
        worst = max((self.worst.get(k, 0) for k in range(i, j + 1)), default=0)
        return Fold(i, j, "turn", label, SEV_NAME[worst], self.codes_in(i, j))

    def codes_in(self, first: int, last: int) -> str:
        """The rule codes of the findings on messages ``first``..``last``, the worst severity first,
        each with its count when more than one: "TC001 ×2, TC015" (a folded row names what it holds,
        so an error folded away is never hidden)."""
        per: dict[str, list[int]] = {}  # code -> [worst rank, count]
        for k in range(first, last + 1):
            for code, sev in self.marks.get(k, ()):
                got = per.setdefault(code, [0, 0])
                got[0] = max(got[0], SEV_RANK[sev])
                got[1] += 1
        order = sorted(per.items(), key=lambda kv: (-kv[1][0], kv[0]))
        return ", ".join(code + (f" ×{n}" if n > 1 else "") for code, (_, n) in order)

    def folds(self, start: int, end: int) -> list[Fold]:
        """The groups wholly on the page ``[start, end)`` (a group cut by the page's edge stays open)."""
        turns = self.turns()
        k = bisect.bisect_left([t.first for t in turns], start)
        out = []
        for t in turns[k:]:
            if t.first >= end:
                break
            if t.last < end:
                out.append(t)
        return out

    def tool_names(self) -> list[tuple[str, int]]:
        """Each tool name called in the transcript with its number of calls, most called first."""
        got: list[tuple[str, int]] | None = getattr(self, "_tool_names", None)
        if got is not None:  # asked on every run of the timeline: counted once
            return got
        counts: dict[str, int] = {}
        for m in self.msgs:
            for c in m.calls:
                name = _short(c.name)
                counts[name] = counts.get(name, 0) + 1
        self._tool_names = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return self._tool_names

    def _hay(self) -> list[str]:
        """Per message, lower-cased: role, text, tool names, call ids and arguments (built on first search)."""
        with self._lock:
            if self._haystack is None:
                hay = []
                for i, m in enumerate(self.msgs):
                    # The same words as the card's preview, only more of them.
                    parts = [f"role:{m.role}", preview_text(m.raw, SEARCH_TEXT_CHARS, text=self.text)]
                    for c in m.calls:
                        args = c.args if isinstance(c.args, str) else _json_text(c.args)
                        parts.append(f"tool:{c.name} id:{c.id} {args[:SEARCH_TEXT_CHARS]}")
                    for r in m.results:
                        parts.append(f"tool:{r.name if r.name is not None else self.call_name.get((i, r.pos))} id:{r.id}")
                    hay.append("\n".join(str(p) for p in parts).lower())
                self._haystack = hay
            return self._haystack

    def search(self, query: str) -> list[int]:
        """Messages whose text, role, tool names, call ids or arguments contain every word of ``query``.

        ``role:user``, ``tool:bash`` and ``id:call_1`` narrow a word to that field; words are
        matched case-insensitively as substrings; quoted phrases keep their spaces.
        """
        words = _query_words(query)
        if not words:
            return []
        hay = self._hay()
        return [i for i, h in enumerate(hay) if all(w in h for w in words)]

    def filtered(self, findings_only: bool, tool: str | None) -> list[int] | None:
        """Messages the filters keep, in order (None: no filter). A tool keeps its calls and results."""
        if not findings_only and not tool:
            return None
        keep = []
        for i, m in enumerate(self.msgs):
            if findings_only and i not in self.marks:
                continue
            if tool and not (any(_short(c.name) == tool for c in m.calls) or any(
                    _short(r.name if r.name is not None else self.call_name.get((i, r.pos))) == tool for r in m.results)):
                continue
            keep.append(i)
        return keep

    def card(self, i: int) -> dict[str, Any]:
        """Message ``i`` as the timeline draws it (also the Compare view's cards, ``pairs.py``)."""
        m = self.msgs[i]
        return {
            "i": i,
            "role": _short(m.role, 40),
            "text": preview_text(m.raw, text=self.text, lines=True),
            "calls": [CallChip(id=_short(c.id) if c.id is not None else "", name=_short(c.name), pos=c.pos,
                               arg=first_string_arg(c.args), result_at=self.answer.get((i, c.pos), -1)) for c in m.calls],
            "results": [
                ResultChip(id=_short(r.id) if r.id is not None else "",
                           name=_short(r.name if r.name is not None else self.call_name.get((i, r.pos))),
                           pos=r.pos, orphan=int((i, r.pos) in self.orphans),
                           failed=int(self.dialect.result_failed(m.raw, r.id)), call_at=self.asked.get((i, r.pos), -1))
                for r in m.results
            ],
            "marks": [Mark(code, sev) for code, sev in self.marks.get(i, [])],
            "meta": self.meta(i),
            "sev": SEV_NAME[self.worst.get(i, 0)],
        }

    def page(self, p: int, selected: int | None = None, focus: int = 0, opened: frozenset[int] = frozenset()) -> dict[str, Any]:
        """The data of page ``p`` (0-based): cards, ghosts, connectors with lanes, stubs, overview.
        ``opened``: the first messages of the folds the user opened (a fold holding the
        selected message is open too).

        The last few pages are kept: a click in the timeline reruns with the same arguments.
        """
        p = min(max(0, p), self.pages - 1)
        key = (p, selected, focus, frozenset(opened))
        with self._lock:  # one model serves every session viewing the same file
            got = self._pages.get(key)
            if got is None:
                if len(self._pages) >= 4:
                    self._pages.pop(next(iter(self._pages)))
                got = self._pages[key] = self._page(p, selected, focus, frozenset(opened))
        return got

    def folded(self, start: int, end: int, selected: int | None, opened: frozenset[int]) -> dict[int, LoopFold]:
        """The folds shown closed on the page ``[start, end)``, by first message: those wholly on
        it, not opened, not holding the selected message."""
        return {f.first: f for f in self.loop_folds
                if start <= f.first and f.last < end and f.first not in opened
                and not (selected is not None and f.first <= selected <= f.last)}

    def _page(self, p: int, selected: int | None, focus: int, opened: frozenset[int] = frozenset()) -> dict[str, Any]:
        start = p * self.page_size
        end = min(self.n, start + self.page_size)  # exclusive
        rows: dict[Any, int] = {}  # message index or ("g", ghost no) -> row
        items: list[dict[str, Any]] = []
        closed = self.folded(start, end, selected, opened)
        inside = -1  # the last message of the closed fold being passed, if any
        for i in range(start, end):
            f = closed.get(i)
            if f is not None:
                inside = f.last
                rows[i] = len(items)
                items.append({"fold": f.first, "first": f.first, "last": f.last, "label": f.label,
                              "sev": SEV_NAME[max((self.worst.get(k, 0) for k in range(f.first, f.last + 1)), default=0)],
                              "codes": self.codes_in(f.first, f.last)})
            if i <= inside:
                rows[i] = len(items) - 1
                for g in self.ghosts_at.get(i, ()):
                    rows[("g", g)] = len(items) - 1
                continue
            rows[i] = len(items)
            items.append(self.card(i))
            for g in self.ghosts_at.get(i, ()):
                gid, name, cm, cpos, anchor, status = self.ghosts[g]
                rows[("g", g)] = len(items)
                items.append({"ghost": g, "id": _short(gid) if gid is not None else "", "name": _short(name),
                              "call": cm, "after": anchor, "status": status})
        last_row = len(items)
        link_ids: dict[int, None] = {}
        ghost_ids: dict[int, None] = {}
        for i in range(start, end):
            for k in self.by_msg.get(i, ()):
                link_ids[k] = None
            for g in self.ghosts_from.get(i, ()):
                ghost_ids[g] = None
            for g in self.ghosts_at.get(i, ()):
                ghost_ids[g] = None
        links: list[dict[str, Any]] = []
        spans: list[tuple[int, int]] = []
        for k in link_ids:
            cid, cm, cpos, rm, rpos, status = self.links[k]
            d = {"k": k, "id": _short(cid) if cid is not None else "", "from": cm, "fp": cpos, "to": rm, "tp": rpos,
                 "st": status}
            a = rows.get(cm)
            b = rows.get(rm)
            if a is not None and a == b and cm != rm:
                continue  # both ends inside one closed fold
            self._stub(d, a, b, cm, rm)
            spans.append(_span(a, b, d, last_row))
            links.append(d)
        for g in ghost_ids:
            gid, name, cm, cpos, anchor, status = self.ghosts[g]
            d = {"k": f"g{g}", "id": _short(gid) if gid is not None else "", "from": cm, "fp": cpos, "to": anchor,
                 "ghost": g, "st": status}
            a = rows.get(cm)
            b = rows.get(("g", g))
            if a is not None and a == b:
                continue  # inside one closed fold
            self._stub(d, a, b, cm, anchor)
            spans.append(_span(a, b, d, last_row))
            links.append(d)
        lanes = assign_lanes(spans)
        for d, lane in zip(links, lanes):
            d["lane"] = lane
        return {
            "page": p,
            "pages": self.pages,
            "start": start,
            "end": end,
            "total": self.n,
            "items": items,
            "links": links,
            "lanes": (max(lanes) + 1) if lanes else 0,
            "selected": selected,
            "focus": focus,
            "overview": self.overview(),
            # A turn that overlaps a loop folded on the server stays open: the loop's row stands for it.
            "folds": [t for t in self.folds(start, end)
                      if not any(f.first <= t.last and t.first <= f.last for f in closed.values())],
            "shapes": SHAPES,
        }

    def _stub(self, d: dict[str, Any], a: int | None, b: int | None, cm: int, rm: int) -> None:
        """Mark a link whose other end is on another page: where it goes and the page to open."""
        if a is None:
            d["stub"] = {"end": "from", "dir": "up" if cm < rm else "down", "other": cm, "page": self.page_of(cm) + 1}
        elif b is None:
            d["stub"] = {"end": "to", "dir": "down" if rm > cm else "up", "other": rm, "page": self.page_of(rm) + 1}


def _json_text(x: Any) -> str:
    if x is None:
        return ""
    try:
        import orjson

        return orjson.dumps(x).decode()
    except TypeError:
        return str(x)


def _query_words(query: str) -> list[str]:
    """Lower-cased search words; ``"a phrase"`` stays one word; ``field:value`` keeps its prefix."""
    import shlex

    q = (query or "").strip().lower()
    if not q:
        return []
    try:
        words = shlex.split(q)
    except ValueError:  # an unbalanced quote: plain words
        words = q.split()
    return [w for w in words if w]


def _span(a: int | None, b: int | None, d: dict[str, Any], last_row: int) -> tuple[int, int]:
    """Rows a connector occupies; an end on another page is the top (-1) or the bottom (last_row)."""
    edge = -1 if d.get("stub", {}).get("dir") == "up" else last_row
    a = edge if a is None else a
    b = edge if b is None else b
    return (min(a, b), max(a, b))
