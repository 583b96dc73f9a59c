"""OpenHands conversations (issue 32): V1 conversation folders and V0 ``trajectory.json``.

The shapes are OpenHands' own, as its repositories record them:

- V1: OpenHands/software-agent-sdk at 4f4c68c16716c592abffc3e34da00428584145fe,
  ``.pr/event-json-to-openai-messages/cd94562403b9487ebdd4018e3f531dfd/conversations/
  cd94562403b9487ebdd4018e3f531dfd/events/event-0000{0..7}-*.json`` (a ``SystemPromptEvent``, a
  user ``MessageEvent``, an ``ActionEvent`` with ``tool_call_id``, ``tool_call{id, name,
  arguments, origin}`` and ``llm_response_id``, its ``ObservationEvent`` with ``tool_call_id``,
  ``action_id`` and ``observation.content[]`` of ``TextContent``, a ``FinishAction``, an agent
  ``MessageEvent``), one event per file, and ``base_state.json`` beside ``events/``;
- V0: All-Hands-AI/OpenHands at 5868759d09fc9e69e6b25492a2fc42164cf0ed63,
  ``tests/runtime/trajs/basic_gui_mode.json`` (events ``{id, timestamp, source, message, action |
  observation, args | extras, cause, tool_call_metadata{function_name, tool_call_id,
  model_response, total_calls_in_response}}``, ``agent_state_changed`` and ``null``
  observations between them).

The fixtures below rebuild those shapes (same keys, nesting and id formats) with short values.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector
from inspector.cli.parser import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "openhands_trajectory_unanswered_call.json"
CALL_ID = "call_KaQ0kUcBb5tbMzhxbIx9dvoZ"


def v1_events(answered: bool = True) -> list[dict]:
    """A V1 conversation as the SDK writes it (software-agent-sdk@4f4c68c, see the module doc)."""
    text = lambda t: [{"cache_prompt": False, "type": "text", "text": t}]
    out = [
        {"id": "5df490d1-98e8-4dea-9ae7-7f36c59f8ed5", "timestamp": "2026-02-05T11:24:45.292853", "source": "agent",
         "system_prompt": {"cache_prompt": False, "type": "text", "text": "You are OpenHands agent."},
         "tools": [{"description": "Execute a bash command.", "action_type": "TerminalAction",
                    "observation_type": "TerminalObservation", "kind": "TerminalTool", "title": "terminal"}],
         "kind": "SystemPromptEvent"},
        {"id": "ebe32379-cb75-4a82-8a3c-a8f8b88f6efa", "timestamp": "2026-02-05T11:24:45.305360", "source": "user",
         "llm_message": {"role": "user", "content": text("Run `pwd` and write it to tool_output.txt."),
                         "thinking_blocks": []}, "activated_skills": [], "extended_content": [], "kind": "MessageEvent"},
        {"id": "fa7668e4-a43d-4fa4-b75c-ffd642afb5b5", "timestamp": "2026-02-05T11:24:47.142819", "source": "agent",
         "thought": [], "thinking_blocks": [],
         "action": {"command": "pwd > tool_output.txt", "is_input": False, "reset": False, "kind": "TerminalAction"},
         "tool_name": "terminal", "tool_call_id": CALL_ID,
         "tool_call": {"id": CALL_ID, "name": "terminal",
                       "arguments": "{\"command\":\"pwd > tool_output.txt\",\"security_risk\":\"LOW\"}",
                       "origin": "completion"},
         "llm_response_id": "chatcmpl-D5rlWUdHeehJ1YAPoStNh1wWFayTf", "security_risk": "LOW", "kind": "ActionEvent"},
    ]
    if answered:
        out.append({"id": "4fc3850a-621c-4e43-a6e3-b1820e80e058", "timestamp": "2026-02-05T11:24:47.284017",
                    "source": "environment", "tool_name": "terminal", "tool_call_id": CALL_ID,
                    "observation": {"content": text(""), "is_error": False, "command": "pwd > tool_output.txt",
                                    "exit_code": 0, "timeout": False, "kind": "TerminalObservation"},
                    "action_id": "fa7668e4-a43d-4fa4-b75c-ffd642afb5b5", "kind": "ObservationEvent"})
    out.append({"id": "7dfb0aa3-a3d6-4b0b-b977-3a03990f2812", "timestamp": "2026-02-05T11:24:49.815054",
                "source": "agent" if answered else "user",
                "llm_message": {"role": "assistant" if answered else "user",
                                "content": text("Done." if answered else "Never mind."), "thinking_blocks": []},
                "activated_skills": [], "extended_content": [], "kind": "MessageEvent"})
    return out


def write_folder(root: Path, events: list[dict]) -> Path:
    """A conversation folder as the SDK lays it out: ``base_state.json`` and ``events/``."""
    folder = root / "cd94562403b9487ebdd4018e3f531dfd"
    (folder / "events").mkdir(parents=True)
    (folder / "base_state.json").write_text(json.dumps({"id": "cd945624-03b9-487e-bdd4-018e3f531dfd",
                                                        "agent": {"llm": {"model": "openai/gpt-4o-mini"}}}))
    for n, e in enumerate(events):
        (folder / "events" / f"event-{n:05d}-{e['id']}.json").write_text(json.dumps(e, separators=(",", ":")))
    return folder


def test_a_v1_conversation_reads_as_the_messages_the_sdk_sends():
    report = inspector.check(json.dumps(v1_events()))
    assert report.dialect == "openhands" and report.ok and report.findings == []
    msgs = inspector.dialects.get("openhands").chat(v1_events(), ())[0]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "tool", "assistant"]
    assert msgs[2]["tool_calls"][0]["id"] == msgs[3]["tool_call_id"] == CALL_ID


def test_a_v1_call_without_its_observation_is_what_the_provider_refuses():
    report = inspector.check(json.dumps(v1_events(answered=False)))
    assert [(f.code, f.tool_call_id) for f in report.findings if f.severity == "error"] == [("TC001", CALL_ID)]


def test_the_actions_of_one_model_response_are_one_assistant_message():
    """Parallel calls: two ActionEvents with one ``llm_response_id`` are one message, each answered."""
    events = v1_events()
    second = {**events[2], "id": "e2", "tool_call_id": "call_2", "tool_call": {**events[2]["tool_call"], "id": "call_2"}}
    obs2 = {**events[3], "id": "o2", "tool_call_id": "call_2", "action_id": "e2"}
    events = [*events[:3], second, events[3], obs2, events[4]]
    msgs, groups = inspector.dialects.get("openhands").chat(events, ())
    assert [c["id"] for c in msgs[2]["tool_calls"]] == [CALL_ID, "call_2"] and groups[2] == [2, 3]
    assert inspector.check(json.dumps(events)).ok


def test_a_folder_is_read_by_check_and_repaired_into_a_new_folder(tmp_path, capsys):
    folder = write_folder(tmp_path, v1_events(answered=False))
    assert main(["check", str(folder)]) == 1
    assert "TC001" in capsys.readouterr().out
    # never in place, never to stdout: a folder is written back as a new folder
    assert main(["repair", str(folder)]) == 2
    assert "name a new folder with -o" in capsys.readouterr().err
    out = tmp_path / "repaired"
    assert main(["repair", str(folder), "-o", str(out)]) == 0
    names = sorted(p.name for p in (out / "events").iterdir())
    assert len(names) == 5 and (out / "base_state.json").read_text() == (folder / "base_state.json").read_text()
    added = json.loads((out / "events" / names[3]).read_text())
    assert added["kind"] == "AgentErrorEvent" and added["tool_call_id"] == CALL_ID
    assert main(["check", str(out)]) == 0
    # the input folder is as it was
    assert len(list((folder / "events").iterdir())) == 4


def test_a_folder_of_something_else_is_still_refused(tmp_path, capsys):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("hello")
    assert main(["repair", str(tmp_path / "notes"), "-o", str(tmp_path / "x")]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_a_condensation_drops_the_events_it_forgot():
    """V1 ``Condensation{forgotten_event_ids}``: a forgotten call is no longer sent, so it is no
    orphan of what is sent."""
    events = v1_events(answered=False)
    forget = {"id": "c1", "timestamp": "2026-02-05T11:24:50", "source": "environment",
              "forgotten_event_ids": [events[2]["id"]], "summary": "ran pwd", "summary_offset": 1,
              "kind": "Condensation"}
    assert inspector.check(json.dumps([*events, forget])).ok


def test_a_v0_trajectory_is_judged_for_the_model_its_responses_name_through_litellm():
    report = inspector.check(SAMPLE.read_text())
    assert report.dialect == "openhands" and report.target == "anthropic"
    assert "claude-3-5-sonnet-20241022" in report.target_reason
    errors = [(f.code, f.tool_call_id) for f in report.findings if f.severity == "error"]
    assert errors == [("TC001", "toolu_01Q3d8kU5aVpYh1cR2d9vB7e")]
    assert "tool_use` ids were found without `tool_result` blocks" in report.findings[0].provider_error


def test_v0_repair_writes_an_error_observation_as_openhands_does(tmp_path):
    fixed = inspector.repair(SAMPLE.read_bytes())
    before, after = json.loads(SAMPLE.read_text()), json.loads(fixed.output)
    assert len(after) == len(before) + 1
    added = [e for e in after if e not in before]
    assert len(added) == 1 and added[0]["observation"] == "error" and added[0]["cause"] == 10
    assert added[0]["tool_call_metadata"]["tool_call_id"] == "toolu_01Q3d8kU5aVpYh1cR2d9vB7e"
    assert after.index(added[0]) == [e["id"] for e in after].index(11) + 1  # right after the message before it
    assert inspector.check(fixed.output).ok


def test_a_repair_an_event_log_cannot_hold_is_refused_plainly():
    """An orphan observation: repair would turn it into a note, rewriting an event OpenHands
    recorded; it says so instead."""
    events = v1_events()
    orphan = {**events[3], "id": "o9", "tool_call_id": "call_nobody"}
    events.insert(4, orphan)
    assert "TC002" in {f.code for f in inspector.check(json.dumps(events)).findings}
    with pytest.raises(inspector.InputError, match="repair of an OpenHands conversation can only add a result"):
        inspector.repair(json.dumps(events))


def test_sessions_lists_openhands_conversation_folders(tmp_path):
    from inspector.agent_sessions import sessions

    write_folder(tmp_path / ".openhands" / "conversations", v1_events(answered=False))
    [row] = sessions(agent="openhands", root=tmp_path)
    assert row.dialect == "openhands" and row.verdict == "would reject" and row.path.endswith(
        "cd94562403b9487ebdd4018e3f531dfd")
    assert inspector.check(inspector.load(row.path)).findings[0].code == "TC001"


def test_watch_once_reads_a_conversation_folder_as_check_does(tmp_path, capsys):
    folder = write_folder(tmp_path, v1_events())
    assert main(["check", str(folder)]) in (0, 1)
    checked = [x for x in capsys.readouterr().out.splitlines() if x.startswith(str(folder))]
    assert main(["watch", str(folder), "--once"]) == 0  # followed (tests/cli/test_watch_folders.py), not refused
    assert [x for x in capsys.readouterr().out.splitlines() if x.startswith(str(folder))] == checked


def test_fit_writes_a_conversation_folder_as_a_new_folder(tmp_path, capsys):
    folder = write_folder(tmp_path, v1_events())
    assert main(["fit", str(folder), "--max-tokens", "100000"]) == 2
    assert "name a new folder with -o" in capsys.readouterr().err
    out = tmp_path / "fitted"
    assert main(["fit", str(folder), "--max-tokens", "100000", "-o", str(out)]) == 0
    assert sorted(p.name for p in (out / "events").iterdir()) == sorted(p.name for p in (folder / "events").iterdir())
    assert main(["check", str(out)]) == 0
