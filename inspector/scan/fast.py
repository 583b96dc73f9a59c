"""A dataset scan's fast path: a Chat Completions tool-use example proved clean in one typed decode.

Most lines of a fine-tuning dataset are the same shape, ``{"messages": [...], "tools": [...]}``
with string contents and ``function`` tool calls, and most of them are clean. For such a line the
general path (parse to dicts, find the message list, ask every dialect, read into the neutral
view, pair, run every rule, build findings) spends about ten times its parse to say "no finding".

Here msgspec decodes the line straight into the engine's typed structs of that shape
(``dialects.openai_typed.Record``: no other key anywhere, every field of its one type; any
difference is a decode error), and ``clean_proof.proved_clean`` proves that the general path
would note no issue at all (its module doc says how, ``clean_proof.HOLDS`` rule by rule).

A line that decodes and passes gets the clean row the general path would give. Anything else (a
finding of any severity, another key, another dialect, invalid JSON) goes down the general path,
which says what is wrong and where: this path only ever says "clean", never why not.

The decision is made per line, but the shape's reading is settled once per run of lines: the
first line of a part the fast path passes is also checked by the general path, and if the two
rows differ (a dialect package installed beside ours that reads this shape differently, say) the
part goes the general way. A part whose lines keep failing to decode (a dataset in another
format) stops trying after ``GIVE_UP`` lines in a row. tests/scan/test_fast.py holds the two
paths equal over generated examples, each mutated in the ways the list above names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..clean_proof import HOLDS, proved_clean
from ..dialects.openai_typed import read_record
from ..loops import DEFAULT as DEFAULT_LOOPS
from ..loops import LoopOptions

__all__ = ["GIVE_UP", "HOLDS", "FastPath", "proved_clean"]

GIVE_UP = 32  # lines in a row that do not decode before a part stops trying


class FastPath:
    """The fast path for one part: ``row(text, line)`` is the clean row of the line ``text`` (its
    number ``line``), or None for the general path.

    ``clean_row(line, messages)`` makes a clean row; ``general(text, line)`` is the general
    path's rows for a line, asked once to confirm the first line this path passes."""

    def __init__(self, clean_row: Callable[[int, int], dict[str, Any]],
                 general: Callable[[bytes, int], list[dict[str, Any]]], loops: LoopOptions = DEFAULT_LOOPS) -> None:
        self._loops = loops
        self._clean_row = clean_row
        self._general = general
        self._names_ok: set[str] = set()
        self._schemas_ok: set[bytes] = set()
        self._confirmed = False
        self._misses = 0  # lines in a row that did not decode
        self.on = True

    def row(self, text: bytes, line: int) -> dict[str, Any] | None:
        rec = read_record(text)
        if rec is None:
            self._misses += 1
            if self._misses >= GIVE_UP:
                self.on = False
            return None
        self._misses = 0
        if not proved_clean(rec, self._names_ok, self._schemas_ok, self._loops):
            return None
        row = self._clean_row(line, len(rec.messages))
        if not self._confirmed:
            self._confirmed = True
            if self._general(text, line) != [row]:
                self.on = False
                return None
        return row
