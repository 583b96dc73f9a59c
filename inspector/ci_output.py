"""Where a finding is in its file, and the formats CI reads: GitHub Actions annotations and SARIF.

A JSON Lines file has a line per record, so a finding there is reported as ``path:LINE`` (the
line of the message, or of the record holding the transcript), which is what annotation UIs
and editors jump to. A plain JSON file has no such line without a position-tracking parser, so
its findings carry the JSON path of the message instead (a file-level annotation in GitHub,
a ``logicalLocation`` in SARIF).
"""

from __future__ import annotations

from typing import Any

from .checking import Analysis
from .containers import Document, path_text

GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


class Locator:
    """Line numbers (JSON Lines) and JSON paths of the messages of one checked document."""

    def __init__(self, doc: Document, analyses: list[Analysis]):
        self.doc = doc
        self.analyses = analyses
        self._item_no: dict[int, dict[int, int]] = {}

    def place(self, transcript: int, message: int) -> tuple[tuple[Any, ...], int]:
        """The list a message sits in and its index there: a transcript continued by a second list
        (an OTLP span's output messages after its input messages) names the second list."""
        t = self.doc.transcripts[transcript]
        head, tail = t.extra.get("head"), t.extra.get("tail")
        if tail is not None and head is not None and message >= head:
            return tuple(tail), message - head
        return t.path, message

    def json_path(self, transcript: int, message: int) -> str:
        path, index = self.place(transcript, message)
        return f"{path_text(path)}[{index}]"

    def line(self, transcript: int, message: int) -> int | None:
        """The 1-based line of the message in a JSON Lines file; None for JSON (or unknown)."""
        lines = self.doc.lines
        if lines is None or transcript >= len(self.doc.transcripts):
            return None
        t = self.doc.transcripts[transcript]
        if t.path:  # a record per line holding the whole transcript: the record's line
            first = t.path[0]
            return lines[first] if isinstance(first, int) and 0 <= first < len(lines) else None
        # A message per line: find the line of the item the message was read from.
        by_raw = self._item_no.get(transcript)
        if by_raw is None:
            by_raw = self._item_no[transcript] = {id(x): k for k, x in enumerate(t.items)}
        msgs = self.analyses[transcript].msgs
        if not 0 <= message < len(msgs):
            return None
        k = by_raw.get(id(msgs[message].raw))
        if k is None:  # a message read from inside a log entry (a Codex rollout line's payload): its entry
            groups = self.analyses[transcript].dialect.item_groups(t.items, t.path)
            k = groups[message][0] if groups and message < len(groups) and groups[message] else None
        view = t.extra.get("view")
        if k is not None and view is not None:  # a view's items are some entries of the file's list
            k = view[k] if k < len(view) else None
        return lines[k] if k is not None and k < len(lines) else None

    def where(self, f: dict[str, Any], source: str, many: bool) -> str:
        """``path:LINE`` for JSON Lines, else ``path:INDEX`` (with the transcript's path when many)."""
        line = self.line(f["transcript"], f["message_index"])
        if line is not None:
            return f"{source}:{line}"
        path, index = self.place(f["transcript"], f["message_index"])
        if self.doc.format == "sqlite":  # a session store's row: its session and row id
            from .sqlite_sessions import row_text

            return f"{source}:{row_text(self.doc.root, path, index)}"
        if many or path != self.doc.transcripts[f["transcript"]].path:
            return f"{source}:{path_text(path)}:{index}"
        return f"{source}:{index}"


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github_line(f: dict[str, Any], source: str, loc: Locator) -> str:
    """One ``::error file=…,line=…,title=…::message`` workflow command for a finding."""
    line = loc.line(f["transcript"], f["message_index"])
    props = [f"file={_escape_prop(source)}"]
    if line is not None:
        props.append(f"line={line}")
    props.append("title=" + _escape_prop(f"{f['code']} {f['rule']}"))
    text = f["text"]
    if line is None:
        text = f"{loc.json_path(f['transcript'], f['message_index'])}: {text}"
    if f.get("provider_error"):
        text += f"\nThe provider says: {f['provider_error']}"
    if f.get("hint"):
        text += f"\nHint: {f['hint']}"
    return f"::{GITHUB_LEVEL[f['severity']]} {','.join(props)}::{_escape_data(text)}"


def github_loop_line(f: dict[str, Any], source: str, loc: Locator) -> str:
    """A loop (``inspector.loops``) as a ``::warning`` (stuck loop) or ``::notice`` (repeated
    call) workflow command, titled apart from the provider rules: a loop never fails a check."""
    return github_line({**f, "rule": f"{f['rule']} (loop, not a provider rule)", "hint": None,
                        "provider_error": None}, source, loc)


def github_unreadable(source: str, message: str) -> str:
    return f"::error file={_escape_prop(source)},title=unreadable transcript::{_escape_data(message)}"


def sarif_log(checked: list[tuple[str, dict[str, Any], Locator]], unreadable: list[tuple[str, str]],
              version: str) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run, a rule per code met, a result per finding and per loop, a
    notification per unreadable file.

    Loops (``inspector.loops``: LP001 note, LP002 warning) are results of rules of their own,
    tagged ``loop`` (rule ``properties.tags``, result ``properties.family``), after the provider
    rules': they never make a request rejected. One run, not a second one: GitHub code scanning
    no longer combines several runs of one tool and category in an upload."""
    from .loops import LOOP_RULES, LOOP_SEVERITY
    from .rules import RULES

    codes = sorted({f["code"] for _, report, _ in checked for f in report["findings"]})
    loop_codes = sorted({f["code"] for _, report, _ in checked for f in report.get("loops", ())})
    rule_index = {c: k for k, c in enumerate([*codes, *loop_codes])}
    rules = [{"id": c, "name": RULES.get(c, c), "shortDescription": {"text": RULES.get(c, c).replace("_", " ")}}
             for c in codes]
    rules += [{"id": c, "name": LOOP_RULES[c],
               "shortDescription": {"text": LOOP_RULES[c].replace("_", " ") + " (a loop, not a provider rule)"},
               "defaultConfiguration": {"level": SARIF_LEVEL[LOOP_SEVERITY[c]]},
               "properties": {"tags": ["loop"]}} for c in loop_codes]
    results = []
    for source, report, loc in checked:
        for f in [*report["findings"], *report.get("loops", ())]:
            physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(source)}}
            line = loc.line(f["transcript"], f["message_index"])
            if line is not None:
                physical["region"] = {"startLine": line}
            text = f["text"] + (f" The provider says: {f['provider_error']}" if f.get("provider_error") else "")
            result = {
                "ruleId": f["code"],
                "ruleIndex": rule_index[f["code"]],
                "level": SARIF_LEVEL[f["severity"]],
                "message": {"text": text},
                "locations": [{
                    "physicalLocation": physical,
                    "logicalLocations": [{"fullyQualifiedName": loc.json_path(f["transcript"], f["message_index"]),
                                          "kind": "element"}],
                }],
                "properties": {"messageIndex": f["message_index"], "transcript": f["transcript"],
                               "target": report["target"], "dialect": report["dialect"]},
            }
            if f.get("tool_call_id"):
                result["properties"]["toolCallId"] = f["tool_call_id"]
            if f.get("hint"):
                result["properties"]["hint"] = f["hint"]
            if f["code"] in LOOP_RULES:
                result["properties"].update(family="loop", tool=f["tool"], count=f["count"], tokens=f.get("tokens", 0),
                                            calls=[c["message_index"] for c in f["calls"]], causes=f["causes"])
            results.append(result)
    notes = [{"level": "error", "message": {"text": msg},
              "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(src)}}}]}
             for src, msg in unreadable]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "inspector", "version": version, "rules": rules}},
            "invocations": [{"executionSuccessful": not unreadable, "toolExecutionNotifications": notes}],
            "results": results,
        }],
    }


def _uri(source: str) -> str:
    """A file URI for an absolute path, a relative reference (to the checkout) otherwise."""
    from pathlib import Path

    if source == "<stdin>":
        return "stdin"
    p = Path(source)
    return p.as_uri() if p.is_absolute() else p.as_posix()
