"""Compare: the transcript shown against a second one (an upload or a share link), or the
repaired file against its original (the Repair tab's "show changes"), aligned call by call
(``inspector.diffing``, the engine of ``inspector diff``).

The view puts the first divergence on top, then the two runs as two timelines side by side,
aligned pair by pair (``render.pairs``, drawn by ``compare.js`` with the timeline's own cards):
each row is one turn, A's messages on the left and B's on the right, what became of each aligned
call between them, the rows that differ marked, the first divergence in view. The aligned calls
are also a table, under an expander. Transcript text reaches the page only as text (the
component's ``textContent``, table cells, ``st.text``).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pandas as pd
import streamlit as st

from ..checking import Analysis
from ..containers import Document
from ..diffing import checked_side, diff_analyses
from ..errors import InputError
from ..reading import load_bytes
from ..render import asset, script
from ..render.layout import TimelineModel
from ..render.pairs import PairView
from ..report import Finding
from . import state

UPLOAD, LINK = "compare_upload", "compare_link"
COLUMNS = ["A #", "A tool", "A arguments", "A result", "status", "B #", "B tool", "B arguments", "B result"]
PAGES = "compare_pages"  # {view key: the page of aligned turns shown}
state.file_widgets({}, keys=(LINK, PAGES))
_component = st.components.v2.component(
    "inspector_compare",
    html="",
    css=asset("timeline.css") + asset("compare.css"),
    js=script("compare.js"),
)


def _cell(side: dict | None, key: str) -> str:
    if side is None:
        return ""
    v = side.get(key)
    if key == "result":
        if v is None:
            return "(no result)"
        v = ("failed: " if side.get("failed") else "") + " ".join(str(v).split())
    s = "" if v is None else str(v)
    return s if len(s) <= 160 else s[:159] + "…"


def aligned_frame(d: dict) -> pd.DataFrame:
    """One row per aligned call: A's call, the status, B's call."""
    rows = []
    for e in d["calls"]:
        a, b = e["a"], e["b"]
        rows.append((a["message_index"] if a else None, e["tool"] if a else "", _cell(a, "arguments"), _cell(a, "result"),
                     e["status"].replace("_", " "),
                     b["message_index"] if b else None, e["tool"] if b else "", _cell(b, "arguments"), _cell(b, "result")))
    return pd.DataFrame(rows, columns=COLUMNS).astype({"A #": "Int64", "B #": "Int64"})


def divergence_line(d: dict) -> str:
    fd = d["first_divergence"]
    if fd is None:
        return "The runs do not diverge: every call is the same, with the same arguments and results."
    return "First divergence: " + fd["text"]


def side_model(report: dict, a: Analysis, transcript: int) -> TimelineModel:
    """One side's timeline model: its cards as the main timeline draws them."""
    findings = [Finding.model_validate(f) for f in report["findings"] if f["transcript"] == transcript]
    return TimelineModel(a.msgs, a.pairing, findings, a.dialect, items=a.transcript.items)


def compare_view(doc_a: Document, doc_b: Document, transcript: int, key: str, labels: tuple[str, str]) -> None:
    """The two transcripts aligned (transcript ``transcript`` of each)."""
    tb = min(transcript, max(0, len(doc_b.transcripts) - 1))
    try:
        ra, aa = checked_side(doc_a, labels[0], transcript)
        rb, ab = checked_side(doc_b, labels[1], tb)
    except InputError as exc:
        st.text(f"These cannot be compared: {exc}")
        return
    d = diff_analyses(ra, aa, rb, ab, transcript=transcript, path_a=labels[0], path_b=labels[1])
    a, b = d["a"], d["b"]
    with st.container(key=f"{key}_divergence", border=True):
        st.text(divergence_line(d))
        c = d["counts"]
        st.text(f"A: {labels[0]} ({a['dialect']}, {a['messages']} messages, {a['calls']} calls, "
                f"{len(a['findings'])} findings). B: {labels[1]} ({b['dialect']}, {b['messages']} messages, "
                f"{b['calls']} calls, {len(b['findings'])} findings). "
                + ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in c.items()) + ".")
        changed = [r for r in d["rules"] if r["change"] != "same"]
        if changed:
            st.text("Findings: " + "; ".join(f"{r['code']} {r['rule'].replace('_', ' ')} A {r['a']}, B {r['b']} "
                                              f"({r['change']} in B)" for r in changed) + ".")
    view = PairView(d, side_model(ra, aa, transcript), side_model(rb, ab, tb))
    # The page of turns shown, kept per view for this pair of files (another file: its first divergence).
    pair = (labels, a["messages"], b["messages"], len(view.rows))
    kept = st.session_state.setdefault(PAGES, {}).get(key)
    page = kept[1] if kept is not None and kept[0] == pair else view.start_page()

    def on_page() -> None:
        value = st.session_state.get(f"{key}_pairs")
        p = value.get("page") if isinstance(value, dict) else getattr(value, "page", None)
        if isinstance(p, int):
            st.session_state.setdefault(PAGES, {})[key] = (pair, p)

    with st.container(key=f"{key}_timelines"):
        _component(key=f"{key}_pairs", data=view.page(page, labels), on_page_change=on_page)
    with st.expander("The aligned calls as a table"):
        df = aligned_frame(d)
        with st.container(key=f"{key}_aligned"):
            st.dataframe(df, key=f"{key}_table", hide_index=True, width="stretch",
                         height=min(600, 38 + 35 * max(1, len(df))),
                         column_config={"A #": st.column_config.NumberColumn(width=60, format="%d"),
                                        "B #": st.column_config.NumberColumn(width=60, format="%d"),
                                        "status": st.column_config.TextColumn(width=150)})


def _from_link(link: str) -> tuple[bytes, str] | None:
    from .loading import share_module

    token = (parse_qs(urlparse(link.strip()).query).get("t") or [link.strip()])[0]
    mod = share_module()
    if mod is None or not token:
        st.text("Sharing is not available here: upload the second file instead.")
        return None
    got = mod.load_shared(token)
    return (got[0], got[1]) if got else None


def compare_panel(doc: Document, name: str, transcript: int) -> None:
    """The Compare tab: a second file by upload or share link, then the two aligned."""
    st.text("Compare this transcript with a second one (another run of the task, the history before a framework "
            "change, a repaired file): its calls are aligned with these, by id, then by tool and arguments, "
            "in any format.")
    left, right = st.columns(2)
    with left:
        up = st.file_uploader("Second file", key=UPLOAD, type=None)
    with right:
        link = st.text_input("…or a share link", key=LINK, placeholder="https://…/?t=…")
    other: tuple[bytes, str] | None = None
    if up is not None:
        other = (up.getvalue(), up.name)
    elif link and link.strip():
        other = _from_link(link)
    if other is None:
        return
    try:
        doc_b = load_bytes(other[0], other[1])
    except Exception as exc:  # noqa: BLE001 - an unreadable second file is a message
        st.text(f"The second file cannot be read: {exc}")
        return
    compare_view(doc, doc_b, transcript, "compare", (name or "A", other[1] or "B"))
