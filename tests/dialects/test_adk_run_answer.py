"""Google ADK's ``/run`` and ``/run_sse`` answers, as ADK's own documentation prints them (issue 32).

The fixtures are verbatim: google/adk-docs ``docs/runtime/api-server.md`` at commit
0530c6567e687cc44bd0d00f2bcfaa3e81ca6bc1 ("Using ``/run``" and "Using ``/run_sse``", the
``weather_time_agent`` asked "Hey whats the weather in new york today"). Each event is the camelCase
JSON of ADK's ``Event`` (``model_dump_json(exclude_none=True, by_alias=True)``: ``invocationId``,
``functionCall{id, args, name}``, ``functionResponse{id, name, response}``, ``actions{stateDelta,
artifactDelta, requestedAuthConfigs}``, ``longRunningToolIds``); google-adk 2.13.0 writes the same
keys (and ``requestedToolConfirmations``, ``nodeInfo``). Read 2026-11-27.

What the reader got wrong before: an answer holds the events of one run only, and the user's
message that started the run is not among them (it is in the session, and ADK sends it before
them), so the documented answer was refused as Gemini's "function call turn comes immediately after a
user turn" (TC019 error). It is now read as a run's answer: that finding is a note saying why, and a
session whose own events start with a call keeps the error.
"""

from __future__ import annotations

import json
from pathlib import Path

import inspector

# "If using `/run`, you will see the full output of events at the same time, as a list"
RUN_ANSWER = (
    '[{"content":{"parts":[{"functionCall":{"id":"af-e75e946d-c02a-4aad-931e-49e4ab859838","args":{"city":"new york"},'
    '"name":"get_weather"}}],"role":"model"},"invocationId":"e-71353f1e-aea1-4821-aa4b-46874a766853",'
    '"author":"weather_time_agent","actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{}},'
    '"longRunningToolIds":[],"id":"2Btee6zW","timestamp":1743712220.385936},{"content":{"parts":[{"functionResponse":'
    '{"id":"af-e75e946d-c02a-4aad-931e-49e4ab859838","name":"get_weather","response":{"status":"success","report":'
    '"The weather in New York is sunny with a temperature of 25 degrees Celsius (41 degrees Fahrenheit)."}}}],'
    '"role":"user"},"invocationId":"e-71353f1e-aea1-4821-aa4b-46874a766853","author":"weather_time_agent","actions":'
    '{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{}},"id":"PmWibL2m","timestamp":1743712221.895042},'
    '{"content":{"parts":[{"text":"OK. The weather in New York is sunny with a temperature of 25 degrees Celsius '
    '(41 degrees Fahrenheit).\\n"}],"role":"model"},"invocationId":"e-71353f1e-aea1-4821-aa4b-46874a766853",'
    '"author":"weather_time_agent","actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{}},'
    '"id":"sYT42eVC","timestamp":1743712221.899018}]'
)

# "/run_sse" with streaming: each event a ``data:`` line; read here as a client's SSE parser gives them
SSE_EVENTS = [
    ('{"content":{"parts":[{"functionCall":{"id":"af-f83f8af9-f732-46b6-8cb5-7b5b73bbf13d","args":{"city":"new york"},'
     '"name":"get_weather"}}],"role":"model"},"invocationId":"e-3f6d7765-5287-419e-9991-5fffa1a75565","author":'
     '"weather_time_agent","actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{}},'
     '"longRunningToolIds":[],"id":"ptcjaZBa","timestamp":1743712255.313043}'),
    ('{"content":{"parts":[{"functionResponse":{"id":"af-f83f8af9-f732-46b6-8cb5-7b5b73bbf13d","name":"get_weather",'
     '"response":{"status":"success","report":"The weather in New York is sunny with a temperature of 25 degrees '
     'Celsius (41 degrees Fahrenheit)."}}}],"role":"user"},"invocationId":"e-3f6d7765-5287-419e-9991-5fffa1a75565",'
     '"author":"weather_time_agent","actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{}},'
     '"id":"5aocxjaq","timestamp":1743712257.387306}'),
    ('{"content":{"parts":[{"text":"OK. The weather in New York is sunny with a temperature of 25 degrees Celsius '
     '(41 degrees Fahrenheit).\\n"}],"role":"model"},"invocationId":"e-3f6d7765-5287-419e-9991-5fffa1a75565",'
     '"author":"weather_time_agent","actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{}},'
     '"id":"rAnWGSiV","timestamp":1743712257.391317}'),
]

# "Create a new session": the session ADK answers, here holding the /run answer's events after the user's message
USER_EVENT = {"content": {"parts": [{"text": "Hey whats the weather in new york today"}], "role": "user"},
              "invocationId": "e-71353f1e-aea1-4821-aa4b-46874a766853", "author": "user",
              "actions": {"stateDelta": {}, "artifactDelta": {}, "requestedAuthConfigs": {}}, "id": "u0",
              "timestamp": 1743712219.9}


def _session(events: list) -> str:
    return json.dumps({"id": "s_123", "appName": "my_sample_agent", "userId": "u_123", "state": {"key1": "value1",
                       "key2": 42}, "events": events, "lastUpdateTime": 1743711430.022186})


def test_the_documented_run_answer_is_read_as_a_run_s_events_and_accepted():
    report = inspector.check(RUN_ANSWER)
    assert report.dialect == "adk" and report.target == "gemini" and report.ok
    (f,) = report.findings
    assert (f.code, f.severity, f.message_index) == ("TC019", "info", 0)
    assert "a run's events as ADK's /run and /run_sse answer them" in f.text
    assert report.message_count == 3


def test_the_sse_events_read_the_same(tmp_path: Path):
    path = tmp_path / "run_sse.jsonl"
    path.write_text("".join(line + "\n" for line in SSE_EVENTS))
    report = inspector.check(str(path))
    assert report.dialect == "adk" and report.ok
    assert [(f.code, f.severity) for f in report.findings] == [("TC019", "info")]


def test_in_a_session_after_the_user_s_message_there_is_nothing_to_say():
    events = [USER_EVENT, *json.loads(RUN_ANSWER)]
    report = inspector.check(_session(events))
    assert report.dialect == "adk" and report.ok and report.findings == []


def test_a_session_whose_own_events_start_with_a_call_keeps_the_error():
    report = inspector.check(_session(json.loads(RUN_ANSWER)))
    assert [(f.code, f.severity) for f in report.findings] == [("TC019", "error")] and not report.ok


def test_a_run_answer_whose_call_has_no_response_is_still_refused():
    events = json.loads(RUN_ANSWER)
    report = inspector.check(json.dumps([events[0], events[2]]))
    assert not report.ok
    (error,) = [f for f in report.findings if f.severity == "error"]
    assert error.code == "TC001" and "af-e75e946d-c02a-4aad-931e-49e4ab859838" in error.text


def test_every_door_says_the_same(tmp_path: Path):
    from test_differential import _agree

    path = tmp_path / "run_answer.json"
    path.write_text(RUN_ANSWER)
    assert _agree(path, [])


def test_the_sse_stream_as_curl_saves_it_is_refused_in_one_line_saying_what_it_is(tmp_path: Path):
    import subprocess
    import sys

    path = tmp_path / "run_sse.txt"
    path.write_text("".join(f"data: {line}\n\n" for line in SSE_EVENTS))
    p = subprocess.run([sys.executable, "-m", "inspector", "check", str(path)], capture_output=True, text=True)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "Server-Sent Events stream" in p.stderr and "JSON Lines" in p.stderr
