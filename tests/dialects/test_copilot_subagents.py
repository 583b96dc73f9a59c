"""Copilot CLI sub-agents (issue 32): each sub-agent's conversation is a transcript of its own, as
Claude Code's sidechains and Codex's sub-agent threads are.

The event shape is Copilot's own, from github/copilot-sdk at commit cc0438d (2026-08-21):
``nodejs/src/generated/session-events.ts`` (every event's envelope ``agentId``: "Sub-agent
instance identifier. Absent for events from the root/main agent and session-level events";
``data.parentToolCallId`` on ``assistant.message``, ``tool.execution_start`` and
``tool.execution_complete``: "Tool call ID of the parent tool invocation when this event
originates from a sub-agent", deprecated; ``SubagentStartedData {toolCallId, agentName,
agentDisplayName, agentDescription, model?}``) and ``docs/features/custom-agents.md`` ("Sub-agent-
originated session events share the parent session stream and include envelope-level
``agentId``").
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector.checking import check_plain


def _event(eid: str, t: str, data: dict, parent: str | None, agent: str | None = None) -> dict:
    e = {"type": t, "data": data, "id": eid, "timestamp": f"2026-09-01T10:00:{int(eid[1:]):02d}.000Z",
         "parentId": parent}
    return {**e, "agentId": agent} if agent else e


def session(shape: str) -> list[dict]:
    """A session whose ``explore`` sub-agent (started by the parent's ``task`` call) leaves its
    ``grep`` call unanswered and replies anyway; the session's own conversation is whole.
    ``shape``: ``agentId`` (the envelope, current) or ``parentToolCallId`` (the data, before)."""
    def sub(eid, t, data, parent):
        if shape == "agentId":
            return _event(eid, t, data, parent, "explore-1")
        return _event(eid, t, {**data, "parentToolCallId": "toolu-task"}, parent)

    return [
        _event("e0", "session.start", {"sessionId": "5b0c", "version": 1, "producer": "copilot-agent",
                                       "copilotVersion": "0.0.400", "selectedModel": "gpt-5",
                                       "context": {"cwd": "/work/shop"}}, None),
        _event("e1", "user.message", {"content": "Where is the price computed?"}, "e0"),
        _event("e2", "assistant.message", {"messageId": "m1", "content": "", "toolRequests": [
            {"toolCallId": "toolu-task", "name": "task", "arguments": {"agent_type": "explore",
                                                                       "prompt": "Find the price code."}}]}, "e1"),
        _event("e3", "tool.execution_start", {"toolCallId": "toolu-task", "toolName": "task"}, "e2"),
        _event("e4", "subagent.started", {"toolCallId": "toolu-task", "agentName": "explore",
                                          "agentDisplayName": "Explore", "agentDescription": "Reads code"}, "e3",
               "explore-1" if shape == "agentId" else None),
        sub("e5", "assistant.message", {"messageId": "m2", "content": "", "toolRequests": [
            {"toolCallId": "toolu-grep", "name": "grep", "arguments": {"pattern": "price"}}]}, "e4"),
        sub("e6", "tool.execution_start", {"toolCallId": "toolu-grep", "toolName": "grep"}, "e5"),
        sub("e7", "assistant.message", {"messageId": "m3", "content": "It is in shop/price.py."}, "e6"),
        _event("e8", "subagent.completed", {"toolCallId": "toolu-task", "agentName": "explore",
                                            "agentDisplayName": "Explore"}, "e7"),
        _event("e9", "tool.execution_complete", {"toolCallId": "toolu-task", "success": True,
                                                 "result": {"content": "It is in shop/price.py."}}, "e8"),
        _event("e10", "assistant.message", {"messageId": "m4", "content": "In shop/price.py."}, "e9"),
    ]


@pytest.mark.parametrize("shape", ["agentId", "parentToolCallId"])
def test_a_sub_agents_conversation_is_a_transcript_of_its_own(shape):
    doc = inspector.load(session(shape))
    report, analyses = check_plain(doc)
    assert report["transcripts"] == 2 and report["transcript_dialects"] == ["copilot", "copilot"]
    assert report["transcript_labels"][1] == (
        "sub-agent explore (explore-1)" if shape == "agentId" else "sub-agent explore (toolu-task)")
    main, sub = analyses
    assert [m.role for m in main.msgs] == ["user", "assistant", "tool", "assistant"]
    assert [m.role for m in sub.msgs] == ["assistant", "assistant"]
    by = {k: [(f["code"], f["tool_call_id"]) for f in report["findings"] if f["transcript"] == k and
              f["severity"] == "error"] for k in (0, 1)}
    assert by == {0: [], 1: [("TC001", "toolu-grep")]}  # the break is the sub-agent's, not the session's


def test_a_session_without_sub_agents_reads_as_before():
    plain = [e for e in session("agentId") if "agentId" not in e]
    report, _ = check_plain(inspector.load(plain))
    assert report["transcripts"] == 1 and report["findings"] == []


def test_check_scan_and_repair_read_the_sub_agent_alike(tmp_path):
    from inspector.scan import sources
    from inspector.scan.work import ScanOptions, scan_part

    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in session("agentId")))
    p = subprocess.run([sys.executable, "-m", "inspector", "check", str(path), "--format", "json"],
                       capture_output=True, text=True)
    assert p.returncode == 1
    report = json.loads(p.stdout)
    rows = [r for part in sources.plan([str(path)]) for r in scan_part(part, ScanOptions(), 0)[0]]
    assert [(r["key"], r["errors"], r["messages"]) for r in rows] == [
        (report["transcript_labels"][k], sum(f["severity"] == "error" and f["transcript"] == k
                                             for f in report["findings"]), report["transcript_messages"][k])
        for k in range(2)]
    assert [r["errors"] for r in rows] == [0, 1]
    fixed = inspector.repair(str(path))  # as for a Claude Code sidechain: a view is not rewritten, and it says so
    assert not fixed.report.ok and "sub-agent explore (explore-1) is left as it is" in fixed.report.unfixed[0]
