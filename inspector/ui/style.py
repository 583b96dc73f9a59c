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
.st-key-verdict-good [data-testid="stText"] { font-size: 1.05rem; font-weight: 600; }
.st-key-input_error { background: rgba(217, 45, 58, 0.08); border-color: rgba(217, 45, 58, 0.55) !important; }
.st-key-summary [data-testid="stMetric"] { padding: 0.35rem 0.8rem; }
.st-key-summary [data-testid="stMetricValue"] { font-size: 1.6rem; }
.st-key-detail [data-testid="stText"] { font-size: 0.92rem; }
.st-key-filename [data-testid="stText"] { font-family: var(--st-code-font, monospace); font-size: 1.0rem; }
.st-key-samples button, .st-key-samples button > div { justify-content: flex-start !important; width: 100%; }
.st-key-samples button p { text-align: left; }
</style>
"""


def inject() -> None:
    st.html(CSS)
