"""Where the context goes: the token curve beside the timeline, and "Fit to N tokens".

The context view draws the cumulative token count over the messages (Altair, through
``st.altair_chart``), the budget as a line, and every unit a fit to that budget would remove as a
band, coloured by kind: a call block is shaded whole, so a user sees why a message they expected
to lose stays (its result is further on, or its call is). The same removals are hatched in the
timeline's overview strip and on its cards (``timeline_overlay``). The repair tab's "Fit to N
tokens" section sets the budget and options, previews what goes and offers the fitted file and
the report for download. All of it runs ``inspector.fit`` on the loaded bytes, cached per
(file, dialect, target, budget, options); transcript text reaches the chart only as tooltip data.
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

import streamlit as st

from . import state
from .analysis import Checked

BUDGET = "fit_budget"  # session key: the budget in tokens (None: no budget set)
OPTIONS = "fit_options"  # session key: the fit options as a dict
MAX_POINTS = 2000  # points of the curve sent to the browser
MAX_BANDS = 400  # removed units drawn one by one; more are drawn as merged runs


def budget() -> int | None:
    b = st.session_state.get(BUDGET)
    return int(b) if isinstance(b, (int, float)) and b >= 0 else None


def fit_options() -> dict:
    return dict(st.session_state.get(OPTIONS) or DEFAULT_OPTIONS)


@st.cache_resource(max_entries=8, ttl=3600, show_spinner=False)
def message_tokens(sha: str, dialect: str | None, target: str, transcript: int, _checked: Checked) -> tuple[list[int], Any]:
    """Tokens of each message of the transcript, and the counter that counted them."""
    from ..tokens import count_messages, counter_for

    counter = counter_for(target)
    return count_messages([m.raw for m in _checked.analyses[transcript].msgs], counter), counter


@st.cache_resource(max_entries=8, ttl=3600, show_spinner="Fitting…")
def fitted(sha: str, _data: bytes, dialect: str | None, target: str, max_tokens: int, options_json: str,
           repair_json: str = "") -> Any:
    """The ``FitResult``, or the one-line reason the budget cannot be met (a str). ``repair_json``:
    the repair options when the file is repaired first (repair, then fit: one step)."""
    from .workers import WorkCrash, WorkLimit, run_remembered

    try:  # in a worker process; here only when the operator turned workers off
        return run_remembered("fit", sha, _data, max_tokens, target, json.loads(options_json), dialect,
                              json.loads(repair_json) if repair_json else None,
                              key=(dialect, target, max_tokens, options_json, repair_json))
    except WorkCrash:
        raise  # not cached: the next run tries again (``current_fit`` says it)
    except WorkLimit as exc:
        return str(exc)


REPAIR_FIRST = "fit_w_repair"  # widget: repair, then fit (on by default; asked only when the file has errors)
state.file_widgets({REPAIR_FIRST: True})


def input_errors(checked: Checked) -> int:
    """Errors of the whole file for the target: a fit keeps every one of them."""
    return sum(1 for f in checked.report.findings if f.severity == "error")


def repairs_first(checked: Checked) -> bool:
    return input_errors(checked) > 0 and st.session_state.get(REPAIR_FIRST, True) is not False


def current_fit(loaded, dialect: str | None, target: str, checked: Checked | None = None) -> Any:
    """The fit for the session's budget and options, or None when no budget is set."""
    b = budget()
    if b is None:
        return None
    repair_json = ""
    if checked is not None and repairs_first(checked):
        from .repair_panel import OPTIONS_KEY

        repair_json = json.dumps(st.session_state.get(OPTIONS_KEY) or {}, sort_keys=True)
    from .workers import WorkCrash

    try:
        return fitted(loaded.sha, loaded.data, dialect, target, b, json.dumps(fit_options(), sort_keys=True), repair_json)
    except WorkCrash as exc:
        return str(exc)


def removed_units(result: Any, transcript: int) -> list[dict]:
    if result is None or isinstance(result, str) or "repair" in result.report:
        # A fit of the repaired file counts its messages, not these: its removals are listed in
        # the Repair tab, not drawn on this file's timeline.
        return []
    return [u for u in result.report["removed"] if u["transcript"] == transcript]


def _runs(units: list[dict]) -> list[list]:
    """``[a, z, kind, unit first, unit last, unit tokens]`` per run of adjacent removed messages of one unit."""
    out: list[list] = []
    for u in units:
        for i in u["messages"]:
            if out and out[-1][3] == u["first"] and i == out[-1][1] + 1:
                out[-1][1] = i
            else:
                out.append([i, i, u["kind"], u["first"], u["last"], u["tokens"]])
    out.sort()
    return out


def timeline_overlay(loaded, dialect: str | None, target: str, transcript: int, checked: Checked) -> dict | None:
    """What the timeline shades, for every page: the budget and the runs of removed messages."""
    units = removed_units(current_fit(loaded, dialect, target, checked), transcript)
    if not units:
        return None
    return {"budget": budget(), "runs": _runs(units)}


def fit_for_page(overlay: dict | None, buckets: list, start: int, end: int) -> dict | None:
    """The page's share of ``overlay``: the removed fraction of each overview bucket, and the runs
    that touch the page's cards (``end`` exclusive)."""
    if not overlay:
        return None
    runs = overlay["runs"]
    fractions = []
    k = 0
    for a, z, *_ in buckets:
        while k < len(runs) and runs[k][1] < a:
            k += 1
        gone, j = 0, k
        while j < len(runs) and runs[j][0] <= z:
            gone += min(z, runs[j][1]) - max(a, runs[j][0]) + 1
            j += 1
        fractions.append(round(gone / (z - a + 1), 3))
    return {"budget": overlay["budget"], "buckets": fractions,
            "runs": [r for r in runs if r[1] >= start and r[0] < end]}


def _curve(tokens: list[int]) -> Any:
    import pandas as pd

    n = len(tokens)
    step = max(1, n // MAX_POINTS)
    seen, xs, ys = 0, [], []
    for i, t in enumerate(tokens):
        seen += t
        if i % step == 0 or i == n - 1:
            xs.append(i)
            ys.append(seen)
    return pd.DataFrame({"message": xs, "tokens so far": ys})


def _bands(units: list[dict], top: int) -> Any:
    """One band per removed unit (a unit whose messages are apart gets one per run of them)."""
    import pandas as pd

    rows = []
    for u in units:
        runs: list[list[int]] = []
        for i in u["messages"]:
            if runs and i == runs[-1][1] + 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        what = f"{u['kind']} #{u['first']}" + (f"–#{u['last']}" if u["last"] != u["first"] else "")
        for a, z in runs:
            rows.append({"from": a - 0.5, "to": z + 0.5, "kind": u["kind"], "removed": what, "tokens": u["tokens"],
                         "bottom": 0, "top": top})
    if len(rows) > MAX_BANDS:  # merge neighbours: the browser draws a few hundred rectangles at most
        merged: list[dict] = []
        for r in rows:
            if merged and r["from"] <= merged[-1]["to"] + 0.01:
                m = merged[-1]
                m["to"], m["tokens"] = r["to"], m["tokens"] + r["tokens"]
                m["kind"], m["removed"] = "several units", f"{m['removed'].split(' ')[0]} … {r['removed']}"
            else:
                merged.append(dict(r))
        rows = merged
    return pd.DataFrame(rows, columns=["from", "to", "kind", "removed", "tokens", "bottom", "top"])


def context_chart(tokens: list[int], units: list[dict], max_tokens: int | None) -> Any:
    """The Altair chart: cumulative tokens, the budget line, the removed units as bands."""
    import altair as alt

    total = sum(tokens)
    top = max(total, max_tokens or 0)
    curve = _curve(tokens)
    layers = []
    if units:
        bands = _bands(units, top)
        layers.append(
            alt.Chart(bands).mark_rect(opacity=0.28).encode(
                x="from:Q", x2="to:Q", y="bottom:Q", y2="top:Q",
                color=alt.Color("kind:N", title="a fit removes",
                                scale=alt.Scale(domain=["call block", "message", "several units"],
                                                range=["#d92d3a", "#e8903c", "#9b59b6"])),
                tooltip=[alt.Tooltip("removed:N", title="removes"), alt.Tooltip("tokens:Q", title="tokens")],
            )
        )
    layers.append(
        alt.Chart(curve).mark_line(color="#3b6fd8").encode(
            x=alt.X("message:Q", title="message #", scale=alt.Scale(domain=[0, max(1, len(tokens) - 1)], nice=False)),
            y=alt.Y("tokens so far:Q", title="tokens so far", scale=alt.Scale(domain=[0, top])),
            tooltip=["message:Q", "tokens so far:Q"],
        )
    )
    if max_tokens is not None:
        import pandas as pd

        layers.append(
            alt.Chart(pd.DataFrame({"budget": [max_tokens]})).mark_rule(color="#222", strokeDash=[6, 4]).encode(
                y="budget:Q", tooltip=[alt.Tooltip("budget:Q", title="budget")])
        )
    return alt.layer(*layers).properties(height=220)


def context_view(checked: Checked, loaded, dialect: str | None, target: str, transcript: int) -> None:
    """The token curve with the budget and what a fit would remove, above the timeline."""
    key = (loaded.sha, dialect, target, transcript)
    tokens, counter = message_tokens(*key, checked)
    total = sum(tokens)
    result = current_fit(loaded, dialect, target, checked)
    b = budget()
    units = removed_units(result, transcript)
    title = f"Context: {total:,} tokens ({counter.label})"
    # No key: the expander opens by itself once a budget is set (a new expanded= is a new element).
    with st.container(key="context_view"), st.expander(title, expanded=b is not None):
        if b is None:
            st.text("Set a budget under Repair → Fit to N tokens to see what a fit would remove.")
        elif isinstance(result, str):
            st.text(f"Cannot fit to {b:,} tokens: {result}")
        elif "repair" in result.report:
            st.text(f"Budget {b:,}: the fit runs on the repaired file (this one has errors); what it removes is "
                    "listed under Repair → Fit to N tokens.")
        else:
            kept = result.report["transcripts"][transcript]["tokens_after"]
            n = sum(len(u["messages"]) for u in units)
            st.text(f"Budget {b:,}: a fit keeps {kept:,} tokens and removes {len(units)} unit(s), {n} message(s); "
                    "call blocks go whole, with all their results.")
        with st.container(key="context_chart"):
            st.altair_chart(context_chart(tokens, units, b), width="stretch")


# The system prompt and the task (the first user message) stay unless the user says otherwise:
# a fitted file without its task is a different conversation.
DEFAULT_OPTIONS = {"strategy": "drop-oldest", "keep_system": True, "keep_first_user": True, "keep_last": 0}
state.file_widgets({"fit_w_budget": None, **{f"fit_w_{k}": v for k, v in DEFAULT_OPTIONS.items()}},
                   keys=(BUDGET, OPTIONS))


def _restore_widgets() -> None:
    """Give the widgets the stored values: the repair tab is only drawn while it is open, and
    Streamlit forgets a widget's state in a run that does not draw it; the budget and options
    live under their own keys, which the context view reads in every run."""
    stored = {**DEFAULT_OPTIONS, **fit_options()}
    if "fit_w_budget" not in st.session_state:
        st.session_state["fit_w_budget"] = budget()
    for name in DEFAULT_OPTIONS:
        if f"fit_w_{name}" not in st.session_state:
            st.session_state[f"fit_w_{name}"] = stored[name]
    st.session_state.setdefault(OPTIONS, stored)


def _store() -> None:
    st.session_state[BUDGET] = st.session_state.get("fit_w_budget")
    st.session_state[OPTIONS] = {name: st.session_state.get(f"fit_w_{name}", v) for name, v in DEFAULT_OPTIONS.items()}


def fitted_name(name: str) -> str:
    p = PurePath(name or "transcript.json")
    suffix = p.suffix if p.suffix in (".json", ".jsonl") else ".json"
    return f"{p.stem}.fitted{suffix}"


def fit_section(checked: Checked, loaded, dialect: str | None, target: str, transcript: int) -> None:
    """Repair tab: "Fit to N tokens": budget and options, a preview of what goes, downloads."""
    st.subheader("Fit to N tokens", anchor=False)
    tokens, counter = message_tokens(loaded.sha, dialect, target, transcript, checked)
    st.text(f"Removes whole units, oldest first (or from the middle), until the transcript fits: a call block "
            f"goes with every result of its calls. This transcript: {sum(tokens):,} tokens ({counter.label}).")
    _restore_widgets()
    # The switches get a row of their own: in fifth-width columns at 1280 px their labels were cut
    # to "Keep sys…" and "Keep firs…".
    c1, c2, c5 = st.columns([2, 2, 1], vertical_alignment="bottom")
    with c1:
        st.number_input("Budget (tokens)", min_value=0, step=1000, key="fit_w_budget", on_change=_store,
                        placeholder="e.g. 128000", help="the most tokens the fitted transcript may hold")
    with c2:
        st.selectbox("Remove", ["drop-oldest", "drop-middle"], key="fit_w_strategy", on_change=_store,
                     format_func=lambda s: {"drop-oldest": "oldest first", "drop-middle": "from the middle"}[s])
    with c5:
        st.number_input("Keep last", min_value=0, step=1, key="fit_w_keep_last", on_change=_store)
    with st.container(horizontal=True, gap="medium", key="fit_keeps"):
        st.toggle("Keep system", key="fit_w_keep_system", on_change=_store, help="keep the system prompt")
        st.toggle("Keep first user", key="fit_w_keep_first_user", on_change=_store,
                  help="keep the first user message: the task")
    broken = input_errors(checked)
    if broken:
        # Said before the fit: a fit removes whole units and fixes nothing.
        with st.container(key="fit_input_errors", border=True):
            st.text(f"This file has {broken:,} error(s) that {target} rejects. A fit removes whole units and fixes "
                    "nothing, so a fit of it alone would be rejected too.")
            state.widget_value(REPAIR_FIRST)
            st.toggle("Repair, then fit (one step)", key=REPAIR_FIRST,
                      help="Runs the repair above (its options) and fits the repaired file.")
            state.keep_widget(REPAIR_FIRST)
    result = current_fit(loaded, dialect, target, checked)
    if result is None:
        return
    if isinstance(result, str):
        with st.container(key="fit_error", border=True):
            st.text(f"Cannot fit to {budget():,} tokens: {result}")
        return
    rep = result.report
    repaired = "repair" in rep
    units = removed_units(result, transcript) if not repaired else [
        u for u in rep["removed"] if u["transcript"] == transcript]
    with st.container(horizontal=True, key="fit_counts"):
        st.metric("Tokens before", f"{rep['transcripts'][transcript]['tokens_before']:,}", border=True)
        st.metric("Tokens after", f"{rep['transcripts'][transcript]['tokens_after']:,}", border=True)
        st.metric("Units removed", len(units), border=True)
        st.metric("Errors after", rep["errors_after"], border=True)
    if repaired:
        r = rep["repair"]
        st.text(f"Repaired first: {r['errors_before']:,} error(s) before, {len(r['changes']):,} change(s), "
                f"{len(r['quarantine']):,} taken out (kept in the report). Message numbers below are the repaired file's.")
    if rep["errors_after"]:
        # Never hand over a file the provider rejects.
        with st.container(key="fit_rejected", border=True):
            why = "; ".join(rep["repair"]["unfixed"]) if repaired else ""
            st.text(f"No fitted file to download: {target} would reject it ({rep['errors_after']:,} error(s)). "
                    + (f"The repair could not fix: {why}" if why else
                       "Turn on \"Repair, then fit\" above, or repair the file first."))
    with st.container(horizontal=True, key="fit_downloads"):
        if not rep["errors_after"]:
            st.download_button("Download fitted JSON", result.output, file_name=fitted_name(loaded.name),
                               mime="application/json", on_click="ignore", type="primary", key="dl_fitted",
                               icon=":material/download:")
        st.download_button("Download fit report", json.dumps(rep, indent=2, ensure_ascii=False).encode(),
                           file_name=PurePath(fitted_name(loaded.name)).stem + ".report.json",
                           mime="application/json", on_click="ignore", key="dl_fit_report")
    if not units:
        st.text("Nothing to remove: the transcript already fits.")
        return

    msgs = checked.analyses[transcript].msgs
    with st.container(key="fit_preview"):
        _preview(units, None if repaired else msgs)


def _roles(u: dict, msgs: list | None) -> str:
    """The roles of a removed unit's messages (from the report's items for a repaired file)."""
    if msgs is None:
        roles = [str(it["content"].get("role", it["content"].get("type", "?"))) if isinstance(it["content"], dict)
                 else "?" for it in u["items"]]
    else:
        roles = [msgs[i].role for i in u["messages"]]
    return ", ".join(roles[:6]) + (" …" if len(roles) > 6 else "")


def _preview(units: list[dict], msgs: list | None) -> None:
    import pandas as pd

    st.text("What goes (each unit whole; the report holds every removed message):")
    st.dataframe(
        pd.DataFrame(
            [(u["first"], u["last"], u["kind"], len(u["messages"]), u["tokens"],
              _roles(u, msgs))
             for u in units],
            columns=["first #", "last #", "unit", "messages", "tokens", "roles"],
        ),
        hide_index=True, width="stretch", key="fit_preview_table",
    )
