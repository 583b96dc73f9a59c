"""GitHub Copilot CLI sessions (``~/.copilot/session-state/<id>/events.jsonl``), issue 32.

The shapes are Copilot's own: github/copilot-sdk at 4ee18599f6881b124a0ca8e6355066bded53681e,
``nodejs/src/generated/session-events.ts`` (generated from ``session-events.schema.json``): every
event ``{id, timestamp, parentId, ephemeral?, type, data}``; ``session.start`` ``{sessionId,
version, producer, copilotVersion, startTime, selectedModel?, context{cwd}}``; ``user.message``
``{content, transformedContent?, attachments}``; ``assistant.message`` ``{messageId, content,
toolRequests[{toolCallId, name, arguments}], parentToolCallId?}``; ``tool.execution_start``
``{toolCallId, toolName, arguments}``; ``tool.execution_complete`` ``{toolCallId, success,
result{content} | error{message, code}}`` ("result.content: the concise tool result text sent to
the LLM"); ``session.model_change`` ``{newModel}``; ``session.compaction_complete``
``{success, summaryContent}``; ``abort`` ``{reason}``; ``system.message`` ``{content, role}``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector
from inspector.agent_sessions import sessions

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "copilot_session_aborted_call.jsonl"


def ev(eid: str, t: str, data: dict, parent: str | None = None) -> dict:
    return {"type": t, "data": data, "id": eid, "timestamp": "2026-03-04T02:31:00Z", "parentId": parent}


START = ev("start-1", "session.start", {"sessionId": "copilot-session", "version": 1, "producer": "copilot-agent",
                                        "copilotVersion": "0.0.369", "startTime": "2026-03-04T02:30:58.550Z",
                                        "selectedModel": "gpt-5", "context": {"cwd": "/work/project"}})
ASK = ev("user-1", "user.message", {"content": "patch the app"}, "start-1")
CALLS = ev("assistant-1", "assistant.message", {"messageId": "m1", "content": "I will update the app.", "toolRequests": [
    {"toolCallId": "toolu-bash", "name": "bash", "arguments": "{\"command\":\"printf hello\"}"},
    {"toolCallId": "toolu-edit", "name": "edit_file", "arguments": {"path": "src/app.ts", "oldString": "old",
                                                                    "newString": "new"}}]}, "user-1")


def done(cid: str, **data) -> dict:
    return ev(f"complete-{cid}", "tool.execution_complete", {"toolCallId": cid, **data}, "x")


def jsonl(rows) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def test_a_session_reads_as_the_chat_history_copilot_sends():
    rows = [START, ASK, CALLS, ev("s1", "tool.execution_start", {"toolCallId": "toolu-bash", "toolName": "bash"}),
            done("toolu-bash", success=True, result={"content": "hello"}),
            done("toolu-edit", success=False, error={"message": "Permission denied", "code": "denied"}),
            ev("a2", "assistant.message", {"messageId": "m2", "content": "Done."})]
    report = inspector.check(jsonl(rows))
    assert report.dialect == "copilot" and report.target == "openai" and report.ok and report.findings == []
    assert "gpt-5" in report.target_reason


def test_a_call_the_user_aborted_is_what_the_provider_refuses():
    report = inspector.check(SAMPLE.read_text())
    assert report.dialect == "copilot"
    assert [(f.code, f.tool_call_id) for f in report.findings if f.severity == "error"] == [("TC001", "toolu-edit")]


def test_a_non_openai_model_keeps_the_chat_completions_default():
    """Copilot's API translates Claude's history itself (not as LiteLLM does): no gateway is
    assumed, and the model is not taken as the target."""
    start = {**START, "data": {**START["data"], "selectedModel": "claude-sonnet-4.5"}}
    report = inspector.check(jsonl([start, ASK, CALLS, ev("u2", "user.message", {"content": "go on"})]))
    assert report.target == "openai" and not report.ok


def test_sub_agent_events_and_compacted_history_are_not_the_session_s_messages():
    sub = ev("sub-1", "assistant.message", {"messageId": "s", "content": "", "parentToolCallId": "toolu-task",
                                            "toolRequests": [{"toolCallId": "toolu-sub", "name": "view",
                                                              "arguments": {}}]})
    compacted = ev("c1", "session.compaction_complete", {"success": True, "summaryContent": "The app was patched."})
    report = inspector.check(jsonl([START, ASK, CALLS, sub, compacted, ev("u2", "user.message", {"content": "thanks"})]))
    assert report.ok, [f.text for f in report.findings]


def test_repair_appends_a_failed_completion_after_the_call():
    fixed = inspector.repair(SAMPLE.read_bytes())
    before, after = SAMPLE.read_text().splitlines(), fixed.output.decode().splitlines()
    assert len(after) == len(before) + 1
    added = [json.loads(line) for line in after if line not in before]
    assert len(added) == 1 and added[0]["type"] == "tool.execution_complete"
    assert added[0]["data"]["toolCallId"] == "toolu-edit" and added[0]["data"]["success"] is False
    assert inspector.check(fixed.output).ok


def test_a_repair_the_session_cannot_hold_is_refused_plainly():
    orphan = done("toolu-nobody", success=True, result={"content": "x"})
    rows = [START, ASK, CALLS, done("toolu-bash", success=True, result={"content": "a"}),
            done("toolu-edit", success=True, result={"content": "b"}), orphan]
    assert "TC002" in {f.code for f in inspector.check(jsonl(rows)).findings}
    with pytest.raises(inspector.InputError, match="repair of a Copilot CLI session can only add a result"):
        inspector.repair(jsonl(rows))


def test_sessions_lists_copilot_sessions(tmp_path):
    folder = tmp_path / ".copilot" / "session-state" / "copilot-session"
    folder.mkdir(parents=True)
    (folder / "events.jsonl").write_text(SAMPLE.read_text())
    [row] = sessions(agent="copilot", root=tmp_path)
    assert row.agent == "copilot" and row.dialect == "copilot" and row.verdict == "would reject"
    assert row.project == "/home/dev/project"
