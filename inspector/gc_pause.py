"""Pausing Python's cyclic garbage collector around allocation-heavy work that creates no cycles."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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
        gc.freeze()
        gc.unfreeze()
        if was:
            gc.enable()
