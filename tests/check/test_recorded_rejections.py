"""Requests that providers really rejected (recorded in public test cassettes and issue threads),
each judged "would reject" with the provider's own words. Where a recording is in the shared
corpus the test reads it; the others are rebuilt from the recording and say where it came from.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


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


# --- Recorded rejections added for issue 10 (helper i10-relink) ----------------------------------
# Each request is the one the thread shows or describes, rebuilt where the thread quotes code rather
# than JSON (the docstring says how); the provider's words are copied exactly from the thread.


BEDROCK_MIXED = "messages.2.content: Conversation blocks and tool result blocks cannot be provided in the same turn."


def test_bedrock_converse_refuses_tool_results_and_text_in_one_turn():
    """langchain-ai/langchain-aws#141 (ChatBedrockConverse): ToolMessage(tool_call_id="1") followed by
    ("human", "Who was Bethoveen ?") is sent as one Converse user turn holding the toolResult and the
    text; Bedrock answered "messages.2.content: Conversation blocks and tool result blocks cannot be
    provided in the same turn." (the same words, messages.2.content, in BerriAI/litellm#6053 for
    claude-3-opus through Converse, and messages.4.content in strands-agents/harness-sdk#1223 for
    llama4-maverick). The inspector said Bedrock would accept it; the results must stand alone."""
    body = {"modelId": "anthropic.claude-3-sonnet-20240229-v1:0",
            "system": [{"text": "You are a helpful assistant with tools."}],
            "messages": [
                {"role": "user", "content": [{"text": "Tell me who was Mozart ?"}]},
                {"role": "assistant", "content": [
                    {"toolUse": {"toolUseId": "1", "name": "rag_query", "input": {"query": "Who was Mozart"}}}]},
                {"role": "user", "content": [
                    {"toolResult": {"toolUseId": "1", "content": [{"text": "You correctly called the tool"}]}},
                    {"text": "Who was Bethoveen ?"}]},
            ]}
    report = inspector.check(body)
    assert (report.dialect, report.target) == ("bedrock", "bedrock") and not report.ok
    (f,) = errors(report)
    assert (f.code, f.message_index) == ("TC016", 2)
    assert f.provider_error == BEDROCK_MIXED
    # Text before the results is the same refusal.
    before = json.loads(json.dumps(body))
    before["messages"][2]["content"].reverse()
    assert [(g.code, g.provider_error) for g in errors(inspector.check(before))] == [("TC016", BEDROCK_MIXED)]
    # Repair keeps the results alone and moves the text to a user message of its own, after a
    # marked assistant message (two user messages in a row are refused too).
    fixed = inspector.repair(body)
    msgs = fixed.data["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user", "assistant", "user"]
    assert [list(b) for b in msgs[2]["content"]] == [["toolResult"]]
    assert msgs[4]["content"] == [{"text": "Who was Bethoveen ?"}]
    assert fixed.report.ok and inspector.check(fixed.output).ok
    assert [c.action for c in fixed.report.changes] == ["insert_bridge", "keep_results_alone", "separate_results"]
    assert inspector.repair(fixed.output).report.changes == []


def test_bedrock_tool_result_alone_with_a_cache_point_stays_accepted():
    """A cachePoint marker is not a conversation block: results with one are still alone."""
    msgs = [{"role": "user", "content": [{"text": "hi"}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "ok"}]}},
                                         {"cachePoint": {"type": "default"}}]},
            {"role": "assistant", "content": [{"text": "done"}]}]
    assert inspector.check({"messages": msgs}).findings == []


def test_mistral_refuses_a_user_message_right_after_a_tool_result():
    """mistralai/mistral-vibe#578: the user declined a bash call ("Skipped: User cancelled the
    operation.") and asked again; Mistral Small 4 answered "Unexpected role 'user' after role
    'tool'" (payload_summary: 5 messages, has_tools). Mistral's API uses the same words
    (datapizza-labs/datapizza-ai#98: {"object":"error","message":"Unexpected role 'user' after role
    'tool'","type":"invalid_request_message_order","param":null,"code":"3230"})."""
    msgs = [{"role": "system", "content": "You are a coding agent."},
            {"role": "user", "content": "Run the unit test using the .venv virtual environment and unittest"},
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "Ab3dE6gH9", "type": "function",
                 "function": {"name": "bash", "arguments": "{\"command\": \".venv/bin/python -m unittest\"}"}}]},
            {"role": "tool", "tool_call_id": "Ab3dE6gH9", "name": "bash", "content": "Skipped: User cancelled the operation."},
            {"role": "user", "content": "Run the unit test using the .venv virtual environment and unittest"}]
    report = inspector.check(msgs, target="mistral")
    (f,) = errors(report)
    assert (f.code, f.message_index, f.provider_error) == ("TC019", 4, "Unexpected role 'user' after role 'tool'")
    assert inspector.check(msgs, target="openai").ok  # OpenAI takes this order
    fixed = inspector.repair(msgs, target="mistral")
    assert [m["role"] for m in fixed.data] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert fixed.report.ok


def test_mistral_refuses_a_tool_message_without_its_call():
    """mistralai/mistral-inference#135 (corpus: broken/mistral-inference-issue135_orphan_tool_message.json):
    [user, tool] without the assistant tool_calls message; Mistral answered "Unexpected role
    RoleEnum.tool" (HTTP 400, invalid_request_error). Today's API words the same break "Unexpected
    role 'tool' after role 'user'"."""
    report = inspector.check(corpus("broken/mistral-inference-issue135_orphan_tool_message.json"), target="mistral")
    found = {(f.code, f.message_index): f.provider_error for f in errors(report)}
    assert found[("TC019", 1)] == "Unexpected role 'tool' after role 'user'"
    assert ("TC002", 1) in found
    # No id to quote: no invented text with an empty id in it.
    assert found[("TC002", 1)] is None


def test_gemini_refuses_a_history_that_starts_with_a_function_call():
    """google-gemini/gemini-cli#11814 (loop detection call): "400 Bad request Please ensure that
    function call turn comes immediately after a user turn or after a function response turn. when
    the sent conversation history starts with a function call"."""
    contents = [{"role": "model", "parts": [{"functionCall": {"name": "read_file", "args": {"path": "src/app.ts"}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "read_file", "response": {"output": "..."}}}]},
                {"role": "model", "parts": [{"text": "The file exports one function."}]},
                {"role": "user", "parts": [{"text": "Is the conversation stuck in a loop?"}]}]
    report = inspector.check({"contents": contents})
    (f,) = errors(report)
    assert (f.code, f.message_index) == ("TC019", 0)
    assert f.provider_error == ("Please ensure that function call turn comes immediately after a user turn or after "
                                "a function response turn.")


def test_gemini_refuses_a_function_response_with_no_call_before_it():
    """BerriAI/litellm#26755: the generateContent payload starts with a user functionResponse
    (id call_001, read_file) that no model turn called; Gemini answered "Please ensure that function
    response turn comes immediately after a function call turn." (the thread's third content is cut
    off; it is rebuilt as the response to call_002)."""
    contents = [
        {"role": "user", "parts": [{"functionResponse": {"id": "call_001", "name": "read_file",
                                                         "response": {"output": "def hello():\n    return \"world\""}}}]},
        {"role": "model", "parts": [{"text": "Analyzing the code...", "thought": True},
                                    {"functionCall": {"id": "call_002", "name": "read_file",
                                                      "args": {"file_path": "src/main.py"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "call_002", "name": "read_file",
                                                         "response": {"output": "print('main')"}}}]},
    ]
    report = inspector.check({"contents": contents})
    (f,) = errors(report)
    assert (f.code, f.message_index, f.tool_call_id) == ("TC002", 0, "call_001")
    assert f.provider_error == "Please ensure that function response turn comes immediately after a function call turn."


def test_openai_refuses_a_history_cut_to_start_on_a_tool_message():
    """run-llama/llama_index#16214 (fixing #13715 and #10493): ChatMemoryBuffer dropped an assistant
    tool_calls message but kept its tool message, right after the system prompt; OpenAI answered
    {'message': "Invalid parameter: messages with role 'tool' must be a response to a preceeding
    message with 'tool_calls'.", 'type': 'invalid_request_error', 'param': 'messages.[1].role'}."""
    msgs = [{"role": "system", "content": "You are a helpful assistant."},
            {"role": "tool", "tool_call_id": "call_Q1w2E3r4T5y6U7i8O9p0", "content": "{\"rows\": 3}"},
            {"role": "assistant", "content": "There are 3 rows."},
            {"role": "user", "content": "And in the other table?"}]
    report = inspector.check(msgs)
    (f,) = errors(report)
    assert (f.code, f.message_index) == ("TC002", 1)
    assert f.provider_error == ("Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                                "message with 'tool_calls'.")
    from inspector.provider_errors import parse_error

    pasted = parse_error("Error code: 400 - {'error': {'message': \"Invalid parameter: messages with role 'tool' must "
                         "be a response to a preceeding message with 'tool_calls'.\", 'type': "
                         "'invalid_request_error', 'param': 'messages.[1].role', 'code': None}}")
    assert pasted.indexes == [1] and "TC002" in pasted.rules


def test_anthropic_refuses_a_text_reply_to_a_tool_use():
    """anthropics/anthropic-sdk-typescript#653: continuing with a plain user message after a
    tool_use (used for structured output) without its tool_result; Anthropic answered "Did not find
    1 tool_result block(s) at the beginning of this message. Messages following tool_use blocks must
    begin with a matching number of tool_result blocks." (an older wording of TC001's text)."""
    body = {"model": "claude-3-5-sonnet-20241022", "max_tokens": 1024, "messages": [
        {"role": "user", "content": "Extract the invoice fields from this email: ..."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV",
                                           "name": "record_invoice", "input": {"number": "INV-2041"}}]},
        {"role": "user", "content": "Thanks. Now summarise the email."}]}
    report = inspector.check(body)
    (f,) = errors(report)
    assert (f.code, f.message_index, f.tool_call_id) == ("TC001", 1, "toolu_01D7FLrfh4GYq7yT1ULFeyMV")
    from inspector.provider_errors import parse_error

    pasted = parse_error("Did not find 1 tool_result block(s) at the beginning of this message. Messages following "
                         "tool_use blocks must begin with a matching number of tool_result blocks.")
    assert "TC001" in pasted.rules and pasted.provider == "anthropic"


def test_anthropic_refuses_a_tool_result_inside_an_assistant_message():
    """tghamm/Anthropic.SDK#128: IChatClient kept the tool's output in the same assistant message as
    the call and the commentary ([tool_use, tool_result, text]); the next request was refused with
    "`tool_result` blocks can only be in `user` messages" (the API prefixes the message index:
    "messages.1: ..."). The inspector used to call it a result before its call (TC004) with the
    wrong provider text; repair did not settle."""
    body = {"model": "claude-sonnet-4-20250514", "max_tokens": 1024, "messages": [
        {"role": "user", "content": "Which files are in the project folder?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_01Xq7bRt2", "name": "list_files", "input": {"path": "."}},
            {"type": "tool_result", "tool_use_id": "toolu_01Xq7bRt2", "content": "README.md\nsrc/"},
            {"type": "text", "text": "The folder holds README.md and src/."}]},
        {"role": "user", "content": "Open the README."}]}
    report = inspector.check(body)
    found = {f.code: f for f in errors(report)}
    assert found["TC019"].message_index == 1
    assert found["TC019"].provider_error == "messages.1: `tool_result` blocks can only be in `user` messages"
    fixed = inspector.repair(body)
    msgs = fixed.data["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user", "assistant", "user"]
    assert [b["type"] for b in msgs[1]["content"]] == ["tool_use"]
    assert [b["type"] for b in msgs[2]["content"]] == ["tool_result"]
    assert msgs[3]["content"] == [{"type": "text", "text": "The folder holds README.md and src/."}]
    assert fixed.report.ok and inspector.check(fixed.output).ok
    # One change per message the assistant message became (the log names each, issue 34).
    assert [(c.action, c.index_before, c.index_after) for c in fixed.report.changes] == [
        ("results_to_user", 1, 1), ("results_to_user", 1, 2), ("results_to_user", 1, 3)]
    assert inspector.repair(fixed.output).report.changes == []


def test_gemini_refuses_a_content_mixing_function_calls_and_responses():
    """googleapis/python-genai#81: the SDK documentation's example passed a text part, a
    function_call part and a function_response part as `contents`, which the SDK sends as one user
    content; Gemini answered 400 INVALID_ARGUMENT "Please ensure that function call turn contains at
    least one function_call part which can not be mixed with function_response parts." (the same
    words in rabuckley/GeminiDotnet#7)."""
    contents = [{"role": "user", "parts": [
        {"text": "What is the weather like in Boston?"},
        {"functionCall": {"name": "get_current_weather", "args": {"location": "Boston"}}},
        {"functionResponse": {"name": "get_current_weather", "response": {"weather": "super nice"}}}]}]
    report = inspector.check({"contents": contents})
    mixed = [f for f in errors(report) if f.code == "TC019"]
    assert [(f.message_index, f.provider_error) for f in mixed] == [
        (0, ("Please ensure that function call turn contains at least one function_call part which can not be mixed "
            "with function_response parts."))]
    # The same parts as three contents (what the thread found to work) are accepted, and that is
    # what repair makes of it.
    fine = [{"role": "user", "parts": [contents[0]["parts"][0]]}, {"role": "model", "parts": [contents[0]["parts"][1]]},
            {"role": "user", "parts": [contents[0]["parts"][2]]}]
    assert inspector.check({"contents": fine}).ok
    fixed = inspector.repair({"contents": contents})
    assert fixed.data["contents"] == fine
    assert {c.action for c in fixed.report.changes} == {"split_call_turn"} and fixed.report.quarantine == []
    assert inspector.repair(fixed.output).report.changes == []
