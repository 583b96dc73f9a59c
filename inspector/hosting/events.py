"""What happened, counted and logged in one call: ``record("share_created", share=..., user=...)``.

Each event name is one Prometheus counter (``inspector_<name>_total``, or ``count`` of them at once)
and one log line on the ``inspector`` logger. With ``INSPECTOR_LOG_FORMAT=json`` the process logs
JSON lines (``{"ts", "level", "event", ...fields}``) to stderr. Callers pass only counts, share ids,
user names and error classes: the fields below are the whole vocabulary, and anything else is
dropped rather than written, so transcript text, file names and secrets cannot reach a log.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    disable_created_metrics,
    generate_latest,
)

METRICS_TYPE: str = CONTENT_TYPE_LATEST  # the metrics route's media type
disable_created_metrics()  # the *_created series only say when the process started
REGISTRY = CollectorRegistry(auto_describe=True)
COUNTERS = {
    "checks": "Transcripts checked by the app (one per file and reading)",
    "unreadable_inputs": "Inputs the app could not read (not JSON, not a transcript)",
    "shares_created": "Share links made",
    "shares_opened": "Share links opened",
    "shares_deleted": "Shares deleted by their owner, an admin or a link holder",
    "shares_delete_refused": "Deletes refused because the user neither owns the share nor is an admin",
    "shares_expired": "Expired shares deleted by the retention schedule",
    "store_errors": "Share store operations that failed (database down, locked, refused)",
}
_counters = {name: Counter(f"inspector_{name}", text, registry=REGISTRY) for name, text in COUNTERS.items()}
STORE_UP = Gauge("inspector_store_up", "1 when the share store answered its last health check", registry=REGISTRY)

# The only fields a log line may carry; values are cut to this many characters.
FIELDS = {"share", "user", "count", "bytes", "dialect", "target", "transcripts", "findings", "messages",
          "error", "where", "mode", "interval"}
MAX_FIELD = 200

log = logging.getLogger("inspector")
_setup_lock = threading.Lock()
_configured = False


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {"ts": round(record.created, 3), "level": record.levelname.lower(), "event": record.getMessage()}
        line.update(getattr(record, "fields", {}))
        return json.dumps(line, sort_keys=False, default=str)


class Plain(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = " ".join(f"{k}={v}" for k, v in getattr(record, "fields", {}).items())
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp} {record.levelname} inspector {record.getMessage()} {fields}".rstrip()


def configure(json_lines: bool) -> None:
    """Send the ``inspector`` logger to stderr, as JSON lines or plain text (once per process)."""
    global _configured
    with _setup_lock:
        if _configured:
            return
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonLines() if json_lines else Plain())
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
        _configured = True


def _clean(fields: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in fields.items():
        if k not in FIELDS or v is None:
            continue
        out[k] = v if isinstance(v, (int, float, bool)) else str(v)[:MAX_FIELD]
    return out


def record(event: str, *, count: int = 1, level: int = logging.INFO, **fields: Any) -> None:
    """Count ``event`` (when it is a counter) and log it with the allowed ``fields``."""
    counter = _counters.get(event)
    if counter is not None and count:
        counter.inc(count)
    if count != 1:
        fields["count"] = count
    log.log(level, event, extra={"fields": _clean(fields)})


def store_up(up: bool) -> None:
    STORE_UP.set(1 if up else 0)


def exposition() -> bytes:
    """The metrics in Prometheus' text format."""
    return generate_latest(REGISTRY)


def error_kind(exc: BaseException) -> str:
    """The class of an error (its driver's, when SQLAlchemy wrapped it): never its text, which may quote data."""
    orig = getattr(exc, "orig", None)
    return type(orig if orig is not None else exc).__name__
