"""Requests that providers really rejected (recorded in public test cassettes and issue threads),
each judged "would reject" with the provider's own words. Where a recording is in the shared
corpus the test reads it; the others are rebuilt from the recording and say where it came from.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def corpus(rel: str):
    path = CORPUS / rel
    if not path.exists():
        pytest.skip("corpus not present")
    return path


def errors(report):
    return [f for f in report.findings if f.severity == "error"]


def test_openai_responses_reasoning_item_without_its_following_item():
    """pydantic-ai cassette test_openai_responses_thinking_with_modified_history, interaction #1:
    HTTP 400 "Item 'rs_…' of type 'reasoning' was provided without its required following item."."""
    path = corpus("broken/pydantic-ai_openai_responses_reasoning_without_following_item.request.json")
    report = inspector.check(path)
    assert report.target == "responses" and not report.ok
    (f,) = errors(report)
    rid = json.loads(path.read_text())["input"][f.message_index]["id"]
    assert f.provider_error == f"Item '{rid}' of type 'reasoning' was provided without its required following item."


def test_repair_takes_the_dangling_reasoning_item_out_and_keeps_it():
    path = corpus("broken/pydantic-ai_openai_responses_reasoning_without_following_item.request.json")
    fixed = inspector.repair(path)
    assert fixed.report.ok and inspector.check(fixed.output).ok
    assert [q.content.get("type") for q in fixed.report.quarantine] == ["reasoning"]
    assert [c.code for c in fixed.report.changes] == ["TC021"]
    assert inspector.check(fixed.output).dialect == "openai-responses"  # still a Responses body


def test_deepseek_responses_rejects_text_between_a_call_and_its_output():
    """pydantic-ai cassette test_deepseek_responses_rejects_interleaved_function_calls: HTTP 400
    "No tool output found for tool call call-a." (OpenAI itself accepts the same input)."""
    report = inspector.check(corpus("broken/pydantic-ai_deepseek_responses_rejects_interleaved_function_calls.request.json"))
    assert report.target == "deepseek"
    assert "No tool output found for tool call call-a." in [f.provider_error for f in errors(report)]


def test_gemini_rejects_results_of_one_call_turn_split_over_contents():
    """gemini-cli #3814 (after history compression): "Please ensure that the number of function
    response parts is equal to the number of function call parts of the function call turn."."""
    contents = [
        {"role": "user", "parts": [{"text": "weather and time?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {}}},
                                    {"functionCall": {"name": "get_time", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"r": "18C"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "get_time", "response": {"r": "noon"}}}]},
        {"role": "model", "parts": [{"text": "ok"}]},
    ]
    report = inspector.check({"contents": contents})
    (f,) = errors(report)
    assert f.code == "TC015" and f.provider_error == (
        "Please ensure that the number of function response parts is equal to the number of function call parts "
        "of the function call turn.")
    fixed = inspector.repair({"contents": contents})
    assert fixed.report.ok and len(fixed.data["contents"]) == 4
