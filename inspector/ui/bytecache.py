"""A process-wide cache sized by bytes, not entries, with idle entries dropped after minutes.

``st.cache_resource(max_entries=8, ttl=3600)`` kept up to eight parsed 100 MB uploads for an
hour after their tabs closed (965 MB resident three minutes later). Here every entry carries an
estimate of the memory it holds (a multiple of the file's size), the total stays under
``INSPECTOR_CACHE_MB`` (default 1500) by dropping the least recently used entries, and an entry
nobody asked for in ``INSPECTOR_CACHE_IDLE_SECONDS`` (default 300) is dropped at the next call
from any session. Like ``cache_resource`` it hands back the same object (read-only by
convention) and keys on the arguments whose names do not start with ``_``.
"""

from __future__ import annotations

import functools
import inspect
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

_LOCK = threading.RLock()
_ENTRIES: OrderedDict[tuple, tuple[Any, int, float]] = OrderedDict()  # key -> (value, bytes, last use)
_INFLIGHT: dict[tuple, threading.Lock] = {}


def budget_bytes() -> int:
    return int(float(os.environ.get("INSPECTOR_CACHE_MB", "1500")) * 1_000_000)


def idle_seconds() -> float:
    return float(os.environ.get("INSPECTOR_CACHE_IDLE_SECONDS", "300"))


def held_bytes() -> int:
    with _LOCK:
        return sum(size for _, size, _ in _ENTRIES.values())


def clear() -> None:
    with _LOCK:
        _ENTRIES.clear()


def _evict(now: float, room: int = 0) -> None:
    limit, idle = budget_bytes(), idle_seconds()
    for key in [k for k, (_, _, used) in _ENTRIES.items() if now - used > idle]:
        del _ENTRIES[key]
    total = sum(size for _, size, _ in _ENTRIES.values())
    while _ENTRIES and total + room > limit:
        _, (_, size, _) = _ENTRIES.popitem(last=False)
        total -= size


def byte_cached(size_of: Callable[..., int]) -> Callable:
    """Cache ``fn``; ``size_of(*args, **kwargs)`` estimates the bytes its result holds."""

    def wrap(fn: Callable) -> Callable:
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def cached(*args, **kwargs):
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            key = (fn.__qualname__,) + tuple(v for n, v in bound.arguments.items() if not n.startswith("_"))
            with _LOCK:
                now = time.monotonic()
                _evict(now)
                hit = _ENTRIES.get(key)
                if hit is not None:
                    _ENTRIES[key] = (hit[0], hit[1], now)
                    _ENTRIES.move_to_end(key)
                    return hit[0]
                gate = _INFLIGHT.setdefault(key, threading.Lock())
            try:
                with gate:  # two sessions opening the same file compute it once
                    with _LOCK:
                        hit = _ENTRIES.get(key)
                        if hit is not None:
                            return hit[0]
                    value = fn(*args, **kwargs)
                    size = max(0, int(size_of(*args, **kwargs)))
                    with _LOCK:
                        now = time.monotonic()
                        _evict(now, size)
                        if size <= budget_bytes():  # bigger than the whole budget: computed, not kept
                            _ENTRIES[key] = (value, size, now)
            finally:  # a computation that raised, or a hit found behind the gate, leaves no gate behind
                with _LOCK:
                    if _INFLIGHT.get(key) is gate and not gate.locked():
                        del _INFLIGHT[key]
            return value

        cached.clear = clear  # type: ignore[attr-defined]
        return cached

    return wrap
