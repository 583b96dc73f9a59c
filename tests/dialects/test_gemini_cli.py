"""Gemini CLI sessions (``~/.gemini/tmp/<hash>/chats/session-*.jsonl``, the older ``.json``, and
``/chat save`` checkpoints), issue 32.

The shapes are Gemini CLI's own: google-gemini/gemini-cli
``packages/core/src/services/chatRecordingTypes.ts`` (``ConversationRecord {sessionId, projectHash,
startTime, lastUpdated, messages, kind}``, ``MessageRecord {id, timestamp, content, type:
'user'|'info'|'error'|'warning'|'gemini', toolCalls?: ToolCallRecord[] {id, name, args, result?:
PartListUnion, status, timestamp}, model?, tokens?}``, ``RewindRecord {$rewindTo}``,
``MetadataUpdateRecord {$set}``, ``PartialMetadataRecord``); the replay of a JSONL file (a record
written again replaces the one before it in place; ``$rewindTo`` drops its target and every later
record) as ``chatRecordingService.ts`` does it; a ``/chat save`` checkpoint is ``Content[]``
(``packages/core/src/core/logger.ts``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "gemini_cli_session_rewound.jsonl"
META = {"sessionId": "3f1c9a52-6d1e-4b0a-9d43-0f2b7c1e5a10", "projectHash": "9c2d0e7a41b5",
        "startTime": "2026-05-02T10:00:00.000Z", "lastUpdated": "2026-05-02T10:00:00.000Z"}


def rec(rid, t, content, **more):
    return {"id": rid, "timestamp": "2026-05-02T10:00:01.000Z", "type": t, "content": content, **more}


def tool_call(cid, name="read_file", result=None, status="success"):
    d = {"id": cid, "name": name, "args": {"absolute_path": "/p/a.py"}, "status": status,
         "timestamp": "2026-05-02T10:00:02.000Z"}
    if result is not None:
        d["result"] = [{"functionResponse": {"id": cid, "name": name, "response": {"output": result}}}]
    return d


def jsonl(rows) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def test_a_record_written_again_with_its_results_answers_its_calls():
    rows = [META, rec("u1", "user", [{"text": "read a.py"}]),
            rec("g1", "gemini", "", toolCalls=[tool_call("c1", status="executing")]),
            rec("g1", "gemini", "", toolCalls=[tool_call("c1", result="x = 1")]),
            rec("g2", "gemini", "x is 1.")]
    report = inspector.check(jsonl(rows))
    assert report.dialect == "gemini-cli" and report.target == "gemini" and report.ok
    assert [f.code for f in report.findings] == []


def test_info_records_are_not_sent_and_a_missing_result_is_what_gemini_refuses():
    rows = [META, rec("i1", "info", "Logged in."), rec("u1", "user", "read a.py"),
            rec("g1", "gemini", "", toolCalls=[tool_call("c1", result="x"), tool_call("c2", name="glob",
                                                                                     status="cancelled")]),
            rec("u2", "user", "go on")]
    report = inspector.check(jsonl(rows))
    errors = [(f.code, f.tool_call_id) for f in report.findings if f.severity == "error"]
    assert errors == [("TC001", "c2")]
    assert "function response parts is equal to the number of function call parts" in report.findings[0].provider_error


def test_a_rewound_branch_is_a_transcript_of_its_own_never_sent_again():
    report = inspector.check(SAMPLE.read_text())
    assert report.transcripts == 2
    doc = inspector.load(SAMPLE.read_text())
    branch = doc.transcripts[1]
    assert "abandoned branch" in branch.label and "never_sent" in branch.extra
    # the rewound prompt and the call it started are in the branch, not in what is sent now
    assert "Fix it and run the tests." in json.dumps(branch.items)
    main_msgs = inspector.dialects.get("gemini-cli").read(doc.transcripts[0].items, (), [])
    assert "Fix it and run the tests." not in json.dumps([m.raw for m in main_msgs])
    notes = [f for f in report.findings if f.transcript == 1]
    assert [f.code for f in notes] == ["TC022"] and "abandoned branch" in notes[0].text


def test_the_older_json_file_reads_alike():
    rows = [rec("u1", "user", "read a.py"), rec("g1", "gemini", "", toolCalls=[tool_call("c1", status="error")]),
            rec("u2", "user", "go on")]
    whole = {**META, "messages": rows}
    a, b = inspector.check(json.dumps(whole)), inspector.check(jsonl([META, *rows]))
    assert a.dialect == b.dialect == "gemini-cli"
    assert [(f.code, f.tool_call_id) for f in a.findings] == [(f.code, f.tool_call_id) for f in b.findings] == [
        ("TC001", "c1")]


def test_a_chat_save_checkpoint_is_read_as_the_gemini_contents_it_is():
    checkpoint = [{"role": "user", "parts": [{"text": "read a.py"}]},
                  {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "read_file",
                                                                "args": {"absolute_path": "/p/a.py"}}}]},
                  {"role": "user", "parts": [{"text": "never mind"}]}]
    report = inspector.check(json.dumps(checkpoint))
    assert report.dialect == "gemini" and [f.code for f in report.findings if f.severity == "error"] == ["TC001"]
    report = inspector.check(json.dumps({"history": checkpoint, "authType": "oauth-personal"}))
    assert report.dialect == "gemini" and not report.ok


def test_repair_appends_the_record_again_with_its_results_as_gemini_cli_does():
    data = SAMPLE.read_bytes()
    fixed = inspector.repair(data)
    before, after = data.decode().splitlines(), fixed.output.decode().splitlines()
    assert after[: len(before)] == before and len(after) == len(before) + 1
    again = json.loads(after[-1])
    assert again["id"] == "g4" and [tc.get("status") for tc in again["toolCalls"]] == ["success", "cancelled"]
    assert again["toolCalls"][1]["result"][0]["functionResponse"]["id"] == "glob-1746180462-1"
    assert inspector.check(fixed.output).ok
    # The change log says where the result is: the appended record, the input's record as it was (issue 34).
    [change] = fixed.report.changes
    assert (change.action, change.index_before, change.index_after) == ("insert_placeholder", None, len(before))
    g4 = max(k for k, line in enumerate(before) if json.loads(line).get("id") == "g4")  # its latest line
    assert f"appended to the session as entry #{len(before)}" in change.text
    assert f"entry #{g4} stays as it was" in change.text


def test_a_join_the_session_cannot_hold_is_not_logged():
    """A model record of text, then one whose function call follows no user turn (TC019): the
    contents they send would be joined, but a session keeps its records apart; the log lists
    nothing and the report says the log was left as it was."""
    rows = [META, rec("u1", "user", "hi"), rec("g1", "gemini", "one"),
            rec("g2", "gemini", "", toolCalls=[tool_call("c1", result="x")]), rec("g3", "gemini", "done")]
    assert "TC019" in {f.code for f in inspector.check(jsonl(rows)).findings}
    fixed = inspector.repair(jsonl(rows))
    assert fixed.report.changes == []
    assert fixed.output.decode() == jsonl(rows)
    assert any("cannot be written in this log's format" in u for u in fixed.report.unfixed), fixed.report.unfixed


def test_a_repair_the_session_file_cannot_hold_is_refused_plainly():
    """A result whose id names no call: repair would relink it (rewrite the part), which an append
    of the record cannot express."""
    call = tool_call("c1", result="x")
    call["result"][0]["functionResponse"]["id"] = "c2"
    rows = [META, rec("u1", "user", "read a.py"), rec("g1", "gemini", "", toolCalls=[call]), rec("u2", "user", "go on")]
    assert {f.code for f in inspector.check(jsonl(rows)).findings} == {"TC001", "TC002"}
    with pytest.raises(inspector.InputError, match="repair of a Gemini CLI session can only add the results of tool "
                                                   "calls that have none.*rewrite a part of a message"):
        inspector.repair(jsonl(rows))
