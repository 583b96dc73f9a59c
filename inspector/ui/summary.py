"""The one-glance summary: counts, findings by severity, and the verdict in one sentence."""

from __future__ import annotations

import streamlit as st

from ..check import verdict
from .analysis import Checked


def transcript_verdict(checked: Checked, transcript: int) -> str:
    """The verdict for one transcript of the file (the report's, narrowed to its findings)."""
    report = checked.report.model_copy(update={"findings": checked.findings(transcript)})
    return verdict(report)


def summary(checked: Checked, transcript: int) -> None:
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
        st.metric("Errors", counts["error"], border=True)
        st.metric("Warnings", counts["warning"], border=True)
        st.metric("Notes", counts["info"], border=True)
    kind = "bad" if counts["error"] else ("warn" if counts["warning"] else "good")
    with st.container(key=f"verdict-{kind}", border=True):
        # The verdict quotes tool names from the transcript: shown as plain text, never Markdown.
        st.text(transcript_verdict(checked, transcript))
    n = len(checked.analyses)
    if n > 1:
        # The counts above are the selected transcript's; say so, and what the rest of the file holds.
        bad = {f.transcript for f in checked.report.findings if f.severity == "error"}
        errors = sum(1 for f in checked.report.findings if f.severity == "error")
        st.text(f"Counts and verdict for transcript {transcript + 1} of {n}. Whole file: "
                f"{len(bad)} of {n} transcripts would be rejected ({errors} errors).")
