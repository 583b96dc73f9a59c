"""Paste the error you got: the provider's 400 text points at the messages and rules behind it.

The parsing is pure (``inspector.provider_errors``); this panel shows what was read out of the
text, one row per message it points at with a button to show it, and jumps to the first one
when a new text arrives. Pasted text is shown back only as plain text.
"""

from __future__ import annotations

import streamlit as st

from ..provider_errors import locate, parse_error, reading
from . import state
from .analysis import Checked

KEY = "pasted_error"
state.file_widgets({KEY: ""})  # a pasted error is about the file it was pasted for


def recorded_error(checked: Checked, transcript: int, sha: str) -> None:
    """A HAR entry that recorded the provider's error response: read it as if it were pasted.

    Done once per file and transcript, before the text box is drawn, so that the panel reads it and
    the timeline opens on the message it names; the user can still clear or replace the text."""
    t = checked.doc.transcripts[transcript] if transcript < len(checked.doc.transcripts) else None
    text = t.extra.get("response_error") if t is not None else None
    key = (sha, transcript)
    if text and st.session_state.get("_recorded_seen") != key:
        st.session_state["_recorded_seen"] = key
        st.session_state[KEY] = text


def pasted_error_panel(checked: Checked, transcript: int) -> None:
    state.widget_value(KEY)
    text = st.text_area(
        "Paste the error you got",
        key=KEY,
        height=110,
        placeholder="e.g. Invalid parameter: messages with role 'tool' must be a response to a preceeding "
        "message with 'tool_calls'. (param: messages.[3].role)",
        help="The provider's 400 response text, as it came. Press Ctrl+Enter or click outside to read it.",
    )
    if not text or not text.strip():
        st.session_state.pop("_pasted_seen", None)
        return
    a = checked.analyses[transcript]
    err = parse_error(text)
    hits = locate(err, a.msgs, checked.findings(transcript), a.turns)
    if st.session_state.get("_pasted_seen") != text:
        st.session_state["_pasted_seen"] = text
        if hits:
            state.jump(hits[0].index)
    with st.container(key="pasted_read", border=True):
        for line in reading(err, a.msgs, a.turns):
            st.text(line)
        if not hits:
            st.text("No message of this transcript matches it.")
        for h in hits:
            # The button keeps its own width (a narrow column cut "Show #3" to "Sh…"); the words wrap.
            with st.container(horizontal=True, vertical_alignment="center", gap="small"):
                st.button(f"Show #{h.index}", key=f"pe:{h.index}", on_click=state.jump, args=(h.index,),
                          width="content")
                codes = ", ".join(f"{f.code} ({f.severity})" for f in h.findings)
                # A message with no finding: the error may be about another version of the request.
                st.text("; ".join(h.reasons) + (f" · findings: {codes}" if codes else
                                                " · nothing wrong here: is this the same request?"), width="stretch")
