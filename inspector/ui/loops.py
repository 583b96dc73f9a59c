"""Loops in the app: the settings (threshold, a threshold per tool, allowed tools), the line the
summary adds (how many calls and tokens loops cost) and the table of loops, each row leading to
the loop's first call in the timeline (which shows the run folded into one row)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..errors import InputError
from ..loops import DEFAULT_THRESHOLD, DEFAULT_WINDOW, LoopOptions, loop_options
from ..render.layout import Fold
from ..report import LoopFinding
from . import state
from .tables import clicked_row, selectable_table

THRESHOLD, PER_TOOL, ALLOW, WINDOW = "loop_threshold", "loop_per_tool", "loop_allow", "loop_window"
COLUMNS = ["message", "code", "tool", "calls", "tokens", "sentence"]
PROBLEM = "_loop_settings_problem"


def folds(loops: list[LoopFinding]) -> tuple[Fold, ...]:
    """Each loop whose calls come in a row, as a run of the timeline shown as one row: from its
    first call to its last call's answer."""
    out = []
    for f in loops:
        if not f.in_a_row:
            continue
        last = max([f.last_index, *(c.result_index for c in f.calls if c.result_index is not None)])
        out.append(Fold(f.message_index, last, f"{f.tool} × {f.count}, same arguments, {f.result}"))
    return tuple(out)


def loops_frame(loops: list[LoopFinding]) -> pd.DataFrame:
    rows = [(f.message_index, f.code, f.tool, f.count, f.tokens, f.text) for f in loops]
    return pd.DataFrame(rows, columns=COLUMNS)


def _words(text: str) -> list[str]:
    return [w for w in text.replace(",", " ").split() if w]


def options() -> LoopOptions:
    """The loop settings as the sidebar holds them (the defaults until changed); a setting that
    is not valid keeps the defaults and says why beside the boxes."""
    ss = st.session_state
    threshold = ss.get(THRESHOLD, DEFAULT_THRESHOLD)
    per = _words(ss.get(PER_TOOL, "") or "")
    try:
        got = loop_options([str(int(threshold)), *per], _words(ss.get(ALLOW, "") or ""),
                           int(ss.get(WINDOW, DEFAULT_WINDOW)))
    except (InputError, ValueError) as exc:
        ss[PROBLEM] = str(exc).replace("--loop-threshold", "per-tool threshold")
        return LoopOptions()
    ss.pop(PROBLEM, None)
    return got


def settings() -> None:
    """The sidebar's loop settings."""
    with st.expander("Loop detection", expanded=False):
        st.number_input("Calls that make a loop", min_value=2, max_value=1000, value=DEFAULT_THRESHOLD, step=1,
                        key=THRESHOLD, help="The same tool with the same arguments this many times (in a row, or each "
                                            "within the window of the one before)")
        st.text_input("Threshold per tool", key=PER_TOOL, placeholder="poll_job=10 search=5",
                      help="TOOL=N, separated by spaces or commas")
        st.text_input("Never report these tools", key=ALLOW, placeholder="job_status",
                      help="Tool names, separated by spaces or commas")
        st.number_input("Window (calls)", min_value=1, max_value=1000, value=DEFAULT_WINDOW, step=1, key=WINDOW,
                        help="A repeat counts when it comes within this many calls of the one before (1: in a row)")
        problem = st.session_state.get(PROBLEM)
        if problem:
            st.text(f"Not used: {problem}")


def summary_line(loops: list[LoopFinding]) -> str:
    """``Loops: 1 loop cost 6 calls and 180 tokens (o200k_base).``, or "" without loops."""
    if not loops:
        return ""
    calls = sum(f.count for f in loops)
    tokens = sum(f.tokens for f in loops)
    s = "s" if len(loops) != 1 else ""
    return (f"Loops: {len(loops):,} loop{s} cost {calls:,} calls and {tokens:,} tokens "
            f"({loops[0].counter}); a loop is never a reason the provider rejects the request.")


def loops_table(loops: list[LoopFinding]) -> None:
    """The loops of the transcript, a click leading to the first call of one."""
    if not loops:
        return
    with st.container(key="loops"):
        st.text(summary_line(loops))
        event = selectable_table(loops_frame(loops), "loops_table", 40 + 36 * min(len(loops), 6), {
            "message": st.column_config.NumberColumn("#", help="the message of the first call", width=56, format="%d"),
            "code": st.column_config.TextColumn("code", width=70),
            "tool": st.column_config.TextColumn("tool", width="small"),
            "calls": st.column_config.NumberColumn("calls", width=60),
            "tokens": st.column_config.NumberColumn("tokens", width=80),
            "sentence": st.column_config.TextColumn("sentence", width="large"),
        }, column_order=COLUMNS)
        row = clicked_row(event, (len(loops),), "_loopsel_seen", len(loops))
        if row is not None:
            state.jump(loops[row].message_index)


state.file_widgets({}, keys=("_loopsel_seen",))
