"""Follow a session file while an agent appends to it (``inspector watch``).

A folder is followed when it is one session: a conversation kept as a folder of event files
(OpenHands: ``FolderFollower``, the folder read again whole when its files change), or a folder
holding the one file a session appends to (Copilot CLI's ``events.jsonl``: ``session_file_in``,
followed as a file).

``Follower.poll()`` reads what was appended since the last poll: complete lines only (a partial
last line waits for its newline), each parsed once; a file that shrank (truncated) or was replaced
(another inode: rotated) is read again from its start. After each poll that added lines, the
findings ``check`` of the lines read so far would give and that were not reported before are
returned, each once.

Cost per appended line, not per file (``Window``): the whole session is checked only when the
appended lines may change what was found before; otherwise only the lines after the last *safe
point* are checked. A safe point is a place where the session so far ends on a turn boundary: an
assistant message without calls (a call still open before it is missing for good, unless a later
line answers it), or for the Responses items of a Codex rollout a tool output with every call
answered. The window keeps what check said of the messages before it (``Window.frozen``: a call left
unanswered there included). The part after it (the *window*) is checked alone, with the same
dialect, target and judgement as the last whole check; when none of its call ids was used before
the safe point, the whole check would say what was said before it and what the window says: the
rules are either local to a turn or tied to call ids (pairing, duplicate ids), and the part before
the safe point can change only through a call id the window uses again (a late result for a call
left unanswered). ``Follower.findings`` is that: check's findings of the file as it now is. When a
whole check ends in an open turn, the safe point is where that turn began (``_last_turn``). Anything
else (the window finds something, a line that rewrites what came before: a Codex ``compacted`` or
``turn_context``, a Gemini CLI record written again, ``$set``, ``$rewindTo``, a Claude Code entry
whose parent is not the entry before it, a sidechain or compaction entry) checks the whole session,
so every finding printed is one ``check`` of the file as it then was gives, in its words.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from .dialects.following import FOLLOWED, Appends

MODEL_LINES = frozenset(f.model_line for f in FOLLOWED.values() if f.model_line is not None)
from .errors import InputError
from .pairing import TRANSPARENT


def finding_key(f: dict[str, Any]) -> tuple[Any, ...]:
    """What makes a finding the same one at a later look: its transcript, rule, call, message, severity."""
    return (f["transcript"], f["code"], f["tool_call_id"], f["message_index"], f["severity"])


def _ids(msgs: list[Any]) -> tuple[set[Any], set[Any]]:
    calls = {c.id for m in msgs for c in m.calls}
    results = {r.id for m in msgs for r in m.results}
    return calls, results


def _closed(dialect: str, msgs: list[Any]) -> bool:
    """The messages end on a turn boundary with every call answered, or with the calls left
    unanswered given up for good: an assistant message without calls follows them (see the
    module doc)."""
    if not msgs:
        return False
    calls, results = _ids(msgs)
    if None in calls:
        return False
    last = msgs[-1]
    if last.role == "assistant" and not last.calls:
        return True  # a call still open before it is missing for good, unless a later line answers it (then: whole)
    # Responses items: after any item but a call or one bound to what follows (a reasoning item)
    return calls <= results and FOLLOWED[dialect].items and not last.calls and last.role not in TRANSPARENT


@dataclass
class Window:
    """What the last whole check left for the next looks: the report's judgement, and the safe
    point (an index into the follower's items) with the call and result ids used before it."""

    dialect: str
    target: str
    model: Any
    judged_as: str
    safe: int | None = None
    ids: set[Any] = field(default_factory=set)
    before: list[Any] = field(default_factory=list)  # the messages read before the safe point
    # what check says of the messages before the safe point (a call left unanswered there), which
    # lines appended after it cannot change: a window's report is these and the window's own
    frozen: list[dict[str, Any]] = field(default_factory=list)
    others: list[dict[str, Any]] = field(default_factory=list)  # the parts never sent again (before a compaction)


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
    window: Window | None = None  # None: the next look checks the whole session
    appends: Appends = field(default_factory=Appends)
    checked: int = 0  # items read when the session was last checked (whole or window)
    whole_checks: int = 0  # how many looks checked the whole session (the rest checked a window)
    model_lines: list[int] = field(default_factory=list)  # where the lines naming the model are (the window's head)
    findings: list[dict[str, Any]] = field(default_factory=list)  # what check says of the lines read so far
    fresh: slice = field(default_factory=lambda: slice(None))  # the findings of the last look that may not have been seen yet

    def _restart(self, why: str) -> None:
        self.pos, self.partial, self.items, self.line_numbers, self.lines_read = 0, b"", [], [], 0
        self.seen = set()
        self.restarted = why
        self.window, self.appends, self.checked = None, Appends(), 0
        self.model_lines = []

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
        if not self.pos and data.startswith(b"SQLite format 3\x00"):
            raise InputError("a SQLite database (an Agents SDK session store), not JSON Lines: watch follows JSON Lines "
                             "session files; check it with inspector check", self.path)
        self.pos += len(data)
        chunk = self.partial + data
        *complete, self.partial = chunk.split(b"\n")
        for raw in complete:
            self.lines_read += 1
            text = raw.strip()
            if not text:
                continue
            try:
                item = orjson.loads(text)
            except orjson.JSONDecodeError as exc:
                raise InputError(f"line {self.lines_read} is not JSON ({exc})", self.path) from None
            if type(item) is dict and item.get("type") in MODEL_LINES:
                self.model_lines.append(len(self.items))
            self.items.append(item)
            self.line_numbers.append(self.lines_read)
            w = self.window
            if w is not None and not self.appends.plain(w.dialect, item):
                self.window = None  # a line that may change what came before: the next look checks it all
        return len(complete)

    def _document(self, start: int = 0, head: Sequence[int] = ()) -> Any:
        """The lines read so far from ``start`` on (all of them: 0), after the lines ``head``."""
        from .containers import Document, find_transcripts

        if not start:
            items, lines = self.items, self.line_numbers
        else:
            items = [*(self.items[k] for k in head), *self.items[start:]]
            lines = [*(self.line_numbers[k] for k in head), *self.line_numbers[start:]]
        return Document(root=items, format="jsonl", transcripts=find_transcripts(items, "jsonl"),
                        source=self.path, lines=lines)

    def check(self) -> tuple[dict[str, Any], Any] | None:
        """The check of the lines read so far, as ``check`` reads them (None before any)."""
        if not self.items:
            return None
        from .checking import check_plain
        from .ci_output import Locator

        doc = self._document()
        report, analyses = check_plain(doc, self.target, self.dialect)
        self.whole_checks += 1
        self._after_whole(report, analyses)
        return report, Locator(doc, analyses)

    def _after_whole(self, report: dict[str, Any], analyses: list[Any]) -> None:
        """Where the next window starts, from a whole check (none: every look checks it all)."""
        old, self.window = self.window, None
        # One transcript the agent goes on with; any other is a part never sent again (the conversation
        # before a compaction, an abandoned branch), which lines appended after it cannot change.
        past = all(a.transcript.extra.get("never_sent") for a in analyses[1:])
        d = report["transcript_dialects"][0] if report["transcripts"] >= 1 and past else None
        if d not in FOLLOWED or report["target"] != FOLLOWED[d].target or self.dialect not in (None, d):
            return
        self.appends = Appends()
        for item in self.items:  # the state plain() keeps (last entry, ids written), from the start
            self.appends.plain(d, item)
        w = Window(d, report["target"], report["model"], report["judged_as"])
        w.others = [f for f in report["findings"] if f["transcript"] != 0]
        msgs = analyses[0].msgs
        if _closed(d, msgs):
            calls, results = _ids(msgs)
            w.safe, w.ids, w.before = len(self.items), calls | results, list(msgs)
            w.frozen = [f for f in report["findings"] if f["transcript"] == 0]
        elif old is not None and old.dialect == d and old.target == w.target and old.safe is not None \
                and len(msgs) >= len(old.before):
            # the lines since the safe point changed nothing before it
            w.safe, w.ids, w.before = old.safe, set(old.ids), msgs[:len(old.before)]
            w.frozen = old.frozen
        else:  # the last turn is open (a call running): the safe point is where it began
            self._last_turn(w, msgs, report["findings"])
        self.window = w

    def _last_turn(self, w: Window, msgs: list[Any], findings: list[Any]) -> None:
        """Put the safe point at the line of the message after the last settled turn, when that
        line can be told (the message's raw value is a line, or a value of one: else none)."""
        j = next((j for j in range(len(msgs) - 1, 0, -1) if msgs[j - 1].role == "assistant"
                  and not msgs[j - 1].calls and _closed(w.dialect, msgs[:j])), None)
        if j is None or any(f["transcript"] == 0 and type(f["message_index"]) is not int for f in findings):
            return  # a finding on the session as a whole: only whole checks say it
        raw = msgs[j].raw
        at = next((k for k in range(len(self.items) - 1, -1, -1) if self.items[k] is raw or (
            type(self.items[k]) is dict and any(v is raw for v in self.items[k].values()))), None)
        if at is None:
            return
        calls, results = _ids(msgs[:j])
        w.safe, w.ids, w.before = at, calls | results, list(msgs[:j])
        w.frozen = [f for f in findings if f["transcript"] == 0 and f["message_index"] < j]

    def _window(self) -> tuple[dict[str, Any], Any] | None:
        """The check of the lines after the safe point, as the whole check would report it, or
        None when only a whole check can say (see the module doc). The safe point moves to the
        end when the window is closed."""
        w = self.window
        if w is None or w.safe is None or w.safe >= len(self.items):
            return None
        from .checking import Analysis, check_plain, findings_for
        from .ci_output import Locator

        how = FOLLOWED[w.dialect]
        if how.api_line is not None and not any(type(e) is dict and e.get("type") == how.api_line
                                                for e in self.items[w.safe:]):
            self.fresh = slice(0, 0)  # event lines only: nothing the API receives, nothing new
            return {"findings": w.frozen + w.others, "transcripts": 1}, None
        try:
            # a Codex rollout's session_meta names the version whose fix-ups the rules know (harness_patches)
            head = [k for k, e in enumerate(self.items[:min(w.safe, 50)])
                    if how.head_line is not None and type(e) is dict and e.get("type") == how.head_line][:1]
            # and the last line naming the model before it, which the whole check read (issue 31: model_from)
            if how.model_line is not None:  # (kept as lines are read: no look back over the file)
                at = bisect.bisect_left(self.model_lines, w.safe)
                last = next((k for k in reversed(self.model_lines[:at]) if self.items[k].get("type") == how.model_line),
                            None)
                head += [] if last is None else [last]
            doc = self._document(w.safe, head)
            if len(doc.transcripts) != 1:
                return None
            report, analyses = check_plain(doc, w.target, w.dialect)
        except InputError:
            return None
        a = analyses[0]
        msgs = a.msgs
        if report["model"] != w.model or report["judged_as"] != w.judged_as or not msgs \
                or report["transcript_dialects"] != [w.dialect] or report["target"] != w.target:
            return None
        first = msgs[0]
        if not how.items and (first.role != "user" or first.results):
            return None
        calls, results = _ids(msgs)
        if (calls | results) & w.ids:
            return None
        shift = len(w.before)
        if report["findings"]:
            if a.turns is not None or not how.renumbers:
                return None  # turns merged across the boundary: only the whole check numbers them
            _renumber(a, shift)
            whole = Analysis(a.transcript, a.dialect, w.before + msgs, a.pairing, a.issues, None, a.judged)
            mine: list[dict[str, Any]] = [*w.frozen, *(dict(f) for f in findings_for(whole, w.target, 0))]
        else:
            _renumber(a, shift)
            mine = w.frozen
        report = {**report, "findings": mine + w.others}
        self.fresh = slice(len(w.frozen), len(mine))  # the window's own: the rest were seen before
        if _closed(w.dialect, msgs):  # grown in place: a copy of the whole session's ids would cost per file
            w.safe = len(self.items)
            w.ids |= calls
            w.ids |= results
            w.before.extend(msgs)
            w.frozen = mine
        return report, _Shifted(Locator(doc, analyses), shift)

    def poll(self) -> tuple[list[dict[str, Any]], Any, dict[str, Any] | None]:
        """``(new findings, locator, report)`` after reading what was appended."""
        if not self.read_new() and self.restarted is None:
            return [], None, None
        if len(self.items) == self.checked and self.restarted is None:
            return [], None, None  # blank lines or a partial one: nothing new to check
        self.fresh = slice(None)
        got = self._window() if self.window is not None else None
        if got is None:
            self.fresh = slice(None)
            got = self.check()
        self.checked = len(self.items)
        if got is None:
            return [], None, None
        report, loc = got
        self.findings = report["findings"]
        new = []
        for f in report["findings"][self.fresh]:
            key = finding_key(f)
            if key not in self.seen:
                self.seen.add(key)
                new.append(f)
        return new, loc, {**report, "findings": new}


def _renumber(a: Any, shift: int) -> None:
    """Number the window's messages, calls, results and issues as the whole session numbers them."""
    if not shift:
        return
    for m in a.msgs:
        m.index += shift
        for c in m.calls:
            c.msg += shift
        for r in m.results:
            r.msg += shift
    for iss in a.issues:
        iss.index += shift
        if iss.other is not None:
            iss.other += shift
        if isinstance(iss.data.get("first"), int):
            iss.data["first"] += shift


class _Shifted:
    """A window's locator, asked with the whole session's message numbers."""

    def __init__(self, inner: Any, shift: int):
        self.inner, self.shift, self.doc = inner, shift, inner.doc

    def where(self, f: dict[str, Any], source: str, many: bool) -> str:
        return str(self.inner.where({**f, "message_index": f["message_index"] - self.shift}, source, many))


def session_file_in(folder: str) -> str | None:
    """The one log file a session folder holds, where an agent keeps each session as a folder with
    one file appended to (Copilot CLI's ``<id>/events.jsonl``: a session-files pattern ``*/NAME``)."""
    from .dialects import all_dialects

    for d in all_dialects():
        where = d.session_files
        for pattern in where.patterns if where is not None and where.store is None else ():
            head, _, name = pattern.rpartition("/")
            if head == "*" and name and not any(c in name for c in "*?[") and os.path.isfile(os.path.join(folder, name)):
                return os.path.join(folder, name)
    return None


def _tree(folder: str) -> tuple[tuple[str, int, int], ...]:
    """Every file under ``folder``: (path, size, modification time), in path order."""
    out = []
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(here, name)
            try:
                st = os.stat(p)
            except OSError:
                continue  # gone between the listing and the look
            out.append((p, st.st_size, st.st_mtime_ns))
    return tuple(out)


@dataclass
class FolderFollower:
    """A conversation kept as a folder of event files (OpenHands: one file per event), followed:
    when its files change, the folder is read again as ``check`` reads it and the findings not
    reported before are returned, each once. A file written halfway (not JSON yet) is waited for
    (``waiting`` says why) until the folder changes again; files taken away read it again from
    the start (``restarted``)."""

    path: str
    target: str | None = None
    dialect: str | None = None
    files: tuple[tuple[str, int, int], ...] = ()
    seen: set[tuple[Any, ...]] = field(default_factory=set)
    restarted: str | None = None
    waiting: str | None = None  # why the folder as it now is could not be read (a file written halfway)
    whole_checks: int = 0

    def poll(self) -> tuple[list[dict[str, Any]], Any, dict[str, Any] | None]:
        """``(new findings, locator, report)`` after looking at the folder again."""
        from .checking import check_plain
        from .ci_output import Locator
        from .reading import load_path

        self.restarted = None
        if not os.path.isdir(self.path):
            raise InputError("no such folder", self.path)
        files = _tree(self.path)
        if files == self.files:
            return [], None, None
        first = not self.files
        if not {p for p, _, _ in self.files} <= {p for p, _, _ in files}:
            self.restarted, self.seen = "files were taken out of the folder", set()
        self.files = files
        try:
            doc = load_path(self.path)
        except InputError as exc:
            if first:
                raise
            self.waiting = str(exc)  # a file written halfway: read again when the folder changes
            return [], None, None
        self.waiting = None
        report, analyses = check_plain(doc, self.target, self.dialect)
        self.whole_checks += 1
        new = []
        for f in report["findings"]:
            key = finding_key(f)
            if key not in self.seen:
                self.seen.add(key)
                new.append(f)
        return new, Locator(doc, analyses), {**report, "findings": new}
