"""Batch request files: every line of an OpenAI Batch JSONL file (and every request of an
Anthropic Message Batch) is a transcript of its own, named by its custom_id. Reading only the
first line let a broken third line pass with "would accept" and exit 0."""

from __future__ import annotations

import json
import subprocess
import sys

import inspector


def chat(*msgs):
    return {"model": "gpt-4o-mini", "messages": list(msgs)}


def line(cid, body, url="/v1/chat/completions"):
    return {"custom_id": cid, "method": "POST", "url": url, "body": body}


USER = {"role": "user", "content": "weather?"}
CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}
ORPHAN = {"role": "tool", "tool_call_id": "call_9", "content": "sunny"}
LINES = [
    line("req-1", chat({"role": "user", "content": "hi"})),
    line("req-2", chat(USER, CALL, {"role": "tool", "tool_call_id": "call_1", "content": "sunny"})),
    line("req-3", chat(USER, ORPHAN)),
]
JSONL = "\n".join(json.dumps(x) for x in LINES).encode()


def test_every_batch_line_is_a_transcript_named_by_its_custom_id():
    report = inspector.check(JSONL)
    assert report.transcripts == 3
    assert [lab.split(" ")[0] for lab in report.transcript_labels] == ["req-1", "req-2", "req-3"]
    errors = [f for f in report.findings if f.severity == "error"]
    assert [(f.code, f.transcript, f.message_index) for f in errors] == [("TC002", 2, 1)]
    assert "would reject" in inspector.verdict(report)


def test_cli_names_the_line_and_custom_id_and_exits_1(tmp_path):
    path = tmp_path / "batch.jsonl"
    path.write_bytes(JSONL)
    p = subprocess.run([sys.executable, "-m", "inspector", "check", str(path)], capture_output=True)
    assert p.returncode == 1, p.stdout
    assert p.stdout.decode().splitlines()[0].startswith(f"{path}:3: [req-3] TC002 error")


def test_repair_fixes_the_broken_line_and_keeps_the_others():
    fixed = inspector.repair(JSONL)
    out = [json.loads(x) for x in fixed.output.decode().splitlines()]
    assert out[:2] == LINES[:2]
    assert [m["role"] for m in out[2]["body"]["messages"]] == ["user"]
    assert fixed.report.quarantine and fixed.report.quarantine[0].content == ORPHAN


def test_responses_batch_lines_and_anthropic_message_batches():
    responses = line("r-1", {"model": "gpt-4.1", "input": [
        {"role": "user", "content": "hi"},
        {"type": "function_call_output", "call_id": "call_x", "output": "?"}]}, url="/v1/responses")
    fine = line("r-0", {"model": "gpt-4.1", "input": [{"role": "user", "content": "hi"}]}, url="/v1/responses")
    report = inspector.check(json.dumps(fine) + "\n" + json.dumps(responses))  # one endpoint per batch file
    assert report.transcripts == 2 and report.dialect == "openai-responses"
    assert [f.code for f in report.findings if f.severity == "error"] == ["TC002"]
    anthropic = {"requests": [
        {"custom_id": "a-1", "params": {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
            {"role": "user", "content": "hi"}]}},
        {"custom_id": "a-2", "params": {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "?"}]}]}},
    ]}
    report = inspector.check(anthropic)
    assert report.transcripts == 2 and report.dialect == "anthropic"
    assert [(f.code, f.transcript) for f in report.findings if f.severity == "error"] == [("TC002", 1)]


def test_json_lines_with_one_conversation_per_line_are_all_read():
    """Each line an array of messages: a broken third line must be reported, not skipped."""
    ok = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    bad = [USER, ORPHAN]
    report = inspector.check("\n".join(json.dumps(x) for x in (ok, ok, bad)))
    assert report.transcripts == 3
    assert [(f.code, f.transcript) for f in report.findings if f.severity == "error"] == [("TC002", 2)]
