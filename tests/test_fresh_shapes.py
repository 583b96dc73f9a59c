"""Issue 28 (verdicts still wrong on fresh shapes): each shape with the words the provider (or the
SDK in front of it) answers with. Every test here failed before the change it names."""

from __future__ import annotations

import json

import inspector


def codes(report):
    return [(f.code, f.severity, f.message_index) for f in report.findings]


# --- An approval is not a result (Vercel AI SDK 6 tool approval) ----------------------------------
# vercel/ai ed857f50 (2026-08-22): convert-to-language-model-prompt.ts exempts every call with a
# tool-approval-response from MissingToolResultsError and strips the response before the provider
# sees it; collect-tool-approvals.ts runs approved calls (or writes execution-denied results) only
# when the response is in the last message; convert-to-model-messages.ts writes an
# execution-denied tool-result for a denied UI approval, and none for an approved one.

def _approval_history(approved: bool) -> list[dict]:
    return [
        {"role": "user", "content": "Delete the staging bucket."},
        {"role": "assistant", "content": [
            {"type": "tool-call", "toolCallId": "call_rmB7", "toolName": "deleteBucket", "input": {"name": "staging"}},
            {"type": "tool-approval-request", "approvalId": "appr_1", "toolCallId": "call_rmB7"}]},
        {"role": "tool", "content": [{"type": "tool-approval-response", "approvalId": "appr_1", "approved": approved}]},
    ]


def test_vercel_approved_call_that_never_ran_then_a_user_turn_is_tc001_in_the_providers_words():
    msgs = _approval_history(True) + [{"role": "user", "content": "Did it work?"}]
    r = inspector.check(msgs, target="anthropic")
    assert codes(r) == [("TC001", "error", 1)]
    f = r.findings[0]
    assert "approved" in f.text and "never ran" in f.text
    # Not the SDK's MissingToolResultsError (the SDK lets an approved call through): the provider's.
    assert f.provider_error.startswith("messages.1: `tool_use` ids were found without `tool_result` blocks "
                                       "immediately after: call_rmB7.")
    r = inspector.check(msgs, target="openai")
    assert r.findings[0].provider_error == (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        "'tool_call_id'. The following tool_call_ids did not have response messages: call_rmB7")
    fixed = inspector.repair(json.dumps(msgs), target="anthropic")
    assert fixed.report.ok


def test_vercel_approval_response_ending_the_list_is_pending_the_sdk_runs_it_next():
    for approved in (True, False):
        r = inspector.check(_approval_history(approved))
        assert codes(r) == [("TC022", "warning", 1)], approved
        assert "the last" in r.findings[0].text


def test_vercel_denied_approval_is_answered_only_by_the_result_the_sdk_writes():
    denied = _approval_history(False)
    after = [{"role": "user", "content": "OK, keep it."}]
    r = inspector.check(denied + after)
    assert codes(r) == [("TC001", "error", 1)] and "denied" in r.findings[0].text
    # convertToModelMessages / generateText write an execution-denied result beside the response.
    denied[2]["content"].append({"type": "tool-result", "toolCallId": "call_rmB7", "toolName": "deleteBucket",
                                 "output": {"type": "execution-denied", "reason": "not now"}})
    assert inspector.check(denied + after).findings == []


def _ui(state: str, approved: bool | None, then: list[dict]) -> list[dict]:
    part = {"type": "tool-deleteBucket", "toolCallId": "call_rmB7", "state": state, "input": {"name": "staging"},
            "approval": {"id": "appr_1"} if approved is None else {"id": "appr_1", "approved": approved}}
    return [{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Delete the staging bucket."}]},
            {"id": "a1", "role": "assistant", "parts": [{"type": "step-start"}, part]}, *then]


def test_vercel_ui_approval_responded_approved_then_a_user_turn_is_tc001_in_the_providers_words():
    later = [{"id": "u2", "role": "user", "parts": [{"type": "text", "text": "Did it work?"}]}]
    r = inspector.check(_ui("approval-responded", True, later), target="openai")
    assert r.dialect == "vercel-ui"
    assert codes(r) == [("TC001", "error", 1)]
    assert r.findings[0].provider_error.startswith("An assistant message with 'tool_calls' must be followed by tool")
    # Denied: convertToModelMessages writes an execution-denied result, so the call is answered.
    assert inspector.check(_ui("approval-responded", False, later)).findings == []
    # Still waiting for the user (no approval response): the SDK's own MissingToolResultsError.
    r = inspector.check(_ui("approval-requested", None, later))
    assert r.findings[0].provider_error == "Tool result is missing for tool call call_rmB7."
    # Approved and ending the list: the SDK runs it next, a pending call.
    assert codes(inspector.check(_ui("approval-responded", True, []))) == [("TC022", "warning", 1)]


# --- TC026: a call of a tool declared by type is declared ----------------------------------------

def _tc026(body):
    return [(f.message_index, f.text) for f in inspector.check(body).findings if f.code == "TC026"]


def test_responses_builtin_tools_declared_by_type_are_declared():
    body = {"model": "gpt-5.1", "tools": [
        {"type": "shell"}, {"type": "local_shell"}, {"type": "apply_patch"},
        {"type": "computer_use_preview", "display_width": 1024, "display_height": 768, "environment": "browser"},
        {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp",
         "require_approval": "always"},
        {"type": "web_search"}, {"type": "file_search", "vector_store_ids": ["vs_1"]},
        {"type": "code_interpreter", "container": {"type": "auto"}}, {"type": "image_generation"},
        {"type": "custom", "name": "code_exec"}], "input": [
        {"role": "user", "content": "Look around."},
        {"type": "shell_call", "call_id": "call_s1", "action": {"commands": ["ls"]}, "status": "completed"},
        {"type": "shell_call_output", "call_id": "call_s1", "output": [{"stdout": "a.py", "stderr": ""}]},
        {"type": "computer_call", "call_id": "call_c1", "action": {"type": "screenshot"}, "status": "completed"},
        {"type": "computer_call_output", "call_id": "call_c1",
         "output": {"type": "computer_screenshot", "image_url": "data:image/png;base64,AA"}},
        {"type": "local_shell_call", "id": "lsh_1", "call_id": "call_l1",
         "action": {"type": "exec", "command": ["ls"], "env": {}}, "status": "completed"},
        {"type": "local_shell_call_output", "id": "call_l1", "output": "a.py"},
        {"type": "apply_patch_call", "call_id": "call_p1", "operation": {"type": "update_file", "path": "a.py", "diff": ""},
         "status": "completed"},
        {"type": "apply_patch_call_output", "call_id": "call_p1", "status": "completed"},
        {"type": "mcp_approval_request", "id": "mcpr_1", "server_label": "deepwiki", "name": "ask_question",
         "arguments": "{}"},
        {"type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": True},
        {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "x"}},
        {"type": "custom_tool_call", "call_id": "call_x1", "name": "code_exec", "input": "print(1)"},
        {"type": "custom_tool_call_output", "call_id": "call_x1", "output": "1"}]}
    assert _tc026(body) == []
    # Without its declaration a built-in call is still undeclared.
    body["tools"] = [t for t in body["tools"] if t["type"] != "shell"]
    assert [i for i, _ in _tc026(body)] == [1]


def test_anthropic_versioned_tools_without_a_name_and_chat_custom_tools_are_declared():
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "tools": [
        {"type": "text_editor_20250728"}, {"type": "bash_20250124"}, {"type": "memory_20250818"}], "messages": [
        {"role": "user", "content": "Fix a.py"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "str_replace_based_edit_tool", "input": {"command": "view"}},
            {"type": "tool_use", "id": "toolu_2", "name": "bash", "input": {"command": "ls"}},
            {"type": "tool_use", "id": "toolu_3", "name": "memory", "input": {"command": "view"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{k}", "content": "ok"}
                                     for k in (1, 2, 3)]}]}
    assert _tc026(body) == []
    chat = {"model": "gpt-5", "tools": [{"type": "custom", "custom": {"name": "grammar_tool"}}], "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_g1", "type": "custom", "custom": {"name": "grammar_tool", "input": "x"}}]},
        {"role": "tool", "tool_call_id": "call_g1", "content": "ok"}]}
    assert _tc026(chat) == []


def test_gemini_computer_use_predefined_functions_are_declared():
    body = {"tools": [{"googleSearch": {}}, {"codeExecution": {}},
                      {"computerUse": {"environment": "ENVIRONMENT_BROWSER", "excludedPredefinedFunctions": ["drag_and_drop"]}}],
            "contents": [
                {"role": "user", "parts": [{"text": "Open the docs."}]},
                {"role": "model", "parts": [{"functionCall": {"name": "click_at", "args": {"x": 10, "y": 20}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "click_at", "response": {"url": "x"}}}]},
                {"role": "model", "parts": [{"functionCall": {"name": "drag_and_drop", "args": {}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "drag_and_drop", "response": {}}}]}]}
    assert [i for i, _ in _tc026(body)] == [3]  # the excluded one only


# --- The target the history names ------------------------------------------------------------------

LANGCHAIN_CLAUDE = [
    {"type": "human", "data": {"content": "Weather in Oslo?"}},
    {"type": "ai", "data": {"content": "", "response_metadata": {"model_name": "claude-sonnet-4-5", "stop_reason": "tool_use"},
                            "tool_calls": [{"name": "get_weather", "args": {"city": "Oslo"}, "id": "toolu_01Oslo",
                                            "type": "tool_call"}]}},
    {"type": "human", "data": {"content": "Never mind."}},
]


def test_langchain_response_metadata_model_name_picks_anthropic_and_says_why(tmp_path):
    r = inspector.check(LANGCHAIN_CLAUDE)
    assert r.target == "anthropic" and "response_metadata.model_name" in r.target_reason
    assert r.findings[0].provider_error.startswith(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Oslo.")
    path = tmp_path / "history.json"
    path.write_text(json.dumps(LANGCHAIN_CLAUDE))
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "inspector", "check", str(path)], capture_output=True, text=True)
    assert p.returncode == 1
    assert ("target anthropic (the history's AI messages name model 'claude-sonnet-4-5' "
            "(response_metadata.model_name))") in p.stdout.splitlines()[-1]
    # LangChain 1.x names the integration's provider too; it wins over a gateway's model name.
    lc1 = json.loads(json.dumps(LANGCHAIN_CLAUDE))
    lc1[1]["data"]["response_metadata"] = {"model_provider": "bedrock_converse", "model_name": "claude-sonnet-4-5"}
    assert inspector.check(lc1).target == "bedrock"
    # An explicit target still wins.
    assert inspector.check(LANGCHAIN_CLAUDE, target="openai").target == "openai"


def test_vercel_provider_metadata_and_agui_forwarded_model_pick_the_target():
    model_msgs = [{"role": "user", "content": "hi"},
                  {"role": "assistant", "content": [
                      {"type": "reasoning", "text": "...", "providerOptions": {"anthropic": {"signature": "EqQB"}}},
                      {"type": "tool-call", "toolCallId": "toolu_01A", "toolName": "w", "input": {}}]},
                  {"role": "user", "content": "hm"}]
    r = inspector.check(model_msgs)
    assert r.target == "anthropic" and "'anthropic' provider metadata" in r.target_reason
    ui = [{"id": "u", "role": "user", "parts": [{"type": "text", "text": "hi"}]},
          {"id": "a", "role": "assistant", "parts": [
              {"type": "tool-w", "toolCallId": "c1", "state": "output-available", "input": {}, "output": 1,
               "callProviderMetadata": {"google": {"thoughtSignature": "CpoB"}}}]}]
    assert inspector.check(ui).target == "gemini"
    run_input = {"threadId": "t1", "runId": "r1", "forwardedProps": {"model": "mistral-large-latest"}, "messages": [
        {"id": "1", "role": "user", "content": "hi"},
        {"id": "2", "role": "assistant", "toolCalls": [
            {"id": "abcDEF123", "type": "function", "function": {"name": "w", "arguments": "{}"}}]},
        {"id": "3", "role": "tool", "toolCallId": "abcDEF123", "content": "x"},
        {"id": "4", "role": "user", "content": "thanks"}]}
    r = inspector.check(run_input)
    assert (r.dialect, r.target) == ("ag-ui", "mistral") and "forwardedProps.model" in r.target_reason
    assert [f.provider_error for f in r.findings if f.code == "TC019"] == ["Unexpected role 'user' after role 'tool'"]
