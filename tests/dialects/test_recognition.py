"""A file the chosen dialect cannot account for is refused ("not recognised as DIALECT: …", exit 2)
instead of judged: a verdict on misread messages is a confident wrong answer, and repair would
quarantine most of the file. These shapes stay unreadable for the dialects forced on them even
as new formats get readers of their own."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector.dialects import get
from inspector.errors import InputError

# A Pydantic AI message history (ModelRequest / ModelResponse with part_kind parts).
PYDANTIC_AI = [
    {"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "weather in Lisbon?"}]},
    {"kind": "response", "parts": [{"part_kind": "tool-call", "tool_name": "get_weather",
                                    "args": {"city": "Lisbon"}, "tool_call_id": "call_Wq3xV8bA"}]},
    {"kind": "request", "parts": [{"part_kind": "tool-return", "tool_name": "get_weather",
                                   "content": "19 C", "tool_call_id": "call_Wq3xV8bA"}]},
    {"kind": "response", "parts": [{"part_kind": "text", "content": "19 C in Lisbon."}]},
]
# A shape no format has: speakers and observations.
UNKNOWN = [
    {"speaker": "user", "type": "utterance", "text": "hi"},
    {"speaker": "bot", "type": "action", "tool": "lookup", "call_id": "c1"},
    {"type": "observation", "call_id": "c1", "value": 3},
]


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "inspector", *args], input=stdin, capture_output=True, text=True)


@pytest.mark.parametrize("dialect", ["gemini", "openai-chat", "anthropic", "bedrock", "openai-responses"])
def test_a_pydantic_ai_history_forced_into_another_dialect_is_refused(dialect):
    with pytest.raises(InputError, match=f"not recognised as {dialect}: "):
        inspector.check(PYDANTIC_AI, dialect=dialect)
    with pytest.raises(InputError, match=f"not recognised as {dialect}: "):
        inspector.repair(PYDANTIC_AI, dialect=dialect)


def test_the_refusal_says_what_was_seen_and_the_cli_exits_2(tmp_path):
    path = tmp_path / "history.json"
    path.write_text(json.dumps(PYDANTIC_AI))
    p = run("check", str(path), "--from", "gemini")
    assert p.returncode == 2 and p.stdout == ""
    (line,) = p.stderr.strip().splitlines()
    assert "not recognised as gemini" in line and "tool_call_id" in line and "$[1].parts[0]" in line
    p = run("repair", str(path), "--from", "openai-chat", "-o", str(tmp_path / "out.json"))
    assert p.returncode == 2 and not (tmp_path / "out.json").exists()
    (line,) = p.stderr.strip().splitlines()
    assert "not recognised as openai-chat: 4 of 4 items" in line and "kind/parts" in line


def test_a_genuinely_unknown_shape_is_refused_whatever_the_dialect():
    # Records no reader claims are refused when the file is read, whatever reader is named after.
    for dialect in (None, "openai-chat", "gemini"):
        with pytest.raises(InputError, match="records, types utterance, action, observation: not a format the inspector reads"):
            inspector.check(UNKNOWN, dialect=dialect)


def test_one_unknown_role_among_good_messages_is_still_a_finding():
    msgs = [{"role": "user", "content": "hi"}, {"role": "asistant", "content": "hello"},
            {"role": "user", "content": "bye"}]
    assert [f.code for f in inspector.check(msgs).findings] == ["TC024"]


def test_every_dialect_reads_its_own_samples_without_refusal():
    from inspector.dialects import all_dialects

    for d in all_dialects():
        if d.samples is None:
            continue
        inspector.check(d.samples.clean, dialect=d.name)
        inspector.check(d.samples.broken, dialect=d.name)
    assert get("pydantic-ai").name == "pydantic-ai"


# --- issue 31: system messages are a role some models have, and a top-level system names Anthropic ---

TWO_SYSTEMS = [{"role": "system", "content": "Be brief."}, {"role": "system", "content": "Answer in French."},
               {"role": "user", "content": "Bonjour"}]
# An Anthropic Messages body: top-level system, a Claude model, and a mid-conversation system
# message (accepted on Claude Opus 4.8 and later since 2026-05-28, rules.md).
CLAUDE_BODY = {"model": "claude-opus-4-8", "max_tokens": 1024, "system": "You are terse.", "messages": [
    {"role": "user", "content": "List the files."},
    {"role": "system", "content": "The user is on Windows."},
    {"role": "assistant", "content": "dir"},
    {"role": "user", "content": "Thanks."}]}


@pytest.mark.parametrize("target", [None, "openai", "anthropic", "mistral"])
def test_two_system_messages_are_read_not_refused(tmp_path, target):
    # Old code: with target anthropic, "not recognised as anthropic: 2 of 3 items have a role or
    # type anthropic does not have ('system')". A system message is a role Anthropic has on newer
    # models, so the list is read and judged (a warning naming which models take it).
    report = inspector.check(TWO_SYSTEMS, target=target)
    assert report.message_count == 3
    if target == "anthropic":
        assert [(f.code, f.severity) for f in report.findings] == [("TC024", "warning")] * 2
    else:
        assert report.dialect == "openai-chat" and report.findings == []
    path = tmp_path / "two-systems.json"
    path.write_text(json.dumps(TWO_SYSTEMS))
    p = run("check", str(path), *(["--target", target] if target else []))
    assert p.returncode == 0 and "not recognised" not in p.stderr, p.stderr


def test_a_body_with_a_top_level_system_is_anthropic_and_its_system_message_is_accepted(tmp_path):
    # Old code: read as openai-chat (target openai) unless --target anthropic was given.
    report = inspector.check(CLAUDE_BODY)
    assert (report.dialect, report.target) == ("anthropic", "anthropic")
    assert report.findings == [] and "would accept" in inspector.verdict(report)
    older = inspector.check({**CLAUDE_BODY, "model": "claude-sonnet-4-5-20250929"})
    assert [(f.code, f.severity, f.message_index, f.provider_error) for f in older.findings] == [
        ("TC024", "error", 1, "role 'system' is not supported on this model")]
    blocks = inspector.check({**CLAUDE_BODY, "system": [{"type": "text", "text": "You are terse."}]})
    assert blocks.dialect == "anthropic"
    path = tmp_path / "claude.json"
    path.write_text(json.dumps(CLAUDE_BODY))
    p = run("check", str(path), "--format", "json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert (out["dialect"], out["target"], out["findings"]) == ("anthropic", "anthropic", [])
    # a target it does not fit keeps the OpenAI reading
    assert inspector.check(CLAUDE_BODY, target="openai").dialect == "openai-chat"
