"""Refusals the search of 2026-11-27 found unmodelled (docs/provider-evidence.md, "Newer refusals"):
OpenAI's reasoning models refuse the legacy ``role: "function"`` message outright, and Bedrock's
Converse refuses an assistant turn holding only reasoning on Claude Sonnet 5 and Fable 5.1. Each is
an error in the provider's words for the models that refuse it, nothing for the models that take it,
and with no model named a warning naming both sides (rules.md, Changes of 2026-11-27)."""

from __future__ import annotations

from typing import Any

import pytest

import inspector
from inspector.model_families import accepts

LEGACY = [
    {"role": "user", "content": "List the files in /tmp."},
    {"role": "assistant", "content": None, "function_call": {"name": "ls", "arguments": '{"path": "/tmp"}'}},
    {"role": "function", "name": "ls", "content": "a.txt b.txt"},
    {"role": "assistant", "content": "There are two files."},
    {"role": "user", "content": "Thanks."},
]

REASONING_ONLY = [
    {"role": "user", "content": [{"text": "List the files."}]},
    {"role": "assistant", "content": [{"reasoningContent": {"redactedContent": "ZW5jcnlwdGVk"}}]},
    {"role": "user", "content": [{"text": "Go on."}]},
    {"role": "assistant", "content": [{"text": "Two files."}]},
    {"role": "user", "content": [{"text": "Thanks."}]},
]


def _found(report: Any, code: str) -> list[Any]:
    return [f for f in report.findings if f.code == code]


# --- the legacy function role ------------------------------------------------------------------------

# o3: TheR1D/shell_gpt#717 (2025-07-21); gpt-5: microsoft/vscode#260529 (2025-08-08)
@pytest.mark.parametrize("model", ["o3", "gpt-5", "o4-mini", "azure/o3-mini"])
def test_a_reasoning_model_refuses_the_function_role_in_openais_words(model: str) -> None:
    report = inspector.check({"model": model, "messages": LEGACY})
    (f,) = _found(report, "TC024")
    assert f.severity == "error" and f.message_index == 2
    assert f.provider_error == "Unsupported value: 'messages[2].role' does not support 'function' with this model."
    assert f.evidence is not None and "microsoft/vscode#260529" in f.evidence.source
    assert f.evidence.date == "2025-08-08"
    assert not report.ok


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-4.1-mini", "gpt-3.5-turbo"])
def test_an_older_model_takes_the_function_role(model: str) -> None:
    report = inspector.check({"model": model, "messages": LEGACY})
    assert _found(report, "TC024") == []
    assert [f for f in report.findings if f.severity == "error"] == []


def test_with_no_model_the_function_role_is_a_warning_naming_both_sides() -> None:
    report = inspector.check(LEGACY, "openai")
    (f,) = _found(report, "TC024")
    assert f.severity == "warning"
    assert "gpt-4o" in f.text and "o3" in f.text and "refuse" in f.text
    assert f.evidence is not None and "TheR1D/shell_gpt#717" in f.evidence.source


def test_the_function_role_rule_is_for_openai_only() -> None:
    # DeepSeek and Mistral keep TC017's pairing verdicts; the refusal is OpenAI's reasoning models'
    for target in ("deepseek", "mistral"):
        assert _found(inspector.check(LEGACY, target), "TC024") == []


def test_repair_does_not_take_a_refused_function_result_out() -> None:
    # taking the result out would leave its function_call unanswered: repair says it is not fixed
    result = inspector.repair({"model": "o3", "messages": LEGACY})
    assert not result.report.ok
    assert result.report.quarantine == []
    assert any("legacy function role" in u for u in result.report.unfixed)
    # with no model (a warning: older models take it) repair leaves it and is done
    result = inspector.repair(LEGACY, "openai")
    assert result.report.ok and result.report.quarantine == []


@pytest.mark.parametrize("model, want", [
    ("o1", False), ("o3-mini", False), ("gpt-5.5", False), ("gpt-5-codex", False),
    ("gpt-4o", True), ("gpt-4.1", True), ("gpt-3.5-turbo", True), (None, None), ("my-model", None),
])
def test_the_model_table_places_the_function_role(model: str | None, want: bool | None) -> None:
    assert accepts("function_role", model) is want


# --- Bedrock: an assistant turn holding only reasoning -----------------------------------------------

def _converse(model: str) -> dict[str, Any]:
    return {"modelId": model, "messages": REASONING_ONLY,
            "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 2048}}}


# NousResearch/hermes-agent#105780 (2026-09-08)
@pytest.mark.parametrize("model", ["global.anthropic.claude-sonnet-5", "global.anthropic.claude-fable-5-1"])
def test_sonnet_5_and_fable_5_1_refuse_a_reasoning_only_turn_in_bedrocks_words(model: str) -> None:
    report = inspector.check(_converse(model), "bedrock")
    (f,) = _found(report, "TC021")
    assert f.severity == "error" and f.message_index == 1
    assert f.provider_error == ("This model does not support assistant message prefill. The conversation must end "
                                "with a user message.")
    assert f.evidence is not None and "NousResearch/hermes-agent#105780" in f.evidence.source
    assert f.evidence.date == "2026-09-08"
    assert not report.ok


def test_sonnet_4_6_takes_a_reasoning_only_turn() -> None:
    report = inspector.check(_converse("global.anthropic.claude-sonnet-4-6"), "bedrock")
    assert _found(report, "TC021") == []


@pytest.mark.parametrize("source", [REASONING_ONLY, _converse("us.anthropic.claude-opus-4-8-v1:0")])
def test_a_reasoning_only_turn_with_no_model_placed_is_a_warning_naming_both_sides(source: Any) -> None:
    report = inspector.check(source, "bedrock")
    (f,) = _found(report, "TC021")
    assert f.severity == "warning"
    assert "Sonnet 4.6" in f.text and "Sonnet 5" in f.text


def test_a_turn_with_text_beside_its_reasoning_is_not_reasoning_only() -> None:
    msgs = [dict(m) for m in REASONING_ONLY]
    msgs[1] = {"role": "assistant", "content": [{"reasoningContent": {"redactedContent": "ZW5j"}}, {"text": "Thinking."}]}
    report = inspector.check({"modelId": "global.anthropic.claude-sonnet-5", "messages": msgs}, "bedrock")
    assert _found(report, "TC021") == []


# --- mid-conversation system messages: Sonnet 5 does not take them ------------------------------------

# "not on Sonnet 5": elgorro/aiquila#413 (2026-07-31), getkyo/kyo#1810 (2026-07-29)
def test_sonnet_5_refuses_a_mid_conversation_system_message() -> None:
    body = {"model": "claude-sonnet-5", "max_tokens": 1024, "messages": [
        {"role": "user", "content": "Hi."},
        {"role": "system", "content": "Answer in French."},
        {"role": "assistant", "content": "Bonjour."},
        {"role": "user", "content": "Merci."}]}
    (f,) = _found(inspector.check(body, "anthropic"), "TC024")
    assert f.severity == "error"
    assert f.provider_error == "role 'system' is not supported on this model"
    assert f.evidence is not None and "elgorro/aiquila#413" in f.evidence.source


@pytest.mark.parametrize("model, want", [
    ("claude-sonnet-5", False), ("claude-mythos-5", True), ("claude-mythos-preview", False), ("claude-opus-4-8", True),
])
def test_the_model_table_places_the_newer_claude_models(model: str, want: bool) -> None:
    assert accepts("system_messages", model) is want


def test_the_rules_command_says_the_function_role_verdict_for_the_model() -> None:
    # one verdict: `inspector rules TC024 --model M` says what check says for that model
    from inspector.cli.rules import describe

    def case(model: str) -> dict[str, Any]:
        cases = describe("TC024", "openai", model)["cases"]
        return next(c for c in cases if c["case"].startswith("function_"))

    refused = case("o3")
    assert refused["case"] == "function_role_refused" and refused["severity"] == {"openai": "error"}
    assert refused["provider_words"]["openai"].startswith("Unsupported value: 'messages[{i}].role'")
    assert "no finding" in case("gpt-4o")["note"]


def test_a_pasted_refusal_names_the_rule_behind_it() -> None:
    # `inspector explain` reads the provider's words back to the rule that predicts them
    from inspector.provider_errors import parse_error

    e = parse_error("Unsupported value: 'messages[59].role' does not support 'function' with this model.")
    assert e.rules == ["TC024"] and e.indexes == [59]
    assert parse_error("400 'function' is not allowed role. The allowed roles are ['developer', 'system', 'user', "
                       "'assistant', 'tool']").rules == ["TC024"]
    assert parse_error("ValidationException: This model does not support assistant message prefill. The conversation "
                       "must end with a user message.").rules == ["TC021"]
