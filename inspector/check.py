"""``check``: read a document, pair, run every rule, and give each finding the target's words.

Findings are built as plain dicts (``check_plain``) and wrapped in the pydantic ``Report`` only
for API callers (``check_document``): the CLI never imports pydantic, which saves a third of a
short run. The cyclic garbage collector is paused while a transcript is analysed: the work
allocates hundreds of thousands of objects and no cycles, and each collection would walk the
whole parsed document.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

from .containers import Document, Transcript
from .dialects import detect, get
from .errors import InputError
from .explain import hint, sentence
from .links import Pairing, pair
from .model import Issue, Msg
from .model_target import request_model, target_from_model
from .rules import RULES, sequence_issues
from .targets import DEFAULT_TARGET, PROVIDER_NAME, check_target, provider_error, severity


class Analysis:
    """Everything known about one transcript: the neutral messages, the pairing and the issues."""

    __slots__ = ("transcript", "msgs", "pairing", "issues")

    def __init__(self, transcript: Transcript, msgs: list[Msg], pairing: Pairing, issues: list[Issue]):
        self.transcript = transcript
        self.msgs = msgs
        self.pairing = pairing
        self.issues = issues


def assign_dialect(doc: Document, dialect: str | None = None) -> str:
    """Set each transcript's dialect (the override, or detection) and return the first one.

    A transcript with no evidence of any dialect (a batch line holding one user message, say)
    takes the dialect its siblings in the file were detected as: one file is one API's requests.
    """
    weak = []
    for t in doc.transcripts:
        if dialect:
            get(dialect)
            t.dialect = dialect
        elif not t.dialect:
            mod = detect(t.items)
            t.dialect = mod.NAME
            if mod.detect(t.items) <= 1:
                weak.append(t)
    weak_ids = {id(t) for t in weak}  # by identity: Transcript equality would compare whole lists
    sure = {t.dialect for t in doc.transcripts if t.dialect and id(t) not in weak_ids}
    if weak and len(sure) == 1:
        (only,) = sure
        for t in weak:
            t.dialect = only
    return doc.transcripts[0].dialect if doc.transcripts else (dialect or "openai-chat")


def analyse(t: Transcript, target: str) -> Analysis:
    mod = get(t.dialect)
    issues: list[Issue] = []
    msgs = mod.normalize(t.items, t.path, issues)
    pairing = pair(msgs, mod.BLOCK, external_calls=t.extra.get("continues_response", False))
    issues.extend(pairing.issues)
    issues.extend(sequence_issues(msgs, pairing, target, t.dialect))
    if hasattr(mod, "dialect_issues"):
        issues.extend(mod.dialect_issues(msgs, pairing, target))
    return Analysis(t, msgs, pairing, issues)


def default_target(dialect: str) -> str:
    return DEFAULT_TARGET.get(dialect, "openai")


@contextmanager
def gc_paused():
    """Pause the cyclic GC for allocation-heavy work that creates no cycles.

    On the way out, ``freeze`` + ``unfreeze`` moves what was allocated meanwhile straight into
    the oldest generation and resets the young counts: otherwise the first collection after the
    pause would walk every one of those objects at once. Nothing is kept frozen.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if was:
            gc.enable()


def findings_for(a: Analysis, target: str, transcript_no: int = 0) -> list[dict]:
    """Give each issue of ``a`` its severity, sentence, provider text and hint for ``target``."""
    out: list[dict] = []
    msgs = a.msgs
    # TC001's provider text lists every unanswered id of the message, as the provider does.
    missing_ids: dict[int, list[str]] = {}
    for iss in a.issues:
        if iss.code in ("TC001",):
            missing_ids.setdefault(iss.index, []).append(iss.call_id or "(no id)")
    for iss in a.issues:
        sev = severity(iss.code, target)
        if sev is None:
            continue
        f = {
            "code": iss.code,
            "rule": RULES[iss.code],
            "severity": sev,
            "message_index": iss.index,
            "tool_call_id": iss.call_id,
            "other_index": iss.other,
            "text": sentence(iss, msgs),
            "provider_error": None,
            "hint": hint(iss, msgs),
            "transcript": transcript_no,
        }
        if sev == "error":
            d = iss.data
            fields = {
                "i": iss.index,
                "j": d.get("pos", 0),
                "id": iss.call_id or "",
                "ids": ", ".join(missing_ids.get(iss.index, [iss.call_id or ""])),
                "n": d.get("length", len(iss.call_id or "")),
                "name": d.get("name"),
                "role": d.get("role"),
                "prev": d.get("prev"),
                "first": d.get("first"),
                "field": "tool_calls[%d].id" % d.get("pos", 0) if d.get("side") == "call" else "tool_call_id",
                "got": d.get("got"),
                "next": iss.index + 1,
            }
            f["provider_error"] = provider_error(iss, target, fields)
        out.append(f)
    out.sort(key=lambda f: (f["transcript"], f["message_index"], f["code"]))
    return out


def counts(findings: list) -> dict[str, int]:
    """Number of findings per severity (all three keys present); dicts or ``Finding`` objects."""
    out = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        out[f["severity"] if isinstance(f, dict) else f.severity] += 1
    return out


def verdict(report) -> str:
    """One sentence: would the target accept this request, and if not, the first reason.

    Takes a ``Report`` or the plain dict ``check_plain`` returns."""
    plain = report if isinstance(report, dict) else report.model_dump()
    who = PROVIDER_NAME.get(plain["target"], plain["target"])
    who = who[0].upper() + who[1:]
    c = counts(plain["findings"])
    if c["error"]:
        first = next(f for f in plain["findings"] if f["severity"] == "error")
        s = "s" if c["error"] > 1 else ""
        return f"{who} would reject this request: {c['error']} error{s}. First: {first['text']}"
    extra = f" ({c['warning']} warnings, {c['info']} notes)" if c["warning"] or c["info"] else ""
    return f"{who} would accept these tool calls{extra}."


def target_for_document(doc: Document, first_dialect: str) -> tuple[str, str]:
    """The default target and why: the model the requests name, else the dialect's default."""
    fits = [t for t in get(first_dialect).TARGETS if all(t in get(x.dialect).TARGETS for x in doc.transcripts)]
    model = request_model(doc)
    if model is not None:
        chosen, why = target_from_model(model, fits)
        if chosen is not None:
            return chosen, why
        if why:
            return default_target(first_dialect), why
    return default_target(first_dialect), f"the default for the {first_dialect} format"


def check_plain(doc: Document, target: str | None = None, dialect: str | None = None) -> tuple[dict, list[Analysis]]:
    """The report as a plain dict (the JSON contract) and the analyses behind it."""
    first_dialect = assign_dialect(doc, dialect)
    reason = None
    if target is None:
        target, reason = target_for_document(doc, first_dialect)
    target = check_target(target)
    for t in doc.transcripts:
        fits = get(t.dialect).TARGETS
        if target not in fits:
            raise InputError(
                f"target {target!r} does not fit the {t.dialect} dialect (it fits: {', '.join(fits)})"
            )
    with gc_paused():
        analyses = [analyse(t, target) for t in doc.transcripts]
    findings: list[dict] = []
    for n, a in enumerate(analyses):
        findings.extend(findings_for(a, target, n))
    report = {
        "dialect": first_dialect,
        "target": target,
        "transcripts": len(doc.transcripts),
        "message_count": sum(len(t.items) for t in doc.transcripts),
        "findings": findings,
        "transcript_labels": [t.label for t in doc.transcripts],
        "target_reason": reason,
    }
    return report, analyses


def check_document(doc: Document, target: str | None = None, dialect: str | None = None):
    """``(Report, [Analysis])``: the pydantic report for API callers, and the analyses."""
    from .report import Report

    plain, analyses = check_plain(doc, target, dialect)
    return Report.model_validate(plain), analyses
