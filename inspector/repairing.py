"""``repair``: turn a broken transcript into one the target accepts, losing nothing.

    >>> import inspector
    >>> msgs = [{"role": "user", "content": "hi"},
    ...         {"role": "assistant", "content": None, "tool_calls": [
    ...             {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
    ...         {"role": "user", "content": "and?"}]
    >>> fixed = inspector.repair(msgs)
    >>> [m["role"] for m in fixed.data], [c.action for c in fixed.report.changes]
    (['user', 'assistant', 'tool', 'user'], ['insert_placeholder'])

Invariants (tested with hypothesis): ``check(repair(x).output, target)`` has no error finding
unless the report's ``unfixed`` says why; ``repair`` of its own output changes nothing; the
same input always gives the same bytes; every message or call taken out is in ``quarantine``
whole, with its input index; and an input without error or warning findings comes back as it
was (the very same bytes when bytes came in). The output keeps the input's dialect, wrapper,
format (JSON or JSON Lines), unknown fields and key order.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO, Literal

from pydantic import BaseModel, Field, PrivateAttr, field_validator

from .checking import check_plain, counts, dialects_for
from .containers import Document, Transcript, find_transcripts
from .dialects import all_dialects
from .dialects.base import Block
from .dialects.editing import LogEditor
from .errors import InputError
from .fixes.base import same_json
from .fixes.documented import DEFAULT_LEADING, DocumentedPlan
from .fixes.entries import EntryPlan
from .fixes.join import JoinPlan
from .fixes.plan import Plan
from .gc_pause import gc_paused
from .reading import load, path_is_database, read_source
from .rules import severity
from .sqlite_sessions import is_database
from .writing import Original, lines_kept_pieces, put_back, replace_field, serialise_pieces, source_bytes

DEFAULT_PLACEHOLDER = "No result was recorded for tool call {id} ({name}); its outcome is unknown."
DEFAULT_BRIDGE = "[no assistant reply was recorded here]"
DEFAULT_NOTE = "[A tool result for call {id} ({name}) that answers no call in this transcript; its content follows.]"


MAX_TEXT_CHARS = 2000  # the texts repair writes (placeholder, bridge, note) are sentences, not payloads
MAX_FIELD_CHARS = 200  # an id or name longer than this is shortened where a text quotes it
# The texts repair writes (placeholders, notes, bridges) may add at most this many times the
# input's size, and at least MIN_ROOM bytes: a 2,000-character placeholder of {name} repeated
# once made 216 MB from a 2.2 MB file.
MAX_GROWTH = 20
MIN_ROOM = 1 << 20
_FIELD = re.compile(r"\{\{|\}\}|\{(id|name)\}|[{}]")


def _fill(template: str, cid: Any, name: Any) -> str:
    """``template`` with ``{id}`` and ``{name}`` replaced and ``{{``/``}}`` written as braces.

    No format mini-language (``{id:>200000000}`` once asked for a 200 MB string): any other
    brace is refused by ``_template_ok``. The quoted values are shortened, so the text stays
    about as long as the template.
    """
    values = {"id": _short(str(cid) if cid else "(no id)"),
              "name": _short(name) if isinstance(name, str) and name else "unnamed tool"}
    return _FIELD.sub(lambda m: values[m.group(1)] if m.group(1) else m.group(0)[0], template)


def _short(text: str) -> str:
    return text if len(text) <= MAX_FIELD_CHARS else text[:MAX_FIELD_CHARS - 1] + "…"


def _template_ok(template: str) -> str:
    for m in _FIELD.finditer(template):
        if len(m.group(0)) == 1:
            raise ValueError(
                f"a lone {m.group(0)!r} at character {m.start() + 1}: only {{id}} and {{name}} are filled in "
                "(no format specs); write {{ and }} for braces")
    return template


class RepairOptions(BaseModel):
    """What repair does where rules.md §4 offers a choice. The defaults are the safe ones."""

    missing: Literal["placeholder", "remove_call"] = Field(
        "placeholder", description="TC001: insert a placeholder result, or remove the unanswered call (to quarantine)")
    orphan: Literal["quarantine", "note", "keep"] = Field(
        "quarantine", description="TC002: take an orphan result out, turn it into a user note quoting it, or keep it")
    relink: bool = Field(True, description="TC002: a result whose id was rewritten, inside a call block with exactly "
                         "one unanswered call (of the tool it names, if it names one), takes that call's id "
                         "instead of being taken out while a placeholder answers the call")
    duplicate: Literal["real", "first", "last"] = Field(
        "real", description="TC005: keep the real-looking result (else the last), the first, or the last")
    pending: Literal["leave", "close", "placeholder", "quarantine"] = Field(
        "leave", description="TC022: leave a pending trailing call (where the target refuses a request ending on it, "
        "take it out into the quarantine), close it with a placeholder result (close or placeholder), or take it "
        "out (quarantine)")
    leading: Literal["bridge", "drop_leading"] = Field(
        "bridge", description="TC019: a history that starts with a function call gets a user turn marked as "
        "synthesized before it, or loses the call and its response to the quarantine (drop_leading)")
    leading_text: str = Field(DEFAULT_LEADING, max_length=MAX_TEXT_CHARS,
                              description="text of the synthesized user turn before a leading function call")
    rename_ids: bool = Field(True, description="TC006/TC009: rename duplicate ids and ids the target's format refuses")
    user_as_result: bool = Field(False, description="TC020: make tool output sent as a user message the call's result")
    unknown_role: Literal["quarantine", "keep"] = Field("quarantine", description="TC024: take the message out, or keep it")
    placeholder: str = Field(DEFAULT_PLACEHOLDER, max_length=MAX_TEXT_CHARS,
                             description="text of a placeholder result; {id} and {name} are filled in")
    bridge: str = Field(DEFAULT_BRIDGE, max_length=MAX_TEXT_CHARS,
                        description="text of a synthesized assistant message bridging a role order")
    note: str = Field(DEFAULT_NOTE, max_length=MAX_TEXT_CHARS,
                      description="first line of a note that quotes an orphan result; {id} and {name} are filled in")

    model_config = {"extra": "forbid"}
    # [bytes the texts may add, the input's size, bytes added so far, texts written]; None: no bound
    _room: list[Any] | None = PrivateAttr(default=None)

    @field_validator("placeholder", "note")
    @classmethod
    def _templates(cls, v: str) -> str:
        return _template_ok(v)

    def placeholder_text(self, cid: Any, name: Any) -> str:
        return self._spend(_fill(self.placeholder, cid, name), "placeholder")

    def note_text(self, cid: Any, name: Any) -> str:
        return self._spend(_fill(self.note, cid, name), "note")

    def bridge_text(self) -> str:
        return self._spend(self.bridge, "bridge")

    def limit_growth(self, input_bytes: int | None) -> None:
        """Bound what the texts may add for an input of ``input_bytes`` (None: no bound)."""
        self._room = None if input_bytes is None else [max(MAX_GROWTH * input_bytes, MIN_ROOM), input_bytes, 0, 0]

    def _spend(self, text: str, what: str) -> str:
        room = self._room
        if room is not None:
            room[2] += len(text) + 64  # the text, and the message or block around it
            room[3] += 1
            if room[2] > room[0]:
                raise InputError(
                    f"these repair options would make the output more than {MAX_GROWTH}x the input "
                    f"({room[1]:,} bytes): {room[3]:,} {what} texts of about {len(text):,} characters so far; "
                    f"use a shorter {what} text (fewer {{id}} and {{name}})")
        return text


def usable_options(options: Any) -> dict[str, Any]:
    """The options (from a share link's view) that ``RepairOptions`` accepts one by one.

    A link is made by anyone: an option it carries that the engine refuses (a text over the
    length limit, a choice that does not exist) is dropped and the default shown instead.
    """
    if not isinstance(options, dict):
        return {}
    kept = {}
    for name, value in options.items():
        if name not in RepairOptions.model_fields:
            continue
        try:
            RepairOptions(**{name: value})
        except ValueError:
            continue
        kept[name] = value
    return kept


# ``--set RULE=ACTION``: a rule code or an option name, and the action.
SET_KEYS = {
    "TC001": "missing", "TC002": "orphan", "TC017": "orphan", "TC005": "duplicate", "TC022": "pending",
    "TC019": "leading",
    "TC006": "rename_ids", "TC009": "rename_ids", "TC020": "user_as_result", "TC024": "unknown_role",
}
_BOOL_WORDS = {"true": True, "yes": True, "on": True, "1": True, "rename": True, "convert": True,
               "false": False, "no": False, "off": False, "0": False, "keep": False, "leave": False}


def options_from_settings(pairs: list[str], base: dict[str, Any] | None = None) -> RepairOptions:
    """``["TC001=remove_call", "orphan=note"]`` → ``RepairOptions``; ``InputError`` for a bad pair."""
    values = dict(base or {})
    fields = RepairOptions.model_fields
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        name = SET_KEYS.get(key.upper(), key)
        if not sep or name not in fields:
            known = ", ".join(sorted(set(SET_KEYS) | set(fields)))
            raise InputError(f"--set {pair!r}: expected RULE=ACTION with RULE one of {known}")
        if fields[name].annotation is bool:
            if value.lower() not in _BOOL_WORDS:
                raise InputError(f"--set {pair!r}: {name} takes true or false")
            values[name] = _BOOL_WORDS[value.lower()]
        else:
            values[name] = value
    try:
        return RepairOptions(**values)
    except Exception as exc:  # noqa: BLE001  pydantic's ValidationError: say which value is wrong, on one line
        errors: list[dict[str, Any]] = getattr(exc, "errors", list)()
        what = "; ".join(f"{'.'.join(map(str, e.get('loc', ())))}: {e.get('msg')}" for e in errors) or str(exc)
        raise InputError(f"invalid repair option: {what}") from None


class Change(BaseModel):
    """One change repair made, in the words a person reads."""

    action: str = Field(description="e.g. insert_placeholder, move_result, quarantine_orphan, rename_id")
    code: str = Field(description="the rule code the change answers")
    tool_call_id: str | None = None
    index_before: int | None = Field(None, description="index in the input list (None for a new message)")
    index_after: int | None = Field(None, description="index in the output list (None when taken out)")
    text: str
    new_id: str | None = Field(None, description="the id given, for renames and new ids")
    transcript: int = 0


class Quarantined(BaseModel):
    """Something repair took out of the transcript, whole, with where it was."""

    index: int = Field(description="index of the message in the input list")
    transcript: int = 0
    code: str
    reason: str
    content: Any = Field(description="the message (or the call object) exactly as it was")


class RepairReport(BaseModel):
    """What repair did and what it could not do. ``ok``: the target accepts the output."""

    target: str
    dialect: str
    transcript_targets: list[str] = Field(default_factory=list, description="the target each transcript was "
                                          "repaired for (``target`` is the first one's)")
    changes: list[Change] = Field(default_factory=list)
    quarantine: list[Quarantined] = Field(default_factory=list)
    id_map: dict[str, str] = Field(default_factory=dict, description="old id -> new id (format renames)")
    findings_before: dict[str, int]
    findings_after: dict[str, int]
    unfixed: list[str] = Field(default_factory=list, description="what could not be fixed safely, and why")
    ok: bool = True
    input_findings: list[dict[str, Any]] = Field(default_factory=list, description="object keys the input repeats, with "
                                       "every value: the output keeps the last, as any JSON reader would")

    def to_json(self, indent: bool = True) -> bytes:
        """The report as indented JSON. Quarantined content is written by ``jsonio.dumps``: it is
        the input's own data (integers beyond 64 bits, nesting past pydantic's 255 levels)."""
        from .jsonio import dumps

        plain = self.model_dump(mode="json", exclude={"quarantine": {"__all__": {"content"}}, "input_findings": True})
        for item, q in zip(plain["quarantine"], self.quarantine):
            item["content"] = q.content
        plain["input_findings"] = self.input_findings
        return dumps(plain, indent=indent)


class RepairResult:
    """The repaired file (``output`` bytes, ``data`` value, ``document``) and its ``report``.

    Unpacks as ``data, report = inspector.repair(messages)``.
    """

    __slots__ = ("_after", "_output", "_pieces", "_reads", "document", "report", "unchanged")

    def __init__(self, output: bytes | None, document: Document, report: RepairReport, after: dict[str, Any],
                 pieces: Callable[[], Iterable[bytes]] | None = None, reads: Original | None = None,
                 unchanged: bool = False) -> None:
        self._output = output
        self._pieces = pieces
        self._reads = reads  # the input, when writing the output reads it again
        self.unchanged = unchanged  # the output is the input as it was, byte for byte
        self.document = document
        self.report = report
        self._after = after

    @property
    def output(self) -> bytes:
        """The repaired file's bytes (built on first use; ``write`` streams them instead)."""
        if self._output is None:
            assert self._pieces is not None  # a result is built with its output or its pieces
            self._output = b"".join(self._pieces())
        return self._output

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a worker process hands the result back) with its output built: the writer of
        the pieces is a closure over this process's values, and the input it reads again stays
        behind."""
        return {"_output": self.output, "_after": self._after, "document": self.document, "report": self.report,
                "unchanged": self.unchanged}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._pieces = self._reads = None
        for name, value in state.items():
            setattr(self, name, value)

    def reads_back(self, path: str) -> bool:
        """True when writing the output would read ``path`` again (writing to it first would lose it)."""
        source = self._reads
        try:
            return self._output is None and source is not None and source.path is not None \
                and os.path.samefile(source.path, path)
        except OSError:
            return False

    def write(self, f: BinaryIO) -> None:
        """Write the output to a binary file without holding all of it at once."""
        if self._output is not None:
            f.write(self._output)
            return
        assert self._pieces is not None
        f.writelines(self._pieces())

    @property
    def check_report(self) -> Any:
        """``check`` of the output for the same target (a ``Report``), for callers that want the findings."""
        from .report import Report

        return Report.model_validate(self._after)

    def errors_after(self, transcript: int | None = None) -> int:
        """Error findings left in the output, in one transcript of the file or (None) in all."""
        return sum(1 for f in self._after["findings"]
                   if f["severity"] == "error" and (transcript is None or f["transcript"] == transcript))

    @property
    def data(self) -> Any:
        """The repaired value: the message list, or the whole wrapper it sits in."""
        return self.document.value()

    def __iter__(self) -> Iterator[Any]:
        return iter((self.data, self.report))


def repair(source: Any, target: str | None = None, options: RepairOptions | dict[str, Any] | None = None, *,
           dialect: str | None = None, as_request: bool | None = None) -> RepairResult:
    """Repair a transcript (messages, a request body, JSON text, bytes, a path or ``-``) for ``target``.

    ``options`` is a ``RepairOptions`` or a dict of its fields; ``as_request`` judges it as a
    request about to be sent (True) or a log (False) rather than as the input says, as ``check``
    does. Raises ``InputError`` when the input cannot be read or its dialect cannot be repaired yet.
    """
    if isinstance(options, dict):
        options = RepairOptions(**options)
    options = options or RepairOptions()
    if isinstance(source, (list, dict)):
        refuse_non_json(source)
    data = source_bytes(source)
    original = None
    if data is not None and is_database(data[:16]):
        doc = load(data)  # a SQLite session store: the repaired database is a new one (``sqlite_sessions``)
    elif data is not None:
        original = Original(data)
        doc = load(source, typed=True)
    elif isinstance(source, (str, os.PathLike)) and not isinstance(source, Document) and not path_is_database(source):
        data, name = read_source(source)
        doc = load(data, name=name, typed=True)
        # A file is read again if it comes back unchanged; stdin cannot be.
        original = Original(data, None if name == "<stdin>" else name)
    else:
        doc = load(source)
    del data
    with gc_paused():  # a big transcript allocates many small objects; collection cycles only cost time
        return _repair_document(doc, target, options, dialect, original, as_request)


def refuse_non_json(value: Any) -> None:
    """``InputError`` naming the first value in Python data that a JSON file cannot hold.

    ``check`` reads such data as it is, but repair writes JSON: a set, bytes, a ``Decimal``, a
    non-string key, a lone surrogate or a cycle would otherwise fail deep inside the writer
    with a ``TypeError`` or ``UnicodeEncodeError``.
    """
    import orjson

    from .jsonio import ORJSON_MAX_DEPTH

    try:
        orjson.dumps(value)
        json.dumps(value, allow_nan=False)  # orjson writes NaN as null without a word
        return  # the common case, at C speed
    except (TypeError, ValueError, RecursionError):
        pass  # both also refuse things JSON can hold (integers beyond 64 bits, deep nesting): look closer
    stack: list[tuple[Any, str, int]] = [(value, "$", 0)]
    open_ids: dict[int, int] = {}  # id -> depth, of containers on the current path
    while stack:
        v, where, depth = stack.pop()
        if depth > ORJSON_MAX_DEPTH:
            raise InputError(f"nested more than {ORJSON_MAX_DEPTH} levels deep, too deep to be a transcript", where)
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError("a string holds a lone surrogate (half of a UTF-16 pair), which JSON text cannot", where) from None
        elif isinstance(v, (dict, list)):
            for i in [k for k, d in open_ids.items() if d >= depth]:
                del open_ids[i]
            if id(v) in open_ids:
                raise InputError("the data contains itself (a cycle), which JSON cannot hold", where)
            open_ids[id(v)] = depth
            if isinstance(v, dict):
                for k, x in v.items():
                    if not isinstance(k, str):
                        raise InputError(f"a key is a {type(k).__name__}, but JSON object keys are strings", where)
                    stack.append((x, f"{where}[{k[:40]!r}]", depth + 1))
            else:
                stack.extend((x, f"{where}[{i}]", depth + 1) for i, x in enumerate(v))
        elif isinstance(v, float) and not math.isfinite(v):
            raise InputError(f"{v!r} is not a JSON number (a file could not hold it; repair would write null)", where)
        elif not (v is None or isinstance(v, (bool, int, float))):
            raise InputError(f"a {type(v).__name__} value, which JSON cannot hold (use a list, a string or a number)", where)


def _repair_document(doc: Document, target: str | None, options: RepairOptions, dialect: str | None,
                     original: Original | None, as_request: bool | None = None) -> RepairResult:
    options.limit_growth(None if original is None else original.size)
    before, analyses = check_plain(doc, target, dialect, as_request=as_request)
    asked = target  # re-checks ask as the user did: each transcript then keeps the target it was repaired for
    targets = before["transcript_targets"]
    editors = [editor_of(a) for a in analyses]
    report = RepairReport(target=before["target"], dialect=before["dialect"], transcript_targets=targets,
                          findings_before=counts(before["findings"]), findings_after=counts(before["findings"]))
    report.input_findings = before["input_findings"]
    runs = [_Run(n, a.transcript, a.dialect.name) for n, a in enumerate(analyses)]
    changed = [run.step(a, ed, targets[run.n], options) for run, a, ed in zip(runs, analyses, editors)]
    del analyses, editors  # the planned steps hold what they need: one set of analyses at a time
    root = doc.root
    after = before
    for _ in range(MAX_PASSES):
        if not any(changed):
            break
        for run, ch in zip(runs, changed):
            if ch:
                root = run.put(root)
        new_doc = Document(root=root, format=doc.format, transcripts=[r.transcript() for r in runs], source=doc.source)
        after, again = check_plain(new_doc, asked, dialect, as_request=as_request, empty_ok=True)
        # A pass that sees more to do (a fix that only shows once another is made) runs again,
        # so that repairing the output changes nothing.
        changed = [run.step(a, editor_of(a), targets[run.n], options, later=True)
                   for run, a in zip(runs, again)]
        del again
    else:
        if any(changed):
            codes = sorted({c for run, ch in zip(runs, changed) if ch for c in run.stuck})
            report.unfixed.append(
                f"repair did not settle after {MAX_PASSES + 1} passes: {', '.join(codes)} still needed changes on the "
                "last one, so the rule(s) keep failing; the report lists only the changes the output shows")
            for run, ch in zip(runs, changed):
                if ch:
                    root = run.put(root)
            new_doc = Document(root=root, format=doc.format, transcripts=[r.transcript() for r in runs],
                               source=doc.source)
            after, _ = check_plain(new_doc, asked, dialect, as_request=as_request, empty_ok=True)
    new_doc = Document(root=root, format=doc.format, transcripts=[r.transcript() for r in runs], source=doc.source)
    reads = None
    if after is before:
        if original is not None:
            pieces, reads = original.pieces, original
        else:
            def pieces() -> Iterator[bytes]:
                return serialise_pieces(doc.value(), doc.format, True)
    else:
        pretty = original is None or original.pretty
        if original is not None and original.utf8 and doc.format == "jsonl" and type(root) is list:
            def pieces() -> Iterator[bytes]:  # a line repair did not touch is written back as the very bytes it was
                return lines_kept_pieces(root, doc.root, original.pieces())
            reads = original
        else:
            def pieces() -> Iterator[bytes]:
                return serialise_pieces(root, doc.format, pretty)
        report.findings_after = counts(after["findings"])
    for run in runs:
        run.collect(report)
    if after is not before:
        report.unfixed.extend(_reads_back(root, doc.format, runs, asked, dialect))
    errors = [f for f in after["findings"] if f["severity"] == "error"]
    if errors:
        f = errors[0]
        report.unfixed.append(
            f"after repair the target would still refuse this request: {len(errors)} error(s), first {f['code']} "
            f"at message #{f['message_index']}: {f['text']}")
    report.ok = not report.unfixed
    return RepairResult(None, new_doc, report, after, pieces, reads, unchanged=after is before and original is not None)


MAX_PASSES = 4  # the documented fixes take a pass of their own


def _reads_back(root: Any, fmt: str, runs: list[_Run], target: str | None, dialect: str | None) -> list[str]:
    """Why the repaired document would not read back as it was written, or [].

    A repaired file must read back in the dialect each transcript was read in, and keep a message
    to send: an Anthropic body whose only message was an orphan result would otherwise come back
    as ``"messages": []``, which the API refuses and which reads as another format."""
    out = []
    for run in runs:
        if not run.items and run.t.items:
            where = f"transcript {run.n} ({run.t.label}): " if len(runs) > 1 else ""
            out.append(f"{where}repair would leave no message (every one was taken out into the quarantine), "
                       "and no provider accepts a request without messages")
    if out:
        return out
    try:
        fresh = Document(root=root, format=fmt, transcripts=find_transcripts(root, fmt))
        read = dialects_for(fresh, dialect, target)
    except InputError as exc:
        return [f"the repaired file would not read back: {exc}"]
    if [t.path for t in fresh.transcripts] != [r.path for r in runs]:
        return [(f"the repaired file would read back as {len(fresh.transcripts)} transcript(s) at other places "
                 f"than the {len(runs)} it was written as")]
    return [f"transcript {run.n} would read back as {d.name}, not as the {run.dialect} it was written in"
            for run, d in zip(runs, read) if d.name != run.dialect]


def editor_of(a: Any) -> Any:
    """The editor of the dialect ``a`` was read as, or ``InputError`` when it cannot be repaired."""
    ed = a.dialect.editor
    if ed is None:
        have = ", ".join(sorted(d.name for d in all_dialects() if d.editor is not None)) or "none"
        raise InputError(f"repair is not available for dialect {a.dialect.name!r} yet (available: {have})")
    return ed


class _Run:
    """One transcript's repair over one or more passes, with indices kept in the input's terms."""

    def __init__(self, n: int, t: Transcript, dialect: str) -> None:
        self.n, self.t, self.path, self.dialect = n, t, t.path, dialect
        self.items = t.items
        self.changes: list[Change] = []
        self.quarantine: list[Quarantined] = []
        self.id_map: dict[str, str] = {}
        self.unfixed: list[str] = []
        self.origin: list[int | None] | None = None  # input index of each current item (None: new)
        self.reported: set[str] = set()  # codes check reported on the input (errors and warnings)
        self.reported_at: dict[int, str] = {}  # input index -> the code check reported on that message first
        self.stuck: list[str] = []  # the codes of the latest pass's changes
        self.request_fields: dict[str, Any] = {}  # fields of the request body around the list that repair rewrote

    def transcript(self) -> Transcript:
        t = self.t
        extra = t.extra
        if self.request_fields and type(extra.get("request")) is dict:  # the next pass reads the body as written
            extra = {**extra, "request": {**extra["request"], **self.request_fields}}
        return Transcript(items=self.items, path=t.path, container=t.container, dialect=self.dialect, extra=extra)

    def put(self, root: Any) -> Any:
        """``root`` with this transcript's items written back, and the request fields repair
        rewrote (a top-level ``system`` a system message was folded into) beside them."""
        root = put_back(root, self.t, self.items, self.origin)
        for key, value in self.request_fields.items():
            root = replace_field(root, self.path[:-1], key, value)
        return root

    def step(self, a: Any, ed: Any, target: str, options: RepairOptions, later: bool = False) -> bool:
        """Run one pass of the plan; True when it changed something."""
        if "view" in a.transcript.extra:  # a sub-agent or abandoned branch: entries of the main list
            bad = sorted({i.code for i in a.issues if severity(i.code, target) == "error"})
            self.unfixed = [(f"{a.transcript.extra.get('label', 'this transcript')} is left as it is: repair rewrites a "
                            f"log's main conversation, not a view of some of its entries ({', '.join(bad)})")] if bad else []
            return False
        documented: DocumentedPlan | None = None
        plan: EntryPlan | DocumentedPlan | JoinPlan | Plan
        if isinstance(ed, LogEditor):  # log entries that make messages: plan on the messages, write entries
            plan = EntryPlan(a, target, options, ed)
        else:
            # The fixes a provider documents first, in a pass of their own (fixes/documented.py).
            documented = plan = DocumentedPlan(a, target, options, ed)
            items = plan.run()
            if not plan.recs:  # results that are blocks of the next message: plan on an exploded copy, join back
                plan = (JoinPlan if a.dialect.block is Block.NEXT else Plan)(a, target, options, ed)
        written = self._written()  # (what an earlier pass wrote: the keeper's choice, then the log's)
        if plan is not documented:
            if isinstance(plan, Plan):
                plan.written = written
            items = plan.run()
        unfixed = plan.unfixed if documented is None or plan is documented else [*documented.unfixed, *plan.unfixed]
        # The latest pass knows best what is left; an earlier pass may have said more about the
        # same item (why a result was not re-linked, before a placeholder answered its call).
        self.unfixed = [next((e for e in self.unfixed if e.startswith(u)), u) for u in unfixed]
        if not plan.recs:
            return False
        self.request_fields.update(getattr(plan, "request_fields", None) or {})
        if later and len(items) == len(self.items) and same_json(items, self.items):
            # A pass whose output is its input made no change, whatever its plan said: the log
            # lists only what the output shows (a Gemini join that joined nothing, issue 34).
            self.stuck = sorted({r.code for r in plan.recs})
            return False
        self.stuck = sorted({r.code for r in plan.recs})
        prev = self.origin
        back = (lambda k: k) if prev is None else (lambda k: prev[k] if k is not None and k < len(prev) else None)
        new_origin = getattr(plan, "origins", None)
        recs, quarantine = plan.recs, plan.quarantine
        if later:  # earlier changes' output positions move with this pass
            where = {o: k for k, o in enumerate(new_origin or ()) if o is not None}
            for r in plan.recs:  # a message joined into another: where this pass's change says it went
                if r.before is not None and r.before not in where and r.slot is not None and r.slot.pos is not None:
                    where[r.before] = r.slot.pos
            recs, quarantine = self._undo_added(written, where, plan.recs, plan.quarantine)
            for c in self.changes:
                c.index_after = where.get(c.index_after) if c.index_after is not None else None
        if not later:  # what check reported on the input, at a severity repair acts on
            acted = [i for i in a.issues if severity(i.code, target, i.data.get("kind")) in ("error", "warning")]
            self.reported = {i.code for i in acted}
            for i in acted:
                self.reported_at.setdefault(i.index, i.code)
        # A change mending what another fix made (a placeholder result that cannot share a Bedrock
        # message with text) cites the finding behind that fix: repair acts only on what check reported.
        cause = next((c for c in (*(c.code for c in self.changes), *(r.code for r in plan.recs))
                      if c in self.reported), None)
        for r in recs:
            code, text = r.code, r.text
            before = back(r.before) if r.before is not None else None
            if code not in self.reported and before in self.reported_at:
                # the finding on the message itself, in the target's terms (a result a gateway's
                # destination refuses after text is TC016 there, not the file's own TC003)
                code = self.reported_at[before]
            elif code not in self.reported and cause is not None:
                code = cause
                text = f"{text} (needed by the {cause} repair, whose output would otherwise break {r.code})"
            self.changes.append(Change(action=r.action, code=code, tool_call_id=r.call_id,
                                       index_before=before,
                                       index_after=r.slot.pos if r.slot is not None else None, text=text,
                                       new_id=r.new_id, transcript=self.n))
        for index, code, reason, content in quarantine:
            k = back(index)
            self.quarantine.append(Quarantined(index=k if k is not None else index, transcript=self.n, code=code,
                                               reason=reason if k is not None else reason + " (an item repair had added)",
                                               content=content))
        self.id_map.update(plan.id_map)
        if new_origin is None or prev is None:
            self.origin = new_origin
        else:
            self.origin = [back(o) if o is not None else None for o in new_origin]
        self.items = items
        return True

    def _undo_added(self, written: frozenset[int], where: dict[int, int], recs: list[Any],
                    quarantine: list[tuple[int, str, str, Any]]
                    ) -> tuple[list[Any], list[tuple[int, str, str, Any]]]:
        """This pass's changes and quarantine, once the items an earlier pass added and this one
        takes out are accounted for (a placeholder for a call that a later pass pairs with the input's
        own result, once another fix freed that result: tests/repair/test_change_log.py).

        An item repair wrote whole (every change naming it inserted it) never reaches the output and
        holds nothing of the input: its insertion and its removal both leave the log, and it does
        not go to the quarantine, which holds input data at input indexes. (An added item made from
        input data, a split-off part or a note quoting an orphan, is left to the changes as they are.)
        ``written``: ``_written()`` before this pass."""
        gone = {k for k in written if k not in where}  # (not one this pass keeps)
        if not gone:
            return recs, quarantine
        self.changes = [c for c in self.changes if c.index_after not in gone]
        recs = [r for r in recs if not (r.before in gone and r.slot is None)]
        return recs, [q for q in quarantine if q[0] not in gone]

    def _written(self) -> frozenset[int]:
        """The current items that repair wrote whole in an earlier pass: no input item (``origin``),
        and every change naming it inserted it."""
        new = {k for k, o in enumerate(self.origin or ()) if o is None}
        naming: dict[int, list[Change]] = {}
        for c in self.changes:
            if c.index_after in new:
                naming.setdefault(c.index_after, []).append(c)
        return frozenset(k for k, named in naming.items()
                         if all(c.index_before is None and c.action.startswith("insert") for c in named))

    def collect(self, report: RepairReport) -> None:
        report.changes.extend(self.changes)
        report.quarantine.extend(self.quarantine)
        report.id_map.update(self.id_map)
        prefix = f"transcript {self.n}: " if self.n else ""
        report.unfixed.extend(prefix + u for u in self.unfixed)
