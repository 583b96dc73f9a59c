"""Two timelines side by side, aligned pair by pair: the rows of the Compare view.

``inspector diff`` (``diffing.diff_analyses``) aligns the calls of two transcripts and groups them
in turns (the aligned calls sharing a call message). Each row here is one such turn: on each side
the messages from its call message up to the next turn's (the call, its results, the text after
them), drawn as the timeline draws them (``TimelineModel.card``: the same cards, call and result
chips, finding marks), and between the two sides what became of each aligned call (same, other
arguments, answered differently, added, removed). The messages before the first call are a row
of their own. A side the turn does not reach (a call only B makes) is left empty, so the pairs stay
level across the two runs.

Everything here is plain data for ``compare.js``; transcript text stays plain strings (the
script puts it into the page with ``textContent`` only).
"""

from __future__ import annotations

from typing import Any

from .layout import SHAPES, TimelineModel

MAX_CARDS = 12  # cards of one side in one row; the rest are counted ("… 30 more messages")
ROWS_PER_PAGE = 40  # rows sent at once; the view pages through the rest
STATUS_MARK = {"same": "=", "other_arguments": "~", "answered_differently": "\u2260", "added": "+",
               "removed": "\u2212"}


def _spans(starts: list[int | None], n: int) -> list[tuple[int, int, bool] | None]:
    """Per turn, the side's messages ``[first, end)`` it shows and whether its call message was
    already shown by the turn before (two turns of one side sharing a message); None: the turn
    is not on this side."""
    out: list[tuple[int, int, bool] | None] = []
    prev: int | None = None
    for k, s in enumerate(starts):
        if s is None:
            out.append(None)
            continue
        end = next((t for t in starts[k + 1:] if t is not None and t > s), n)
        out.append((s, end, s == prev))
        prev = s
    return out


def _side(model: TimelineModel, span: tuple[int, int, bool] | None) -> dict[str, Any] | None:
    if span is None:
        return None
    first, end, again = span
    if again:
        return {"first": first, "last": first, "cards": [], "more": 0, "again": first}
    shown = range(first, min(end, first + MAX_CARDS))
    return {"first": first, "last": end - 1, "cards": [model.card(i) for i in shown], "more": end - shown.stop,
            "again": None}


class PairView:
    """The rows of two aligned transcripts, cut into pages of ``ROWS_PER_PAGE``."""

    def __init__(self, diff: dict[str, Any], a: TimelineModel, b: TimelineModel):
        self.diff = diff
        turns = diff["turns"]
        calls = diff["calls"]
        sa = _spans([t["a_index"] for t in turns], a.n)
        sb = _spans([t["b_index"] for t in turns], b.n)
        fd = diff["first_divergence"]
        first_bad = next((k for k, e in enumerate(calls) if e["status"] != "same"), None)
        rows: list[dict[str, Any]] = []
        a0 = min([t["a_index"] for t in turns if t["a_index"] is not None] or [a.n])
        b0 = min([t["b_index"] for t in turns if t["b_index"] is not None] or [b.n])
        if a0 or b0:  # the messages before the first call (the task, a system prompt)
            rows.append({"status": "before", "calls": [],
                         "a": _side(a, (0, a0, False)) if a0 else None, "b": _side(b, (0, b0, False)) if b0 else None})
        for k, t in enumerate(turns):
            statuses = [calls[c]["status"] for c in t["calls"]]
            rows.append({"status": next((s for s in statuses if s != "same"), "same"),
                         "calls": [[STATUS_MARK[calls[c]["status"]], calls[c]["status"], calls[c]["tool"]]
                                   for c in t["calls"]],
                         "first_divergence": first_bad is not None and first_bad in t["calls"],
                         "a": _side(a, sa[k]), "b": _side(b, sb[k])})
        if fd is not None and first_bad is None and rows:  # every call the same, one run goes on
            rows[-1]["first_divergence"] = True
        for n, r in enumerate(rows):
            r["row"] = n
        self.rows = rows
        self.first = next((n for n, r in enumerate(rows) if r.get("first_divergence")), None)

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.rows) // ROWS_PER_PAGE))

    def start_page(self) -> int:
        """The page that shows the first divergence (with its row's neighbour above when it fits)."""
        return 0 if self.first is None else max(0, self.first - 1) // ROWS_PER_PAGE

    def page(self, p: int, labels: tuple[str, str]) -> dict[str, Any]:
        p = min(max(0, p), self.pages - 1)
        d = self.diff
        fd = d["first_divergence"]
        return {
            "page": p,
            "pages": self.pages,
            "total": len(self.rows),
            "rows": self.rows[p * ROWS_PER_PAGE:(p + 1) * ROWS_PER_PAGE],
            "first": self.first,
            "first_page": self.start_page(),
            "first_text": None if fd is None else fd["text"],
            "labels": list(labels),
            "sides": [{"dialect": d[s]["dialect"], "messages": d[s]["messages"], "calls": d[s]["calls"]}
                      for s in ("a", "b")],
            "shapes": SHAPES,
        }
