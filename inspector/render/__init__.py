"""Pure shaping of checked transcripts for display: pages of cards, connectors and lanes.

``layout.TimelineModel`` feeds the Streamlit timeline component (``timeline.js`` and
``timeline.css`` in this package, read with ``importlib.resources``). Nothing here imports
streamlit; the UI glue lives in ``inspector.ui``.
"""

from __future__ import annotations

from importlib.resources import files

from .layout import PAGE_SIZE, TimelineModel, assign_lanes, preview_text

__all__ = ["PAGE_SIZE", "TimelineModel", "asset", "assign_lanes", "preview_text"]


def asset(name: str) -> str:
    """The text of a file shipped in this package (``timeline.js``, ``timeline.css``, ...)."""
    return files(__package__).joinpath(name).read_text(encoding="utf-8")
