"""The timeline panel: the components-v2 timeline and the detail pane, in one fragment.

A click on a card reruns only this fragment (streamlit-notes §1.3): the analysis comes from the
cache, one page of a few hundred cards is cut out of the ``TimelineModel`` and the detail pane
shows the whole selected message. The component reports three events (triggers, valid for one
run): ``select`` (a card), ``jump`` (a stub, a chip, a finding or a match: a message maybe on
another page), ``page`` (previous/next), ``search`` (the query typed in the timeline) and ``only`` (the "only
matches" switch).

Search and the filters run here over the whole transcript (``TimelineModel.search`` /
``filtered``); the component gets the matches and the filters' verdict for its page beside the
cached page data, so stepping through matches crosses pages like any other jump.
"""

from __future__ import annotations

import bisect
from typing import Any

import streamlit as st

from ..render import asset, script
from ..render.layout import MAX_MATCHES, TimelineModel, first_string_arg, preview_text
from . import state, url
from .analysis import Checked, timeline_model
from .detail import detail_pane
from .loops import folds as loop_folds
from .run_marker import mark_fragment

KEY = "timeline"
QUERY, ONLY_FINDINGS, ONLY_TOOL = "tl_query", "flt_findings", "flt_tool"
ONLY_MATCHES = "tl_only_matches"  # "show only matches": the search hides every other card
OPENED = "tl_opened_folds"  # messages jumped to: a folded run whose first message is one stays open
LISTED = 200  # matches listed by name under the search box: a window around the current one
state.file_widgets({ONLY_FINDINGS: False, ONLY_TOOL: None}, keys=(QUERY, ONLY_MATCHES, "_search_new", "_kept_for", OPENED))
_component = st.components.v2.component(
    "inspector_timeline",
    html="",
    css=asset("timeline.css"),
    js=script("timeline.js"),
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
        # A folded run (a loop) asks for its first message when clicked: it opens and stays open.
        st.session_state[OPENED] = (*(st.session_state.get(OPENED) or ())[-63:], i)
        state.jump(i)


def _on_search() -> None:
    q = _event("search")
    if isinstance(q, str):
        st.session_state[QUERY] = q[:500]
        st.session_state["_search_new"] = True


def _on_only() -> None:
    st.session_state[ONLY_MATCHES] = bool(_event("only"))


def _on_page() -> None:
    p = _as_index(_event("page"))
    if p is not None:
        state.set_page(p)


def _match_label(model: TimelineModel, i: int) -> list:
    m = model.msgs[i]
    label = next((f"{c.name}: {first_string_arg(c.args)}" for c in m.calls), None) or preview_text(m.raw, 100, text=model.text)
    return [i, str(m.role)[:40], label]


def _search_data(model: TimelineModel) -> tuple[dict, list[int]]:
    """What the component shows of the search, and every message it matches."""
    q = st.session_state.get(QUERY) or ""
    if not q.strip():
        return {"q": "", "matches": [], "count": 0, "list": [], "only": False}, []
    found = model.search(q)
    if st.session_state.pop("_search_new", False) and found:
        # A new query shows its first match (after the selection, like a browser's find).
        sel = state.selected()
        nxt = next((i for i in found if sel is None or i > sel), found[0])
        state.jump(nxt, model.page_size)
    # The list follows the current match: a window of LISTED names around it ("299 of 375" lists
    # #299's neighbours, not the first ones).
    sel = state.selected()
    at = bisect.bisect_left(found, sel) if sel is not None else 0
    start = max(0, min(at - LISTED // 2, len(found) - LISTED))
    return {"q": q, "matches": found[:MAX_MATCHES], "count": len(found),
            "only": bool(st.session_state.get(ONLY_MATCHES)),
            "list": [_match_label(model, i) for i in found[start:start + LISTED]], "listed_from": start}, found


def _only_matches(model: TimelineModel, kept: list[int] | None, found: list[int]) -> list[int] | None:
    """"Show only matches" (as DevTools' filter): the filters' messages narrowed to the matches.

    Done here over every match, so stepping, paging and the "filtered: N shown" count work as
    for the other filters; a new narrowing shows the first match at or after the selection."""
    if not st.session_state.get(ONLY_MATCHES) or not (st.session_state.get(QUERY) or "").strip():
        return kept
    only = found if kept is None else sorted(set(kept) & set(found))
    sel = state.selected()
    if only and (sel is None or sel not in only):
        state.jump(next((i for i in only if sel is None or i >= sel), only[0]), model.page_size)
    return only


def _keep_data(model: TimelineModel, p: int, kept: list[int] | None) -> dict | None:
    if kept is None:
        return None
    start, end = p * model.page_size, min(model.n, (p + 1) * model.page_size)
    a, z = bisect.bisect_left(kept, start), bisect.bisect_left(kept, end)
    return {"page": kept[a:z], "prev": kept[a - 1] if a > 0 else None, "next": kept[z] if z < len(kept) else None,
            "first": kept[0] if kept else None, "last": kept[-1] if kept else None, "total": len(kept)}


def _filters(model: TimelineModel) -> list[int] | None:
    """"Only messages with findings" and "only this tool": the messages they keep, or None."""
    tools = model.tool_names()
    c1, c2 = st.columns([1, 1], vertical_alignment="center")
    for key in (ONLY_FINDINGS, ONLY_TOOL):
        state.widget_value(key)
    with c1:
        only = st.toggle("Findings only", key=ONLY_FINDINGS, help="Show only the messages that have findings")
    with c2:
        names = [name for name, _ in tools]
        counts = dict(tools)
        if st.session_state.get(ONLY_TOOL) not in (None, *names):
            st.session_state[ONLY_TOOL] = None
        tool = st.selectbox("Only this tool", names, index=None, key=ONLY_TOOL, placeholder="All tools",
                            format_func=lambda n: f"{n} ({counts[n]:,} calls)", label_visibility="collapsed")
    for key in (ONLY_FINDINGS, ONLY_TOOL):
        state.keep_widget(key)
    kept = model.filtered(only, tool)
    if kept is not None and (st.session_state.get("_kept_for") != (only, tool)):
        # A new filter: show the first kept message at or after the selection.
        st.session_state["_kept_for"] = (only, tool)
        if kept:
            sel = state.selected() or 0
            state.jump(next((i for i in kept if i >= sel), kept[0]), model.page_size)
    elif kept is None:
        st.session_state.pop("_kept_for", None)
    return kept


@st.fragment
def timeline_panel(checked: Checked, key: tuple, transcript: int, loaded: state.Loaded | None = None,
                   fit: dict | None = None) -> None:
    """Timeline (left) and detail pane (right). ``key`` = (sha, dialect, target) for the cache;
    ``fit``: the units a fit would remove, hatched on the cards and the overview (``context.py``).

    Every run (a click reruns only this fragment) ends by recording the view in the URL."""
    model = timeline_model(*key, transcript, checked, loop_folds(checked.loops(transcript)))
    left, right = st.columns([3, 2], gap="medium")
    with right:
        # The filters sit above the detail pane, beside the timeline's own header: above the
        # timeline they pushed the first cards off a 720 px screen.
        kept = _filters(model)
    with left:
        search, found = _search_data(model)
        kept = _only_matches(model, kept, found)
        sel = state.selected()
        if sel is not None and not 0 <= sel < model.n:
            sel = None
        p = min(state.page(), model.pages - 1)
        data = dict(model.page(p, state.mark(), state.focus(), frozenset(st.session_state.get(OPENED) or ())))
        data["fi"] = model.finding_indexes
        data["search"] = search
        data["keep"] = _keep_data(model, p, kept)
        if fit:
            from .context import fit_for_page

            data["fit"] = fit_for_page(fit, data["overview"], data["start"], data["end"])
        _component(
            key=KEY,
            data=data,
            on_select_change=_on_select,
            on_jump_change=_on_jump,
            on_page_change=_on_page,
            on_search_change=_on_search,
            on_only_change=_on_only,
        )
    with right:
        detail_pane(checked, transcript, sel, model)
    if loaded is not None:
        url.record(loaded, key[1], key[2], transcript)
    mark_fragment("timeline")  # a click reruns only this fragment: it counts its own runs (run_marker.py)
