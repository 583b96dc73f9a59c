"""Scanning one part: every transcript in it through the public engine (``check_plain``), to rows.

A *row* is a plain dict per transcript (where it is, dialect, target, counts, codes) with its
findings attached; ``outputs`` splits them into the transcript and finding tables. A record that
cannot be read gives a row too, with ``problem`` saying what and where, so one bad line never
stops a scan of a million.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from ..checking import check_plain, counts
from ..containers import Document, Transcript, find_transcripts, get_path
from ..dialects import of_target
from ..errors import InputError
from ..jsonio import loads
from ..loops import DEFAULT as DEFAULT_LOOPS
from ..loops import LoopOptions
from .fast import FastPath
from .sources import Part

FINDING_FIELDS = ("code", "rule", "severity", "message_index", "tool_call_id", "other_index", "text",
                  "provider_error", "hint")
# A loop (``inspector.loops``) as a row carries it: apart from the findings, never "rejected".
LOOP_FIELDS = ("code", "rule", "severity", "message_index", "last_index", "tool", "count", "tokens", "text")


@dataclass(frozen=True)
class ScanOptions:
    target: str | None = None
    dialect: str | None = None
    loops: LoopOptions = DEFAULT_LOOPS


def _row(source: str, line: int | None, key: str | None) -> dict[str, Any]:
    return {"source": source, "line": line, "key": key, "dialect": None, "target": None, "messages": 0,
            "errors": 0, "warnings": 0, "notes": 0, "codes": [], "rejected": False, "problem": None,
            "loops": 0, "loop_calls": 0, "loop_tokens": 0, "findings": [], "loop_findings": []}


def _key(root: Any, t: Transcript, many: bool) -> str | None:
    """What names a transcript besides its line: a Batch ``custom_id``, a sample id, its JSON path."""
    if type(root) is dict and isinstance(root.get("custom_id"), str):
        custom_id: str = root["custom_id"]
        return custom_id
    if t.path:
        parent = get_path(root, t.path[:-1])
        sid = parent.get("id") if type(parent) is dict else None
        if isinstance(sid, (str, int)) and not isinstance(sid, bool) and parent is not root:
            return f"{t.label} (id {sid})"
    return t.label if many else None


def check_one(root: Any, t: Transcript, fmt: str, source: str, line: int | None, key: str | None,
              opts: ScanOptions) -> dict[str, Any]:
    """The row of one transcript checked on its own (a file whose transcripts cannot be read together)."""
    return _rows(Document(root=root, format=fmt, transcripts=[t], source=source), line, [key], opts)[0]


def _rows(doc: Document, line: int | None, keys: list[Any], opts: ScanOptions) -> list[dict[str, Any]]:
    """A row per transcript of ``doc``, from one ``check_plain`` of the whole document: the same
    reading as ``inspector check`` (the dialect a weak transcript takes from its siblings, the
    target each transcript's own request names)."""
    source = doc.source
    try:
        report, _ = check_plain(doc, opts.target, opts.dialect, loops=opts.loops)
    except InputError as exc:
        if len(doc.transcripts) > 1:  # say which transcript cannot be read, and scan the others
            return [check_one(doc.root, t, doc.format, source, line, k, opts) for t, k in zip(doc.transcripts, keys)]
        row = _row(source, line, keys[0])
        row["dialect"] = doc.transcripts[0].dialect or None if doc.transcripts else None
        row["problem"] = str(exc)
        return [row]
    by_transcript: list[list[dict[str, Any]]] = [[] for _ in doc.transcripts]
    for f in report["findings"]:
        by_transcript[f["transcript"]].append(f)
    loops_of: list[list[dict[str, Any]]] = [[] for _ in doc.transcripts]
    for f in report["loops"]:
        loops_of[f["transcript"]].append(f)
    rows = []
    for k, (t, fs) in enumerate(zip(doc.transcripts, by_transcript)):
        row = _row(source, line, keys[k])
        c = counts(fs)
        row.update(dialect=report["transcript_dialects"][k], target=report["transcript_targets"][k],
                   messages=report["transcript_messages"][k], errors=c["error"], warnings=c["warning"], notes=c["info"],
                   codes=sorted({f["code"] for f in fs}), rejected=c["error"] > 0,
                   findings=[{name: f[name] for name in FINDING_FIELDS} for f in fs],
                   loops=len(loops_of[k]), loop_calls=sum(f["count"] for f in loops_of[k]),
                   loop_tokens=sum(f["tokens"] for f in loops_of[k]),
                   loop_findings=[{name: f[name] for name in LOOP_FIELDS} for f in loops_of[k]])
        rows.append(row)
    return rows


def check_value(root: Any, fmt: str, source: str, line: int | None, opts: ScanOptions,
                key: str | None = None) -> list[dict[str, Any]]:
    """Rows for every transcript in one parsed value (a line's record, a whole file, a Parquet row)."""
    try:
        found = find_transcripts(root, fmt)
    except InputError as exc:
        row = _row(source, line, key)
        row["problem"] = str(exc)
        return [row]
    many = len(found) > 1
    return _rows(Document(root=root, format=fmt, transcripts=found, source=source), line,
                 [key or _key(root, t, many) for t in found], opts)


def _problem_row(source: str, line: int | None, key: str | None, exc: Exception) -> dict[str, Any]:
    row = _row(source, line, key)
    if isinstance(exc, InputError):  # the row names the file: the error's own ``where`` would say it again
        row["problem"] = exc.what if exc.where == source else str(exc)
    else:
        row["problem"] = f"{type(exc).__name__}: {exc}"
    return row


def fast_path(source: str, opts: ScanOptions, general: Callable[[bytes, int], list[dict[str, Any]]]) -> FastPath | None:
    """The fast path for clean Chat Completions examples (``scan.fast``), when the scan reads
    them as the general path would without options: openai-chat, for OpenAI."""
    chat = of_target("openai").name  # the format of OpenAI's own Chat Completions API
    if opts.target not in (None, "openai") or opts.dialect not in (None, chat):
        return None

    def clean_row(line: int, messages: int) -> dict[str, Any]:
        row = _row(source, line, None)
        row["dialect"], row["target"], row["messages"] = chat, "openai", messages
        return row

    return FastPath(clean_row, general, opts.loops)


def parse_line(ln: bytes) -> Any:
    """One JSON Lines record, or the ``InputError`` saying where in the line it is not JSON."""
    try:
        return orjson.loads(ln)
    except orjson.JSONDecodeError:
        try:
            loads(ln)  # the stdlib's explanation: the column within the line
        except InputError as exc:
            return InputError(str(exc).replace("line 1 column", "column"))
        except Exception as exc:  # noqa: BLE001
            return InputError(str(exc))
        return InputError("not a JSON value")


def scan_part(part: Part, opts: ScanOptions, line_base: int = 0) -> tuple[list[dict[str, Any]], int]:
    """Rows for one part, and how many lines it spans (0 for other kinds).

    Lines are numbered ``line_base + k + 1``; the caller fixes ``line_base`` when it only learns
    it afterwards (the local engine knows how many lines came before once earlier parts are back).
    """
    rows: list[dict[str, Any]] = []
    if part.kind == "unreadable":  # not a regular file (a named pipe, ...): never opened
        unread = _row(part.path, None, None)
        unread["problem"] = part.problem
        return [unread], 0
    if part.kind == "lines":
        from . import lines

        def general(ln: bytes, line: int) -> list[dict[str, Any]]:
            value = parse_line(ln)
            if isinstance(value, InputError):
                return [_problem_row(part.path, line, None, value)]
            try:
                return check_value(value, "json", part.path, line, opts)
            except Exception as exc:  # noqa: BLE001 - one odd record must not end the scan
                return [_problem_row(part.path, line, None, exc)]

        fast = fast_path(part.path, opts, general)
        n = 0
        for k, ln in lines.read_range(part.path, part.start, part.end):
            n = k + 1
            if not ln.strip():
                continue
            line = line_base + n
            row = fast.row(ln, line) if fast is not None and fast.on else None
            if row is not None:
                rows.append(row)
            else:
                rows.extend(general(ln, line))
        return rows, n
    if part.kind == "parquet":
        from .parquet_in import read_group

        for k, value in read_group(part.path, part.start):
            key = f"row {part.row0 + k}"
            if isinstance(value, InputError):
                rows.append(_problem_row(part.path, None, key, value))
                continue
            try:
                rows.extend(check_value(value, "json", part.path, None, opts, key=key))
            except Exception as exc:  # noqa: BLE001
                rows.append(_problem_row(part.path, None, key, exc))
        return rows, 0
    from ..reading import load

    try:
        doc = load(part.path, typed=True)
        many = len(doc.transcripts) > 1
        doc.source = part.path
        return _rows(doc, None, [_key(doc.root, t, many) for t in doc.transcripts], opts), 0
    except Exception as exc:  # noqa: BLE001
        return [_problem_row(part.path, None, None, exc)], 0
