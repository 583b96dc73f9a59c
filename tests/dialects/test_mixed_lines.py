"""A JSON Lines file whose lines come from two sibling formats (issue 10, part C).

An agent framework's export mixes records: some lines are Chat Completions requests, others
LangChain message dumps. Each line is its own transcript and is read in the dialect it shows.
Before the fix, a Chat Completions line counted as "no evidence" (every chat format has role
messages), so the sibling rule read it as its LangChain neighbours: the whole file was refused
("not recognised as langchain") by ``check`` and the app, while ``scan`` read it line by line.
"""

from __future__ import annotations

import json

import inspector
from inspector.scan import local, sources
from inspector.scan.work import ScanOptions

LC_OK = {"messages": [
    {"type": "human", "content": "hi"},
    {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {}, "id": "call_1", "type": "tool_call"}]},
    {"type": "tool", "content": "ok", "tool_call_id": "call_1"},
    {"type": "ai", "content": "done"}]}
OA_OK = {"messages": [
    {"role": "user", "content": "hi"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
    {"role": "assistant", "content": "done"}]}
OA_BROKEN = {"messages": OA_OK["messages"][:2] + [{"role": "user", "content": "and?"}]}
OA_PLAIN = {"messages": [{"role": "user", "content": "hello"}]}  # no evidence of any format


def jsonl(*records) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def test_check_reads_each_line_in_its_own_dialect():
    data = jsonl(LC_OK, OA_OK, LC_OK, OA_BROKEN)
    report = inspector.check(data)  # raised InputError "not recognised as langchain" before
    assert report.transcripts == 4
    assert [(f.transcript, f.code, f.message_index) for f in report.findings if f.severity == "error"] == [
        (3, "TC001", 1)]
    doc = inspector.load(data)
    from inspector.checking import dialects_for

    assert [d.name for d in dialects_for(doc)] == ["langchain", "openai-chat", "langchain", "openai-chat"]


def test_a_line_without_evidence_still_takes_its_siblings_dialect():
    doc = inspector.load(jsonl(LC_OK, LC_OK))
    from inspector.checking import dialects_for

    assert [d.name for d in dialects_for(doc)] == ["langchain", "langchain"]
    anthropic_line = {"model": "claude-sonnet-4-5", "max_tokens": 10, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]}
    doc = inspector.load(jsonl(anthropic_line, OA_PLAIN))
    assert [d.name for d in dialects_for(doc)] == ["anthropic", "anthropic"]


def test_scan_agrees_with_check_line_by_line(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(jsonl(LC_OK, OA_OK, LC_OK, OA_BROKEN))
    rows: list[dict] = []
    local.scan(sources.plan([str(path)]), ScanOptions(), 1, lambda part, got: rows.extend(got))
    assert [(r["line"], r["dialect"], r["rejected"]) for r in rows] == [
        (1, "langchain", False), (2, "openai-chat", False), (3, "langchain", False), (4, "openai-chat", True)]


def test_repair_of_the_mixed_file_keeps_each_line_in_its_format():
    fixed = inspector.repair(jsonl(LC_OK, OA_BROKEN))
    lines = [json.loads(x) for x in fixed.output.splitlines()]
    assert lines[0] == LC_OK
    assert [m.get("role") for m in lines[1]["messages"]] == ["user", "assistant", "tool", "user"]
    assert fixed.report.ok


def test_the_summary_names_every_dialect_of_a_mixed_file(tmp_path):
    """The summary used to name the first transcript's dialect alone, as if the whole file were in it."""
    import subprocess
    import sys

    p = tmp_path / "mixed.jsonl"
    p.write_bytes(jsonl(LC_OK, OA_OK, LC_OK, OA_BROKEN, LC_OK))
    report = inspector.check(str(p))
    assert report.dialect == "langchain"
    assert report.transcript_dialects == ["langchain", "openai-chat", "langchain", "openai-chat", "langchain"]
    out = subprocess.run([sys.executable, "-m", "inspector", "check", str(p)], capture_output=True, text=True).stdout
    assert "5 transcript(s), dialects langchain (3 transcripts), openai-chat (2), target openai" in out
    one = tmp_path / "one.jsonl"
    one.write_bytes(jsonl(OA_OK, OA_BROKEN))
    out = subprocess.run([sys.executable, "-m", "inspector", "check", str(one)], capture_output=True, text=True).stdout
    assert "2 transcript(s), dialect openai-chat, target openai" in out
