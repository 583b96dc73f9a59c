"""TC026: a call to a tool the request body does not declare, in each API's way of declaring
tools; nothing when the body carries no tool list."""

from __future__ import annotations

import inspector


def findings(body, code="TC026"):
    return [f for f in inspector.check(body).findings if f.code == code]


CHAT = [
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weathr", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
]


def test_chat_completions_tools():
    body = {"model": "gpt-4o", "messages": CHAT,
            "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]}
    (f,) = findings(body)
    assert (f.message_index, f.tool_call_id, f.severity) == (1, "call_1", "warning")
    assert "'get_weathr'" in f.text and "did you mean 'get_weather'" in f.text
    body["tools"][0]["function"]["name"] = "get_weathr"
    assert findings(body) == []
    assert findings({"model": "gpt-4o", "messages": CHAT}) == []  # no tool list: nothing to hold it to


def test_legacy_functions_list():
    body = {"messages": CHAT, "functions": [{"name": "get_weather"}]}
    assert [f.code for f in findings(body)] == ["TC026"]


def test_responses_and_anthropic_tools():
    responses = {"model": "gpt-4.1", "tools": [{"type": "function", "name": "get_weather"}], "input": [
        {"role": "user", "content": "hi"},
        {"type": "function_call", "call_id": "c1", "name": "get_weathr", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "x"}]}
    assert [f.tool_call_id for f in findings(responses)] == ["c1"]
    anthropic = {"model": "claude-sonnet-4-5", "tools": [{"name": "get_weather", "input_schema": {}}], "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weathr", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"}]}]}
    assert [f.tool_call_id for f in findings(anthropic)] == ["toolu_1"]


def test_gemini_function_declarations_and_bedrock_tool_config():
    gemini = {"tools": [{"functionDeclarations": [{"name": "get_weather"}]}], "contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "get_weathr", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "get_weathr", "response": {}}}]}]}
    assert [f.severity for f in findings(gemini)] == ["warning"]
    bedrock = {"modelId": "anthropic.claude-3-5-sonnet-20240620-v1:0",
               "toolConfig": {"tools": [{"toolSpec": {"name": "get_weather"}}]}, "messages": [
        {"role": "user", "content": [{"text": "hi"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "get_weathr", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "x"}]}}]}]}
    assert [f.tool_call_id for f in findings(bedrock)] == ["t1"]
