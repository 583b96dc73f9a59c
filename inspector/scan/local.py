"""The local engine: parts scanned by a pool of processes, results taken back in input order.

At most ``2 * jobs`` parts are in flight, and a part travels as a path and a byte range (the
worker reads it), so memory stays flat whatever the input size. One job runs in this process.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .sources import Part


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def ordered_map(fn: Callable[..., Any], parts: Iterable[Part], jobs: int, *args: Any) -> Iterator[tuple[Part, Any]]:
    """``(part, fn(part, *args))`` in input order, over ``jobs`` processes."""
    if jobs <= 1:
        for p in parts:
            yield p, fn(p, *args)
        return
    from concurrent.futures import ProcessPoolExecutor

    window: deque[Any] = deque()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for p in parts:
            window.append((p, pool.submit(fn, p, *args)))
            if len(window) >= 2 * jobs:
                q, fut = window.popleft()
                yield q, fut.result()
        while window:
            q, fut = window.popleft()
            yield q, fut.result()


class LineNumbers:
    """Turns a ``lines`` part's local line numbers into the file's, as parts come back in order."""

    def __init__(self) -> None:
        self._base: dict[str, int] = {}

    def fix(self, part: Part, rows: list[dict[str, Any]], nlines: int) -> list[dict[str, Any]]:
        if part.kind != "lines":
            return rows
        base = self._base.get(part.path, 0)
        if base:
            for r in rows:
                r["line"] += base
        self._base[part.path] = base + nlines
        return rows


def scan(parts: list[Part], opts: Any, jobs: int, on_rows: Callable[[Part, list[dict[str, Any]]], None]) -> None:
    """Scan every part; ``on_rows(part, rows)`` gets each part's rows in input order."""
    from .work import scan_part

    numbers = LineNumbers()
    for part, (rows, nlines) in ordered_map(scan_part, parts, jobs, opts):
        on_rows(part, numbers.fix(part, rows, nlines))
