"""Pure shaping of checked transcripts for display: pages of cards, connectors and lanes.

``layout.TimelineModel`` feeds the Streamlit timeline component (``cards.js`` and ``timeline.js``,
``timeline.css`` in this package, read with ``importlib.resources``); ``pairs.PairView`` feeds
the Compare view's (``cards.js`` and ``compare.js``, ``timeline.css`` and ``compare.css``). Nothing here imports
streamlit; the UI glue lives in ``inspector.ui``.
"""

from __future__ import annotations

from importlib.resources import files

from .layout import PAGE_SIZE, TimelineModel, assign_lanes, preview_text

__all__ = ["PAGE_SIZE", "TimelineModel", "asset", "assign_lanes", "preview_text", "script"]


def asset(name: str) -> str:
    """The text of a file shipped in this package (``timeline.js``, ``timeline.css``, ...)."""
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def script(name: str) -> str:
    """A component's script: ``cards.js`` (a message drawn as a card, shared by the timeline and
    the Compare view) followed by ``name`` (``timeline.js``, ``compare.js``), one module."""
    return asset("cards.js") + "\n" + asset(name)
