"""Google ADK sessions (issue 32): a session's JSON and its event list.

The shapes are ADK's own, as public repositories record what ``adk api_server`` answered:

- the session: Ruqyai/a2a-adk at 091f4310150b4ac46cb0c0a6d591844d8910e2af, ``api_agent/Readme.md``
  (``POST /apps/{app}/users/{user}/sessions/{id}`` answers ``{id, appName, userId, state, events,
  lastUpdateTime}``);
- the events: the ``POST /run`` answer of the ``1_hello_world`` agent quoted in public notes (a
  model event with ``functionCall{id: "adk-d98c7dbd-…", args, name: "roll_die"}``,
  ``usageMetadata``, ``invocationId: "e-98e9c6ef-…"``, ``author``, ``actions{stateDelta,
  artifactDelta, requestedAuthConfigs}``, ``longRunningToolIds``, ``id``, ``timestamp``; then a user
  event with the ``functionResponse{id, name, response{result: 13}}``; then the model's text),
  the shape google/adk-python's ``Event`` (``src/google/adk/events/event.py``) serialises with
  camelCase aliases.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "adk_session_unanswered_call.json"
CALL_ID = "adk-5b1f0e3a-77c2-4f7e-9a0d-3c2e8b6f9d14"


def ev(eid: str, role: str, parts: list, author: str, **more) -> dict:
    return {"content": {"parts": parts, "role": role}, "invocationId": "e-98e9c6ef-f1d5-4129-955c-fe78d3611c1c",
            "author": author, "actions": {"stateDelta": {}, "artifactDelta": {}, "requestedAuthConfigs": {}},
            "id": eid, "timestamp": 1750052502.5, **more}


ROLL = ev("uolapJWG", "model", [{"functionCall": {"id": "adk-d98c", "args": {"sides": 50}, "name": "roll_die"}}],
          "hello_world_agent", longRunningToolIds=[])
ROLLED = ev("1pMoqAFd", "user", [{"functionResponse": {"id": "adk-d98c", "name": "roll_die",
                                                       "response": {"result": 13}}}], "hello_world_agent")
SAID = ev("Q7gQktaR", "model", [{"text": "I rolled a 50 sided die and got 13.\n"}], "hello_world_agent")


def test_the_run_answer_reads_as_the_gemini_contents_adk_sends():
    report = inspector.check(json.dumps([ev("u1", "user", [{"text": "Roll a 50 sided die"}], "user"),
                                         ROLL, ROLLED, SAID]))
    assert report.dialect == "adk" and report.target == "gemini" and report.ok and report.findings == []


def test_a_session_s_events_are_read_and_nothing_else_it_holds():
    """Only ``events``: a list of contents in the session's ``state`` is never taken for it."""
    state = {"history": [{"role": "user", "parts": [{"text": "x"}]},
                         {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}]}
    session = {"id": "s", "appName": "a", "userId": "u", "state": state,
               "events": [ev("u1", "user", [{"text": "Roll"}], "user"), ROLL, ROLLED, SAID], "lastUpdateTime": 1.0}
    report = inspector.check(json.dumps(session))
    assert report.dialect == "adk" and report.transcripts == 1 and report.ok


def test_a_call_left_open_is_what_gemini_refuses():
    report = inspector.check(SAMPLE.read_text())
    assert report.dialect == "adk"
    errors = [(f.code, f.tool_call_id) for f in report.findings if f.severity == "error"]
    assert errors == [("TC001", CALL_ID)]
    assert "number of function response parts is equal to the number of function call parts" in \
        report.findings[0].provider_error


def test_partial_events_and_another_agent_s_calls_are_not_sent_as_they_are():
    """Streaming chunks (``partial``) are not sent; a call another agent made (and answered) is
    sent to the agent answering as user text ("For context: ..."), so a call it left open there
    is no open call of this agent."""
    partial = ev("p1", "model", [{"text": "I rol"}], "hello_world_agent", partial=True)
    other = ev("o1", "model", [{"functionCall": {"id": "adk-x", "args": {}, "name": "transfer_to_agent"}}],
               "router_agent")
    rows = [ev("u1", "user", [{"text": "Roll"}], "user"), other, partial, ROLL, ROLLED, SAID]
    msgs = inspector.dialects.get("adk").chat(rows, ())[0]
    assert msgs[1]["role"] == "user" and "[router_agent] called tool `transfer_to_agent`" in msgs[1]["parts"][1]["text"]
    assert len(msgs) == 5
    assert inspector.check(json.dumps(rows)).ok


def test_repair_adds_the_result_as_a_new_event_in_the_session():
    fixed = inspector.repair(SAMPLE.read_bytes())
    before, after = json.loads(SAMPLE.read_text()), json.loads(fixed.output)
    assert {k: v for k, v in after.items() if k != "events"} == {k: v for k, v in before.items() if k != "events"}
    assert len(after["events"]) == len(before["events"]) + 1
    added = after["events"][4]
    assert after["events"][:4] == before["events"][:4] and after["events"][5] == before["events"][4]
    assert added["author"] == "hello_world_agent" and added["content"]["role"] == "user"
    assert added["content"]["parts"][0]["functionResponse"]["id"] == CALL_ID
    assert inspector.check(fixed.output).ok


def test_a_repair_the_session_cannot_hold_is_refused_plainly():
    orphan = ev("x1", "user", [{"functionResponse": {"id": "adk-nobody", "name": "roll_die", "response": {}}}],
                "hello_world_agent")
    rows = [ev("u1", "user", [{"text": "Roll"}], "user"), ROLL, ROLLED, SAID, orphan]
    assert "TC002" in {f.code for f in inspector.check(json.dumps(rows)).findings}
    with pytest.raises(inspector.InputError, match="repair of a Google ADK session can only add a result"):
        inspector.repair(json.dumps(rows))
