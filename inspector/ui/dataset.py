"""The dataset view: a file with several transcripts (an eval log, a JSON Lines dataset) at a glance.

What a person needs before opening one transcript: how many the target would reject, which
rules break most often (a bar chart per rule), and a table of the transcripts to sort and filter
by rule, severity and dialect. Clicking a row (or choosing in the toolbar's *Transcript* picker)
opens that transcript in the timeline; *All transcripts* comes back here. Everything here is
derived from the one cached check of the file; transcript labels come from the file and are
shown only in the table (text cells).
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from ..check import counts
from ..rules import RULES
from ..targets import PROVIDER_NAME
from . import state
from .analysis import Checked
from .bytecache import byte_cached
from .tables import clicked_row, selectable_table

SEVERITIES = ["error", "warning", "info", "clean"]
COLOURS = {"error": "#c62828", "warning": "#ef6c00", "info": "#1565c0"}
COLUMNS = ["#", "transcript", "dialect", "messages", "errors", "warnings", "notes", "codes", "first finding"]


@byte_cached(lambda *a, **k: 0)  # small, but keyed like ``checked``: dropped when idle like it
def dataset_rows(sha: str, dialect: str | None, target: str, _checked: Checked) -> pd.DataFrame:
    """One row per transcript, from the file's one check (cached with it)."""
    per: list[list] = [[] for _ in _checked.analyses]
    for f in _checked.report.findings:
        per[f.transcript].append(f)
    rows = []
    for n, (a, fs) in enumerate(zip(_checked.analyses, per)):
        c = counts(fs)
        first = next((f for f in fs if f.severity == "error"), None) or next(
            (f for f in fs if f.severity == "warning"), None) or (fs[0] if fs else None)
        rows.append((n, a.transcript.label, a.dialect.name, len(a.transcript.items), c["error"],
                     c["warning"], c["info"], ", ".join(sorted({f.code for f in fs})),
                     f"{first.code} {first.text}" if first else ""))
    return pd.DataFrame(rows, columns=COLUMNS)


def _rule_frame(checked: Checked) -> pd.DataFrame:
    seen: dict[str, dict] = {}
    per_code: dict[str, set[int]] = {}
    for f in checked.report.findings:
        r = seen.setdefault(f.code, {"code": f.code, "rule": RULES.get(f.code, f.code), "severity": f.severity,
                                     "findings": 0})
        r["findings"] += 1
        per_code.setdefault(f.code, set()).add(f.transcript)
    for code, r in seen.items():
        r["transcripts"] = len(per_code[code])
    return pd.DataFrame(sorted(seen.values(), key=lambda r: (-r["transcripts"], r["code"])),
                        columns=["code", "rule", "severity", "transcripts", "findings"])


def _summary(df: pd.DataFrame, target: str) -> None:
    n = len(df)
    rejected = int((df["errors"] > 0).sum())
    warned = int(((df["errors"] == 0) & (df["warnings"] > 0)).sum())
    with st.container(key="dataset_summary", horizontal=True, gap="small"):
        st.metric("Transcripts", f"{n:,}", border=True)
        st.metric("Rejected", f"{rejected:,}", f"{100 * rejected / n:.1f}%" if n else None, delta_color="off",
                  border=True)
        st.metric("Warnings only", f"{warned:,}", border=True)
        st.metric("Clean", f"{n - rejected - warned:,}", border=True)
        st.metric("Messages", f"{int(df['messages'].sum()):,}", border=True)
    who = PROVIDER_NAME.get(target, target)
    who = who[0].upper() + who[1:]
    kind = "bad" if rejected else ("warn" if warned else "good")
    with st.container(key=f"verdict-{kind}", border=True):
        st.text(f"{who} would reject {rejected:,} of {n:,} transcripts ({100 * rejected / max(n, 1):.1f}%); "
                f"{warned:,} more have warnings. Select a transcript to open it in the timeline.")


def _chart(rules: pd.DataFrame) -> None:
    if rules.empty:
        return
    chart = (
        alt.Chart(rules)
        .mark_bar()
        .encode(
            x=alt.X("transcripts:Q", title="transcripts with the rule", axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("code:N", sort="-x", title=None),
            color=alt.Color("severity:N", scale=alt.Scale(domain=list(COLOURS), range=list(COLOURS.values())),
                            legend=alt.Legend(orient="bottom", title=None)),
            tooltip=["code", "rule", "severity", "transcripts", "findings"],
        )
        .properties(height=alt.Step(28))  # a band per rule: two rules get two readable bars
    )
    with st.container(key="rule_chart"):
        st.altair_chart(chart, width="stretch")


def _filtered(df: pd.DataFrame) -> pd.DataFrame:
    codes = sorted({c for s in df["codes"] for c in s.split(", ") if c})
    dialects = sorted(set(df["dialect"]))
    c1, c2, c3 = st.columns([2, 2, 2])
    with c1:
        sev = st.pills("Severity", SEVERITIES, selection_mode="multi", default=SEVERITIES, key="ds_sev",
                       help="transcripts whose worst finding has this severity (clean: no finding)")
    with c2:
        pick = st.multiselect("Rule", codes, default=[], key="ds_rule", placeholder="All rules",
                              format_func=lambda c: f"{c} {RULES.get(c, '')}")
    with c3:
        dia = st.multiselect("Dialect", dialects, default=[], key="ds_dialect", placeholder="All dialects")
    worst = pd.Series("clean", index=df.index)
    worst[df["notes"] > 0] = "info"
    worst[df["warnings"] > 0] = "warning"
    worst[df["errors"] > 0] = "error"
    keep = worst.isin(sev or SEVERITIES)
    if pick:
        keep &= df["codes"].map(lambda s: bool(set(s.split(", ")) & set(pick)))
    if dia:
        keep &= df["dialect"].isin(dia)
    return df[keep]


def open_transcript(n: int) -> None:
    """Ask the next run to open transcript ``n`` (the picker is a widget already drawn in this run)."""
    st.session_state[state.DS_PENDING] = int(n)
    st.rerun()


def dataset_view(checked: Checked, key: tuple) -> None:
    sha, dialect, target = key
    df = dataset_rows(sha, dialect, target, checked)
    _summary(df, target)
    st.subheader("Findings per rule", anchor=False)
    _chart(_rule_frame(checked))
    st.subheader("Transcripts", anchor=False)
    shown = _filtered(df)
    event = selectable_table(
        shown, "ds_table", 520, {
            "#": st.column_config.NumberColumn("#", width="small", format="%d"),
            "transcript": st.column_config.TextColumn("transcript", width="medium", help="where it is in the file"),
            "first finding": st.column_config.TextColumn("first finding", width="large"),
        },
    )
    st.caption(f"{len(shown):,} of {len(df):,} transcripts shown. Click a column to sort, a row to open it.")
    filters = tuple(tuple(st.session_state.get(k) or ()) for k in ("ds_sev", "ds_rule", "ds_dialect"))
    row = clicked_row(event, filters, "_ds_seen", len(shown))
    if row is not None:
        open_transcript(int(shown.iloc[row]["#"]))
    with st.container(horizontal=True, key="ds_open_row"):
        n = st.session_state.get(state.TRANSCRIPT, 0)
        if st.button(f"Open transcript {n + 1} in the timeline", key="ds_open_button", icon=":material/timeline:"):
            open_transcript(n)


def back_button(total: int) -> None:
    st.button(f"All {total:,} transcripts", key="ds_back", icon=":material/arrow_back:", on_click=state.close_transcript)
