"""Issue 15: the quarantine holds what was removed exactly as it was. An Anthropic message whose
blocks are all taken out (orphan ``tool_result`` blocks, say) goes into the quarantine whole,
with its other fields (``x_trace``), not as a bare block. Hypothesis over random transcripts:
every marker of the input (on a message or on a block) is in the output or in the quarantine,
and a quarantined whole message is the input's message, equal in every field."""

from __future__ import annotations

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import inspector


def _msg(role: str, blocks: list, k: int) -> dict:
    return {"role": role, "content": blocks, "x_trace": f"env{k}"}


@st.composite
def transcripts(draw):
    """user / assistant turns with tool_use and tool_result blocks, some results orphaned, some
    calls unanswered, every message and block carrying a unique marker."""
    msgs: list[dict] = [_msg("user", [{"type": "text", "text": "start", "x_b": "blk0"}], 0)]
    n_ids = 0
    marker = 1
    for _ in range(draw(st.integers(1, 5))):
        calls = []
        for _ in range(draw(st.integers(0, 2))):
            n_ids += 1
            calls.append({"type": "tool_use", "id": f"toolu_{n_ids:04d}", "name": "read", "input": {},
                          "x_b": f"blk{marker}"})
            marker += 1
        msgs.append(_msg("assistant", [{"type": "text", "text": "ok", "x_b": f"blk{marker}"}] + calls, len(msgs)))
        marker += 1
        results = []
        for c in calls:
            if draw(st.booleans()):  # answered, or not
                results.append({"type": "tool_result", "tool_use_id": c["id"], "content": "r", "x_b": f"blk{marker}"})
                marker += 1
        for _ in range(draw(st.integers(0, 2))):  # orphans: ids no call has
            n_ids += 1
            results.append({"type": "tool_result", "tool_use_id": f"toolu_gone{n_ids}", "content": "o",
                            "x_b": f"blk{marker}"})
            marker += 1
        if draw(st.booleans()):
            results.append({"type": "text", "text": "and", "x_b": f"blk{marker}"})
            marker += 1
        if results:
            msgs.append(_msg("user", results, len(msgs)))
        if draw(st.booleans()) or not results:
            msgs.append(_msg("user", [{"type": "text", "text": "next", "x_b": f"blk{marker}"}], len(msgs)))
            marker += 1
    return msgs


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transcripts(), st.sampled_from(["quarantine", "note"]))
def test_nothing_removed_loses_its_envelope(msgs, orphan):
    before = orjson.dumps(msgs)
    result = inspector.repair(msgs, "anthropic", {"orphan": orphan})
    assert orjson.dumps(msgs) == before  # the input is not mutated
    out = orjson.dumps(result.data)
    kept = orjson.dumps([q.content for q in result.report.quarantine])
    for m in msgs:
        for marker in [m["x_trace"], *(b["x_b"] for b in m["content"])]:
            assert f'"{marker}"'.encode() in out or f'"{marker}"'.encode() in kept, (marker, result.report.quarantine)
    for q in result.report.quarantine:
        if type(q.content) is dict and "role" in q.content:
            assert q.content == msgs[q.index]  # a whole message, exactly as it was


def test_an_only_orphan_block_takes_its_message_whole():
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
            {"role": "user", "x_trace": "t1", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "r"}]},
            {"role": "user", "content": "again"}]
    [q] = inspector.repair(msgs, "anthropic").report.quarantine
    assert (q.index, q.code, q.content) == (2, "TC002", msgs[2])


def test_an_orphan_beside_other_blocks_is_quarantined_as_the_block():
    block = {"type": "tool_result", "tool_use_id": "toolu_x", "content": "r"}
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
            {"role": "user", "x_trace": "t1", "content": [block, {"type": "text", "text": "more"}]}]
    result = inspector.repair(msgs, "anthropic")
    [q] = result.report.quarantine
    assert q.content == block
    assert result.data[2] == {"role": "user", "x_trace": "t1", "content": [{"type": "text", "text": "more"}]}


# --- a field of a message joined with a placeholder stays in the output (issue 34) ----------------

def _tool_use(cid: str) -> dict:
    return {"toolUse": {"toolUseId": cid, "name": "lookup", "input": {}}}


def _tool_result(cid: str) -> dict:
    return {"toolResult": {"toolUseId": cid, "content": [{"text": "ok"}]}}


def test_a_bedrock_user_message_keeps_its_unknown_field_when_a_placeholder_is_joined_in():
    """Before: the placeholder's message came first in the join, so the user message's
    ``x_trace`` went to the report only, and the output had lost it."""
    for messages in (
        [{"role": "user", "content": [{"text": "q"}]}, {"role": "assistant", "content": [_tool_use("t1")]},
         {"role": "user", "content": [{"text": "and?"}], "x_trace": "abc"}],
        [{"role": "user", "content": [{"text": "q"}]}, {"role": "assistant", "content": [_tool_use("t1"), _tool_use("t2")]},
         {"role": "user", "content": [_tool_result("t1")]}, {"role": "user", "content": [_tool_result("t2")], "x_trace": "abc"}],
    ):
        body = {"modelId": "anthropic.claude-3-5-sonnet", "messages": messages}
        fixed = inspector.repair(body, "bedrock")
        assert fixed.report.ok, fixed.report.unfixed
        held = [m for m in fixed.data["messages"] if m.get("x_trace") == "abc"]
        assert len(held) == 1 and held[0]["role"] == "user"
        assert not [q for q in fixed.report.quarantine if "x_trace" in q.content]
        after = inspector.check(fixed.output, target="bedrock")
        assert after.dialect == "bedrock" and after.ok


def test_a_field_two_joined_messages_hold_with_other_values_keeps_the_first_and_quarantines_the_other():
    messages = [{"role": "user", "content": [{"text": "q"}]},
                {"role": "assistant", "content": [_tool_use("t1"), _tool_use("t2"), _tool_use("t3")]},
                {"role": "user", "content": [_tool_result("t2")], "x_trace": "abc"},
                {"role": "user", "content": [_tool_result("t3")], "x_trace": "def"}]
    fixed = inspector.repair({"modelId": "m", "messages": messages}, "bedrock")
    assert [m.get("x_trace") for m in fixed.data["messages"] if "x_trace" in m] == ["abc"]
    [q] = [q for q in fixed.report.quarantine if "x_trace" in q.content]
    assert q.content == {"x_trace": "def"} and q.index == 3
