"""A tool that failed when it ran (not a pairing problem) is told by the dialect the transcript is
read as, in its format's own field: the timeline's chip and the detail pane show it."""

from __future__ import annotations

from inspector.dialects import get


def test_openai_chat_and_ag_ui_tool_messages_with_an_error():
    for name in ("openai-chat", "ag-ui"):
        d = get(name)
        assert d.result_failed({"role": "tool", "tool_call_id": "a", "content": "x", "error": {"message": "boom"}}, "a")
        assert not d.result_failed({"role": "tool", "tool_call_id": "a", "content": "x", "error": None}, "a")
        assert not d.result_failed({"role": "assistant", "content": "x", "error": "boom"}, "a")


def test_anthropic_and_claude_code_blocks_with_is_error():
    msg = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
        {"type": "tool_result", "tool_use_id": "t2", "content": "failed", "is_error": True}]}
    for name in ("anthropic", "claude-code"):
        d = get(name)
        assert d.result_failed(msg, "t2") and not d.result_failed(msg, "t1")


def test_bedrock_tool_result_status():
    msg = {"role": "user", "content": [{"toolResult": {"toolUseId": "b1", "status": "error", "content": []}},
                                       {"toolResult": {"toolUseId": "b2", "status": "success", "content": []}}]}
    d = get("bedrock")
    assert d.result_failed(msg, "b1") and not d.result_failed(msg, "b2")


def test_responses_output_status():
    d = get("openai-responses")
    assert d.result_failed({"type": "function_call_output", "call_id": "c", "output": "x", "status": "error"}, "c")
    assert not d.result_failed({"type": "function_call_output", "call_id": "c", "output": "x", "status": "completed"}, "c")


def test_gemini_function_response_error():
    msg = {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"error": "no such file"}}}]}
    d = get("gemini")
    assert d.result_failed(msg, None)
    assert not d.result_failed({"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"output": 1}}}]}, None)


def test_langchain_tool_message_status_in_each_shape():
    d = get("langchain")
    fields = {"content": "boom", "tool_call_id": "c1", "status": "error"}
    for raw in ({"type": "tool", **fields}, {"type": "tool", "data": fields},
                {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "ToolMessage"], "kwargs": fields}):
        assert d.result_failed(raw, "c1")
    assert not d.result_failed({"type": "tool", "content": "ok", "tool_call_id": "c1", "status": "success"}, "c1")


def test_vercel_ai_and_ui_failed_parts():
    ai = get("vercel-ai")
    v4 = {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "toolName": "f", "result": "x",
                                       "isError": True}]}
    v5 = {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c2", "toolName": "f",
                                       "output": {"type": "error-text", "value": "boom"}}]}
    assert ai.result_failed(v4, "c1") and ai.result_failed(v5, "c2") and not ai.result_failed(v4, "c2")
    ui = get("vercel-ui")
    msg = {"role": "assistant", "parts": [{"type": "tool-f", "toolCallId": "c1", "state": "output-error", "errorText": "x"},
                                          {"type": "tool-f", "toolCallId": "c2", "state": "output-available", "output": 1}]}
    assert ui.result_failed(msg, "c1") and not ui.result_failed(msg, "c2")

