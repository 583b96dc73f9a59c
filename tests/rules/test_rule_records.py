"""One record per rule (``inspector/rules/catalogue.py``) drives the check's severities, the
sentences, the hints and the providers' words. These tests hold the records to what they claim:
every code has one, each provider text names only fields the check fills and is found, word for
word, in the evidence it cites, and a provider's words are only given where the rule applies."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from support.rule_records import provider_texts

import inspector
from inspector.checking import template_fields
from inspector.model import Issue
from inspector.rules import RULE, RULES
from inspector.rules.catalogue import TEMPLATE_FIELDS
from inspector.targets import TARGETS

ROOT = Path(__file__).resolve().parents[2]
DOCS = {"protocol-research.md": ROOT.parent / "shared" / "spec" / "protocol-research.md",
        "docs/provider-evidence.md": ROOT / "docs" / "provider-evidence.md"}

# Words whose evidence is not a quotation: (code, target) -> why
NOT_QUOTED = {
    ("TC009", "bedrock"): "the research quotes Bedrock's id pattern (API reference); the sentence is Anthropic's "
                          "validation wording for the same pattern",
}


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("`", ""))


def test_one_record_per_code_with_the_stable_name():
    assert list(RULE) == [f"TC{k:03d}" for k in range(1, len(RULE) + 1)]  # numbered in order, none skipped
    assert {code: r.name for code, r in RULE.items()} == dict(RULES)
    assert all(tuple(r.severity) == TARGETS for r in RULE.values())


def test_the_check_fills_every_field_a_provider_text_may_name():
    filled = template_fields(Issue("TC001", 0, "call_1"), {}, None)
    assert set(filled) == set(TEMPLATE_FIELDS)
    assert all(r.fields <= set(TEMPLATE_FIELDS) for r in RULE.values())


def test_a_provider_text_is_given_only_where_the_rule_applies():
    for rule, target, kind, _ in provider_texts():
        sev = rule.by_kind.get(kind or "", {}).get(target, rule.severity[target])
        assert sev is not None, (rule.code, target, kind)


def test_each_provider_text_is_found_in_the_evidence_it_cites():
    if not DOCS["protocol-research.md"].exists():
        pytest.skip(f"the research is not at {DOCS['protocol-research.md']}")
    texts = {name: _flat(path.read_text(encoding="utf-8")) for name, path in DOCS.items()}
    for rule, target, _, said in provider_texts():
        doc = next(name for name in DOCS if said.evidence.startswith(name))
        section = re.match(r"protocol-research\.md §([\d.]+)", said.evidence)
        if section:
            assert re.search(rf"^#+ {re.escape(section.group(1))}\.? ", DOCS[doc].read_text(), re.MULTILINE), said.evidence
        if (rule.code, target) in NOT_QUOTED:
            continue
        pieces = [p for p in re.split(r"\{[a-z]+\}", _flat(said.text)) if len(p.strip()) > 8]
        for piece in pieces:
            assert piece.strip() in texts[doc], (rule.code, target, piece)


def test_the_report_carries_the_records_words():
    msgs = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "call_9", "content": "x"}]
    for target in ("openai", "deepseek", "mistral"):
        (f,) = [f for f in inspector.check(msgs, target).findings if f.code == "TC002"]
        assert f.rule == RULE["TC002"].name and f.severity == RULE["TC002"].severity[target]
        assert f.provider_error is not None
        literal = max(re.split(r"\{[a-z]+\}", RULE["TC002"].said[target].text), key=len)
        assert literal in f.provider_error


def _found_in_code() -> dict[str, set[str]]:
    """code -> the modules of the package that find it: that make ``Issue("TC…", ...)`` or turn
    another issue into one (``issue.code = "TC…"``)."""
    pkg = ROOT / "inspector"
    found: dict[str, set[str]] = {}
    for path in sorted(pkg.rglob("*.py")):
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            value = None
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Issue" and n.args:
                value = n.args[0]
            elif (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute)
                  and n.targets[0].attr == "code"):
                value = n.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.setdefault(value.value, set()).add(path.relative_to(pkg).as_posix())
    return found


def test_each_record_names_every_module_that_finds_its_rule():
    found = _found_in_code()
    assert set(found) <= set(RULE), "an issue code without a record"
    for code, rule in RULE.items():
        assert rule.found_in, f"{code}: the record does not say where the rule is found"
        assert set(rule.found_in) == found.get(code, set()), (
            f"{code}: the record's found_in differs from the modules that make the issue")
