"""Reading a pasted provider error: indexes, ids and rules (protocol-research.md §1.3, §3.3, §10.1)."""

from __future__ import annotations

import inspector
from inspector.checking import check_document
from inspector.provider_errors import locate, parse_error

OPENAI_ORPHAN = (
    "Error code: 400 - {'error': {'message': \"Invalid parameter: messages with role 'tool' must be a "
    "response to a preceeding message with 'tool_calls'.\", 'type': 'invalid_request_error', "
    "'param': 'messages.[3].role', 'code': None}}"
)
OPENAI_MISSING = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. The following tool_call_ids did not have response messages: "
    "call_RTlWVuE5MqEb3WZJgTIl7Rsb"
)
OPENAI_DUP = (
    "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_gmd4tanjXcwOxfPawOnDmq6R', "
    "in messages[7] and messages[8]."
)
ANTHROPIC_MISSING = (
    "messages.22: `tool_use` ids were found without `tool_result` blocks immediately after: "
    "toolu_01HqfLWiAKQLsniF2fBGF2KD, toolu_01SJzDkeAZER935cpGFptTNk. Each `tool_use` block must have a "
    "corresponding `tool_result` block in the next message."
)
ANTHROPIC_ORPHAN = (
    "messages.48.content.1: unexpected `tool_use_id` found in `tool_result` blocks: "
    "toolu_019ETtGZEhTBXgWPVsdVnXMh. Each `tool_result` block must have a corresponding `tool_use` "
    "block in the previous message."
)


def test_openai_param_index_and_orphan_rules():
    e = parse_error(OPENAI_ORPHAN)
    assert e.indexes == [3]
    assert e.rules == ["TC002", "TC003", "TC004"]
    assert e.provider == "openai"


def test_openai_unanswered_ids_list():
    e = parse_error(OPENAI_MISSING)
    assert e.ids == ["call_RTlWVuE5MqEb3WZJgTIl7Rsb"]
    assert "TC001" in e.rules
    assert e.indexes == []


def test_openai_duplicate_names_both_messages_and_the_id():
    e = parse_error(OPENAI_DUP)
    assert e.indexes == [7, 8]
    assert e.ids == ["call_gmd4tanjXcwOxfPawOnDmq6R"]
    assert e.rules == ["TC005"]


def test_anthropic_missing_lists_every_id_and_the_index():
    e = parse_error(ANTHROPIC_MISSING)
    assert e.indexes == [22]
    assert e.ids == ["toolu_01HqfLWiAKQLsniF2fBGF2KD", "toolu_01SJzDkeAZER935cpGFptTNk"]
    assert e.provider == "anthropic"
    assert e.rules[0] == "TC001"


def test_anthropic_orphan_index_is_the_message_not_the_block():
    e = parse_error(ANTHROPIC_ORPHAN)
    assert e.indexes == [48]
    assert e.ids == ["toolu_019ETtGZEhTBXgWPVsdVnXMh"]
    assert "TC002" in e.rules


def test_other_spellings_of_an_index():
    assert parse_error("Invalid 'input[95].call_id': string too long.").indexes == [95]
    assert parse_error("Missing `reasoning_content` field in the assistant message at message index 5.").indexes == [5]
    assert parse_error("Invalid 'messages[2].tool_calls': empty array.").rules == ["TC007"]
    assert parse_error("Unexpected tool call id abc123XYZ in tool results").ids == ["abc123XYZ"]
    assert parse_error("No tool call found for function call output with call_id call_Tn1.").ids == ["call_Tn1"]


def test_text_without_anything_known():
    e = parse_error("something went wrong")
    assert e.empty
    assert parse_error("").empty


def _broken():
    return [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
            {"id": "call_b", "type": "function", "function": {"name": "g", "arguments": "{}"}},
        ]},
        {"role": "tool", "tool_call_id": "call_a", "content": "ok"},
        {"role": "user", "content": "and?"},
        {"role": "tool", "tool_call_id": "call_zzz", "content": "stray"},
    ]


def test_locate_points_at_the_call_named_by_id_with_its_findings():
    report, (a,) = check_document(inspector.load(_broken()))
    text = report.findings[0].provider_error if report.findings[0].code == "TC001" else None
    assert text is not None
    hits = locate(parse_error(text), a.msgs, report.findings)
    assert [h.index for h in hits] == [1]
    assert [f.code for f in hits[0].findings] == ["TC001"]


def test_locate_uses_the_rule_when_the_text_names_no_message():
    report, (a,) = check_document(inspector.load(_broken()))
    hits = locate(parse_error("Messages with role 'tool' must be a response to a preceding message"), a.msgs, report.findings)
    assert [h.index for h in hits] == [4]
    assert hits[0].findings[0].code == "TC002"


def test_locate_ignores_indexes_beyond_the_transcript():
    report, (a,) = check_document(inspector.load(_broken()))
    hits = locate(parse_error("messages.[40].role: must be a response to a preceeding message"), a.msgs, report.findings)
    # index 40 does not exist, so the rule leads to the orphan instead
    assert [h.index for h in hits] == [4]
