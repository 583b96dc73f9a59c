"""The rules table the check applies, printed as ``rules.md`` writes it, is the contract's
(``../shared/spec/rules.md`` section 3) but for the departures below, each made on dated provider
evidence (``docs/provider-evidence.md``) and each still in force: a departure the code no longer
makes, or one it makes without saying so here, fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inspector.rules import severity
from inspector.rules.catalogue import table

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "rules.md"

# (code, target) -> (rules.md's severity, ours, why)
DEPARTURES = {
    ("TC019", "anthropic"): ("error", "info", ("the Messages API combines consecutive messages of one role into one "
                                              "turn (docs/provider-evidence.md); refused results in an assistant "
                                              "message stay an error by kind (the rule's by_kind in rules/catalogue.py)")),
    ("TC021", "responses"): ("error", "warning", ("only a reasoning item without its following item is refused "
                                                 "(an error by kind, the rule's by_kind, rules.md 2026-11-23); "
                                                 "the other reasoning-state cases are warnings")),
}

ROW = re.compile(r"^\| (TC\d+|code) \|")


def _rows(text: str) -> dict[str, list[str]]:
    # rules.md marks a cell with a note (``warning¹``): the note explains it, the severity is the word
    return {cells[0]: cells[1:] for line in text.splitlines() if ROW.match(line)
            for cells in [[c.strip().rstrip("¹²³⁴⁵") for c in line.strip().strip("|").split("|")]]}


def test_the_printed_table_is_the_contracts_but_for_the_departures():
    if not SPEC.exists():
        pytest.skip(f"the contract is not at {SPEC}")
    ours, spec = _rows(table()), _rows(SPEC.read_text(encoding="utf-8"))
    print(table())
    assert ours["code"] == spec["code"]  # the same targets, in the same order
    targets = spec["code"][1:]
    assert list(ours) == list(spec)  # the same codes, in order
    differ = {}
    for code, cells in spec.items():
        assert ours[code][0] == cells[0], code  # the rule's name
        for target, want, got in zip(targets, cells[1:], ours[code][1:]):
            if want != got:
                differ[(code, target)] = (want, got)
    assert differ == {k: v[:2] for k, v in DEPARTURES.items()}


def test_the_changes_of_2026_11_27_hold_by_kind():
    # rules.md, "Changes of 2026-11-27": the cases of a rule one target rates apart
    assert severity("TC025", "anthropic", "text_after") == "warning"  # note 2: text after tool_use
    assert severity("TC025", "anthropic") == "error"  # server-tool blocks after a client tool_use
    assert severity("TC022", "mistral", "request_end") == "error"  # a request that ends on calls
    assert severity("TC022", "openai", "request_end") == "warning"
    assert severity("TC022", "deepseek", "request_end") == "error"  # modelscope/ms-agent#909 (2026-05-03)
    assert severity("TC024", "anthropic", "system_model_unknown") == "warning"  # no model named
    assert severity("TC019", "anthropic", "system_misplaced") == "error"
    assert {severity("TC024", t, "harness_record") for t in ("openai", "mistral", "anthropic")} == {"info"}


def test_the_departures_keep_the_contracts_error_where_the_provider_refuses():
    assert severity("TC019", "anthropic", "result_in_assistant") == "error"
    assert severity("TC021", "responses", "reasoning_item") == "error"
