"""Retention that runs by itself: a daemon thread in the server process deletes expired shares at
start-up and then every ``INSPECTOR_PURGE_INTERVAL_SECONDS`` (not only when someone shares).

Every replica runs one; purging is an idempotent ``DELETE ... WHERE expires_at <= now``, so two
replicas purging at once delete each row once (the database decides which of them counts it).
A store that cannot be reached is logged and counted as a store error, and tried again at the
next tick. ``process_store()`` is the one store object the server's own routes and this thread
share (the page has its own, opened by ``inspector.ui.share``).
"""

from __future__ import annotations

import logging
import threading

from ..sharing.config import Hosting, Settings
from ..sharing.store import Store
from . import events

_lock = threading.Lock()
_store: Store | None = None
_thread: threading.Thread | None = None
_stop = threading.Event()


def process_store() -> Store:
    """The server process's store (opened on first use; raises while the database is unreachable)."""
    global _store
    with _lock:
        if _store is None:
            s = Settings.from_env()
            store = Store(s.store_url, max_bytes=s.share_max_bytes, ttl_days=s.share_ttl_days)
            store.on_expired = lambda n: events.record("shares_expired", count=n)
            _store = store
        return _store


def purge_once() -> int:
    """Delete the expired shares now; returns how many (0 when the store could not be used)."""
    try:
        return process_store().purge_expired()
    except Exception as exc:  # noqa: BLE001 - the schedule goes on; the next tick tries again
        events.record("store_errors", where="retention", error=events.error_kind(exc), level=logging.WARNING)
        return 0


def _run(interval: float) -> None:
    while True:
        purge_once()
        if _stop.wait(interval):
            return


def start(hosting: Hosting | None = None) -> bool:
    """Start the schedule once per process (later calls do nothing); True when this call started it."""
    global _thread
    h = hosting or Hosting.from_env()
    with _lock:
        if _thread is not None and _thread.is_alive():
            return False
        _stop.clear()
        _thread = threading.Thread(target=_run, args=(h.purge_interval,), name="inspector-retention", daemon=True)
        _thread.start()
    events.record("retention_started", interval=h.purge_interval)
    return True


def stop() -> None:
    _stop.set()
    t = _thread
    if t is not None:
        t.join(timeout=10)
