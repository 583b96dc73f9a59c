"""The address bar records the view: share token, target, transcript, dialect override, message.

``?t=<token>&target=mistral&tr=2&m=417`` (``dialect`` only when the user overrode detection),
so a reload of a shared view, and a copied URL, open the same place, and back/forward step
through the messages looked at. Streamlit pushes a history entry when the query string changes
and reruns the script with the old one on back/forward; ``follow`` tells those apart from our
own writes by comparing with what ``record`` last wrote for this file.
"""

from __future__ import annotations

import streamlit as st

from . import state

LAST = "_url_written"
KEYS = ("target", "tr", "dialect", "m")


def _int(x) -> int | None:
    s = str(x).strip() if x is not None else ""
    # isascii: "²".isdigit() is true and int("²") fails; a crafted link must not stop the page
    return int(s) if s.isascii() and s.isdigit() and len(s) <= 9 else None


def view_from_url() -> dict:
    """The view a link's own parameters ask for (added to a share's stored view)."""
    qp = st.query_params
    view: dict = {}
    if qp.get("target"):
        view["target"] = qp.get("target")
    if qp.get("dialect"):
        view["dialect"] = qp.get("dialect")
    tr = _int(qp.get("tr"))
    if tr is not None:
        view["transcript"] = tr
    m = _int(qp.get("m"))
    if m is not None:
        view["selected"] = m
    return view


def follow(loaded: state.Loaded) -> None:
    """Back/forward: apply the URL's values that differ from what this session last wrote."""
    last = st.session_state.get(LAST)
    if not last or last.get("sha") != loaded.sha:
        return
    qp = st.query_params
    now = {k: qp.get(k) for k in KEYS}
    if all(now[k] == last.get(k) for k in KEYS):
        return
    if now["target"] != last.get("target") and now["target"]:
        st.session_state[state.TARGET] = now["target"]  # the toolbar checks it fits the dialect
    if now["dialect"] != last.get("dialect"):
        st.session_state[state.DIALECT] = now["dialect"] or state.AUTO
    if now["tr"] != last.get("tr"):
        st.session_state[state.TRANSCRIPT] = _int(now["tr"]) or 0
    m = _int(now["m"])
    if now["m"] != last.get("m") and m is not None:
        state.jump(m)
    st.session_state[LAST] = {**last, **now}


def record(loaded: state.Loaded, dialect: str | None, target: str, transcript: int, message: bool = True) -> None:
    """Write the current view into the address bar (one history entry when something changed).

    A share token stays only while the shared file is the one shown: after an upload, a reload
    must not bring the shared file back."""
    sel = state.selected() if message else None  # the dataset view: no message is shown
    want = {
        "target": target,
        "tr": str(transcript) if transcript else None,
        "dialect": dialect or None,
        "m": str(sel) if sel is not None else None,
    }
    qp = st.query_params
    current = qp.to_dict()
    new = {k: v for k, v in current.items() if k not in KEYS}
    new.update({k: v for k, v in want.items() if v is not None})
    if loaded.origin != "share":
        new.pop("t", None)
    if loaded.origin != "inbox":  # likewise an inbox entry's id
        new.pop("inbox", None)
    if new != current:
        qp.from_dict(new)
    st.session_state[LAST] = {"sha": loaded.sha, **want}
