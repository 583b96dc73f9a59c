"""A file whose records are of a shape no reader claims is refused, saying what was seen (exit 2),
never read at some nested list it happens to hold (issue 32).

The first case is the confident wrong answer that was: a Codex CLI rollout's ``compacted`` line
carries a ``replacement_history`` list of Responses items, and a search of the whole document for
"a list that looks like messages" read that one list as the whole session ("would accept", exit 0)
while forty lines of calls and outputs were ignored. Container readers now descend only into the
keys their format names.

The agents' shapes below (Copilot CLI, OpenHands, ADK) were refused until their readers came;
they are now read by those readers, and only by them. The shapes are the agents' own (field names and nesting as their public sources write
them; the values are made up):

- GitHub Copilot CLI ``~/.copilot/session-state/<id>/events.jsonl``: ``{type, data, id, timestamp,
  parentId}`` events (``session.start``, ``user.message``, ``assistant.message`` with
  ``toolRequests``, ``tool.execution_start``/``tool.execution_complete`` by ``toolCallId``), as the
  github/copilot-sdk ``session-events.schema.json`` and mkellerman/bmad-mcp-server
  ``docs/copilot-cli-session-analysis.md`` show them;
- OpenHands V0 ``trajectory.json``: a list of events with ``action``/``observation``, ``source``
  and ``tool_call_metadata.tool_call_id`` (All-Hands-AI/OpenHands ``openhands/events/serialization``);
- Google ADK session export: ``{id, appName, userId, state, events[{author, content{role,
  parts[functionCall|functionResponse]}}]}`` (google/adk-python ``sessions/session.py``);
- an agent's request log whose records hold a message list in their payload (the nested list
  that must not be salvaged).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector.errors import InputError


def lines(records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


COPILOT = [
    {"type": "session.start", "id": "e1", "timestamp": "2025-12-13T16:26:51.136Z", "parentId": None,
     "data": {"sessionId": "s1", "version": 1, "producer": "copilot-agent", "copilotVersion": "0.0.369",
              "startTime": "2025-12-13T16:26:51.136Z"}},
    {"type": "user.message", "id": "e2", "timestamp": "2025-12-13T16:26:55.000Z", "parentId": "e1",
     "data": {"content": "run the tests", "attachments": []}},
    {"type": "assistant.message", "id": "e3", "timestamp": "2025-12-13T16:26:57.000Z", "parentId": "e2",
     "data": {"messageId": "m1", "content": "", "toolRequests": [
         {"toolCallId": "toolu_vrtx_01", "name": "bash", "arguments": {"command": "pytest"}}]}},
    {"type": "tool.execution_start", "id": "e4", "timestamp": "2025-12-13T16:26:57.100Z", "parentId": "e3",
     "data": {"toolCallId": "toolu_vrtx_01", "toolName": "bash", "arguments": {"command": "pytest"}}},
    {"type": "tool.execution_complete", "id": "e5", "timestamp": "2025-12-13T16:27:03.000Z", "parentId": "e4",
     "data": {"toolCallId": "toolu_vrtx_01", "success": True, "result": {"content": "3 passed"}}},
]

OPENHANDS_V0 = [
    {"id": 0, "timestamp": "2025-06-01T10:00:00", "source": "user", "message": "fix the bug",
     "action": "message", "args": {"content": "fix the bug"}},
    {"id": 1, "timestamp": "2025-06-01T10:00:05", "source": "agent", "message": "Running command: ls",
     "action": "run", "args": {"command": "ls"},
     "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "toolu_01",
                            "model_response": {"id": "r1", "choices": [{"index": 0, "finish_reason": "tool_calls",
                                                                        "message": {"role": "assistant", "content": None}}]},
                            "total_calls_in_response": 1}},
    {"id": 2, "timestamp": "2025-06-01T10:00:06", "source": "agent", "message": "Command finished",
     "observation": "run", "content": "a.py", "cause": 1, "extras": {"exit_code": 0},
     "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "toolu_01"}},
]

ADK_SESSION = {
    "id": "s1", "appName": "weather", "userId": "u1", "state": {}, "lastUpdateTime": 1748770000.0,
    "events": [
        {"id": "ev1", "invocationId": "i1", "author": "user", "timestamp": 1748770000.0,
         "content": {"role": "user", "parts": [{"text": "weather in Paris?"}]}},
        {"id": "ev2", "invocationId": "i1", "author": "root_agent", "timestamp": 1748770001.0,
         "content": {"role": "model", "parts": [{"functionCall": {"id": "adk-1", "name": "get_weather",
                                                                  "args": {"city": "Paris"}}}]}},
    ],
}

# Every record holds the request it sent: reading the first record's messages would judge one
# request of many, from a file that is no transcript.
REQUEST_LOG = [
    {"ts": "2026-01-01T00:00:00Z", "event": "llm_request", "data": {"model": "gpt-4o", "messages": [
        {"role": "user", "content": "hi"}]}},
    {"ts": "2026-01-01T00:00:01Z", "event": "llm_response", "data": {"text": "hello"}},
    {"ts": "2026-01-01T00:00:02Z", "event": "llm_request", "data": {"model": "gpt-4o", "messages": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": None,
                                            "tool_calls": [{"id": "c1", "type": "function",
                                                            "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "user", "content": "next"}]}},
]

CASES = {
    "request-log-with-nested-messages": (lines(REQUEST_LOG), ("JSON Lines of `{ts, event, data}` records, events "
                                                             "llm_request, llm_response: not a format")),
}

# Refused until their readers came (issue 32): each is now read whole by the reader its format
# names, never at a nested list (the ADK session's ``state`` is not searched).
NOW_READ = {
    "copilot-cli-events": (lines(COPILOT), "copilot"),
    "openhands-v0-trajectory": (json.dumps(OPENHANDS_V0), "openhands"),
    "adk-session-export": (json.dumps(ADK_SESSION), "adk"),
}


@pytest.mark.parametrize("name", list(NOW_READ))
def test_an_agent_log_once_refused_is_read_by_its_own_reader(name):
    text, dialect = NOW_READ[name]
    report = inspector.check(text)
    assert report.dialect == dialect and report.transcripts == 1


@pytest.mark.parametrize("name", list(CASES))
def test_an_unclaimed_agent_log_is_refused_saying_what_was_seen(name):
    text, said = CASES[name]
    with pytest.raises(InputError) as e:
        inspector.check(text)
    assert said in str(e.value)
    with pytest.raises(InputError):
        inspector.repair(text)


@pytest.mark.parametrize("name", ["request-log-with-nested-messages"])
def test_the_cli_exits_2_with_one_line(tmp_path, name):
    path = tmp_path / "session.jsonl"
    path.write_text(CASES[name][0])
    p = subprocess.run([sys.executable, "-m", "inspector", "check", str(path)], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    (line,) = p.stderr.strip().splitlines()
    assert CASES[name][1] in line


@pytest.mark.parametrize("name", ["request-log-with-nested-messages"])
def test_scan_and_repair_refuse_it_too(tmp_path, name):
    """One verdict: every door refuses the file (exit 2), and repair writes nothing."""
    path = tmp_path / "session.jsonl"
    path.write_text(CASES[name][0])
    for args in (["scan", str(path)], ["repair", str(path), "-o", str(tmp_path / "out.jsonl")]):
        p = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True)
        assert p.returncode == 2, (args, p.stderr)
        assert "no transcript could be read" in p.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_no_reader_descends_into_a_list_its_format_does_not_name():
    """A record of an unknown shape holding a message list, inside an object: not read."""
    doc = {"run": {"meta": {"agent": "x"}, "steps": [{"payload": {"history": REQUEST_LOG[2]["data"]["messages"]}}]}}
    with pytest.raises(InputError, match="the input is an object with the keys run"):
        inspector.check(doc)
