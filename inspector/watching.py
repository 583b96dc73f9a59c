"""Follow a session file while an agent appends to it (``inspector watch``).

``Follower.poll()`` reads what was appended since the last poll: complete lines only (a partial
last line waits for its newline), each parsed once; a file that shrank (truncated) or was replaced
(another inode: rotated) is read again from its start. After each poll that added lines, the lines
read so far are checked as ``check`` reads the file (the same document, the same findings), and
the findings not reported before are returned, each once.

Cost: parsing is per appended line; the check runs on the whole session after each poll that
added lines (polls gather the lines appended between them), not per line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import orjson

from .errors import InputError


@dataclass
class Follower:
    path: str
    target: str | None = None
    dialect: str | None = None
    pos: int = 0
    inode: int | None = None
    partial: bytes = b""
    items: list[Any] = field(default_factory=list)
    line_numbers: list[int] = field(default_factory=list)
    lines_read: int = 0
    seen: set[tuple[Any, ...]] = field(default_factory=set)
    restarted: str | None = None  # why the last poll read the file again from its start

    def _restart(self, why: str) -> None:
        self.pos, self.partial, self.items, self.line_numbers, self.lines_read = 0, b"", [], [], 0
        self.seen = set()
        self.restarted = why

    def read_new(self) -> int:
        """Read what was appended; the number of new complete lines (blank ones included)."""
        self.restarted = None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise InputError("no such file", self.path) from None
        if self.inode is not None and st.st_ino != self.inode:
            self._restart("the file was replaced (rotated)")
        elif st.st_size < self.pos:
            self._restart("the file was truncated")
        self.inode = st.st_ino
        if st.st_size == self.pos:
            return 0
        with open(self.path, "rb") as f:
            f.seek(self.pos)
            data = f.read(st.st_size - self.pos)
        self.pos += len(data)
        chunk = self.partial + data
        *complete, self.partial = chunk.split(b"\n")
        for raw in complete:
            self.lines_read += 1
            text = raw.strip()
            if not text:
                continue
            try:
                self.items.append(orjson.loads(text))
            except orjson.JSONDecodeError as exc:
                raise InputError(f"line {self.lines_read} is not JSON ({exc})", self.path) from None
            self.line_numbers.append(self.lines_read)
        return len(complete)

    def check(self) -> tuple[dict[str, Any], Any] | None:
        """The check of the lines read so far, as ``check`` reads them (None before any)."""
        if not self.items:
            return None
        from .checking import check_plain
        from .ci_output import Locator
        from .containers import Document, find_transcripts

        doc = Document(root=self.items, format="jsonl", transcripts=find_transcripts(self.items, "jsonl"),
                       source=self.path, lines=self.line_numbers)
        report, analyses = check_plain(doc, self.target, self.dialect)
        return report, Locator(doc, analyses)

    def poll(self) -> tuple[list[dict[str, Any]], Any, dict[str, Any] | None]:
        """``(new findings, locator, report)`` after reading what was appended."""
        if not self.read_new() and self.restarted is None:
            return [], None, None
        got = self.check()
        if got is None:
            return [], None, None
        report, loc = got
        new = []
        for f in report["findings"]:
            key = (f["transcript"], f["code"], f["tool_call_id"], f["message_index"], f["severity"])
            if key not in self.seen:
                self.seen.add(key)
                new.append(f)
        return new, loc, {**report, "findings": new}
