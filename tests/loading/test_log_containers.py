"""Log containers agents write (Letta agent files, mini-swe-agent trajectories, Agents SDK run
states, Claude Code logs) and the CLI over them: found, named, every transcript checked, and
``--from`` overriding detection."""

from __future__ import annotations

import json
import subprocess
import sys

import inspector


def chat_round(cid):
    return [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": cid, "type": "function", "function": {"name": "send_message", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": cid, "content": "sent"},
    ]


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "inspector", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_letta_agent_file_gives_one_transcript_per_agent(tmp_path):
    broken = chat_round("call_b")[:2] + [{"role": "user", "content": "hello?"}]
    af = {"agents": [{"name": "main", "messages": chat_round("call_a")}, {"name": "sleeptime", "messages": broken}]}
    doc = inspector.load(af)
    assert [t.container for t in doc.transcripts] == ["Letta agent file, agent main", "Letta agent file, agent sleeptime"]
    r = inspector.check(af)
    assert r.transcripts == 2
    assert [(f.code, f.transcript) for f in r.findings] == [("TC001", 1)]
    path = tmp_path / "agent.af"
    path.write_text(json.dumps(af))
    proc = run_cli("check", str(path), "--format", "json")
    assert proc.returncode == 1
    assert [(f["code"], f["transcript"]) for f in json.loads(proc.stdout)["findings"]] == [("TC001", 1)]


def test_mini_swe_agent_trajectory_is_named_and_exit_is_an_unknown_role():
    traj = {"trajectory_format": "mini-swe-agent-1.1", "info": {"exit_status": "Submitted"},
            "messages": chat_round("call_a") + [{"role": "exit", "content": ""}]}
    assert inspector.load(traj).transcripts[0].container == "mini-swe-agent trajectory"
    assert [f.code for f in inspector.check(traj).findings] == ["TC024"]


def test_from_overrides_detection_on_the_command_line():
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    proc = run_cli("check", "-", "--from", "anthropic", "--format", "json", stdin=json.dumps(msgs))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["dialect"], out["target"]) == ("anthropic", "anthropic")
    auto = json.loads(run_cli("check", "-", "--format", "json", stdin=json.dumps(msgs)).stdout)
    assert auto["dialect"] == "openai-chat"


def test_every_dialect_is_offered_by_from():
    proc = run_cli("check", "--help")
    for name in ("openai-chat", "anthropic", "openai-responses", "gemini", "bedrock", "langchain", "claude-code"):
        assert name in proc.stdout


def test_a_file_without_a_conversation_gets_exit_2_and_one_line():
    proc = run_cli("check", "-", stdin=json.dumps({"agents": "none", "loglines": 3, "eval": {}}))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "no conversation found" in proc.stderr
