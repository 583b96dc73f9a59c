"""``inspector rules [CODE] [--target T] [--model M] [--format text|json]``: the rule catalogue as
``ruff rule`` prints it: each rule's name, its severity per target (and per case, for that model),
the providers' own words, the evidence with dates, and the repair. Read from the same records the
check uses (``rules.catalogue``, ``model_families``), so it cannot say other than the check does.

Exit codes: 0 printed, 2 an unknown code, target or format (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..targets import TARGETS
from .parser import EXIT_OK, command

# What repair does for each rule (rules.md §4), in a few words.
REPAIR = {
    "TC001": "insert a placeholder result marked as synthesized (or remove the call: missing=remove_call)",
    "TC002": "quarantine the orphan result (or turn it into a user note, or keep it)",
    "TC003": "move the result into its call's block",
    "TC004": "move the result after its call",
    "TC005": "remove a byte-identical extra result; quarantine a differing one",
    "TC006": "rename the later id deterministically and rebind its results (id_map)",
    "TC007": "drop the empty tool_calls array",
    "TC008": "give both sides one deterministic id when the block pairs unambiguously",
    "TC009": "rename the id to fit the target's format and rebind its results (id_map)",
    "TC010": "json.dumps the arguments",
    "TC011": "none: the arguments are kept as they are (a cut stream cannot be completed)",
    "TC012": "none: a tool name is not guessed",
    "TC013": "set the result's name to its call's name (old name in the change log)",
    "TC014": "reorder the results to the calls' order",
    "TC015": "merge the split result messages",
    "TC016": "put the tool_result blocks first",
    "TC017": "none: a legacy function result without its call is left as it is",
    "TC018": "fill null content with an empty string where the dialect accepts one",
    "TC019": "merge consecutive messages of one role, or insert a marked bridge message (Mistral)",
    "TC020": "offer (not default) turning the user text into the call's result",
    "TC021": "strip reasoning_content for a target that refuses it; never fabricate a signature",
    "TC022": "left alone unless asked (pending=close answers it with a placeholder)",
    "TC023": "rename the later id where the target refuses reuse (id_map)",
    "TC024": "quarantine the message (a developer message becomes system for Mistral and DeepSeek)",
    "TC025": "move the trailing blocks before the first tool_use block, order kept",
    "TC026": "none: the request's tools are the user's to change",
}
# What each case (``by_kind``) of a rule is, for a person.
CASES = {
    "result_in_assistant": "a tool_result block inside an assistant message",
    "missing_name": "a tool call with no name at all (the key missing, or null), not an empty one",
    "bedrock_invoke": "an Anthropic body for Bedrock's InvokeModel",
    "responses_in_a_row": "two Pydantic AI responses in a row, for Bedrock Converse",
    "system_misplaced": "a mid-conversation system message out of its place, on a model that takes one",
    "run_answer": "the first call turn of a run's events read on their own (ADK's /run answer)",
    "reasoning_item": "a Responses reasoning item without its following item",
    "reasoning_dropped": "a Responses function call item (fc_ id) replayed without its reasoning item",
    "reasoning_dropped_unsure": "the same, where the input does not show that the model reasons",
    "thinking_signature": "a thinking block without its signature",
    "thinking_order": "thinking blocks not first in an assistant message",
    "thinking_binding": "a thinking block whose turn lost the thinking before it, thinking enabled",
    "thinking_binding_unsure": "the same, with adaptive thinking or no setting (the step may not have thought)",
    "thinking_binding_dropped": "the same, with the drop_block opt-out: the API drops the block",
    "thinking_required": "the open tool loop's last assistant turn without thinking, thinking enabled",
    "thought_signature": "a Gemini 3 function call without its thoughtSignature",
    "missing_reasoning": "a DeepSeek thinking-mode tool-call turn without reasoning_content",
    "reasoning_content": "reasoning_content outside tool-call turns (DeepSeek)",
    "never_sent": "a call left open in a part of a log never sent again",
    "request_end": "a request about to be sent that ends on unanswered calls",
    "system_model_unknown": "a mid-conversation system message, no model named (or one not placed)",
    "system_refused": "a mid-conversation system message, on a model that refuses it",
    "harness_record": "a record an agent harness wrote after its run (mini-swe-agent's exit), in a log",
    "developer_role": "OpenAI's developer role, for a target without it",
    "reasoning_only": "an assistant turn holding only reasoning, on a model that refuses it (Converse)",
    "reasoning_only_unsure": "the same, no model named (or one not placed)",
    "function_role_refused": "a legacy function message, on a model that refuses the role",
    "function_model_unknown": "a legacy function message, no model named (or one not placed)",
    "text_after": "text or other client blocks after tool_use (not server-tool blocks)",
}
# Cases whose severity the model decides: kind -> (capability, the kind when the model has it, ... lacks it).
# (A model that has it leaves nothing to find where the second is None.)
BY_MODEL: dict[str, tuple[str, str | None, str]] = {
    "system_model_unknown": ("system_messages", "system_misplaced", "system_refused"),
    "function_model_unknown": ("function_role", None, "function_role_refused"),
}


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("code", nargs="?", help="one rule (TC001 ... TC026); default: all of them")
    p.add_argument("--target", choices=TARGETS, help="only this target's severities and words")
    p.add_argument("--model", help="the model a request names: the cases that depend on it are said for it")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def describe(code: str, target: str | None = None, model: str | None = None) -> dict[str, Any]:
    """One rule as ``inspector rules`` prints it (the JSON form)."""
    from ..model_families import CAPABILITIES, accepts
    from ..rules.catalogue import KIND_EVIDENCE, RULE, TARGET_EVIDENCE

    rule = RULE[code]
    targets = [target] if target else list(TARGETS)
    cases = []
    # a case with severities of its own, then one the rule declares words for (at the rule's
    # severity, on the targets and models it applies to): so TC012's missing name is listed too
    kinds: dict[str, Mapping[str, str] | None] = dict(rule.by_kind)
    for kind in rule.said_by_kind:
        kinds.setdefault(kind, None)
    for kind, of_its_own in kinds.items():
        by: Mapping[str, str] = of_its_own or {}
        cap = BY_MODEL.get(kind)
        note = None if of_its_own is not None else "at the rule's severity, where it applies"
        if cap is not None and model:
            has = accepts(cap[0], model)
            placed = cap[1]
            if has is True and placed is None:  # the model takes it: nothing to find
                by = {}
                note = f"model {model!r} takes it: no finding"
            elif has is True and placed is not None:  # the model takes it: no longer this rule, but its placement is checked
                kind, by = placed, {}
                note = f"model {model!r} takes it as a role; a misplaced one is TC019 ({placed}, error)"
            elif has is False:
                kind, by = cap[2], {c: rule.severity[c] or "info" for c in by}
        sev = {t: by.get(t, rule.severity[t]) for t in targets if t in by}
        if not sev and note is None and kind not in rule.said_by_kind:
            continue
        ev = KIND_EVIDENCE.get((code, kind))
        entry: dict[str, Any] = {"case": kind, "what": CASES.get(kind, kind), "severity": sev}
        if note is not None:
            entry["note"] = note
        if cap is not None:
            c = CAPABILITIES[cap[0]]
            entry["models"] = {"accepting": c.accepting, "refusing": c.refusing, "evidence": c.evidence,
                               "date": c.date}
        if ev is not None:
            entry["evidence"] = {"source": ev[0], "date": ev[1]}
        words = {t: s.text for t, s in rule.said_by_kind.get(kind, {}).items() if t in targets}
        if words:
            entry["provider_words"] = words
        cases.append(entry)
    said: list[dict[str, Any]] = []
    for t, s in rule.said.items():
        if t in targets:  # the newest dated report of the words, as a finding carries it (None: undated)
            said.append({"target": t, "text": s.text, "evidence": {"source": s.evidence, "date": s.date}})
    for t in targets:
        ev = TARGET_EVIDENCE.get((code, t))
        if ev is not None:
            said.append({"target": t, "text": None, "evidence": {"source": ev[0], "date": ev[1]}})
    return {"code": code, "name": rule.name, "severity": {t: rule.severity[t] for t in targets},
            "cases": cases, "provider_words": said, "repair": REPAIR.get(code, ""),
            "model": model}


def text_of(d: dict[str, Any]) -> str:
    lines = [f"# {d['name']} ({d['code']})", "", "Severity per target" + (f" (model {d['model']!r})" if d["model"] else "")
             + ": " + ", ".join(f"{t} {s or '—'}" for t, s in d["severity"].items())]
    for c in d["cases"]:
        sev = ", ".join(f"{t} {s}" for t, s in c["severity"].items()) or c.get("note") or "the words below"
        line = f"  - {c['what']}: {sev}"
        if "evidence" in c:
            line += f" (evidence: {c['evidence']['source']}, {c['evidence']['date']})"
        lines.append(line)
        if "models" in c:
            m = c["models"]
            lines.append(f"    accepted by {m['accepting']}; refused by {m['refusing']} ({m['evidence']}, {m['date']})")
        for t, w in c.get("provider_words", {}).items():
            lines.append(f"    {t} says: {w}")
    if d["provider_words"]:
        lines += ["", "The providers' words:"]
        for w in d["provider_words"]:
            ev = f"({w['evidence']['source']}, {w['evidence']['date'] or 'undated'})"
            lines.append(f"  - {w['target']}: {w['text']} {ev}" if w["text"] else f"  - {w['target']}: {ev}")
    lines += ["", f"Repair: {d['repair']}"]
    return "\n".join(lines)


def run_rules(args: argparse.Namespace) -> int:
    from ..jsonio import dumps
    from ..rules.catalogue import RULE

    code = args.code.upper() if args.code else None
    if code is not None and code not in RULE:
        raise InputError(f"unknown rule {args.code!r}; the codes are TC001 ... TC{len(RULE):03d}")
    described = [describe(c, args.target, args.model) for c in ([code] if code else RULE)]
    if args.format == "json":
        sys.stdout.flush()
        sys.stdout.buffer.write(dumps(described[0] if code else described))
    else:
        sys.stdout.write("\n\n".join(text_of(d) for d in described) + "\n")
    return EXIT_OK


run_rules.arguments = _arguments  # type: ignore[attr-defined]
command("rules", "print the rule catalogue: severities per target and model, the providers' words, the evidence "
                 "with dates, the repair")(run_rules)
