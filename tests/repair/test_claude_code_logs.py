"""Repair of Claude Code session logs (issue 11), on logs shaped as Claude Code writes them: one
JSON Lines entry per content block of a reply, one per tool result, each with its uuid,
parentUuid, cwd, sessionId, version, timestamp and (for results) the tool's own toolUseResult.

What a user relies on: the output is a session log again (one entry per line, the same entries,
untouched lines byte for byte); an entry repair adds has a uuid of its own and the entry after it
points at it; an entry repair takes out is in the quarantine whole and its child points past it;
the output checks clean, repairing it again changes nothing, and no string of the input is lost.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.dialect_asserts import strings

import inspector

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "anthropic"
CTX = {"isSidechain": False, "userType": "external", "cwd": "/home/dev/shop", "sessionId": "7f3c2a1e",
       "version": "1.0.98", "gitBranch": "main"}


def user(uuid, parent, content, ts, **extra):
    return {"parentUuid": parent, **CTX, "type": "user", "message": {"role": "user", "content": content},
            "uuid": uuid, "timestamp": f"2025-09-30T10:00:{ts:02d}.000Z", **extra}


def asst(uuid, parent, mid, blocks, ts, **extra):
    message = {"id": mid, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
               "content": blocks, "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 4, "output_tokens": 12}}
    return {"parentUuid": parent, **CTX, "message": message, "requestId": "req_" + mid, "type": "assistant",
            "uuid": uuid, "timestamp": f"2025-09-30T10:00:{ts:02d}.000Z", **extra}


def bash(cid, command):
    return {"type": "tool_use", "id": cid, "name": "Bash", "input": {"command": command, "description": command}}


def result(cid, out, uuid, parent, ts):
    return user(uuid, parent, [{"tool_use_id": cid, "type": "tool_result", "content": out, "is_error": False}], ts,
                toolUseResult={"stdout": out, "stderr": "", "interrupted": False, "isImage": False})


def text(uuid, parent, mid, words, ts):
    return asst(uuid, parent, mid, [{"type": "text", "text": words}], ts)


def jsonl(entries) -> bytes:
    """As Claude Code writes a log: compact JSON, one entry per line."""
    return "".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n" for e in entries).encode()


def repaired(data: bytes, **options):
    fixed = inspector.repair(data, options=options or None)
    after = inspector.check(fixed.output)
    assert after.dialect == "claude-code"
    assert after.ok, [f.text for f in after.findings if f.severity == "error"]
    assert fixed.report.ok, fixed.report.unfixed
    lost = strings([json.loads(x) for x in data.splitlines() if x.strip()]) - (
        strings(fixed.data) | strings(fixed.report.model_dump()))
    assert not lost, lost
    again = inspector.repair(fixed.output, options=options or None)
    assert again.report.changes == [] and again.output == fixed.output
    return fixed, [json.loads(x) for x in fixed.output.splitlines()]


def chain_ok(entries) -> None:
    """Every parentUuid names an entry of the log, and no two entries share a uuid."""
    uuids = [e["uuid"] for e in entries if "uuid" in e]
    assert len(set(uuids)) == len(uuids)
    for e in entries:
        if e.get("parentUuid") is not None:
            assert e["parentUuid"] in uuids, e


# The person ran the tests; the model read two files at once (Claude Code writes the second call's
# entry after the first call's result), then the person pressed Esc before the second result came
# and typed something else.
INTERRUPTED = [
    {"type": "summary", "summary": "Fix the failing cart test", "leafUuid": "e10"},
    user("e1", None, "Run the tests and fix what fails.", 0),
    text("e2", "e1", "msg_01A", "Running them.", 2),
    asst("e3", "e2", "msg_01A", [bash("toolu_01", "pytest -q")], 2),
    result("toolu_01", "1 failed: test_total", "e4", "e3", 9),
    asst("e5", "e4", "msg_01B", [bash("toolu_02", "cat test_cart.py")], 11),
    result("toolu_02", "def test_total(): ...", "e6", "e5", 11),
    asst("e7", "e6", "msg_01B", [bash("toolu_03", "cat cart.py")], 12),
    user("e8", "e7", [{"type": "text", "text": "[Request interrupted by user for tool use]"}], 13),
    user("e9", "e8", "Just show me the diff instead.", 20),
    text("e10", "e9", "msg_01C", "Here is the diff.", 22),
]


def test_an_interrupted_call_gets_a_placeholder_entry_after_it():
    data = jsonl(INTERRUPTED)
    before = inspector.check(data)
    assert [(f.code, f.message_index) for f in before.findings if f.severity == "error"] == [("TC001", 3)]
    fixed, out = repaired(data)
    assert [e.get("uuid") for e in out[:8]] == [None, "e1", "e2", "e3", "e4", "e5", "e6", "e7"]
    new = out[8]
    assert new["type"] == "user" and new["uuid"] not in {e.get("uuid") for e in INTERRUPTED}
    assert new["parentUuid"] == "e7" and out[9]["uuid"] == "e8" and out[9]["parentUuid"] == new["uuid"]
    block = new["message"]["content"][0]
    assert block["type"] == "tool_result" and block["tool_use_id"] == "toolu_03" and block["is_error"] is True
    # It is written where and when the entry before it was.
    assert {k: new[k] for k in CTX} == CTX and new["timestamp"] == INTERRUPTED[7]["timestamp"]
    assert "toolUseResult" not in new and "requestId" not in new
    # Every other line is the input's own, byte for byte, in the input's order, but for the
    # parentUuid of the entry that now follows the new one.
    lines, written = data.splitlines(), fixed.output.splitlines()
    assert written[:8] == lines[:8] and written[10:] == lines[9:]
    assert {**out[9], "parentUuid": "e7"} == INTERRUPTED[8]
    assert fixed.report.quarantine == []
    # The log lists both: the new entry, and the entry whose parentUuid now points at it (issue 34).
    change, chain = fixed.report.changes
    assert change.action == "insert_placeholder" and change.index_after == 8
    assert (chain.action, chain.index_before, chain.index_after) == ("rewrite_entry", 8, 9)
    chain_ok(out)


def test_a_stray_result_entry_goes_to_the_quarantine_whole_and_its_child_points_past_it():
    log = [user("e1", None, "List the files.", 1),
           asst("e2", "e1", "msg_A", [bash("toolu_1", "ls")], 2),
           result("toolu_1", "cart.py", "e3", "e2", 3),
           result("toolu_9", "output of a call from before /clear", "e4", "e3", 4),
           text("e5", "e4", "msg_B", "There is cart.py.", 5)]
    fixed, out = repaired(jsonl(log))
    assert [e["uuid"] for e in out] == ["e1", "e2", "e3", "e5"]
    assert out[3]["parentUuid"] == "e3"
    [q] = fixed.report.quarantine
    assert q.code == "TC002" and q.index == 3 and q.content == log[3]  # with its toolUseResult
    chain_ok(out)


def test_remove_call_takes_out_the_entry_that_held_only_the_call():
    log = [user("e1", None, "List the files.", 1),
           text("e2", "e1", "msg_A", "Listing.", 2),
           asst("e3", "e2", "msg_A", [bash("toolu_1", "ls")], 2),
           user("e4", "e3", "Never mind.", 4),
           text("e5", "e4", "msg_B", "OK.", 5)]
    fixed, out = repaired(jsonl(log), missing="remove_call")
    assert [e["uuid"] for e in out] == ["e1", "e2", "e4", "e5"] and out[2]["parentUuid"] == "e2"
    [q] = fixed.report.quarantine
    assert q.code == "TC001" and q.index == 2 and q.content == log[2]


def test_text_typed_before_the_result_moves_after_it_and_the_chain_follows():
    log = [user("e1", None, "List the files.", 1),
           asst("e2", "e1", "msg_A", [bash("toolu_1", "ls")], 2),
           user("e3", "e2", "hurry up", 3),
           result("toolu_1", "cart.py", "e4", "e3", 4),
           text("e5", "e4", "msg_B", "Done.", 5)]
    assert [f.code for f in inspector.check(jsonl(log)).findings] == ["TC016"]
    _fixed, out = repaired(jsonl(log))
    assert [(e["uuid"], e["parentUuid"]) for e in out] == [
        ("e1", None), ("e2", "e1"), ("e4", "e2"), ("e3", "e4"), ("e5", "e3")]
    assert {k: v for k, v in out[2].items() if k != "parentUuid"} == {k: v for k, v in log[3].items() if k != "parentUuid"}


def test_two_replies_in_a_row_are_one_turn_for_the_api_and_stay_as_they_are():
    log = [user("e1", None, "Hi.", 1), text("e2", "e1", "msg_A", "Hello.", 2),
           text("e3", "e2", "msg_B", "How can I help?", 3), user("e4", "e3", "Bye.", 4)]
    fixed = inspector.repair(jsonl(log))
    assert fixed.output == jsonl(log) and fixed.report.changes == []


def test_text_after_a_call_in_the_next_reply_moves_before_it_and_the_entries_share_one_message_id():
    # The API combines the two replies into one turn, where the tool_use must come last (TC025).
    log = [user("e1", None, "List the files.", 1),
           asst("e2", "e1", "msg_A", [bash("toolu_1", "ls")], 2),
           text("e3", "e2", "msg_B", "Let me check.", 3),
           result("toolu_1", "cart.py", "e4", "e3", 4),
           text("e5", "e4", "msg_C", "There is cart.py.", 5)]
    # a warning since the live test of 2026-09-20 (rules.md note 2); repair still moves the text
    assert [(f.code, f.severity) for f in inspector.check(jsonl(log)).findings if f.severity != "info"] == [
        ("TC025", "warning")]
    fixed, out = repaired(jsonl(log))
    assert [(e["uuid"], e["parentUuid"]) for e in out] == [
        ("e1", None), ("e3", "e1"), ("e2", "e3"), ("e4", "e2"), ("e5", "e4")]
    assert out[1]["message"]["id"] == out[2]["message"]["id"]  # read back as one message
    by_uuid = {e["uuid"]: k for k, e in enumerate(log)}
    [k] = [by_uuid[e["uuid"]] for e in out[1:3] if e["message"]["id"] != log[by_uuid[e["uuid"]]]["message"]["id"]]
    assert [(q.index, q.code, q.content) for q in fixed.report.quarantine] == [(k, "TC019", {"id": log[k]["message"]["id"]})]


def test_a_sub_agent_is_left_as_it_is_and_the_main_conversation_repaired_around_it():
    def side(e):
        return {**e, "isSidechain": True, "agentId": "a7"}

    log = [user("e1", None, "Search for the bug.", 1),
           asst("e2", "e1", "msg_A", [{"type": "tool_use", "id": "toolu_t", "name": "Task",
                                       "input": {"prompt": "find it"}}], 2),
           side(user("s1", None, "find it", 3)),
           side(asst("s2", "s1", "msg_S", [bash("toolu_s", "grep -rn total")], 4)),
           side(result("toolu_s", "cart.py:3", "s3", "s2", 5)),
           side(text("s4", "s3", "msg_T", "It is in cart.py.", 6)),
           user("e3", "e2", "stop", 7),
           text("e4", "e3", "msg_B", "Stopped.", 8)]
    data = jsonl(log)
    fixed, out = repaired(data)
    new = out[2]
    assert new["message"]["content"][0]["tool_use_id"] == "toolu_t" and new["parentUuid"] == "e2"
    assert [e["uuid"] for e in out] == ["e1", "e2", new["uuid"], "s1", "s2", "s3", "s4", "e3", "e4"]
    assert fixed.output.splitlines()[3:7] == data.splitlines()[2:6]  # the sub-agent's entries as they were
    assert out[7]["parentUuid"] == new["uuid"]
    chain_ok(out)


def test_a_broken_sub_agent_is_named_as_not_repaired():
    def side(e):
        return {**e, "isSidechain": True, "agentId": "a7"}

    log = [user("e1", None, "Search.", 1),
           side(user("s1", None, "find it", 2)),
           side(asst("s2", "s1", "msg_S", [bash("toolu_s", "grep -rn total")], 3)),
           side(user("s3", "s2", "go on", 4)),
           side(text("s4", "s3", "msg_T", "ok", 5)),
           text("e2", "e1", "msg_B", "Found nothing.", 6)]
    data = jsonl(log)
    fixed = inspector.repair(data)
    assert fixed.output == data and fixed.report.changes == [] and not fixed.report.ok
    assert any("sub-agent a7 is left as it is" in u for u in fixed.report.unfixed)


def test_the_corpus_logs_come_back_byte_for_byte_and_a_lost_result_is_repaired():
    for name in ("claude-code-log_representative_messages.jsonl", "claude-code-transcripts_sample_session.json"):
        data = (CORPUS / name).read_bytes()
        fixed = inspector.repair(data)
        assert fixed.report.dialect == "claude-code" and fixed.output == data and fixed.report.changes == []
    lines = (CORPUS / "claude-code-log_representative_messages.jsonl").read_bytes().splitlines()
    dropped = [ln for ln in lines if b'"tool_use_id": "tool_002"' not in ln]
    assert len(dropped) == len(lines) - 1
    fixed, out = repaired(b"\n".join(dropped) + b"\n")
    # The call's reply text (msg_010) and the call (msg_008) are one turn for the API without the
    # result between them: the text moves before the call, in an entry that takes the call's
    # message id; every other line is the input's own, byte for byte.
    kept = fixed.output.splitlines()
    assert [e.get("uuid") for e in out] == ["msg_001", "msg_002", "msg_003", "msg_004", "msg_005", "msg_006",
                                            "msg_007", "msg_010", "msg_008", out[9]["uuid"], "msg_011", None]
    assert [ln in dropped for ln in kept] == [True] * 7 + [False, True, False, True, True]
    assert out[7]["message"]["id"] == "msg_008"
    new = out[9]
    assert new["message"]["content"][0]["tool_use_id"] == "tool_002" and new["sessionId"] == "test_session"


def test_the_cli_repairs_a_session_log(tmp_path):
    src = tmp_path / "session.jsonl"
    src.write_bytes(jsonl(INTERRUPTED))
    dst = tmp_path / "fixed.jsonl"
    run = subprocess.run([sys.executable, "-m", "inspector", "repair", str(src), "-o", str(dst)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    written = dst.read_bytes().splitlines()
    assert len(written) == len(INTERRUPTED) + 1
    assert sum(ln in src.read_bytes().splitlines() for ln in written) == len(INTERRUPTED) - 1  # all but e8 as they were
    assert inspector.check(dst.read_bytes()).ok


def test_the_app_s_repair_tab_repairs_a_session_log():
    from support.app_test import app, open_repair, texts, upload

    data = jsonl(INTERRUPTED)
    at = open_repair(upload(app(), "session.jsonl", data))
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Errors before"], metrics["Errors after"], metrics["Changes"]) == ("1", "0", "2")
    shown = texts(at)
    assert "after #8" in shown and "(new message)" in shown  # the new entry, shown whole beside "(new message)"
    assert "before #8" in shown and "after #9" in shown  # the entry after it, whose parentUuid now points at it


def test_a_rewound_branch_stays_as_it_was_while_the_conversation_is_repaired():
    log = [user("u1", None, "Set up the project.", 1),
           text("a1", "u1", "m1", "Sure.", 2),
           user("u2", "a1", "List the files.", 3),
           asst("a2", "u2", "m2", [bash("toolu_old", "ls")], 4),  # rewound before its result came
           user("u3", "a1", "Actually, show the README.", 5),
           asst("a3", "u3", "m3", [bash("toolu_new", "cat README")], 6),
           user("u4", "a3", "hm?", 7),
           text("a4", "u4", "m4", "Here.", 8)]
    data = jsonl(log)
    fixed, out = repaired(data)
    new = out[6]
    assert [e["uuid"] for e in out] == ["u1", "a1", "u2", "a2", "u3", "a3", new["uuid"], "u4", "a4"]
    assert new["parentUuid"] == "a3" and out[7]["parentUuid"] == new["uuid"]
    assert fixed.output.splitlines()[:6] == data.splitlines()[:6]
    again = inspector.check(fixed.output)
    assert again.transcript_labels[1].startswith("abandoned branch")  # still offered on its own
    assert [e["uuid"] for e in inspector.load(fixed.output).transcripts[1].items] == ["u1", "a1", "u2", "a2"]


def test_a_duplicate_result_in_the_same_message_names_the_copy_kept_by_its_own_place():
    # Issue 31: two differing results for one call in the user turn the log's entries make:
    # the change read "Took message #2 … out; message #2 is kept", naming both by one number.
    from support.dialect_writers import as_text, to_claude_code
    from support.transcripts import call

    chat = [{"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": [call("toolu_a", "read")]},
            {"role": "tool", "tool_call_id": "toolu_a", "content": "first"},
            {"role": "tool", "tool_call_id": "toolu_a", "content": "second"},
            {"role": "assistant", "content": "done"}]
    text = as_text(to_claude_code(chat), "claude-code")
    [f] = inspector.check(text).findings
    assert (f.code, f.message_index, f.other_index) == ("TC005", 2, 2)
    assert "an earlier result in the same message already answered it" in f.text and "message #2 already" not in f.text
    fixed = inspector.repair(text)
    [c] = [c for c in fixed.report.changes if c.action == "quarantine_duplicate"]
    assert "Took message #2 (part 1)" in c.text and "message #2 (part 2) is kept" in c.text, c.text
    [q] = fixed.report.quarantine
    assert "first" in json.dumps(q.content) and "second" not in json.dumps(q.content)
