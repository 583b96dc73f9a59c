"""The dated evidence behind the rules (issue 31): every rule x target that rests on a provider's
behaviour carries its evidence, the evidence page names each code and each report a record cites,
``inspector rules`` shows the same evidence a finding carries, and the words the repeated search of
2026-11-27 found are the ones the check gives."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

from support.rule_records import provider_texts

import inspector
from inspector.cli.rules import describe
from inspector.model import Issue
from inspector.rules import RULE, evidence
from inspector.rules.catalogue import KIND_EVIDENCE, RESEARCHED, TARGET_EVIDENCE
from inspector.targets import TARGETS

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "provider-evidence.md").read_text(encoding="utf-8")
RESEARCH = ROOT.parent / "shared" / "spec" / "protocol-research.md"
REPORT = re.compile(r"\b[\w.-]+/[\w.-]+#\d+")
DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


def _sources() -> list[tuple[str, str | None]]:
    """Every (source, date) a record gives: provider texts, cases rated apart, per-target evidence."""
    out: list[tuple[str, str | None]] = [(s.evidence, s.date) for _, _, _, s in provider_texts()]
    out += list(KIND_EVIDENCE.values()) + list(TARGET_EVIDENCE.values())
    return out


def _section(title: str) -> str:
    start = PAGE.index(title)
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start:end if end != -1 else None]


def test_every_date_a_record_gives_is_a_date_and_not_in_the_future():
    today = datetime.date.today().isoformat()
    for source, date in _sources():
        if date is None:
            continue
        assert DATE.match(date), (source, date)
        assert date <= today, (source, date)


def test_every_report_a_record_cites_is_named_in_the_evidence():
    # never a source the documents do not hold: each owner/repo#N a record cites is on the evidence
    # page (or in the research beside the contract)
    research = RESEARCH.read_text(encoding="utf-8") if RESEARCH.exists() else ""
    for source, _ in _sources():
        for ref in REPORT.findall(source):
            assert ref in PAGE or ref in research, (ref, source)


def test_the_evidence_page_names_every_rule_that_rests_on_a_provider():
    codes = {r.code for r, _, _, _ in provider_texts()} | {c for c, _ in KIND_EVIDENCE} | {c for c, _ in TARGET_EVIDENCE}
    assert codes
    for code in sorted(codes):
        assert re.search(rf"\b{code}\b", PAGE), f"{code} rests on a provider's words but the evidence page never names it"
    for code, kind in KIND_EVIDENCE:
        assert kind in PAGE, f"{code} {kind}: a case with its own evidence the page never names"


def test_words_the_repeated_search_dated_are_in_its_table_by_code_and_target():
    table = _section("## Evidence re-searched")
    rows = [line for line in table.splitlines() if line.startswith("| TC")]
    for rule, target, _, said in provider_texts():
        if not said.evidence.startswith(RESEARCHED):
            continue
        assert any(rule.code in row.split("|")[1] and target in row.split("|")[1] for row in rows), (
            f"{rule.code} {target}: the record cites the repeated search, but its table has no row for it")
        assert said.date is not None, (rule.code, target)


def test_every_finding_that_rests_on_a_provider_carries_its_evidence():
    # an error or warning whose provider text is known names where the words were seen
    for rule, target, kind, said in provider_texts():
        sev = rule.by_kind.get(kind or "", {}).get(target, rule.severity[target])
        if sev not in ("error", "warning"):
            continue
        issue = Issue(rule.code, 0, "call_1", **({"kind": kind} if kind else {}))
        ev = evidence(issue, target, sev)
        assert ev is not None and ev["source"], (rule.code, target, kind)


def test_rules_shows_the_evidence_a_finding_carries():
    # one input, one verdict: ``inspector rules`` and the check's JSON give the same source and date
    # (an undated text is undated in both, not dated by the day the research was done)
    for rule in RULE.values():
        for target in TARGETS:
            said = rule.said.get(target)
            if said is None:
                continue
            (row,) = [w for w in describe(rule.code, target)["provider_words"] if w["text"] is not None]
            issue = Issue(rule.code, 0, "call_1")
            sev = rule.severity[target]
            if sev in ("error", "warning") and (rule.code, target) not in TARGET_EVIDENCE:
                assert row["evidence"] == evidence(issue, target, sev), (rule.code, target)
            assert row["evidence"] == {"source": said.evidence, "date": said.date}, (rule.code, target)


def test_a_finding_and_the_rules_command_agree_on_an_undated_text():
    msgs = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "call_9", "content": "x"}]
    (f,) = [f for f in inspector.check(msgs, "openai").findings if f.code == "TC002"]
    (row,) = describe("TC002", "openai")["provider_words"]
    assert f.evidence is not None
    assert row["evidence"] == {"source": f.evidence.source, "date": f.evidence.date}


# The Responses API's words for an empty function_call name (Wei-Shaw/sub2api#3818, 2026-07-08;
# diegosouzapw/OmniRoute#346, 2026-03-13): the check gave TC012 without them.
def test_responses_empty_function_name_gets_the_responses_words_with_the_input_index():
    items = [{"role": "user", "content": "weather?"},
             {"type": "function_call", "call_id": "call_a", "name": "", "arguments": "{}"},
             {"type": "function_call_output", "call_id": "call_a", "output": "sunny"}]
    report = inspector.check(items, "responses", dialect="openai-responses")
    (f,) = [f for f in report.findings if f.code == "TC012"]
    assert f.severity == "error"
    assert f.provider_error == ("Invalid 'input[1].name': empty string. Expected a string with minimum length 1, "
                                "but got an empty string instead.")
    assert f.evidence is not None and "Wei-Shaw/sub2api#3818" in f.evidence.source
    assert f.evidence.date == RULE["TC012"].said["responses"].date


def test_responses_name_with_bad_characters_gets_no_words_of_an_empty_one():
    items = [{"role": "user", "content": "weather?"},
             {"type": "function_call", "call_id": "call_a", "name": "get weather", "arguments": "{}"},
             {"type": "function_call_output", "call_id": "call_a", "output": "sunny"}]
    (f,) = [f for f in inspector.check(items, "responses", dialect="openai-responses").findings if f.code == "TC012"]
    assert f.provider_error is None  # the words are for an empty name only


# OpenAI's 40-character id limit: refused to 2026-02, accepted in live tests of 2026-07 (vercel/ai#17276):
# the warning's evidence names both sides.
def test_openai_long_call_id_warning_names_the_refusal_and_the_acceptance():
    long_id = "call_" + "x" * 46
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": long_id, "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": long_id, "content": "ok"}]
    (f,) = [f for f in inspector.check(msgs, "openai").findings if f.code == "TC009"]
    assert f.severity == "warning"
    assert f.evidence is not None and "refused" in f.evidence.source and "accepted" in f.evidence.source
    assert f.evidence.date == TARGET_EVIDENCE[("TC009", "openai")][1]
