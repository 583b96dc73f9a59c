"""The findings table: every rule break as a row, filterable; selecting a row shows the message.

A dataframe renders its cells as text, so sentences quoting the transcript are safe here.
Selecting a row is detected by comparing with the last selection handled (not a callback), so
it works the same in the browser and under AppTest.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..report import Finding
from . import state
from .tables import clicked_row, selectable_table

SEVERITIES = ["error", "warning", "info"]
state.file_widgets({"f_sev": list(SEVERITIES), "f_code": [], "findings": state.NO_SELECTION})
COLUMNS = ["message", "code", "severity", "rule", "tool_call_id", "sentence", "provider_error", "hint"]


def findings_frame(findings: list[Finding]) -> pd.DataFrame:
    rows = [
        (f.message_index, f.code, f.severity, f.rule, f.tool_call_id or "", f.text, f.provider_error or "", f.hint or "")
        for f in findings
    ]
    return pd.DataFrame(rows, columns=COLUMNS)


SEV_ORDER = {"error": 0, "warning": 1, "info": 2}
SEV_WORD = {"error": ("error", "errors"), "warning": ("warning", "warnings"), "info": ("note", "notes")}


def by_rule(findings: list[Finding]) -> list[tuple[str, str, str, int, int]]:
    """``(code, rule, worst severity, count, first message)`` per rule code, errors first, then by count."""
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(f.code, []).append(f)
    rows = []
    for code, fs in groups.items():
        worst = min((f.severity for f in fs), key=SEV_ORDER.__getitem__)
        rows.append((code, fs[0].rule, worst, len(fs), min(f.message_index for f in fs)))
    return sorted(rows, key=lambda r: (SEV_ORDER[r[2]], -r[3], r[0]))


def _pick_rule(code: str, first: int) -> None:
    st.session_state["f_code"] = [code]
    st.session_state["f_sev"] = list(SEVERITIES)
    state.jump(first)


def rule_groups(findings: list[Finding]) -> None:
    """One button per rule code with its count, errors first: 1,069 notes cannot bury 4 errors."""
    with st.container(key="by_rule", horizontal=True, gap="small"):
        for code, rule, sev, n, first in by_rule(findings):
            word = SEV_WORD[sev][0 if n == 1 else 1]
            st.button(f"{code} {rule.replace('_', ' ')}: {n:,} {word}", key=f"rule:{code}",
                      type="primary" if sev == "error" else "secondary", on_click=_pick_rule, args=(code, first),
                      help=f"Show only {code} in the table and go to its first message (#{first:,})")


def findings_table(findings: list[Finding], target: str) -> None:
    if not findings:
        st.success("No findings: every tool call has its result, and nothing breaks the target's rules.")
        return
    rule_groups(findings)
    codes = sorted({f.code for f in findings})
    c1, c2 = st.columns([1, 2])
    for key in ("f_sev", "f_code"):
        state.widget_value(key)
    picked = st.session_state.get("f_code") or []
    if any(c not in codes for c in picked):  # another transcript's codes
        st.session_state["f_code"] = [c for c in picked if c in codes]
    with c1:
        sev = st.pills("Severity", SEVERITIES, selection_mode="multi", key="f_sev")
    with c2:
        pick = st.multiselect("Rule code", codes, key="f_code", placeholder="All codes")
    for key in ("f_sev", "f_code"):
        state.keep_widget(key)
    shown = [f for f in findings if f.severity in (sev or SEVERITIES) and (not pick or f.code in pick)]
    df = findings_frame(shown)
    # The provider's words sit right after the code, in a table no wider than the page; the
    # clicked row (the first until one is clicked) is shown whole below it, wrapped, with the
    # rest (rule, tool call id, hint).
    event = selectable_table(
        df, "findings", 460, {
            "message": st.column_config.NumberColumn("#", help="message index", width=56, format="%d"),
            "code": st.column_config.TextColumn("code", width=70),
            "severity": st.column_config.TextColumn("severity", width=80),
            "provider_error": st.column_config.TextColumn(f"{target} says", width="medium",
                                                          help="the provider's own error text for this"),
            "sentence": st.column_config.TextColumn("sentence", width="medium"),
        }, column_order=["message", "code", "severity", "provider_error", "sentence"],
    )
    row = clicked_row(event, (tuple(sev or ()), tuple(pick)), "_fsel_seen", len(shown))
    if row is not None:
        state.jump(shown[row].message_index)
        st.session_state[PICKED] = row
    st.caption(f"{len(shown):,} of {len(findings):,} findings shown. Click a row to show its message in the "
               "timeline and the whole finding below.")
    k = st.session_state.get(PICKED, 0)
    if isinstance(k, int) and 0 <= k < len(shown):
        from .detail import finding_boxes

        with st.container(key="finding_picked"):
            f = shown[k]
            st.text(f"#{f.message_index} · tool call id: {f.tool_call_id or 'none'}")
            finding_boxes([f], target, "table")


PICKED = "_finding_picked"  # the row of the table last clicked: shown whole below it
state.file_widgets({}, keys=(PICKED,))
