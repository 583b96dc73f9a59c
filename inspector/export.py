"""Exports beside the repaired file: a readable Markdown transcript to paste into a ticket.

Each call is shown with its result right under it (whatever order the file had them in), and
each result message says which call it answers. Transcript text is hostile: it only ever sits
inside code spans and fenced blocks whose fence is longer than any run of backticks in it, so
nothing in a transcript can turn into Markdown structure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .containers import Document
from .dialects import dialect_of
from .pairing import pair

_TICKS = re.compile(r"`+")


def _fence(text: str, lang: str = "") -> str:
    longest = max((len(m) for m in _TICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{text}\n{fence}"


def code(text: Any) -> str:
    """A Markdown code span that shows ``text`` literally (backticks, pipes and all)."""
    s = str(text).replace("\n", " ")
    longest = max((len(m) for m in _TICKS.findall(s)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s else ""
    return f"{ticks}{pad}{s}{pad}{ticks}"


def _text(text: Callable[[Any], str], raw: Any) -> str:
    """The message's text as its dialect reads it (the same words the app shows); a message
    with no text at all is shown as it is in the file."""
    t = text(raw)
    if t:
        return t
    return json.dumps(raw, ensure_ascii=False, indent=2) if raw else ""


def _args(args: Any) -> tuple[str, str]:
    if isinstance(args, str):
        try:
            return json.dumps(json.loads(args), ensure_ascii=False, indent=2), "json"
        except ValueError:
            return args, ""
    if args is None:
        return "", ""
    return json.dumps(args, ensure_ascii=False, indent=2), "json"


def to_markdown(document: Document, report: Any = None) -> str:
    """The document's transcripts as Markdown; with a ``RepairReport``, its changes come first."""
    out: list[str] = []
    if report is not None:
        out.append(_report_section(report))
    for n, t in enumerate(document.transcripts):
        d = dialect_of(t)
        msgs = d.read(t.items, t.path, [])
        pairing = pair(msgs, d.block)
        result_of = {id(l.call): l.result for l in pairing.links if l.status != "duplicate"}
        answers = {(l.result.msg, l.result.pos): l.call for l in pairing.links}
        title = f"Transcript {n + 1}" if len(document.transcripts) > 1 else "Transcript"
        out.append(f"# {title}: {code(t.label)} ({d.name}, {len(t.items)} messages)")
        for m in msgs:
            out.append(f"## #{m.index} {code(m.role)}")
            if m.results and not m.has_other:
                text = ""  # shown under the call it answers
            else:
                text = d.text(m.raw) if m.calls else _text(d.text, m.raw)
            if text:
                out.append(_fence(text))
            for c in m.calls:
                out.append(f"**Tool call** {code(c.name)} · id {code(c.id or '(none)')}")
                body, lang = _args(c.args)
                if body:
                    out.append(_fence(body, lang))
                r = result_of.get(id(c))
                if r is None:
                    out.append("*No result for this call.*")
                else:
                    out.append(f"**Result** (message #{r.msg}):")
                    out.append(_fence(_text(d.text, msgs[r.msg].raw)))
            for r in m.results:
                asked = answers.get((r.msg, r.pos))
                if asked is None:
                    out.append(f"Result for call {code(r.id or '(none)')}, which no call in this transcript made:")
                    out.append(_fence(_text(d.text, m.raw)))
                else:
                    out.append(f"*Result for call {code(asked.id or asked.name)} of message #{asked.msg}, shown there.*")
    return "\n\n".join(out) + "\n"


def _report_section(report: Any) -> str:
    lines = [f"# Repair for target {code(report.target)}",
             (f"Errors before: {report.findings_before.get('error', 0)}, after: {report.findings_after.get('error', 0)}. "
             f"{len(report.changes)} changes, {len(report.quarantine)} quarantined.")]
    for c in report.changes:
        lines.append(f"- {code(c.code)} {code(c.action)}: {_fence_inline(c.text)}")
    for u in report.unfixed:
        lines.append(f"- Not fixed: {_fence_inline(u)}")
    return "\n".join(lines)


def _fence_inline(text: str) -> str:
    return code(text)
