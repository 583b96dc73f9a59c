"""TC025: text (or any other block) after the tool_use blocks of an assistant message. Anthropic
rejects it with its TC001 words even when the next message holds every result; repair moves the
blocks before the first call, keeping their order (rules.md TC025)."""

from __future__ import annotations

import inspector

TAIL = [
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": [
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Paris"}},
        {"type": "text", "text": "One moment."},
        {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Tokyo"}},
        {"type": "text", "text": "Checking both."}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "18C"},
                                 {"type": "tool_result", "tool_use_id": "toolu_b", "content": "25C"}]},
    {"role": "assistant", "content": "18C and 25C."},
]


def test_text_after_tool_use_is_a_warning_since_the_live_test_of_2026_09():
    # rules.md note 2 (issue 31): five Claude models took [tool_use, tool_use, text] on 2026-09-20;
    # server-tool blocks after a client tool_use stay an error (tests/rules/test_provider_drift.py).
    report = inspector.check(TAIL)
    (f,) = [f for f in report.findings if f.code == "TC025"]
    assert (f.message_index, f.severity) == (1, "warning")
    assert "would accept" in inspector.verdict(report)


def test_repair_moves_the_blocks_before_the_first_call_losslessly():
    fixed = inspector.repair(TAIL)
    blocks = fixed.data[1]["content"]
    assert [b.get("text") or b["id"] for b in blocks] == ["Let me look.", "One moment.", "Checking both.", "toolu_a", "toolu_b"]
    assert [c.action for c in fixed.report.changes] == ["move_blocks_before_calls"]
    assert fixed.report.quarantine == [] and inspector.check(fixed.data).findings == []
    assert inspector.repair(fixed.output).output == fixed.output  # idempotent


def test_calls_last_is_fine():
    ok = [TAIL[0], {"role": "assistant", "content": [TAIL[1]["content"][0], TAIL[1]["content"][1], TAIL[1]["content"][3]]},
          TAIL[2], TAIL[3]]
    assert inspector.check(ok).findings == []


def test_bedrock_warns_and_keeps_a_cache_point_last():
    msgs = [
        {"role": "user", "content": [{"text": "weather?"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "get_weather", "input": {}}},
                                          {"text": "Checking."}, {"cachePoint": {"type": "default"}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "18C"}]}}]},
    ]
    (f,) = [f for f in inspector.check(msgs, dialect="bedrock").findings if f.code == "TC025"]
    assert f.severity == "warning" and f.message_index == 1
    fixed = inspector.repair(msgs, dialect="bedrock")
    assert [next(iter(b)) for b in fixed.data[1]["content"]] == ["text", "toolUse", "cachePoint"]
    cached = [msgs[0], {"role": "assistant", "content": [msgs[1]["content"][1], msgs[1]["content"][0],
                                                         msgs[1]["content"][2]]}, msgs[2]]
    assert not [f for f in inspector.check(cached, dialect="bedrock").findings if f.code == "TC025"]
