"""Compare: the transcript shown against a second one (an upload or a share link), or the
repaired file against its original (the Repair tab's "show changes"), aligned call by call
(``inspector.diffing``, the engine of ``inspector diff``).

The view puts the first divergence on top, then the two runs side by side: each row of the table
is one aligned call, A's on the left and B's on the right, joined by its status; the row of the
first divergence comes first selected. Transcript text reaches the page only as table cells
and plain text.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pandas as pd
import streamlit as st

from ..containers import Document
from ..diffing import diff_documents
from ..errors import InputError
from ..reading import load_bytes
from . import state

UPLOAD, LINK = "compare_upload", "compare_link"
COLUMNS = ["A #", "A tool", "A arguments", "A result", "status", "B #", "B tool", "B arguments", "B result"]
state.file_widgets({}, keys=(LINK,))


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


def compare_view(doc_a: Document, doc_b: Document, transcript: int, key: str, labels: tuple[str, str]) -> None:
    """The two transcripts aligned (transcript ``transcript`` of each)."""
    try:
        d = diff_documents(doc_a, doc_b, transcript=min(transcript, max(0, len(doc_b.transcripts) - 1)),
                           path_a=labels[0], path_b=labels[1])
    except InputError as exc:
        st.text(f"These cannot be compared: {exc}")
        return
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
    df = aligned_frame(d)
    first = next((k for k, e in enumerate(d["calls"]) if e["status"] != "same"), None)
    if first is not None and first > 3:
        # the first divergence in view: the rows before it are folded away behind a count
        st.text(f"{first} identical call(s) before the first divergence are not shown; all rows are in the JSON "
                f"of `inspector diff`.")
        df = df.iloc[first - 1:]
    with st.container(key=f"{key}_aligned"):
        st.dataframe(df, key=f"{key}_table", hide_index=True, width="stretch", height=min(600, 38 + 35 * max(1, len(df))),
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
