"""A parallel call block at the end of a request with only some of its results is TC001, not a
pending call (TC022): the gemini-cli #3814 and req_llm #454 shape of ISSUE_SHAPES.md. Every
provider rejects it, so the verdict must say "would reject", and repair must answer the call."""

from __future__ import annotations

import json

import pytest

import inspector

OPENAI = [
    {"role": "user", "content": "weather in Paris and Tokyo?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
        {"id": "call_b", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Tokyo\"}"}}]},
    {"role": "tool", "tool_call_id": "call_a", "content": "18C"},
]
ANTHROPIC = [
    {"role": "user", "content": "weather in Paris and Tokyo?"},
    {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Paris"}},
        {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Tokyo"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "18C"}]},
]
RESPONSES = [  # req_llm #454: [user_msg, function_call_1, function_call_2, function_call_output_2]
    {"role": "user", "content": "weather in Paris and Tokyo?"},
    {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\": \"Paris\"}"},
    {"type": "function_call", "call_id": "call_2", "name": "get_weather", "arguments": "{\"city\": \"Tokyo\"}"},
    {"type": "function_call_output", "call_id": "call_2", "output": "25C"},
]
GEMINI = [  # gemini-cli #3814: fewer function response parts than function call parts
    {"role": "user", "parts": [{"text": "weather in Paris and Tokyo?"}]},
    {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                                {"functionCall": {"name": "get_weather", "args": {"city": "Tokyo"}}}]},
    {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"result": "18C"}}}]},
]

CASES = [
    ("openai-chat", "openai", OPENAI, "call_b",
     "The following tool_call_ids did not have response messages: call_b"),
    ("anthropic", "anthropic", ANTHROPIC, "toolu_b",
     "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b."),
    ("openai-responses", "responses", RESPONSES, "call_1", "No tool output found for function call call_1."),
    ("gemini", "gemini", GEMINI, None,
     "Please ensure that the number of function response parts is equal to the number of function call parts"),
]


@pytest.mark.parametrize("dialect,target,items,missing_id,words", CASES, ids=[c[0] for c in CASES])
def test_half_answered_block_at_the_end_is_missing_not_pending(dialect, target, items, missing_id, words):
    report = inspector.check(items, dialect=dialect)
    codes = [f.code for f in report.findings]
    assert "TC022" not in codes, codes
    tc001 = [f for f in report.findings if f.code == "TC001"]
    assert len(tc001) == 1 and tc001[0].severity == "error" and tc001[0].tool_call_id == missing_id
    assert words in tc001[0].provider_error
    assert " would reject this request" in inspector.verdict(report)


@pytest.mark.parametrize("dialect,target,items,missing_id,words", CASES, ids=[c[0] for c in CASES])
def test_repair_answers_the_unanswered_sibling(dialect, target, items, missing_id, words):
    fixed = inspector.repair(items, dialect=dialect)
    assert [c.action for c in fixed.report.changes] == ["insert_placeholder"]
    assert [c.code for c in fixed.report.changes] == ["TC001"]
    assert not [f for f in inspector.check(fixed.data, dialect=dialect).findings if f.severity == "error"]
    kept = "25C" if dialect == "openai-responses" else "18C"
    assert kept in json.dumps(fixed.data)  # the real result stays


def test_a_block_with_no_result_at_all_is_still_pending():
    report = inspector.check(OPENAI[:2])
    assert sorted(f.code for f in report.findings) == ["TC022", "TC022"]
