"""Parse and check once per file, shared by every rerun: a byte-budget cache keyed by sha256.

``bytecache`` (like ``cache_resource``) hands back the same object without copying (a ``cache_data`` hit on a
20,000-message transcript costs a pickle round trip on every rerun; see streamlit-notes §2), so
everything returned here is treated as read-only. The bytes are passed as an underscore
argument: Streamlit does not hash them, the sha256 in the key stands for them.
"""

from __future__ import annotations

import gc
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

from .. import dialects
from ..checking import Analysis, check_document, default_target, dialects_for, target_for_transcript
from ..containers import Document
from ..hosting import events
from ..loops import LoopOptions
from ..reading import load_bytes
from ..render import TimelineModel
from ..render.layout import LoopFold
from ..report import Finding, LoopFinding, Report
from .bytecache import byte_cached


@dataclass(frozen=True)
class Checked:
    """A checked file: the document, the report and one analysis per transcript."""

    doc: Document
    report: Report
    analyses: list[Analysis]

    def findings(self, transcript: int) -> list[Finding]:
        return [f for f in self.report.findings if f.transcript == transcript]

    def loops(self, transcript: int) -> list[LoopFinding]:
        """The repeated calls and stuck loops of one transcript (``inspector.loops``)."""
        return [f for f in self.report.loops if f.transcript == transcript]


# Memory a cached result holds, as a multiple of the file's bytes (measured: the parsed document
# is about 2.5x its JSON, a check's analyses about as much again).
PARSED_PER_BYTE, CHECKED_PER_BYTE = 3, 3


@byte_cached(lambda sha, _data, name: PARSED_PER_BYTE * len(_data))
def parsed(sha: str, _data: bytes, name: str) -> Document:
    """The parsed file (raises ``InputError`` with a line and column when it is not JSON, and
    ``WorkLimit`` when reading and checking it needs more than a worker may have)."""
    from .workers import admit

    admit("check", sha, _data, name)
    return load_bytes(_data, name)


@byte_cached(lambda sha, _doc: 1_000)
def detected_dialects(sha: str, _doc: Document) -> tuple[str, ...]:
    """Every dialect the check reads the file's transcripts in (``check.dialects_for``, without
    changing the document), first seen first. A JSON Lines file may mix formats, and the badge must
    not name the first one's alone; and a body's list key counts as the check counts it (a
    request's ``input`` of plain role messages is a Responses input, not chat messages)."""
    if not _doc.transcripts:
        return (dialects.fallback().name,)
    return tuple(dict.fromkeys(d.name for d in dialects_for(_doc)))


def targets_for(dialect: str) -> tuple[str, ...]:
    """The targets the Target box offers: the format's own, then those a gateway reaches with it."""
    d = dialects.get(dialect)
    return (*d.targets, *d.gateway_targets)


def through_gateway(dialect: str, target: str) -> bool:
    """True when ``target`` is reached with this format only through a gateway (LiteLLM, OpenRouter)."""
    d = dialects.get(dialect)
    return target not in d.targets and target in d.gateway_targets


# A version the badge shows: digits and dots, with letters, "-" or "+" after them (a log's text
# goes in a badge, which renders Markdown, only when it cannot be anything but a version).
_VERSION = re.compile(r"[0-9]+(\.[0-9]+){0,3}([-+.][0-9A-Za-z]+){0,3}")


def agent_badge(dialect: str, doc: Document, transcript: int = 0) -> str | None:
    """"Codex CLI 0.46.0": the coding agent whose log this is and the version the log names
    (``Dialect.agent``), for the badge; None when the format is no agent's log."""
    if not doc.transcripts:
        return None
    t = doc.transcripts[min(transcript, len(doc.transcripts) - 1)]
    who = dialects.get(dialect).agent(t.items)
    if who is None:
        return None
    name, version = who
    return f"{name} {version}" if version is not None and _VERSION.fullmatch(version) else name


def target_default(dialect: str, doc: Document | None = None) -> tuple[str, str | None]:
    """The target to start with and, when the file chose it (a span's provider, a request URL, the
    request's model), why: the first transcript's, as ``check`` chooses it."""
    if doc is not None and doc.transcripts:
        t, why = target_for_transcript(doc, 0, dialects.get(dialect))
        chosen = not why.startswith("the default for") and "rules do not apply" not in why
        return t, why if chosen else None
    return default_target(dialect), None


_heap_lock = threading.Lock()
_heap_dirty = False


def freeze_heap() -> None:
    """Keep Streamlit's after-every-run ``gc.collect(2)`` cheap while big transcripts are cached.

    Streamlit runs a full garbage collection after each script run (``runner.postScriptGC``),
    fragment runs included. A cached 20,000-message analysis is some 100,000 tracked objects, so
    every click would pay a scan of all of them (measured: 0.3 to 0.7 s per click on a busy
    machine). Right after a new file is analysed, everything alive moves to the permanent
    generation (``gc.freeze``, cheap), which later collections skip. Cached values are plain
    trees without reference cycles, so an evicted analysis is still freed by reference counting.
    """
    global _heap_dirty
    with _heap_lock:
        gc.freeze()
        _heap_dirty = True


def settle_heap() -> None:
    """Collect what earlier freezes kept (cyclic garbage of ended runs), then freeze again.

    Called at the end of a page run, after the timeline has been sent, and only when a freeze
    happened since the last call: one full collection per new file instead of one per click.
    """
    global _heap_dirty
    with _heap_lock:
        if not _heap_dirty:
            return
        _heap_dirty = False
        gc.unfreeze()
        gc.collect()
        gc.freeze()


@byte_cached(lambda sha, _data, *a, **k: CHECKED_PER_BYTE * len(_data))
def checked(sha: str, _data: bytes, name: str, dialect: str | None, target: str,
            _progress: Callable[[int, int], None] | None = None, loops: LoopOptions | None = None) -> Checked:
    """Check the file for ``target``, reading it as ``dialect`` (None: detect), finding loops as
    ``loops`` says (None: the defaults).

    A file of many transcripts (a dataset) calls ``_progress(done, total)`` every few hundred,
    so that a big upload shows how far the check is.
    """
    doc = parsed(sha, _data, name)  # check leaves the document as it was: the cached parse is shared
    report, analyses = check_document(doc, target, dialect, progress=_progress, loops=loops)
    out = Checked(doc, report, analyses)
    events.record("checks", dialect=report.dialect, target=target, transcripts=len(analyses),
                  findings=len(report.findings))
    freeze_heap()
    return out


@byte_cached(lambda *a, **k: 0)  # holds parts of a ``checked`` result: dropped when idle like it
def timeline_model(sha: str, dialect: str | None, target: str, transcript: int, _checked: Checked,
                   loop_folds: tuple[LoopFold, ...] = ()) -> TimelineModel:
    """The timeline's model of one transcript; ``loop_folds``: runs shown as one row (loops)."""
    a = _checked.analyses[transcript]
    return TimelineModel(a.msgs, a.pairing, _checked.findings(transcript), a.dialect, items=a.transcript.items,
                         loop_folds=loop_folds)
