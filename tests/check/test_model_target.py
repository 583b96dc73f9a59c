"""The target a request names: its ``model`` chooses the default target, and the report, the
CLI's summary and the app say why. An explicit target always wins."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import inspector
from inspector.model_target import target_from_model

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
CHAT_FITS = ("openai", "deepseek", "mistral")
RESPONSES_FITS = ("responses", "deepseek")


@pytest.mark.parametrize("model,fits,want", [
    ("deepseek-v4-flash", RESPONSES_FITS, "deepseek"),
    ("deepseek-chat", CHAT_FITS, "deepseek"),
    ("deepseek/deepseek-chat-v3.1", CHAT_FITS, "deepseek"),          # OpenRouter
    ("mistral-large-latest", CHAT_FITS, "mistral"),
    ("mistralai/mistral-small-3.2-24b-instruct", CHAT_FITS, "mistral"),
    ("codestral-2508", CHAT_FITS, "mistral"),
    ("gpt-4o-mini", CHAT_FITS, "openai"),
    ("o3-mini", RESPONSES_FITS, "responses"),
    ("claude-sonnet-4-5", ("anthropic",), "anthropic"),
    ("gemini-2.5-flash", ("gemini",), "gemini"),
    ("google/gemini-2.5-flash", ("gemini",), "gemini"),
    ("vertex_ai/gemini-2.0-flash", ("gemini",), "gemini"),
    ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", ("bedrock",), "bedrock"),
    ("bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0", ("bedrock",), "bedrock"),
    ("arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0", ("bedrock",), "bedrock"),
    ("mistral.mistral-large-2407-v1:0", CHAT_FITS, "mistral"),  # a Bedrock id sent through an OpenAI-style body
])
def test_model_names_choose_the_target(model, fits, want):
    chosen, why = target_from_model(model, fits)
    assert chosen == want and repr(model) in why


def test_unknown_or_unfitting_models_keep_the_format_default_and_say_so():
    assert target_from_model("llama-3.3-70b-versatile", CHAT_FITS) == (None, "")
    chosen, why = target_from_model("google/gemini-2.5-flash", CHAT_FITS)  # Gemini behind an OpenAI-style gateway
    assert chosen is None and "Gemini" in why and "do not apply" in why


DEEPSEEK_RESPONSES = {  # the shape of the pydantic-ai DeepSeek cassette: text between a call and its output
    "model": "deepseek-v4-flash",
    "input": [
        {"role": "user", "content": "read a"},
        {"type": "function_call", "call_id": "call-a", "name": "read", "arguments": "{}"},
        {"role": "assistant", "content": "<think>b</think>"},
        {"type": "function_call_output", "call_id": "call-a", "output": "contents"},
    ],
}


def test_a_responses_request_sent_to_deepseek_gets_deepseeks_rules():
    report = inspector.check(DEEPSEEK_RESPONSES)
    assert report.target == "deepseek" and "deepseek-v4-flash" in report.target_reason
    errors = [f for f in report.findings if f.severity == "error"]
    assert errors and errors[0].provider_error == "No tool output found for tool call call-a."
    assert "would reject" in inspector.verdict(report)
    # The same body without a model: the Responses API's own rules, which accept it.
    bare = {"input": DEEPSEEK_RESPONSES["input"]}
    assert inspector.check(bare).target == "responses"
    # An explicit target wins over the model.
    assert inspector.check(DEEPSEEK_RESPONSES, target="responses").target == "responses"


def test_a_chat_request_to_mistral_gets_mistrals_rules():
    body = {"model": "mistral-large-latest", "messages": [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "abcdefghi", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "abcdefghi", "content": "ok"},
        {"role": "user", "content": "and?"}]}
    report = inspector.check(body)
    assert report.target == "mistral"
    assert [f.provider_error for f in report.findings if f.code == "TC019"] == ["Unexpected role 'user' after role 'tool'"]


def test_cli_summary_says_why(tmp_path):
    path = tmp_path / "req.json"
    path.write_text(json.dumps(DEEPSEEK_RESPONSES))
    p = subprocess.run([sys.executable, "-m", "inspector", "check", str(path)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "target deepseek (the request's model 'deepseek-v4-flash' is a DeepSeek model)" in p.stdout.splitlines()[-1]


def test_recorded_deepseek_rejection_is_rejected_by_default():
    path = CORPUS / "broken" / "pydantic-ai_deepseek_responses_rejects_interleaved_function_calls.request.json"
    if not path.exists():
        pytest.skip("corpus not present")
    report = inspector.check(path)
    assert report.target == "deepseek" and not report.ok
    assert any(f.provider_error == "No tool output found for tool call call-a." for f in report.findings)
