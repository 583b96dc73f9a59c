"""A run counter the page carries, for browser tests (issue 33).

Every script run that ends normally (the whole page, or the timeline's fragment rerun alone) adds
one to a counter in the session and draws it last, as hidden text in a keyed container
(``st-key-run_marker_<where>``). A full run counts once, at its end: a fragment it runs on the
way does not count, or the counter would grow before the run has ended. A test reads the highest counter on the page before an action
and waits until it has grown and the app is idle: then the action's run has ended and drawn
(tests/e2e/conftest.py ``rerun``). Right after a click Streamlit's "not running" state can still
be true before the rerun starts, so the state alone cannot tell. A run stopped by ``st.rerun()``
or ``st.stop()`` does not count: the run that follows it does.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

COUNT = "_run_count"


def mark(where: str) -> None:
    """Count this run and draw the count (hidden by ``style.CSS``); call last in the run."""
    n = int(st.session_state.get(COUNT, 0)) + 1
    st.session_state[COUNT] = n
    with st.container(key=f"run_marker_{where}"):
        st.text(str(n))


def mark_fragment(where: str) -> None:
    """``mark`` when only this fragment reruns (a click inside it); nothing inside a full run."""
    ctx = get_script_run_ctx()
    if ctx is not None and ctx.fragment_ids_this_run:
        mark(where)
