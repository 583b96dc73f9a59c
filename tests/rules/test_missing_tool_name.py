"""A tool call with no name at all (the key missing, or null), not an empty one (issue 33; the
evidence: docs/provider-evidence.md, "A call with no name").

Old code: a Chat Completions call whose ``function`` object had no ``name`` was not found at all
("OpenAI would accept"), and every other nameless call quoted OpenAI's words for an *empty* name.
Now each is TC012 of kind ``missing_name``, an error for every target, with no provider text (no
provider's words for a missing call name were found); an empty name keeps the empty-string words.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector.guard import inspect_request

EMPTY_WORDS = "empty string. Expected a string with minimum length 1"
MISSING = "has no function name at all (the name is missing or null)"


def _chat(call: dict) -> dict:
    return {"model": "gpt-4o", "messages": [
        {"role": "user", "content": "What is the weather in Lisbon?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ]}


# name -> (request body, the API it is for (the guard's path), target)
NAMELESS = {
    "chat-function-without-name": (_chat({"id": "call_1", "type": "function", "function": {"arguments": "{}"}}),
                                   "/v1/chat/completions", "openai"),
    "chat-null-name": (_chat({"id": "call_1", "type": "function", "function": {"name": None, "arguments": "{}"}}),
                       "/v1/chat/completions", "openai"),
    "chat-without-function": (_chat({"id": "call_1", "type": "function"}), "/v1/chat/completions", "openai"),
    "responses-function-call-without-name": ({"model": "gpt-5", "input": [
        {"role": "user", "content": "What is the weather in Lisbon?"},
        {"type": "function_call", "call_id": "call_1", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
    ]}, "/v1/responses", "responses"),
    "anthropic-tool-use-without-name": ({"model": "claude-sonnet-4-5", "max_tokens": 256, "messages": [
        {"role": "user", "content": "What is the weather in Lisbon?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "sunny"}]},
    ]}, "/v1/messages", "anthropic"),
}


def run(*args) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], capture_output=True, text=True)


@pytest.mark.parametrize("name", list(NAMELESS))
def test_a_call_with_no_name_is_refused_without_the_empty_name_words(name):
    body, _, target = NAMELESS[name]
    report = inspector.check(body)
    assert report.target == target
    [f] = [f for f in report.findings if f.code == "TC012"]
    assert f.severity == "error" and MISSING in f.text
    assert f.provider_error is None  # no provider's words for a missing name were found
    assert f.evidence is not None and "provider-evidence.md" in f.evidence.source
    assert not report.ok


def test_an_empty_name_keeps_openais_words_for_an_empty_string():
    body = _chat({"id": "call_1", "type": "function", "function": {"name": "", "arguments": "{}"}})
    [f] = [f for f in inspector.check(body).findings if f.code == "TC012"]
    assert MISSING not in f.text
    assert f.provider_error == ("Invalid 'messages[1].tool_calls[0].function.name': empty string. Expected a string "
                                "with minimum length 1, but got an empty string instead.")


@pytest.mark.parametrize("name", ["chat-function-without-name", "anthropic-tool-use-without-name"])
def test_check_scan_and_the_guard_give_the_nameless_call_one_answer(tmp_path, name):
    body, api, _ = NAMELESS[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(body))
    p = run("check", path)
    assert p.returncode == 1 and MISSING in p.stdout and EMPTY_WORDS not in p.stdout, p.stdout + p.stderr
    p = run("scan", path, "--format", "jsonl", "--jobs", "1")
    [row] = [json.loads(x) for x in p.stdout.splitlines()]
    assert p.returncode == 1 and row["codes"] == ["TC012"] and row["rejected"]
    assert row["findings"][0]["provider_error"] is None and MISSING in row["findings"][0]["text"]
    ins = inspect_request(f"http://127.0.0.1:9{api}", path.read_bytes())
    assert ins is not None and ins.report is not None
    [f] = [f for f in ins.report["findings"] if f["code"] == "TC012"]
    assert MISSING in f["text"] and f["provider_error"] is None
