"""The one-glance summary: counts, findings by severity, and the verdict in one sentence."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ..checking import verdict
from .analysis import Checked


def transcript_verdict(checked: Checked, transcript: int) -> str:
    """The verdict for one transcript of the file (the report's, narrowed to its findings)."""
    report = checked.report.model_copy(update={"findings": checked.findings(transcript)})
    return verdict(report)


def summary(checked: Checked, transcript: int, beside: Callable[[], None] | None = None) -> None:
    """Counts, then the verdict; ``beside`` fills a column next to the verdict (the pasted error)."""
    a = checked.analyses[transcript]
    findings = checked.findings(transcript)
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity] += 1
    calls = sum(len(m.calls) for m in a.msgs)
    results = sum(len(m.results) for m in a.msgs)
    with st.container(key="summary", horizontal=True, gap="small"):
        st.metric("Messages", f"{len(a.msgs):,}", border=True)
        st.metric("Tool calls", f"{calls:,}", border=True)
        st.metric("Results", f"{results:,}", border=True)
        st.metric("Errors", f"{counts['error']:,}", border=True)
        st.metric("Warnings", f"{counts['warning']:,}", border=True)
        st.metric("Notes", f"{counts['info']:,}", border=True)
    kind = "bad" if counts["error"] else ("warn" if counts["warning"] else "good")
    left, right = st.columns([3, 2], gap="medium") if beside is not None else (st.container(), None)
    with left, st.container(key=f"verdict-{kind}", border=True):
        # The verdict quotes tool names from the transcript: shown as plain text, never Markdown.
        st.text(transcript_verdict(checked, transcript))
    if right is not None:
        with right:
            beside()
    n = len(checked.analyses)
    if n > 1:
        # The counts above are the selected transcript's; say so, and what the rest of the file holds.
        bad = {f.transcript for f in checked.report.findings if f.severity == "error"}
        errors = sum(1 for f in checked.report.findings if f.severity == "error")
        st.text(f"Counts and verdict for transcript #{transcript + 1} of {n}. Whole file: "
                f"{len(bad):,} of {n:,} transcripts would be rejected ({errors:,} errors).")
