"""Issue 28 (verdicts still wrong on fresh shapes): each shape with the words the provider (or the
SDK in front of it) answers with. Every test here failed before the change it names."""

from __future__ import annotations

import json

from support.claude_code_logs import REWOUND
from support.claude_code_logs import entry as _entry
from support.claude_code_logs import jsonl as _jsonl
from support.claude_code_logs import tool_use as _bash

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
    # The AI SDK's openai provider sends the Responses API (vercel/eve#236's words).
    msgs[1]["content"][0]["providerOptions"] = {"openai": {"itemId": "fc_68a0"}}
    r = inspector.check(msgs)
    assert r.target == "responses" and "itemId" in r.target_reason
    assert r.findings[0].provider_error == "No tool output found for function call call_rmB7."


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
    # ... unless a later step of the same message follows it: that step comes after a tool message
    # holding only the approval response, so the call goes out without a result.
    stepped = _ui("approval-responded", True, [])
    stepped[1]["parts"] += [{"type": "step-start"}, {"type": "text", "text": "Deleted."}]
    r = inspector.check(stepped, target="anthropic")
    assert codes(r) == [("TC001", "error", 1)] and r.findings[0].provider_error.startswith("messages.1: `tool_use` ids")


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
        {"type": "local_shell_call_output", "call_id": "call_l1", "output": "a.py"},
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


# --- Claude Code: compaction, and a pending call on an abandoned branch ------------------------------

# Auto-compaction while the last call's result was still to come: the boundary starts a new chain
# (parentUuid null, logicalParentUuid into the old one), the summary follows, then the kept result.
COMPACTED = [
    _entry("u1", None, "user", "Set up the project."),
    _entry("a1", "u1", "assistant", _bash("toolu_01A"), "msg_1"),
    _entry("u2", "a1", "user", [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "a.py"}]),
    _entry("a2", "u2", "assistant", _bash("toolu_01B"), "msg_2"),
    {"type": "system", "subtype": "compact_boundary", "uuid": "c1", "parentUuid": None, "logicalParentUuid": "a2",
     "sessionId": "s1", "timestamp": "2026-07-23T10:05:00Z", "content": "Conversation compacted",
     "compactMetadata": {"trigger": "auto", "preTokens": 155025}},
    _entry("cs1", "c1", "user", [{"type": "text", "text": "This session is being continued from a previous "
                                                         "conversation that ran out of context."}],
           isCompactSummary=True, isVisibleInTranscriptOnly=True),
    _entry("u3", "cs1", "user", [{"type": "tool_result", "tool_use_id": "toolu_01B", "content": "b.py"}]),
    _entry("a3", "u3", "assistant", [{"type": "text", "text": "Done."}], "msg_3"),
]


def test_claude_code_compaction_follows_parent_uuid_a_kept_result_is_an_orphan_on_the_apis_turn():
    r = inspector.check(_jsonl(COMPACTED))
    assert r.dialect == "claude-code" and r.transcripts == 2
    assert r.transcript_labels[1] == "before the compaction at entry 4"
    main = [f for f in r.findings if f.transcript == 0]
    # What the API receives: the summary and what follows, one user turn (messages.0), then "Done.".
    assert [(f.code, f.severity, f.message_index) for f in main] == [("TC002", "error", 0)]
    assert main[0].provider_error == (
        "messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01B. Each `tool_result` "
        "block must have a corresponding `tool_use` block in the previous message.")
    # The conversation before the compaction is a transcript of its own, as a rewound branch is.
    doc = inspector.load(_jsonl(COMPACTED))
    from inspector import dialects
    msgs = dialects.get("claude-code").read(doc.transcripts[0].items, (), [])
    assert [len(m.raw["content"]) for m in msgs] == [2, 1]  # summary + kept result, then "Done."
    assert msgs[0].raw["content"][0]["text"].startswith("This session is being continued")
    assert [e["uuid"] for e in doc.transcripts[1].items] == ["u1", "a1", "u2", "a2"]
    # Repair takes the orphan out and keeps the chain linked; the result checks clean.
    fixed = inspector.repair(_jsonl(COMPACTED))
    # The orphan taken out, and the entry after it re-pointed past it (issue 34: the log names both).
    assert fixed.report.ok and [(c.code, c.action) for c in fixed.report.changes] == [
        ("TC002", "quarantine_orphan"), ("TC002", "rewrite_entry")]
    again = inspector.check(fixed.output)
    assert not [f for f in again.findings if f.severity in ("error", "warning")]


def test_a_pending_call_on_a_rewound_branch_or_before_a_compaction_is_a_note_not_pending():
    rewound = REWOUND
    r = inspector.check(_jsonl(rewound))
    (f,) = [f for f in r.findings if f.transcript == 1]
    assert (f.code, f.severity, f.tool_call_id) == ("TC022", "info", "toolu_old")
    assert "abandoned branch" in f.text and "not pending" in f.text and f.hint.startswith("Nothing to do")
    (f,) = [f for f in inspector.check(_jsonl(COMPACTED)).findings if f.transcript == 1]
    assert (f.code, f.severity, f.tool_call_id) == ("TC022", "info", "toolu_01B") and "compaction" in f.text
    # The main conversation's own pending call is still pending.
    r = inspector.check(_jsonl(rewound[:4]))
    assert [(f.code, f.severity) for f in r.findings] == [("TC022", "warning")]


# --- Rules that moved (provider drift; docs/provider-evidence.md, "Rules that moved") -----------------

def test_gemini_3_unsigned_current_turn_call_is_an_error_in_geminis_words_with_its_date():
    contents = [
        {"role": "user", "parts": [{"text": "List the repo, then read the README."}]},
        {"role": "model", "parts": [{"functionCall": {"name": "Bash", "args": {"command": "ls"}},
                                     "thoughtSignature": "CpoBAdHtim9"}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "Bash", "response": {"output": "README.md"}}}]},
        {"role": "model", "parts": [{"functionCall": {"name": "Read", "args": {"path": "README.md"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "Read", "response": {"output": "# hi"}}}]},
    ]
    (f,) = [f for f in inspector.check({"contents": contents}).findings if f.code == "TC021"]
    assert (f.severity, f.message_index) == ("error", 3)
    assert f.provider_error.startswith("Function call is missing a thought_signature in functionCall parts.")
    assert "2026-01-30" in f.text


def test_deepseek_v4_tool_turn_without_reasoning_content_is_an_error_elsewhere_reasoning_is_ignored():
    call = {"id": "call_00_a", "type": "function", "function": {"name": "read", "arguments": "{}"}}
    msgs = [{"role": "user", "content": "read a, then b"},
            {"role": "assistant", "content": "", "reasoning_content": "read a first", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_00_a", "content": "A"},
            {"role": "assistant", "content": "", "tool_calls": [{**call, "id": "call_01_b"}]},
            {"role": "tool", "tool_call_id": "call_01_b", "content": "B"},
            {"role": "assistant", "content": "Done."}]
    r = inspector.check({"model": "deepseek-v4-flash", "messages": msgs})
    assert r.target == "deepseek"
    (f,) = [f for f in r.findings if f.code == "TC021"]
    assert (f.severity, f.message_index) == ("error", 3)
    assert f.provider_error == "The `reasoning_content` in the thinking mode must be passed back to the API."
    msgs[3]["reasoning_content"] = "now b"
    r = inspector.check({"model": "deepseek-v4-flash", "messages": msgs})
    assert [(f.code, f.severity) for f in r.findings] == [("TC021", "info")]


def test_anthropic_unsigned_or_misplaced_thinking_is_refused_with_the_date_of_the_evidence():
    unsigned = [{"role": "user", "content": "go"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "plan"},
                                                  {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "1"}]}]
    (f,) = [f for f in inspector.check(unsigned).findings if f.code == "TC021"]
    assert f.severity == "error" and "2026-07" in f.text
    text_first = [{"role": "user", "content": "go"},
                  {"role": "assistant", "content": [{"type": "text", "text": "Sure."},
                                                    {"type": "thinking", "thinking": "plan", "signature": "EqQB"}]},
                  {"role": "user", "content": "and?"}]
    (f,) = [f for f in inspector.check(text_first).findings if f.code == "TC021"]
    assert f.severity == "error" and f.provider_error == (
        "messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be "
        "thinking or redacted_thinking. Found text.")
    # Interleaved thinking: more thinking blocks after a first one are fine.
    interleaved = [{"role": "user", "content": "go"},
                   {"role": "assistant", "content": [
                       {"type": "thinking", "thinking": "a", "signature": "EqQB"},
                       {"type": "text", "text": "Checking."},
                       {"type": "thinking", "thinking": "b", "signature": "EqQC"},
                       {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "1"}]}]
    assert inspector.check(interleaved).findings == []


def test_partial_json_arguments_stay_a_warning_and_say_who_refuses_them():
    msgs = [{"role": "user", "content": "write it"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "write_file", "arguments": '{"path": "a.md", "con'}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "error: bad arguments"}]
    (f,) = [f for f in inspector.check(msgs).findings if f.code == "TC011"]
    assert f.severity == "warning" and "vLLM" in f.text and "2026-09" in f.text
