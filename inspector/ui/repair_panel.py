"""Repair: the engine's options, exactly the messages that change, and the downloads.

The panel reads the options from ``RepairOptions`` itself (defaults, choices, descriptions), so
a new option in the engine shows up here without a UI change. Repair runs on the bytes that
were loaded and is cached per (file, dialect, target, options). The repaired file keeps the
upload's dialect, wrapper and format; the engine guarantees that, the panel only offers it.
"""

from __future__ import annotations

import json
import typing
from pathlib import PurePath
from typing import Any

import streamlit as st

from ..errors import InputError
from ..repairing import usable_options
from . import state
from .analysis import Checked
from .bytecache import byte_cached

OPTIONS_KEY = "repair_options"
REPAIRED_PER_BYTE = 4  # the repaired document, its output bytes and its report
MAX_PAIRS = 60  # before/after pairs shown; the downloads always hold everything


def _choices(annotation: Any) -> list | None:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return list(args)
    return None


def option_widgets(defaults_override: dict | None = None) -> dict:
    """One widget per ``RepairOptions`` field; returns the chosen values (JSON-ready).

    Choices and switches sit in a row; the texts the repair writes (placeholder, bridge, note)
    are tucked into an expander.
    """
    from ..repairing import RepairOptions

    values: dict[str, Any] = {}

    restore = usable_options(defaults_override or {})
    fields = list(RepairOptions.model_fields.items())
    short = [(n, i) for n, i in fields if _choices(i.annotation) or i.annotation is bool]
    texts = [(n, i) for n, i in fields if (n, i) not in short]
    # Three columns: in four, at 1280 px, "Re-link rewritten result ids" was cut beside its help icon.
    cols = st.columns(max(1, min(3, len(short))))
    for k, (name, info) in enumerate(short):
        with cols[k % len(cols)]:
            values[name] = _option(name, info, restore)
    if texts:
        with st.expander("Texts the repair writes"):
            for name, info in texts:
                values[name] = _option(name, info, restore)
    st.session_state[OPTIONS_KEY] = values
    return values


LABELS = {
    "missing": "Missing result",
    "orphan": "Orphan result",
    "relink": "Re-link rewritten result ids",
    "duplicate": "Duplicate results",
    "pending": "Pending call",
    "leading": "History starting with a call",
    "rename_ids": "Rename ids",
    "user_as_result": "User text as result",
    "unknown_role": "Unknown role",
    "placeholder": "Placeholder result text",
    "bridge": "Bridging assistant text",
    "note": "Orphan note text",
    "leading_text": "User turn before a leading call",
}


def _option(name: str, info: Any, restore: dict) -> Any:
    label = LABELS.get(name) or name.replace("_", " ").capitalize()
    key = f"ro:{name}"
    default = restore.get(name, info.default)
    choices = _choices(info.annotation)
    if name in restore:
        st.session_state[key] = default
    if choices:
        if key not in st.session_state and default in choices:
            st.session_state[key] = default
        return st.selectbox(label, choices, key=key, help=info.description or None)
    if info.annotation is bool:
        st.session_state.setdefault(key, bool(default))
        return st.toggle(label, key=key, help=info.description or None)
    st.session_state.setdefault(key, "" if default is None else str(default))
    return st.text_input(label, key=key, help=info.description or None, max_chars=_max_chars(info))


def _max_chars(info: Any) -> int | None:
    return next((m.max_length for m in info.metadata if getattr(m, "max_length", None)), None)


@byte_cached(lambda sha, _data, *a, **k: REPAIRED_PER_BYTE * len(_data))
def repaired(sha: str, _data: bytes, dialect: str | None, target: str, options_json: str):
    from .workers import run_remembered

    with st.spinner("Repairing…"):  # in a worker process; here only when the operator turned workers off
        return run_remembered("repair", sha, _data, target, json.loads(options_json), dialect,
                              key=(dialect, target, options_json))


def repaired_name(name: str, fmt: str = "json") -> str:
    p = PurePath(name or "transcript.json")
    if fmt == "sqlite":  # a session store: a new database beside the original
        return f"{p.stem}.repaired{p.suffix if p.suffix in ('.db', '.sqlite', '.sqlite3') else '.db'}"
    suffix = p.suffix if p.suffix in (".json", ".jsonl") else ".json"
    return f"{p.stem}.repaired{suffix}"


def _side(label: str, items: list, index: int | None, absent: str) -> None:
    if index is not None and 0 <= index < len(items):
        st.text(f"{label} #{index}")
        show_json(items[index])
    else:
        st.text(absent)


def _before_after(checked: Checked, result: Any, transcript: int) -> None:
    changes = [c for c in result.report.changes if getattr(c, "transcript", 0) == transcript]
    if not changes:
        st.text("Nothing to change in this transcript for this target.")
        return
    import pandas as pd

    from .tables import whole_row_table

    def _at(v: Any) -> str:
        return "—" if v is None or pd.isna(v) else f"#{int(v)}"

    # The grid cuts a long reason or id: the clicked change (the first until one is) is read whole below.
    whole_row_table(
        pd.DataFrame(
            [(c.action, c.code, c.tool_call_id or "", c.index_before, c.index_after, c.text) for c in changes],
            columns=["action", "code", "tool call id", "before #", "after #", "change"],
        ), "repair_changes", {
            "action": st.column_config.TextColumn("action", width=150),
            "code": st.column_config.TextColumn("code", width=70),
            "tool call id": st.column_config.TextColumn("tool call id", width=130),
            "before #": st.column_config.NumberColumn("before #", width=80, format="%d"),
            "after #": st.column_config.NumberColumn("after #", width=80, format="%d"),
            "change": st.column_config.TextColumn("change", width="large"),
        }, whole=["change"],
        head=lambda r: (f"{r['action']} ({r['code']}) · tool call id: {r['tool call id'] or 'none'} · "
                        f"{_at(r['before #'])} → {_at(r['after #'])}"))
    before = checked.doc.transcripts[transcript].items
    after_doc = result.document
    after = after_doc.transcripts[transcript].items if transcript < len(after_doc.transcripts) else []
    pairs: dict[tuple, None] = {}
    for c in changes:
        pairs[(c.index_before, c.index_after)] = None
    st.text(f"{len(pairs)} message(s) change. Before on the left, after on the right.")
    for b, a in list(pairs)[:MAX_PAIRS]:
        left, right = st.columns(2)
        with left:
            _side("before", before, b, "(new message)")
        with right:
            _side("after", after, a, "(removed: kept in the report's quarantine)")
    if len(pairs) > MAX_PAIRS:
        st.text(f"… and {len(pairs) - MAX_PAIRS} more: download the repair report for all of them.")


def repair_panel(checked: Checked, loaded: state.Loaded, dialect: str | None, target: str, transcript: int) -> None:
    from ..export import to_markdown

    restore = st.session_state.pop("repair_options_restore", None)
    st.text(f"Repair for target {target}: every change is logged, and nothing is dropped silently.")
    opts = option_widgets(restore)
    try:
        result = repaired(loaded.sha, loaded.data, dialect, target, json.dumps(opts, sort_keys=True))
    except Exception as exc:  # noqa: BLE001 - a failed repair is a message, never a trace
        with st.container(key="repair_error", border=True):
            st.text("The repair could not be made for this file and these options.")
            # The engine's and the workers' refusals are sentences for the user (what and why); anything
            # else is named by its kind as well.
            st.text(str(exc) if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}")
        return
    rep = result.report
    _counts(checked, result, transcript)
    for line in rep.unfixed:
        st.text("Not fixed: " + line)
    with st.container(horizontal=True, key="downloads"):
        fmt = result.document.format
        st.download_button("Download repaired database" if fmt == "sqlite" else "Download repaired JSON", result.output,
                           file_name=repaired_name(loaded.name, fmt),
                           mime="application/vnd.sqlite3" if fmt == "sqlite" else "application/json",
                           on_click="ignore", type="primary", key="dl_repaired", icon=":material/download:")
        st.download_button("Download repair report", rep.to_json(),
                           file_name=PurePath(repaired_name(loaded.name, fmt)).stem + ".report.json",
                           mime="application/json", on_click="ignore", key="dl_report")
        st.download_button("Download Markdown transcript", to_markdown(result.document, rep).encode(),
                           file_name=PurePath(loaded.name or "transcript").stem + ".md",
                           mime="text/markdown", on_click="ignore", key="dl_markdown")
    _before_after(checked, result, transcript)
    if st.toggle("Show changes call by call (the repaired file against its original)", key="repair_compare"):
        from .compare import compare_view

        compare_view(checked.doc, result.document, transcript, "repair_compare",
                     (loaded.name or "original", repaired_name(loaded.name)))
    held = [{**q.model_dump(exclude={"content"}), "content": q.content}
            for q in rep.quarantine if q.transcript == transcript]
    if held:
        st.text("Quarantined (kept in the report, not sent):")
        show_json(held)


JSON_TREE_DEPTH = 64  # deeper values are shown as JSON text: a tree that deep breaks the page


def show_json(value: Any) -> None:
    """``st.json`` for ordinary values, the JSON text (``st.code``) for very deep ones."""
    if _deeper_than(value, JSON_TREE_DEPTH):
        from ..jsonio import dumps

        st.code(dumps(value).decode("utf-8", "replace"), language="json")
    else:
        st.json(value, expanded=1)


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return True
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return False


def _counts(checked: Checked, result: Any, transcript: int) -> None:
    """The counts above the lists, for the same thing the lists show: the selected transcript.

    A file with several transcripts also gets one line with the whole file's totals (the
    downloads hold the whole file), so that the two are never mistaken for each other.
    """
    rep = result.report
    n = len(checked.doc.transcripts)
    if n > 1:
        label = checked.doc.transcripts[transcript].label
        st.text(f"Transcript {transcript + 1} of {n} ({label}):")
    before = sum(1 for f in checked.findings(transcript) if f.severity == "error")
    with st.container(horizontal=True, key="repair_counts"):
        st.metric("Errors before", before, border=True)
        st.metric("Errors after", result.errors_after(transcript), border=True)
        st.metric("Changes", sum(1 for c in rep.changes if c.transcript == transcript), border=True)
        st.metric("Quarantined", sum(1 for q in rep.quarantine if q.transcript == transcript), border=True)
    if n > 1:
        st.text(f"Whole file ({n} transcripts, all in the downloads): {rep.findings_before.get('error', 0)} errors "
                f"before, {result.errors_after()} after, {len(rep.changes)} changes, {len(rep.quarantine)} quarantined.")
