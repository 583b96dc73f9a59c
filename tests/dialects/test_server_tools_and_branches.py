"""Blind spots of the known dialects (issue 11, part 3), each on a transcript a real user has."""

from __future__ import annotations

import json

from support.claude_code_logs import REWOUND, entry, jsonl, tool_use

import inspector


def codes(data, target=None, **kw):
    return [f.code for f in inspector.check(data, target, **kw).findings if f.severity == "error"]


# --- Anthropic server tools and MCP connector blocks ----------------------------------------------

SEARCH = [
    {"role": "user", "content": "What happened in Paris today?"},
    {"role": "assistant", "content": [
        {"type": "text", "text": "Let me search."},
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "Paris news"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [
            {"type": "web_search_result", "url": "https://example.com", "title": "News", "encrypted_content": "x"}]},
        {"type": "text", "text": "Here is the news."}]},
    {"role": "user", "content": "Thanks. And the MCP tool?"},
    {"role": "assistant", "content": [
        {"type": "mcp_tool_use", "id": "mcptoolu_01", "name": "echo", "server_name": "demo", "input": {"x": 1}},
        {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_01", "is_error": False,
         "content": [{"type": "text", "text": "1"}]}]},
    {"role": "user", "content": "Good."},
]


def test_server_tool_and_mcp_results_answer_inside_the_assistant_message():
    report = inspector.check({"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": SEARCH})
    assert report.dialect == "anthropic" and report.ok, [f.text for f in report.findings]


def test_a_request_with_only_mcp_blocks_is_still_anthropic():
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": SEARCH[2:]}
    assert inspector.check(body).dialect == "anthropic"


def test_a_server_tool_result_without_its_call_is_the_api_s_error():
    lost = json.loads(json.dumps(SEARCH))
    del lost[1]["content"][1]  # the server_tool_use block is gone, its result stays
    (f,) = [f for f in inspector.check(lost).findings if f.severity == "error"]
    assert f.code == "TC002" and f.message_index == 1
    assert f.provider_error == (
        "messages.1.content.1: unexpected `tool_use_id` found in `web_search_tool_result` blocks: srvtoolu_01. "
        "Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it.")


# --- Responses item_reference ----------------------------------------------------------------------

def test_an_output_after_an_item_reference_is_not_an_orphan():
    items = [
        {"role": "user", "content": "Weather in Paris?"},
        {"type": "item_reference", "id": "fc_stored_1"},
        {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
        {"role": "user", "content": "Thanks"},
    ]
    assert codes({"model": "gpt-5", "input": items}) == []
    # Without the reference the same output answers nothing in the input.
    assert codes({"model": "gpt-5", "input": [items[0], *items[2:]]}) == ["TC002"]


def test_a_reference_between_a_call_and_its_output_keeps_them_together():
    items = [
        {"role": "user", "content": "Weather?"},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{}"},
        {"type": "item_reference", "id": "rs_1"},
        {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
    ]
    assert codes({"model": "gpt-5", "input": items}) == []


# --- detection that honours the target the user names ----------------------------------------------

def test_a_plain_array_is_read_as_anthropic_when_the_user_names_anthropic():
    plain = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert inspector.check(plain).dialect == "openai-chat"
    report = inspector.check(plain, "anthropic")
    assert report.dialect == "anthropic" and report.target == "anthropic" and report.ok


def test_a_repaired_anthropic_file_that_lost_its_results_is_checked_again_for_anthropic():
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"},
            {"role": "user", "content": [{"type": "text", "text": "and?"}]}]
    assert inspector.check(msgs, "anthropic").dialect == "anthropic"


def test_an_openai_file_with_tool_messages_still_does_not_fit_anthropic():
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c", "content": "x"}]
    # Since issue 31 Anthropic takes it through a gateway (LiteLLM's translation), said so; a target
    # no gateway reaches with this format is still refused.
    report = inspector.check(msgs, "anthropic")
    assert report.dialect == "openai-chat" and "through a gateway" in report.target_reason
    try:
        inspector.check(msgs, "responses")
    except inspector.InputError as exc:
        assert "does not fit the openai-chat dialect" in str(exc)
    else:
        raise AssertionError("expected the target to be refused")


# --- Claude Code: rewinds and sub-agents ----------------------------------------------------------

def test_a_rewound_branch_is_not_read_into_the_conversation_but_offered_on_its_own():
    report = inspector.check(jsonl(REWOUND))
    assert report.dialect == "claude-code" and report.transcripts == 2
    assert [f.code for f in report.findings if f.transcript == 0] == []
    assert report.transcript_labels[1].startswith("abandoned branch")
    doc = inspector.load(jsonl(REWOUND))
    assert [e["uuid"] for e in doc.transcripts[1].items] == ["u1", "a1", "u2", "a2"]


def test_sidechain_entries_are_their_own_transcript():
    log = [*REWOUND[:2],
           entry("s1", "a1", "user", "Search the code.", isSidechain=True, agentId="agent7"),
           entry("s2", "s1", "assistant", tool_use("toolu_side"), "m9", isSidechain=True, agentId="agent7"),
           entry("s3", "s2", "user", [{"type": "tool_result", "tool_use_id": "toolu_side", "content": "x"}],
                 isSidechain=True, agentId="agent7"),
           entry("u2", "a1", "user", "Thanks.")]
    report = inspector.check(jsonl(log))
    assert report.transcripts == 2 and report.transcript_labels[1].startswith("sub-agent agent7")
    assert report.ok
    doc = inspector.load(jsonl(log))
    assert [e["uuid"] for e in doc.transcripts[1].items] == ["s1", "s2", "s3"]


def test_a_log_without_forks_keeps_every_entry():
    straight = [REWOUND[0], REWOUND[1], REWOUND[4], REWOUND[5]]
    report = inspector.check(jsonl(straight))
    assert report.transcripts == 1 and report.ok
