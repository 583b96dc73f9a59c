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
/* Issue 36, cut and covered. The uploader's chip shortens a long file name in the middle
   ("train_…mber.jsonl") and keeps it whole only in its title: show the title, wrapped. */
[data-testid="stFileChipName"] { font-size: 0; white-space: normal; overflow: visible; text-overflow: clip; }
[data-testid="stFileChipName"]::after {
  content: attr(title); font-size: 0.875rem; line-height: 1.3; overflow-wrap: anywhere; white-space: normal;
}
/* A table's toolbar (search, download, full screen) shows above its top right corner on hover:
   tables right under a row of boxes get room for it, so it does not cover "Sort by" or "Rule code". */
.st-key-ds_table, .st-key-findings { margin-top: 2rem; }
/* Contrast (WCAG AA, 4.5:1 for text): Streamlit's captions (60% grey) and pills (4.48:1) are a
   little light on white; tests/e2e/test_app_contrast.py measures every text on the page. */
[data-testid="stCaptionContainer"] { opacity: 0.78 !important; }
.st-key-target_not_offered [data-testid="stCaptionContainer"] { font-size: 0.75rem; line-height: 1.3; }
.st-key-target_not_offered p { margin: 0; }
[data-testid="stButtonGroup"] button p { color: rgb(38, 39, 48); }
[data-testid="stFileChips"] [data-testid="stBaseButton-borderlessIcon"],
[data-testid="stFileChips"] [data-testid="stBaseButton-borderlessIcon"] * { color: rgb(49, 51, 63) !important; opacity: 1 !important; }
button:not(:disabled) kbd { opacity: 1 !important; color: inherit !important; }
/* st.json's Solarized numbers (3.6:1) and booleans (3:1): darker, strings a darker orange. */
[data-testid="stJson"] .variable-value, [data-testid="stJson"] .variable-value *:not(.string-value) { color: #1d5f99 !important; }
[data-testid="stJson"] .string-value { color: #a63c10 !important; }
[data-testid="stJson"] .array-key { color: #4b4f9e; }
[data-testid="stJson"] span:has(> .array-key) { opacity: 1 !important; }
/* The run counter for browser tests (run_marker.py): in the page, never seen. */
[class*="st-key-run_marker_"], [data-testid="stLayoutWrapper"]:has(> [class*="st-key-run_marker_"]) { display: none !important; }
</style>
"""


def inject() -> None:
    st.html(CSS)
