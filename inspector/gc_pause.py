"""Pausing Python's cyclic garbage collector around allocation-heavy work that creates no cycles."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# False inside ``without_settling``: a long-running process (the guard in an agent, the proxy)
# must not have each check move everyone's young objects, their cyclic garbage included, into
# the oldest generation, where it waited for a rare full collection (the proxy grew by about a
# request body per request under load, benchmarks/bench_guard.py).
_settle: ContextVar[bool] = ContextVar("inspector_gc_settle", default=True)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC for allocation-heavy work that creates no cycles.

    On the way out, ``freeze`` + ``unfreeze`` moves what was allocated meanwhile straight into
    the oldest generation and resets the young counts: otherwise the first collection after the
    pause would walk every one of those objects at once. Nothing is kept frozen.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _settle.get():
            gc.freeze()
            gc.unfreeze()
        if was:
            gc.enable()


@contextmanager
def without_settling() -> Iterator[None]:
    """``gc_paused`` inside only pauses: nothing is moved to the oldest generation on the way out."""
    token = _settle.set(False)
    try:
        yield
    finally:
        _settle.reset(token)
