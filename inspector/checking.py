"""``check``: read a document, pair, run every rule, and give each finding the target's words.

Findings are built as plain dicts (``check_plain``) and wrapped in the pydantic ``Report`` only
for API callers (``check_document``): the CLI never imports pydantic, which saves a third of a
short run. The cyclic garbage collector is paused while a transcript is analysed: the work
allocates hundreds of thousands of objects and no cycles, and each collection would walk the
whole parsed document.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from .containers import Document, Transcript, get_path, path_text
from .dialects import Dialect, detect_scored, dialect_of, fallback, get, named_by_request
from .dialects.harness_patches import PATCHED, parse_version, patch_for, patched, patches_of, since_text
from .errors import InputError, NothingToCheck
from .gc_pause import gc_paused
from .loops import DEFAULT as DEFAULT_LOOPS
from .loops import LoopOptions, loops_for
from .model import AS_LOG, Deferred, Issue, Judged, Msg
from .pairing import Pairing, pair, pair_turns
from .recognition import refuse_unaccounted
from .rules import (
    RULES,
    Neighbours,
    evidence,
    hint,
    provider_error,
    sentence,
    sequence_issues,
    severity,
    undeclared_tools,
)
from .rules.requests import judge
from .target_from_model import framework_model, target_from_model, transcript_model
from .targets import NO_MESSAGES, PROVIDER_NAME, TARGETS, check_target
from .turns import Turns

if TYPE_CHECKING:
    from .report import Report
    from .rules.catalogue import Severity


class FindingDict(TypedDict):
    """One finding of the plain report (``check_plain``), as ``--format json`` writes it; the
    pydantic ``report.Finding`` is its twin for API callers (tests/test_api.py holds them alike)."""

    code: str
    rule: str
    severity: Severity
    message_index: int
    tool_call_id: str | None
    other_index: int | None
    text: str
    provider_index: str | None
    provider_error: str | None
    hint: str | None
    evidence: dict[str, str | None] | None  # {source, date} (rules.catalogue.evidence)
    transcript: int


class Analysis:
    """Everything known about one transcript: the dialect it was read as, the neutral messages,
    the pairing and the issues. The transcript itself is left as it was given."""

    __slots__ = ("dialect", "issues", "judged", "msgs", "pairing", "transcript", "turns")

    def __init__(self, transcript: Transcript, dialect: Dialect, msgs: list[Msg], pairing: Pairing,
                 issues: list[Issue], turns: Turns | None = None, judged: Judged = AS_LOG):
        self.transcript = transcript
        self.dialect = dialect
        self.msgs = msgs
        self.pairing = pairing
        self.issues = issues
        # How the target sees the list when it combines consecutive messages of one role (else None).
        self.turns = turns
        self.judged = judged  # the model its request names, and request or log (``judgement``)


class ProvedClean(Analysis):
    """The analysis of a transcript ``clean_proof.transcript_clean`` proves clean: its report (no
    finding, no loop, one message per item) needs none of it, so it is made (``analyse``) only
    when a door asks for its messages, pairing, issues or turns (repair, a diff, token counts)."""

    __slots__ = ("target",)

    def __init__(self, transcript: Transcript, target: str, dialect: Dialect, judged: Judged):
        self.transcript = transcript
        self.target = target
        self.dialect = dialect
        self.judged = judged

    def __getattr__(self, name: str) -> Any:  # (only for a slot not set yet)
        if name not in ("msgs", "pairing", "issues", "turns"):
            raise AttributeError(name)
        a = analyse(self.transcript, self.target, self.dialect, self.judged)
        self.msgs, self.pairing, self.issues, self.turns = a.msgs, a.pairing, a.issues, a.turns
        return getattr(self, name)


def analysed(t: Transcript, target: str, dialect: Dialect, judged: Judged, loops: LoopOptions) -> Analysis:
    """``analyse``, or for a transcript read as typed structs that ``clean_proof`` proves clean (the
    general analysis would note no issue and no loop: tests/test_one_verdict.py holds the two equal),
    its ``ProvedClean`` analysis, made only if asked for."""
    if isinstance(t.items, Deferred):  # a typed reading (msgspec is loaded): the proof may serve it
        from .clean_proof import transcript_clean

        if transcript_clean(t.items, t.extra, dialect, target, loops):
            return ProvedClean(t, target, dialect, judged)
    return analyse(t, target, dialect, judged)


DETECT_HEAD = 1000  # the items of a typed reading detection is given (every detector looks at fewer)


def dialects_for(doc: Document, dialect: str | None = None, target: str | None = None) -> list[Dialect]:
    """The dialect each transcript is read as (the override, the container's, or detection),
    leaving the document as it is.

    A transcript with no evidence of any dialect (a batch line holding one user message, say)
    takes the dialect its siblings in the file were detected as: one file is one API's requests.
    """
    out: list[Dialect] = []
    weak: set[int] = set()
    for k, t in enumerate(doc.transcripts):
        if dialect or t.dialect:  # named by the user or the container, not detected
            out.append(dialect_of(t, dialect, target))
            continue
        # a typed reading's head, made from its structs: detection looks no further
        d, score = detect_scored(t.items.head(DETECT_HEAD) if isinstance(t.items, Deferred) else t.items, target)
        if score <= 1:
            key = t.path[-1] if t.path and type(t.path[-1]) is str else None
            named = named_by_request(key, t.extra.get("request"), target)  # a body's "input", ...
            if named is not None:
                d = named
            else:
                weak.add(k)
        out.append(d)
    sure = {d.name for k, d in enumerate(out) if k not in weak}
    if weak and len(sure) == 1:
        only = get(next(iter(sure)))
        out = [only if k in weak else d for k, d in enumerate(out)]
    return out


def analyse(t: Transcript, target: str, dialect: Dialect, judged: Judged = AS_LOG) -> Analysis:
    if target not in dialect.targets and target in dialect.gateway_targets:
        return through_gateway(t, target, dialect, judged)
    issues: list[Issue] = []
    msgs = dialect.read(t.items, t.path, issues)
    refuse_unaccounted(dialect, t.items, t.path, msgs, issues)
    request = t.extra.get("request")  # the body holding the list: its settings are the dialect's to read
    turns = Turns(msgs, dialect.block_count, dialect.merges[target]) if target in dialect.merges else None
    if turns is not None and turns.merged:
        pairing = pair_turns(msgs, turns)
    else:
        pairing = pair(msgs, dialect.block, external_calls=dialect.continues_stored(request))
    issues.extend(pairing.issues)
    issues.extend(sequence_issues(msgs, pairing, target))
    issues.extend(dialect.rules(msgs, pairing, target))
    if request is not None:
        dialect.request_rules(msgs, request, issues)
    dialect.model_rules(msgs, issues, target, judged.model)
    judge(issues, msgs, judged)
    # what the harness named in the log fixes before sending (a log's messages read apart carry it in extra)
    note_patched(issues, t.extra.get("harness") or dialect.harness(t.items))
    answered = patched(issues, "TC001")  # a call the harness answers before sending: repair leaves it too
    if answered:
        pairing.pending.extend(c for c in pairing.missing if (c.msg, c.id) in answered and c not in pairing.pending)
    ended = {iss.index for iss in issues if iss.code == "TC022" and iss.data.get("kind") == "run_ended"}
    if ended:  # the calls a finished run ended on are pending, not missing: repair leaves them (rules.md §4.6)
        pairing.pending.extend(c for c in pairing.missing if c.msg in ended and c not in pairing.pending)
    if t.extra.get("never_sent"):
        _never_sent_note(issues, t.extra["never_sent"])
    declared = t.extra.get("declared_tools")
    if declared is not None:
        issues.extend(undeclared_tools(msgs, declared))
    return Analysis(t, dialect, msgs, pairing, issues, turns if turns is not None and turns.merged else None, judged)


def through_gateway(t: Transcript, target: str, dialect: Dialect, judged: Judged) -> Analysis:
    """The analysis of a history sent to ``target`` through a gateway (``dialects/gateway.py``):
    the destination's dialect checks the gateway's translation, each finding keeps the destination's
    own words (with its own indexes, as it answers) and is placed on the file's own message."""
    from .dialects.gateway import back, drops_call_ids, file_call_id, first_result, results_first

    refused: list[Issue] = []  # what the gateway itself refuses, at the file's own indexes
    via = dialect.through_gateway(t.items, target, judged.model, refused)
    assert via is not None
    dest, items, origin = via
    extra = {k: v for k, v in t.extra.items() if k == "declared_tools"}
    inner = analyse(Transcript(items=items, path=t.path, container=t.container, dialect=dest.name, extra=extra),
                    target, dest, judged)
    missing_ids: dict[int, list[str]] = {}
    for iss in inner.issues:
        if iss.code == "TC001":
            missing_ids.setdefault(iss.index, []).append(iss.call_id or "(no id)")
    turns = inner.turns if inner.turns is not None and inner.turns.exact else None
    placed: list[Issue] = []
    for iss in inner.issues:
        words = None
        sev = severity(iss.code, target, iss.data.get("kind"))
        if sev == "error":
            words = provider_error(iss, target, template_fields(iss, missing_ids, turns))
        seen = evidence(iss, target, sev)
        if seen is not None:
            iss.data["seen"] = (seen["source"] or "", seen["date"])
        iss.provider = words.replace("{", "{{").replace("}", "}}") if words else None
        if iss.code == "TC016":  # one finding on each of the file's messages repair moves (rules.md §2)
            placed.extend(results_first(iss, items, origin, target))
            continue
        placed.append(iss)
        pos = iss.data.get("pos")
        iss.index = back(origin, iss.index, pos) or 0
        iss.other = back(origin, iss.other)
        if iss.call_id is None and drops_call_ids(target):  # a call without an id: name it by the file's message
            iss.call_id = file_call_id(t.items, iss.index, iss.data.get("name"))
        if iss.code == "TC005":  # the first result's own message, not the first of the content it joined
            first = first_result(t.items, iss.call_id, iss.index)
            if first is not None:
                iss.other = first
                iss.data["first"] = first
    for iss in refused:
        if isinstance(iss.provider, str):
            iss.provider = iss.provider.replace("{", "{{").replace("}", "}}")
    inner.issues[:] = placed + refused
    inner.issues.sort(key=lambda x: x.index)
    own: list[Issue] = []
    msgs = dialect.read(t.items, t.path, own)
    # the file's own pairing, which repair works on, without the system messages the gateway lifts
    # out of the list: a result after one is not out of its place there
    from .pairing import UNSEEN

    pairing = pair(msgs, dialect.block, unseen=UNSEEN | {"system"})
    _placed_by_the_file(inner.issues, pairing.issues)
    return Analysis(t, dialect, msgs, pairing, inner.issues, None, judged)


def _placed_by_the_file(issues: list[Issue], own: list[Issue]) -> None:
    """A result the destination finds no call for (TC002) whose call the file's own pairing finds
    before it, out of its place (TC003) or after it (TC004): the gateway sent that call as one part
    with an identical one (LiteLLM keeps an identical Gemini call once), so no part names its id,
    but the call is in the file. The finding is the file's own placement, with the destination's
    words (TC003's and TC004's are TC002's on the result side), not a missing call."""
    placement = {(x.index, x.call_id): x for x in own if x.code in ("TC003", "TC004")}
    for iss in issues:
        found = placement.get((iss.index, iss.call_id)) if iss.code == "TC002" and iss.say is None else None
        if found is not None:
            iss.code, iss.other = found.code, found.other


def _never_sent_note(issues: list[Issue], what: str) -> None:
    """TC022 on a part of a log that is never sent again (a Claude Code branch abandoned by a
    rewind, the conversation before a compaction): no call there is pending; a note says so."""
    for iss in issues:
        if iss.code == "TC022":
            iss.data["kind"] = "never_sent"
            name = iss.data.get("name")
            tool = f"'{name}'" if isinstance(name, str) and name else "(unnamed tool)"
            iss.say = (f"calls tool {tool} (id {iss.call_id or '(no id)'}) and this transcript ends before its "
                       f"result, but it is {what}: never sent again, so the call is not pending.")


def default_target(dialect: str) -> str:
    """The target a dialect is checked for when the user names none (its first target)."""
    return get(dialect).default_target


def named_target(doc: Document, dialect: Dialect, fits: Collection[str], k: int = 0) -> tuple[str | None, str]:
    """The target transcript ``k`` names besides its request's model, and why: what its container
    says (an OTLP span's provider, a HAR entry's URL), or what the dialect reads in its own history
    (a Pydantic AI response's provider)."""
    if not doc.transcripts:
        return None, ""
    t = doc.transcripts[k]
    hint, why = t.extra.get("target"), t.extra.get("target_reason", "")
    if hint is None:
        hint, why = dialect.target_from(t.items, get_path(doc.root, t.path[:-1]) if t.path else None)
    # A history read through a gateway it names (OpenHands sends through LiteLLM) takes the
    # destination it names, as a request's model does (``target_for_transcript``).
    return (hint, why) if hint in fits or (hint is not None and hint in dialect.gateway_targets
                                           and dialect.sends_through_gateway) else (None, "")


def findings_for(a: Analysis, target: str, transcript_no: int = 0) -> list[FindingDict]:
    """Give each issue of ``a`` its severity, sentence, provider text and hint for ``target``."""
    out: list[FindingDict] = []
    msgs = a.msgs
    # TC001's provider text lists every unanswered id of the message, as the provider does.
    missing_ids: dict[int, list[str]] = {}
    for iss in a.issues:
        if iss.code in ("TC001",):
            missing_ids.setdefault(iss.index, []).append(iss.call_id or "(no id)")
    turns = a.turns
    near = Neighbours(msgs)
    for iss in a.issues:
        sev = severity(iss.code, target, iss.data.get("kind"))
        if sev is None:
            continue
        where = provider_index(iss, turns) if turns is not None and turns.exact else None
        f: FindingDict = {
            "code": iss.code,
            "rule": RULES[iss.code],
            "severity": sev,
            "message_index": iss.index,
            "tool_call_id": iss.call_id,
            "other_index": iss.other,
            "text": sentence(iss) + (as_seen(iss, turns, where, target)
                                           if where and turns is not None and iss.code != "TC019"
                                           and not iss.data.get("merged") else ""),
            "provider_index": where,
            "provider_error": None,
            "hint": hint(iss, msgs, near),
            "evidence": evidence(iss, target, sev),
            "transcript": transcript_no,
        }
        if sev == "error":
            f["provider_error"] = provider_error(iss, target, template_fields(iss, missing_ids, turns))
        out.append(f)
    out.sort(key=lambda f: (f["transcript"], f["message_index"], f["code"]))
    return out


def template_fields(iss: Issue, missing_ids: dict[int, list[str]], turns: Turns | None) -> dict[str, Any]:
    """The values a provider text names (``rules.catalogue.TEMPLATE_FIELDS``) for ``iss``."""
    d = iss.data
    fields = {
        "i": iss.index,
        "j": d.get("pos", 0),
        "id": iss.call_id or "",
        "ids": ", ".join(d["ids"] if iss.code == "TC025" and d.get("ids")
                         else missing_ids.get(iss.index, [iss.call_id or ""])),
        "n": d.get("length", len(iss.call_id or "")),
        "name": d.get("name"),
        "role": d.get("role"),
        "prev": d.get("prev"),
        "first": d.get("first"),
        "got": d.get("got"),
        "next": iss.index + 1,
        "item": d.get("item") or "",
    }
    if turns is not None and turns.exact:  # the provider's indexes: its turns, and blocks counted across each
        fields["i"] = turns.turn_of[iss.index] if 0 <= iss.index < len(turns.turn_of) else iss.index
        if 0 <= iss.index < len(turns.offset):
            fields["j"] = turns.offset[iss.index] + d.get("pos", 0)
    return fields


# Findings about one block of a message (the provider names ``messages.T.content.J``).
_BLOCK_CODES = frozenset({"TC002", "TC003", "TC004", "TC005", "TC006", "TC008", "TC009", "TC012", "TC016", "TC023"})


def provider_index(iss: Issue, turns: Turns) -> str | None:
    """Where a target that combines consecutive messages of one role sees the finding
    (``messages.0.content.1``), when that differs from our own index; else None."""
    i = iss.index
    if not 0 <= i < len(turns.turn_of) or (turns.turn_of[i] == i and turns.offset[i] == 0):
        return None
    pos = iss.data.get("pos") if iss.code in _BLOCK_CODES else None
    return turns.where(i, pos if type(pos) is int else None)


def as_seen(iss: Issue, turns: Turns, where: str, target: str) -> str:
    """The sentence's tail naming the provider's index beside ours."""
    who = PROVIDER_NAME.get(target, target)
    i = iss.index
    if turns.shared(i):
        return (f" {who} combines messages {turns.span(i)} into one {turns.roles[turns.turn_of[i]]} turn, "
                f"so its errors call this {where}.")
    return f" {who} combines consecutive messages of one role, so its errors call this message {where}."


def counts(findings: Sequence[Any]) -> dict[str, int]:
    """Number of findings per severity (all three keys present); dicts or ``Finding`` objects."""
    out = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        out[f["severity"] if isinstance(f, dict) else f.severity] += 1
    return out


def dialects_text(report: dict[str, Any]) -> str:
    """``dialect openai-chat``, or for a file whose transcripts were read in several dialects
    ``dialects openai-chat (3 transcripts), langchain (2)``: the first one's name alone would
    say the whole file is in it."""
    return _tally_text("dialect", report["dialect"], report["transcript_dialects"])


def targets_text(report: dict[str, Any]) -> str:
    """``target openai``, or for a file whose transcripts name different providers (a HAR
    capture of two APIs) ``targets openai (1 transcript), anthropic (1)``."""
    return _tally_text("target", report["target"], report.get("transcript_targets") or [])


def _tally_text(word: str, first: str, each: list[str]) -> str:
    tally = Counter(each)
    if len(tally) <= 1:
        return f"{word} {first}"
    parts = [f"{name} ({n:,} transcript{'s' if n != 1 else ''})" if k == 0 else f"{name} ({n:,})"
             for k, (name, n) in enumerate(tally.items())]
    return f"{word}s " + ", ".join(parts)


def verdict(report: Report | dict[str, Any]) -> str:
    """One sentence: would the target accept this request, and if not, the first reason.

    Takes a ``Report`` or the plain dict ``check_plain`` returns."""
    plain = report if isinstance(report, dict) else report.model_dump()
    targets = plain.get("transcript_targets") or [plain["target"]]
    reasons = plain.get("transcript_target_reasons") or []
    # a destination reached through a gateway says so: "Anthropic (through a gateway)"
    targets = [f"{t} (through a gateway)" if k < len(reasons) and "through a gateway" in (reasons[k] or "") else t
               for k, t in enumerate(targets)]
    c = counts(plain["findings"])
    if c["error"]:
        first = next(f for f in plain["findings"] if f["severity"] == "error")
        k = first.get("transcript") or 0
        s = "s" if c["error"] > 1 else ""
        return (f"{_who(targets[k] if k < len(targets) else plain['target'])} would reject this request: "
                f"{c['error']} error{s}. First: {first['text']}")
    extra = f" ({c['warning']} warnings, {c['info']} notes)" if c["warning"] or c["info"] else ""
    return f"{' and '.join(_who(t) for t in dict.fromkeys(targets))} would accept these tool calls{extra}."


def _who(target: str) -> str:
    name, _, via = target.partition(" ")
    who = PROVIDER_NAME.get(name, name) + (f" {via}" if via else "")
    return who[0].upper() + who[1:]


def target_for_transcript(doc: Document, k: int, d: Dialect) -> tuple[str, str]:
    """The default target of transcript ``k`` (read as ``d``) and why: the one its container or
    history names, else the model its request names, else the dialect's default. Each transcript
    of a file takes its own: a HAR capture may hold an OpenAI and an Anthropic request."""
    named, why = named_target(doc, d, d.targets, k)
    if named is not None:
        return named, why
    model = transcript_model(doc, k)
    via = d.gateway_for(model) if model is not None else None
    if via is not None and via in d.gateway_targets:
        return via, (f"the request's model {model!r} goes through a gateway to {PROVIDER_NAME.get(via, via)}: "
                     f"{PROVIDER_NAME.get(via, via)}'s rules on the gateway's translation of the {d.name} history")
    if model is not None:
        chosen, why = target_from_model(model, d.targets)
        if chosen is not None:
            return chosen, why
        if why:
            return d.default_target, why
    return d.default_target, f"the default for the {d.name} format"


def why_not_offered(dialect: str, target: str) -> str | None:
    """Why ``target`` is not offered for a file read in ``dialect`` (the app's Target box, the CLI's
    error), or None when it is: the sentence a person reads."""
    d = get(dialect)
    if target in d.targets or target in d.gateway_targets:
        return None
    names = PROVIDER_NAME
    return (f"{names.get(target, target)}'s rules do not apply to the {d.name} format as read (it fits: "
            f"{', '.join(d.targets)}); read the file as a format {names.get(target, target)} takes (the Dialect box, "
            "--from) to check it for that provider")


def not_offered(dialect: str) -> str | None:
    """Every target not offered for a file read in ``dialect``, and why, in one sentence (the app
    says it under the Target box), or None when every target is offered."""
    d = get(dialect)
    missing = [t for t in TARGETS if why_not_offered(dialect, t) is not None]
    if not missing:
        return None
    names = [PROVIDER_NAME.get(t, t) for t in missing]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    one = len(missing) == 1
    return (f"Not offered: {listed}. {'Its' if one else 'Their'} rules do not apply to the {d.name} format as read; "
            f"to check for {'it' if one else 'one'}, read the file as a format it takes (Dialect box, --from).")


def targets_for(doc: Document, read_as: list[Dialect], target: str | None) -> list[tuple[str, str | None]]:
    """``(target, reason)`` for each transcript: the one the user named, else its own default.

    A named target that does not fit a transcript's dialect is an error for a file of one
    dialect; in a file that mixes them (a HAR capture of two APIs), the transcripts it fits take it
    and each other one takes its own default, and the reason says so."""
    if target is None:
        return [target_for_transcript(doc, k, d) for k, d in enumerate(read_as)]
    target = check_target(target)
    misfits = [k for k, d in enumerate(read_as) if target not in d.targets and target not in d.gateway_targets]
    if misfits and len(misfits) == len(read_as):
        k = misfits[0]
        d = read_as[k]
        which = f" of transcript {k + 1} ({doc.transcripts[k].label})" if len(read_as) > 1 else ""
        raise InputError(
            f"target {target!r} does not fit the {d.name} dialect{which} (it fits: {', '.join(d.targets)})")
    out: list[tuple[str, str | None]] = [
        (target, None if target in d.targets else
         f"through a gateway: {PROVIDER_NAME.get(target, target)}'s rules on the gateway's translation of the "
         f"{d.name} history") for d in read_as]
    for k in misfits:
        own, why = target_for_transcript(doc, k, read_as[k])
        out[k] = (own, f"{why}; target {target!r} does not fit its {read_as[k].name} format")
    return out


def judgement(doc: Document, k: int, as_request: bool | None = None, dialect: Dialect | None = None) -> Judged:
    """How transcript ``k`` is judged: the model its request names (else the one its container,
    framework metadata or history names: an OTel span's ``gen_ai.request.model``, a LangSmith run's
    ``ls_model_name``, a LangChain AI message's ``response_metadata``, read as ``dialect``), and
    whether it is a request about to be sent (``as_request``: the user's or the guard's word; None:
    the input's own: a request body that names a model, or a captured HTTP request) or a log."""
    t = doc.transcripts[k]
    model = transcript_model(doc, k) or t.extra.get("model") or framework_model(doc, k)
    if model is None and dialect is not None:
        model = dialect.model_from(t.items, get_path(doc.root, t.path[:-1]) if t.path else None)
    if as_request is not None:
        return Judged(model, as_request, "as asked (--as-request)" if as_request else "as asked (a log)")
    if t.extra.get("captured"):
        return Judged(model, True, "a captured HTTP request")
    if model is not None and transcript_model(doc, k) is not None:
        return Judged(model, True, f"a request body naming model {model!r}")
    return Judged(model, False, "a log: nothing says it is a request about to be sent")


def refuse_empty(doc: Document, targets: list[str], judged: list[Judged]) -> None:
    """``InputError`` when no transcript of ``doc`` holds a message: a request without messages
    is refused by the provider (in its words where they are recorded), and a log without any has
    nothing to check; neither is a list the target "would accept"."""
    if not doc.transcripts or any(t.items for t in doc.transcripts):
        return
    t, target = doc.transcripts[0], targets[0] if targets else None
    where = path_text(t.path)
    if judged and judged[0].as_request and target is not None:
        who = PROVIDER_NAME.get(target, target)
        said = NO_MESSAGES.get(target)
        words = (f'{who} refuses it: "{said[0]}" (seen in {said[1]}, {said[2]})' if said is not None else
                 f"{who}'s words for it are not recorded, and no provider is known to accept it")
        raise NothingToCheck(f"the request's message list is empty: {words}; there is nothing else to check", where)
    raise NothingToCheck("nothing to check: the message list is empty (no message, so no verdict)", where)


PROGRESS_EVERY = 500  # transcripts between two calls of a ``progress`` callback


def check_plain(doc: Document, target: str | None = None, dialect: str | None = None, *,
                progress: Callable[[int, int], None] | None = None,
                loops: LoopOptions | None = None,
                as_request: bool | None = None, empty_ok: bool = False) -> tuple[dict[str, Any], list[Analysis]]:
    """The report as a plain dict (the JSON contract) and the analyses behind it.

    ``progress(done, total)`` is called every few hundred transcripts (a dataset in the app);
    ``loops``: how repeated calls are found (``inspector.loops``; default: its defaults);
    ``as_request`` judges every transcript as a request (True) or a log (False) rather than as the
    input says (``judgement``); ``empty_ok``: a document with no message is checked (repair's
    output, which says so itself) rather than refused (``refuse_empty``)."""
    if target is not None:
        check_target(target)
    read_as = dialects_for(doc, dialect, target)
    first = read_as[0] if read_as else (get(dialect) if dialect else fallback())
    chosen = targets_for(doc, read_as, target)
    # The report's ``target`` is the first transcript's; ``transcript_targets`` has each one's.
    target, reason = chosen[0] if chosen else (check_target(target or first.default_target), None)
    judged = [judgement(doc, k, as_request, read_as[k]) for k in range(len(doc.transcripts))]
    if not empty_ok:
        refuse_empty(doc, [c for c, _ in chosen], judged)
    options = loops or DEFAULT_LOOPS
    with gc_paused():
        if progress is None:
            analyses = [analysed(t, c, d, j, options) for t, d, (c, _), j in zip(doc.transcripts, read_as, chosen, judged)]
        else:
            analyses, total = [], len(doc.transcripts)
            for k, (t, d, (c, _), j) in enumerate(zip(doc.transcripts, read_as, chosen, judged), 1):
                analyses.append(analysed(t, c, d, j, options))
                if k % PROGRESS_EVERY == 0 or k == total:
                    progress(k, total)
    findings: list[FindingDict] = []
    for n, (a, (c, _)) in enumerate(zip(analyses, chosen)):
        if type(a) is not ProvedClean:  # (proved: no finding)
            findings.extend(findings_for(a, c, n))
    # one message per item of a transcript proved clean (its reading is one Msg per item)
    counted = [len(a.transcript.items) if type(a) is ProvedClean else len(a.msgs) for a in analyses]
    report = {
        "dialect": first.name,
        "target": target,
        "transcript_targets": [c for c, _ in chosen],
        "transcript_target_reasons": [why for _, why in chosen],
        "transcripts": len(doc.transcripts),
        # the messages the provider receives: for a session log, those the harness builds from its lines
        "message_count": sum(counted),
        "transcript_messages": counted,
        "findings": findings,
        "transcript_labels": [t.label for t in doc.transcripts],
        "transcript_dialects": [d.name for d in read_as],
        "target_reason": reason,
        "input_findings": input_findings(doc),
        # A family apart from the provider rules: a loop never makes a request rejected.
        "loops": [] if all(type(a) is ProvedClean for a in analyses) else  # (proved: no loop)
        loops_for(analyses, [c for c, _ in chosen], options),
        "judged_as": "request" if judged and judged[0].as_request else "log",
        "judged_reason": judged[0].why if judged else "",
        "model": judged[0].model if judged else None,
    }
    return report, analyses


def value_line(value: Any, limit: int = 200) -> str:
    """A JSON value as one line of JSON text, cut at ``limit`` characters."""
    from .jsonio import dumps

    text = dumps(value, indent=False).decode("utf-8", "replace").rstrip("\n")
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"


def input_findings(doc: Document) -> list[dict[str, Any]]:
    """Findings about the file rather than its messages: each object key it repeats, with every
    value it was given (a JSON reader, the provider's included, keeps only the last)."""
    out = []
    for d in doc.duplicate_keys:
        values, path = d["values"], path_text(d["path"])
        out.append({
            "kind": "duplicate_key", "path": path, "key": d["key"], "values": values,
            "text": f"the key {d['key']!r} appears {len(values)} times in the object at {path_text(d['path'][:-1])}: "
                    "a JSON reader keeps only the last value, so the earlier one(s) are silently lost "
                    "(every value is listed in this finding)",
        })
    return out


def check_document(doc: Document, target: str | None = None, dialect: str | None = None, *,
                   progress: Callable[[int, int], None] | None = None,
                   loops: LoopOptions | None = None,
                   as_request: bool | None = None) -> tuple[Report, list[Analysis]]:
    """``(Report, [Analysis])``: the pydantic report for API callers, and the analyses."""
    from .report import Report

    plain, analyses = check_plain(doc, target, dialect, progress=progress, loops=loops, as_request=as_request)
    return Report.model_validate(plain), analyses


def _say_unversioned(issues: Sequence[Issue], harness: str) -> None:
    """A log of a harness that names no version of it: each finding a release of the harness patches
    says so, and stays as it is (which version sent the history is not known)."""
    from .rules.catalogue import sentence

    for iss in issues:
        found = patches_of(harness, iss.code) if not iss.data.get("kind") else []
        if not found:
            continue
        p = found[0]
        iss.say = (f"{sentence(iss).removeprefix(f'Message #{iss.index} ')} From {since_text(p)} on, {p.name} "
                   f"{p.what}; this log names no {p.name} version, so it is judged as recorded "
                   f"(evidence: {p.evidence}).")


def note_patched(issues: Sequence[Issue], harness: tuple[str, str] | None) -> None:
    """Lower each issue the named harness version patches to a note that says so (``dialects.harness_patches``)."""
    if harness is None:
        return
    from .rules.catalogue import sentence

    name, raw_version = harness
    version = parse_version(raw_version)
    if version is None:
        _say_unversioned(issues, name)
        return
    for iss in issues:
        if iss.data.get("kind"):
            continue  # a case a rule already rates apart (never sent, a request's end): left as it is
        p = patch_for(name, version, iss.code)
        if p is None:
            continue
        said = sentence(iss)
        head = f"Message #{iss.index} "
        rest = said.removeprefix(head)
        iss.say = (f"{rest} {p.name} {raw_version} (the version this log names) {p.what} "
                   f"(evidence: {p.evidence}).")
        iss.data["kind"] = PATCHED
