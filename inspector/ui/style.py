"""The app's own look: a few rules on top of Streamlit's theme (static CSS, no transcript text)."""

from __future__ import annotations

import streamlit as st

CSS = """
<style>
.block-container { padding-top: 2.2rem; max-width: 1680px; }
.st-key-verdict-bad { background: rgba(217, 45, 58, 0.08); border-color: rgba(217, 45, 58, 0.55) !important; }
.st-key-verdict-warn { background: rgba(217, 138, 0, 0.08); border-color: rgba(217, 138, 0, 0.55) !important; }
.st-key-verdict-good { background: rgba(20, 163, 127, 0.08); border-color: rgba(20, 163, 127, 0.55) !important; }
.st-key-verdict-bad [data-testid="stText"], .st-key-verdict-warn [data-testid="stText"],
.st-key-verdict-good [data-testid="stText"] { font-size: 1rem; font-weight: 600; }
/* A file open: the title is one small line, the counts one row of compact tiles (the first
   screen at 1280x720 shows the verdict and the first cards). */
.st-key-app_title h1 { font-size: 1.25rem; padding: 0; line-height: 1.6; }
.st-key-summary [data-testid="stMetric"] { padding: 0.2rem 0.7rem !important; }
.st-key-summary [data-testid="stMetric"] > div { display: flex; align-items: baseline; gap: 0.5rem; padding: 2px 0 !important; }
.st-key-summary [data-testid="stMetricValue"] { padding: 0; }
.st-key-summary [data-testid="stMetric"] label { margin: 0; min-height: 0; }
.st-key-input_error { background: rgba(217, 45, 58, 0.08); border-color: rgba(217, 45, 58, 0.55) !important; }
.st-key-summary [data-testid="stMetricValue"] { font-size: 1.25rem; }
.st-key-detail [data-testid="stText"] { font-size: 0.92rem; }
.st-key-filename [data-testid="stText"] { font-family: var(--st-code-font, monospace); font-size: 1.0rem; }
.st-key-samples button, .st-key-samples button > div { justify-content: flex-start !important; width: 100%; }
.st-key-samples button p { text-align: left; }
</style>
"""


def inject() -> None:
    st.html(CSS)
