"""The timeline panel: the components-v2 timeline and the detail pane, in one fragment.

A click on a card reruns only this fragment (streamlit-notes §1.3): the analysis comes from the
cache, one page of a few hundred cards is cut out of the ``TimelineModel`` and the detail pane
shows the whole selected message. The component reports three events (triggers, valid for one
run): ``select`` (a card), ``jump`` (a stub or the overview: a message maybe on another page)
and ``page`` (previous/next).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..render import asset
from . import state
from .analysis import Checked, timeline_model
from .detail import detail_pane

KEY = "timeline"
_component = st.components.v2.component(
    "inspector_timeline",
    html="",
    css=asset("timeline.css"),
    js=asset("timeline.js"),
)


def _event(name: str) -> Any:
    value = st.session_state.get(KEY)
    if value is None:
        return None
    if isinstance(value, dict):
        return value.get(name)
    return getattr(value, name, None)


def _as_index(x: Any) -> int | None:
    try:
        return int(x)
    except (TypeError, ValueError):
        return None


def _on_select() -> None:
    i = _as_index(_event("select"))
    if i is not None:
        state.select(i)


def _on_jump() -> None:
    i = _as_index(_event("jump"))
    if i is not None:
        state.jump(i)


def _on_page() -> None:
    p = _as_index(_event("page"))
    if p is not None:
        state.set_page(p)


@st.fragment
def timeline_panel(checked: Checked, key: tuple, transcript: int) -> None:
    """Timeline (left) and detail pane (right). ``key`` = (sha, dialect, target) for the cache."""
    model = timeline_model(*key, transcript, checked)
    sel = state.selected()
    if sel is not None and not 0 <= sel < model.n:
        sel = None
    p = min(state.page(), model.pages - 1)
    mark = state.mark()
    left, right = st.columns([3, 2], gap="medium")
    with left:
        _component(
            key=KEY,
            data=model.page(p, mark, state.focus()),
            on_select_change=_on_select,
            on_jump_change=_on_jump,
            on_page_change=_on_page,
        )
    with right:
        detail_pane(checked, transcript, sel)
