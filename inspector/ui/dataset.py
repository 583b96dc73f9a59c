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

from ..checking import counts
from ..rules import RULES
from ..targets import PROVIDER_NAME
from . import state
from .analysis import Checked
from .bytecache import byte_cached
from .tables import clicked_row, selectable_table

SEVERITIES = ["error", "warning", "info", "clean"]
COLOURS = {"error": "#c62828", "warning": "#ef6c00", "info": "#1565c0"}
ROW_HEIGHT = 35  # the grid's default row height (px)
COLUMNS = ["#", "transcript", "dialect", "messages", "errors", "warnings", "notes", "codes", "first finding"]
# How the table is ordered: kept with the filters (a header click sorts too, but only until the
# table is left), and previous / next follow it.
SORTS = {"file order": (["#"], [True]), "most errors": (["errors", "warnings", "#"], [False, False, True]),
         "most warnings": (["warnings", "errors", "#"], [False, False, True]),
         "most messages": (["messages", "#"], [False, True]), "name": (["transcript", "#"], [True, True])}
ORDER = "ds_order"  # the transcripts (0-based) the table showed last, in its order: previous / next walk it
LAST = "ds_last"  # the transcript opened last: highlighted in the table on the way back
BACK = "_ds_back"  # set by the way back: the next drawing of the table scrolls to that row
state.file_widgets({"ds_sev": list(SEVERITIES), "ds_rule": [], "ds_dialect": [], "ds_sort": "file order",
                    "ds_table": state.NO_SELECTION}, keys=(ORDER, LAST, BACK))
RECORD_IDS = ("id", "custom_id", "sample_id", "instance_id", "task_id", "uuid")


def record_name(doc, t) -> str:
    """What to call a transcript in the table: its record's own id (``"id"``, ``custom_id``, an
    eval sample's id) when the record has one, else the transcript's label (its JSON path)."""
    if t.name:
        return t.name
    if t.path and type(t.path[0]) is int and type(doc.root) is list and t.path[0] < len(doc.root):
        rec = doc.root[t.path[0]]
        if type(rec) is dict:
            for k in RECORD_IDS:
                v = rec.get(k)
                if type(v) in (str, int) and str(v).strip():
                    return str(v)[:120]
    if t.path and t.path[0] == "samples" and len(t.path) > 1 and type(doc.root) is dict:
        samples = doc.root.get("samples")
        rec = samples[t.path[1]] if type(samples) is list and type(t.path[1]) is int else None
        if type(rec) is dict and type(rec.get("id")) in (str, int):
            return inspect_sample_name(doc.root, rec)
    return t.label


def inspect_sample_name(root: dict, rec: dict) -> str:
    """An Inspect eval log's sample as its log names it: task, sample id, epoch and score."""
    ev = root.get("eval")
    task = ev.get("task") if type(ev) is dict and type(ev.get("task")) is str else None
    parts = [task[:60]] if task else []
    parts.append(f"sample {rec['id']}")
    if type(rec.get("epoch")) is int:
        parts.append(f"epoch {rec['epoch']}")
    scores = rec.get("scores")
    if type(scores) is dict and scores:
        first = next(iter(scores.values()))
        value = first.get("value") if type(first) is dict else first
        if type(value) in (str, int, float, bool):
            parts.append(f"score {value}")
    return " · ".join(parts)[:120]


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
        rows.append((n + 1, record_name(_checked.doc, a.transcript), a.dialect.name, len(a.msgs), c["error"],
                     c["warning"], c["info"], ", ".join(sorted({f.code for f in fs})),
                     first_finding(first)))
    return pd.DataFrame(rows, columns=COLUMNS)


def first_finding(f) -> str:
    """A transcript's first finding as the table's cell shows it whole: its rule code and name, and
    the message (the sentence, which the grid would cut, is read whole in the transcript)."""
    if f is None:
        return ""
    name = str(RULES.get(f.code, "")).replace("_", " ")
    return " ".join(x for x in (f.code, name, f"at #{f.message_index:,}" if f.message_index is not None else "") if x)


def codes_width(df: pd.DataFrame) -> int:
    """The "codes" column's width (px) for its longest cell, whole: 8 px a character and the padding."""
    longest = int(df["codes"].str.len().max()) if len(df) else 0
    return max(120, min(420, 8 * longest + 28))


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
    for r in seen.values():
        r["label"] = f"{r['code']} {r['rule']}" if r["rule"] != r["code"] else r["code"]
    return pd.DataFrame(sorted(seen.values(), key=lambda r: (-r["transcripts"], r["code"])),
                        columns=["code", "label", "rule", "severity", "transcripts", "findings"])


def _summary(df: pd.DataFrame, target: str) -> None:
    n = len(df)
    rejected = int((df["errors"] > 0).sum())
    warned = int(((df["errors"] == 0) & (df["warnings"] > 0)).sum())
    with st.container(key="dataset_summary", horizontal=True, gap="small"):
        st.metric("Transcripts", f"{n:,}", border=True)
        # The share in the value itself: as a delta ("↑ 6.7%") it read as a trend.
        st.metric("Rejected", f"{rejected:,} ({100 * rejected / n:.1f}%)" if n else "0", border=True)
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
            y=alt.Y("label:N", sort="-x", title=None, axis=alt.Axis(labelLimit=320)),  # the code and its name
            color=alt.Color("severity:N", scale=alt.Scale(domain=list(COLOURS), range=list(COLOURS.values())),
                            legend=alt.Legend(orient="bottom", title=None)),
            tooltip=["code", "rule", "severity", "transcripts", "findings"],
        )
        .properties(height=alt.Step(28))  # a band per rule: two rules get two readable bars
    )
    with st.container(key="rule_chart"):
        st.altair_chart(chart, width="stretch")


FILTERS = ("ds_sev", "ds_rule", "ds_dialect", "ds_sort")


def _filtered(df: pd.DataFrame) -> pd.DataFrame:
    """The filters and the order (kept while a transcript is open), and the rows they keep, in order."""
    codes = sorted({c for s in df["codes"] for c in s.split(", ") if c})
    dialects = sorted(set(df["dialect"]))
    for key in FILTERS:
        state.widget_value(key)
    for key, known in (("ds_rule", codes), ("ds_dialect", dialects)):
        if any(v not in known for v in st.session_state.get(key) or []):
            st.session_state[key] = [v for v in st.session_state.get(key) or [] if v in known]
    # The severity pills get the whole row: beside three boxes at 1280 px "clean" was cut off.
    c1 = st.container()
    c2, c3, c4 = st.columns([2, 2, 1])
    with c1:
        sev = st.pills("Severity", SEVERITIES, selection_mode="multi", key="ds_sev",
                       help="transcripts whose worst finding has this severity (clean: no finding)")
    with c2:
        pick = st.multiselect("Rule", codes, key="ds_rule", placeholder="All rules",
                              format_func=lambda c: f"{c} {RULES.get(c, '')}")
    with c3:
        dia = st.multiselect("Dialect", dialects, key="ds_dialect", placeholder="All dialects")
    with c4:
        order = st.selectbox("Sort by", list(SORTS), key="ds_sort")
    for key in FILTERS:
        state.keep_widget(key)
    worst = pd.Series("clean", index=df.index)
    worst[df["notes"] > 0] = "info"
    worst[df["warnings"] > 0] = "warning"
    worst[df["errors"] > 0] = "error"
    keep = worst.isin(sev or SEVERITIES)
    if pick:
        keep &= df["codes"].map(lambda s: bool(set(s.split(", ")) & set(pick)))
    if dia:
        keep &= df["dialect"].isin(dia)
    by, ascending = SORTS.get(order, SORTS["file order"])
    return df[keep].sort_values(by, ascending=ascending, kind="stable")


def open_transcript(n: int) -> None:
    """Ask the next run to open transcript ``n`` (0-based; the picker is a widget already drawn in this run)."""
    st.session_state[state.DS_PENDING] = int(n)
    st.session_state[LAST] = int(n)
    st.rerun()


def dataset_view(checked: Checked, key: tuple) -> None:
    sha, dialect, target = key
    df = dataset_rows(sha, dialect, target, checked)
    _summary(df, target)
    st.subheader("Findings per rule", anchor=False)
    _chart(_rule_frame(checked))
    st.subheader("Transcripts", anchor=False)
    shown = _filtered(df)
    st.session_state[ORDER] = [int(x) - 1 for x in shown["#"]]
    filters = tuple(str(st.session_state.get(k) or ()) for k in FILTERS)
    # Back from a transcript: its row is highlighted (the table is drawn anew, so its default
    # selection applies), and that selection is not a click.
    last = st.session_state.get(LAST)
    rows = [int(k) for k in (shown["#"] == (last or 0) + 1).to_numpy().nonzero()[0]] if last is not None else []
    default = {"selection": {"rows": rows[:1], "columns": [], "cells": []}} if rows else None
    if "ds_table" not in st.session_state or st.session_state.get("_ds_seen") is None:
        st.session_state["_ds_seen"] = ((tuple(rows[:1]), ()), *filters)
    if st.session_state.pop(BACK, False) and rows:
        _scroll_to(rows[0])
    event = selectable_table(
        shown, "ds_table", 520, {
            # Every column at least 76 px wide: the header's right 30 px open the column menu, so
            # a click in the middle of a narrower header opened the menu instead of sorting.
            "#": st.column_config.NumberColumn("#", width=76, format="%d",
                                               help="transcripts are counted from 1 (messages from #0, as the provider counts them)"),
            "transcript": st.column_config.TextColumn("transcript", width="medium",
                                                      help="the record's id, else where it is in the file"),
            "dialect": st.column_config.TextColumn("dialect", width=110),
            "messages": st.column_config.NumberColumn("messages", width=96),
            "errors": st.column_config.NumberColumn("errors", width=80),
            "warnings": st.column_config.NumberColumn("warnings", width=96),
            "notes": st.column_config.NumberColumn("notes", width=80),
            # Wide enough for every code of the longest row; the first finding is short (its code, rule
            # and message): the canvas grid cuts text with no way to read the rest.
            "codes": st.column_config.TextColumn("codes", width=codes_width(df)),
            "first finding": st.column_config.TextColumn(
                "first finding", width="large",
                help="the first error (else warning, else note): its rule and message; open the transcript to read it whole"),
        }, default=default,
    )
    st.caption(f"{len(shown):,} of {len(df):,} transcripts shown. They are counted from 1, the messages inside one "
               "from #0 (as the provider's errors count them). Click a row (its box or any cell right of "
               "the #) to open it, a header to sort; previous / next (Alt+↑ / Alt+↓) walk this list in the order "
               "chosen in Sort by.")
    row = clicked_row(event, filters, "_ds_seen", len(shown), first_column="#")
    if row is not None:
        open_transcript(int(shown.iloc[row]["#"]) - 1)
    with st.container(horizontal=True, key="ds_open_row"):
        n = st.session_state.get(state.TRANSCRIPT, 0)
        if st.button(f"Open transcript #{n + 1} in the timeline", key="ds_open_button", icon=":material/timeline:"):
            open_transcript(n)


def back_to_table() -> None:
    """"All N transcripts": the table as it was left, its filters and order given back here.

    Streamlit drops the state of widgets a run does not draw, and after a file opened earlier
    in the session it hands them back at their defaults (sort and filter reset, the row not
    found); the values kept while the table was shown are set again before it is drawn."""
    import copy

    state.close_transcript()
    kept = st.session_state.get(state.KEPT) or {}
    for key in FILTERS:
        if key in kept:
            st.session_state[key] = copy.deepcopy(kept[key])
    st.session_state[BACK] = True


# Scrolls the table's grid so that row ROW is in the middle of it, and the page so that the
# table is in view (our own code and numbers only; the grid is a canvas that keeps its own scroll).
_SCROLL_JS = """<script>
(() => {
  const row = %d, rowH = %d;
  let tries = 0;
  const go = () => {
    const t = document.querySelector('.st-key-ds_table');
    const sc = t && t.querySelector('.dvn-scroller');
    if (!sc || !sc.clientHeight) { if (tries++ < 300) requestAnimationFrame(go); return; }
    sc.scrollTop = Math.max(0, row * rowH - (sc.clientHeight - rowH) / 2);
    t.scrollIntoView({block: 'center'});
    t.setAttribute('data-restored-row', String(row));
  };
  go();
})();
</script>"""


def _scroll_to(row: int) -> None:
    st.html(_SCROLL_JS % (int(row), ROW_HEIGHT), unsafe_allow_javascript=True)


def _go(n: int) -> None:
    st.session_state[state.DS_PENDING] = n
    st.session_state[LAST] = n


def back_button(total: int, transcript: int) -> None:
    """Back to the table (its filters, order and this row kept), and previous / next in its order."""
    order = st.session_state.get(ORDER) or list(range(total))
    at = order.index(transcript) if transcript in order else None
    prev = order[at - 1] if at is not None and at > 0 else None
    nxt = order[at + 1] if at is not None and at + 1 < len(order) else None
    with st.container(horizontal=True, key="ds_nav", vertical_alignment="center", gap="small"):
        st.button(f"All {total:,} transcripts", key="ds_back", icon=":material/arrow_back:",
                  on_click=back_to_table)
        st.button("Previous", key="ds_prev", icon=":material/chevron_left:", disabled=prev is None,
                  on_click=_go, args=(prev,), shortcut="alt+up", help="the previous transcript of the table (Alt+↑)")
        st.button("Next", key="ds_next", icon=":material/chevron_right:", disabled=nxt is None,
                  on_click=_go, args=(nxt,), shortcut="alt+down", help="the next transcript of the table (Alt+↓)")
        where = f"{at + 1:,} of {len(order):,} in the table" if at is not None else "not in the table's filter"
        st.text(f"Transcript #{transcript + 1}: {where}")
