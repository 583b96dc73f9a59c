"""What logging tools record beside a message of any format: timestamps, durations, token counts.

Claude Code entries carry ``timestamp`` beside the message and ``usage`` inside it; Langfuse-style
exports carry ``startTime``/``endTime``, ``latency`` and ``usage``; Gemini has
``usageMetadata``; OpenAI-style logs sometimes keep ``created_at`` and ``usage``. ``logged_meta``
looks at the message and, when there is one, the envelope it was read from (a Claude Code entry),
and returns what it found; nothing is guessed. ``Dialect.meta`` answers with it unless a format
knows better; ``inspector.render.meta`` puts it into words.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

TIME_KEYS = ("timestamp", "created_at", "createdAt", "startTime", "start_time", "time")
END_KEYS = ("endTime", "end_time", "completed_at", "completedAt")
TOKENS_IN = ("input_tokens", "prompt_tokens", "inputTokens", "promptTokenCount", "input")
TOKENS_OUT = ("output_tokens", "completion_tokens", "outputTokens", "candidatesTokenCount", "output")
TOKENS_TOTAL = ("total_tokens", "totalTokens", "totalTokenCount", "total")


def _when(v: Any) -> datetime | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)) and v > 0:
        secs = v / 1000 if v > 1e11 else v  # epoch milliseconds or seconds
        try:
            return datetime.fromtimestamp(secs, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(v, str) and 10 <= len(v) <= 40 and v[:4].isdigit():
        try:
            return datetime.fromisoformat(v)
        except ValueError:
            return None
    return None


def _first(d: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for k in keys:
        if k in d:
            return d[k]
    return None


def _count(x: Any) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) and x >= 0 else None


def logged_meta(raw: Any, envelope: Any = None) -> dict[str, Any]:
    """``{"time": datetime, "seconds": float, "tokens_in": int, "tokens_out": int, "tokens": int}``, what exists."""
    out: dict[str, Any] = {}
    for d in (raw, envelope):
        if not isinstance(d, dict):
            continue
        if "time" not in out:
            t = _when(_first(d, TIME_KEYS))
            if t is not None:
                out["time"] = t
                end = _when(_first(d, END_KEYS))
                if end is not None and end >= t:
                    out["seconds"] = (end - t).total_seconds()
        if "seconds" not in out:
            for k, scale in (("durationMs", 1e-3), ("duration_ms", 1e-3), ("latency", 1.0), ("duration", 1.0)):
                v = d.get(k)
                if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0:
                    out["seconds"] = v * scale
                    break
        usage = d.get("usage") or d.get("usageMetadata") or d.get("usage_metadata")
        if isinstance(usage, dict) and "tokens" not in out and "tokens_in" not in out:
            tin, tout = _count(_first(usage, TOKENS_IN)), _count(_first(usage, TOKENS_OUT))
            total = _count(_first(usage, TOKENS_TOTAL))
            if tin is not None:
                out["tokens_in"] = tin
            if tout is not None:
                out["tokens_out"] = tout
            if total is None and tin is not None and tout is not None:
                total = tin + tout
            if total is not None:
                out["tokens"] = total
    return out
