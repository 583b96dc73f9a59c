"""A one-line progress bar on stderr (share done, transcripts per second, time left) for terminals only."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Redraws at most a few times a second; silent when stderr is not a terminal (piped, in CI)."""

    def __init__(self, total_bytes: int, enabled: bool | None = None, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = max(1, total_bytes)
        self.done = 0
        self.items = 0
        self.t0 = time.monotonic()
        self._last = 0.0

    def advance(self, nbytes: int, items: int) -> None:
        self.done += nbytes
        self.items += items
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.2 and self.done < self.total:
            return
        self._last = now
        elapsed = max(now - self.t0, 1e-9)
        frac = min(1.0, self.done / self.total)
        rate = self.items / elapsed
        eta = elapsed * (1 - frac) / frac if frac > 0 else 0.0
        bar = "#" * int(frac * 24)
        self.stream.write(f"\rscan [{bar:<24}] {100 * frac:5.1f}%  {self.items} transcripts  "
                          f"{rate:,.0f}/s  ETA {_clock(eta)} ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
