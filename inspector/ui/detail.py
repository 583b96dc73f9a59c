"""The detail pane: the whole selected message, its findings and the other ends of its links.

Transcript text is hostile, so it is shown only with ``st.text``, ``st.code`` and ``st.json``;
widget labels carry numbers only. The raw message is shown as it is in the file (any dialect).

The pane stays bounded whatever the message: a 120 KB tool result shows its head (with real
newlines) and a "show all" switch that swaps the head for the whole text in a scroll box, and
"All fields" (collapsed) shortens long strings instead of repeating the text shown above it.
"""

from __future__ import annotations

from typing import Any

import orjson
import streamlit as st

from ..render.layout import TimelineModel
from . import state
from .analysis import Checked

HEAD_CHARS = 2_000  # the text shown before "show all"
HEAD_LINES = 24
FIELD_CHARS = 300  # strings longer than this are shortened under "All fields"
ARG_CHARS = 4_000  # a call's argument strings longer than this are shortened


def _args_value(args: Any) -> tuple[Any, bool]:
    """Arguments ready to pretty-print: (value, True) for JSON, (text, False) otherwise."""
    if isinstance(args, str):
        try:
            return orjson.loads(args), True
        except orjson.JSONDecodeError:
            return args, False
    return args, True


def _head(text: str) -> str:
    """The first HEAD_LINES lines / HEAD_CHARS characters of ``text``."""
    cut = text[:HEAD_CHARS]
    nl = -1
    for _ in range(HEAD_LINES):
        nl = cut.find("\n", nl + 1)
        if nl < 0:
            break
    return cut[:nl] if nl >= 0 else cut


TREE_DEPTH = 30  # levels shown as a tree; deeper values are shown as JSON text


def _shorten(x: Any, limit: int, depth: int = 0) -> Any:
    """A copy of ``x`` with strings over ``limit`` characters cut, saying how much was left out,
    and values nested past ``TREE_DEPTH`` levels given as one line of JSON text (a tree hundreds
    of levels deep is neither readable nor safe to hand to the browser's JSON viewer)."""
    if isinstance(x, str):
        return x if len(x) <= limit else x[:limit] + f"… ({len(x) - limit:,} more characters)"
    if depth >= TREE_DEPTH and isinstance(x, (dict, list)) and x:
        from ..checking import value_line

        return f"(nested too deep to show as a tree; as JSON: {value_line(x, limit)})"
    if isinstance(x, dict):
        return {k: _shorten(v, limit, depth + 1) for k, v in x.items()}
    if isinstance(x, list):
        return [_shorten(v, limit, depth + 1) for v in x]
    return x


def show_text(text: str, key: str) -> None:
    """The message text, readable and bounded: the head, or (switched on) all of it in a scroll box."""
    head = _head(text)
    if len(head) == len(text):
        st.code(text, language=None, wrap_lines=True)
        return
    full = st.toggle(f"Show all {len(text):,} characters ({text.count(chr(10)) + 1:,} lines)", key=key)
    if full:
        st.code(text, language=None, wrap_lines=True, height=480)
    else:
        st.code(head, language=None, wrap_lines=True)
        st.caption(f"First {len(head):,} of {len(text):,} characters.")


def finding_boxes(findings: list, target: str, where: str = "detail") -> None:
    """One box per finding, the provider's own words first and labelled as the CLI labels them."""
    for n, f in enumerate(findings):
        with st.container(border=True):
            if f.provider_error:
                with st.container(key=f"says-{where}-{n}", gap=None):
                    st.text(f"{target} says:")
                    st.code(f.provider_error, language=None, wrap_lines=True)
            st.text(f"{f.code} · {f.severity} · {f.rule}")
            st.text(f.text)
            if f.hint:
                st.text("Hint: " + f.hint)


def _goto(label: str, index: int, key: str) -> None:
    st.button(label, key=key, on_click=state.jump, args=(index,), type="tertiary", icon=":material/arrow_forward:")


def detail_pane(checked: Checked, transcript: int, sel: int | None, model: TimelineModel | None = None) -> None:
    """The selected message; ``model`` (the timeline's) adds its time, duration and tokens."""
    with st.container(key="detail", border=True):
        a = checked.analyses[transcript]
        if sel is None or not 0 <= sel < len(a.msgs):
            st.subheader("Message details")
            st.text("Click a card in the timeline (or a row of the findings table) to see the whole message here.")
            return
        m = a.msgs[sel]
        st.subheader(f"Message #{sel}")
        # The provider's words first: they are what the developer came with.
        finding_boxes([f for f in checked.findings(transcript) if f.message_index == sel], checked.report.target)
        st.text(f"role: {m.role}")
        when = model.meta(sel, full=True) if model is not None else ""
        if when:
            st.text(when)
        ends = [l for l in a.pairing.links if l.call.msg == sel or l.result.msg == sel]
        missing = {id(c) for c in a.pairing.missing}
        for c in m.calls:
            st.text(f"→ calls {c.name!s} (id {c.id if c.id is not None else 'none'})")
            answers = [l for l in ends if l.call is c]
            for n, l in enumerate(answers):
                _goto(f"Result in #{l.result.msg} ({l.status})", l.result.msg, f"go:{sel}:c{c.pos}:{n}")
            if id(c) in missing:
                st.text("   no result anywhere in the transcript")
            value, is_json = _args_value(c.args)
            if is_json and value is not None:
                st.json(_shorten(value, ARG_CHARS), expanded=2)
            elif value is not None:
                show_text(str(value), f"args:{transcript}:{sel}:{c.pos}")
        for r in m.results:
            name = r.name if r.name is not None else next((l.call.name for l in ends if l.result is r), "an unknown call")
            st.text(f"↩ result for {name!s} (id {r.id if r.id is not None else 'none'})")
            if a.dialect.result_failed(m.raw, r.id):
                st.text("✕ the tool reported an error when it ran (not a pairing problem)")
            for n, l in enumerate(l for l in ends if l.result is r):
                _goto(f"Call in #{l.call.msg} ({l.status})", l.call.msg, f"go:{sel}:r{r.pos}:{n}")
        text = a.dialect.text(m.raw)  # the words the timeline previews and the Markdown export shows
        if text:
            show_text(text, f"all:{transcript}:{sel}")
        with st.expander("All fields", expanded=False):
            st.json(_shorten(m.raw, FIELD_CHARS), expanded=2)
