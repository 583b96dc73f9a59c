"""Read a JSON Lines file in byte ranges, never whole: the streaming half of ``scan``.

A big file is cut into ranges of a few megabytes (``ranges``). Whoever scans a range (a local
process or a Dask worker) opens the file itself and reads only its range (``read_range``), so
no process ever holds more than one range, and a range travels between processes as three
numbers. A line belongs to the range that holds its first byte: a reader starting inside a line
skips to the next one, and a reader reaches past its end to finish the line it started.

Line numbers are 1-based like an editor's. A range's first line number is either known (the
local engine counts the lines of the ranges before it, ``line_base``) or worked out from the
count of newlines before the range (``first_line``), which a separate cheap pass provides.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import BinaryIO

CHUNK_BYTES = 4 << 20  # 4 MiB: big enough to amortise a task, small enough to keep memory flat


def ranges(size: int, chunk: int = CHUNK_BYTES) -> list[tuple[int, int]]:
    """``[(start, end), ...]`` covering ``size`` bytes in pieces of ``chunk``."""
    if size <= 0:
        return [(0, 0)]
    return [(s, min(s + chunk, size)) for s in range(0, size, chunk)]


def _align(f: BinaryIO, start: int) -> tuple[int, bool]:
    """Seek to the first line that starts at or after ``start``; returns (its offset, byte before was a newline)."""
    if start == 0:
        f.seek(0)
        return 0, True
    f.seek(start - 1)
    before = f.read(1)
    if before == b"\n":
        return start, True
    f.readline()  # the rest of a line that belongs to the previous range
    return f.tell(), False


def read_range(path: str | os.PathLike[str], start: int, end: int) -> Iterator[tuple[int, bytes]]:
    """Yield ``(k, line)`` for the lines that start in ``[start, end)``; ``k`` counts from 0.

    Empty lines are counted (so that line numbers match the file) but yielded as ``b""``.
    A line keeps no trailing newline or carriage return, and the file's first line no BOM.
    """
    with open(path, "rb", buffering=1 << 20) as f:
        pos, _ = _align(f, start)
        k = 0
        while pos < end:
            line = f.readline()
            if not line:
                break
            bom = pos == 0 and line.startswith(b"\xef\xbb\xbf")
            pos += len(line)
            if bom:
                line = line[3:]
            yield k, line.rstrip(b"\r\n")
            k += 1


def newlines(path: str | os.PathLike[str], start: int, end: int) -> int:
    """How many newline bytes lie in ``[start, end)`` (a fast pass: ``bytes.count``)."""
    n = 0
    with open(path, "rb") as f:
        f.seek(start)
        left = end - start
        while left > 0:
            block = f.read(min(left, 8 << 20))
            if not block:
                break
            n += block.count(b"\n")
            left -= len(block)
    return n


def first_line(path: str | os.PathLike[str], start: int, newlines_before: int) -> int:
    """The 1-based number of the first line that starts in a range beginning at ``start``.

    ``newlines_before`` is the number of newlines in ``[0, start)``.
    """
    if start == 0:
        return 1
    with open(path, "rb") as f:
        f.seek(start - 1)
        nl = f.read(1) == b"\n"
    # The line starts after the first newline at or after start - 1.
    return newlines_before - (1 if nl else 0) + 2


def has_second_line(path: str | os.PathLike[str], limit: int = 64 << 20) -> bool:
    """Whether anything but white space follows the file's first non-empty line: a one-line file
    (a byte-order mark or a trailing newline or not) is one document, not a dataset (issue 33)."""
    seen = False
    with open(path, "rb") as f:
        for line in iter(lambda: f.readline(limit), b""):
            if not seen and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if line.strip():
                if seen:
                    return True
                seen = True
                while not line.endswith(b"\n"):  # the rest of a first line longer than ``limit``
                    line = f.readline(limit)
                    if not line:
                        return False
    return False


def first_line_bytes(path: str | os.PathLike[str], limit: int = 64 << 20) -> bytes:
    """The file's first non-empty line (up to ``limit`` bytes), without a BOM: enough to sniff."""
    with open(path, "rb") as f:
        for line in iter(lambda: f.readline(limit), b""):
            if line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if line.strip():
                return line.rstrip(b"\r\n")
    return b""
