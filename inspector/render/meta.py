"""Timestamps, durations and token counts in a few words, from what the dialect found
(``Dialect.meta``: a log's keys beside each message); nothing is guessed."""

from __future__ import annotations

from typing import Any


def _seconds(s: float) -> str:
    return f"{s * 1000:,.0f} ms" if s < 1 else f"{s:,.1f} s" if s < 600 else f"{s / 60:,.0f} min"


def meta_text(meta: dict[str, Any], full: bool = False) -> str:
    """``10:00:30 · 1.2 s · 25 in / 120 out tokens`` (``full``: the whole date and time)."""
    parts = []
    t = meta.get("time")
    if t is not None:
        parts.append(t.isoformat() if full else t.strftime("%H:%M:%S"))
    if "seconds" in meta:
        parts.append(_seconds(meta["seconds"]))
    if "tokens_in" in meta or "tokens_out" in meta:
        parts.append(f"{meta.get('tokens_in', 0):,} in / {meta.get('tokens_out', 0):,} out tokens")
    elif "tokens" in meta:
        parts.append(f"{meta['tokens']:,} tokens")
    return " · ".join(parts)
