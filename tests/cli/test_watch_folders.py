"""``inspector watch`` on a folder (issue 32): a session kept as a folder is followed while a real
process writes to it, each new finding printed once, in check's words; a folder that is not one
session is refused with one line naming what to pass."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from inspector.dialects import get

ROOT = Path(__file__).resolve().parents[2]

# A process that writes one event file (or appends one line) per line it reads on stdin, and
# says "wrote N" when it has: the agent, as a separate process.
WRITER = r"""
import json, os, sys
kind, target, items = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
for n, e in enumerate(items):
    sys.stdin.readline()
    if kind == "folder":
        tmp = os.path.join(target, f".event-{n}.tmp")
        with open(tmp, "w") as f:
            f.write(json.dumps(e))
        os.replace(tmp, os.path.join(target, f"event-{n + 10:05d}-{e['id']}.json"))
    else:
        with open(target, "a") as f:
            f.write(json.dumps(e) + "\n")
    print(f"wrote {n}", flush=True)
"""


def _start(*args):
    return subprocess.Popen([sys.executable, *map(str, args)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _step(writer) -> None:
    writer.stdin.write("\n")
    writer.stdin.flush()
    assert writer.stdout.readline().startswith("wrote")


def _stop(*procs) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait(timeout=60)
        for s in (p.stdin, p.stdout, p.stderr):
            if s:
                s.close()


def _finding_lines(text: str) -> list[str]:
    return [x for x in text.splitlines() if ": TC" in x]


def _check_lines(path: Path) -> list[str]:
    return _finding_lines(subprocess.run([sys.executable, "-m", "inspector", "check", str(path)],
                                         capture_output=True, text=True).stdout)


def test_watch_follows_an_openhands_conversation_folder_as_another_process_writes_its_event_files(tmp_path):
    events = get("openhands").samples.broken  # system, ask, a call left unanswered, another ask
    folder = tmp_path / "conversations" / "c1"
    (folder / "events").mkdir(parents=True)
    (folder / "base_state.json").write_text(json.dumps({"id": "c1", "agent": {"kind": "Agent", "llm": {
        "model": "anthropic/claude-sonnet-4-5-20250929"}}}))
    for n, e in enumerate(events[:2]):
        (folder / "events" / f"event-{n:05d}-{e['id']}.json").write_text(json.dumps(e))
    watcher = _start("-m", "inspector", "watch", folder, "--interval", "0.02")
    writer = _start("-c", WRITER, "folder", folder / "events", json.dumps(events[2:]))
    try:
        _step(writer)  # the call: pending while the tool runs
        first = watcher.stdout.readline()
        assert ": TC022 warning" in first and "call_KaQ0kUcBb5tbMzhxbIx9dvoZ" in first
        _step(writer)  # the user speaks with the call unanswered: the provider would refuse it
        line = watcher.stdout.readline()
        while not line.startswith(str(folder)):
            line = watcher.stdout.readline()  # the hint under the first finding
        assert ": TC001 error" in line
        assert line.rstrip("\n") in _check_lines(folder)  # check's own line for the folder as it now is
    finally:
        _stop(writer, watcher)
    printed = _finding_lines(watcher_output := (first + line))
    assert len(printed) == len(set(printed)) == 2, watcher_output


def test_watch_follows_the_events_file_of_a_copilot_session_folder(tmp_path):
    lines = [json.loads(x) for x in (ROOT / "sample_logs" / "copilot_session_aborted_call.jsonl").read_text().splitlines()]
    session = tmp_path / ".copilot" / "session-state" / "7d6c0a1e"
    session.mkdir(parents=True)
    log = session / "events.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in lines[:4]))
    watcher = _start("-m", "inspector", "watch", session, "--interval", "0.02", "--fail-fast")
    writer = _start("-c", WRITER, "lines", log, json.dumps(lines[4:]))
    try:
        for _ in lines[4:]:
            _step(writer)
        assert watcher.wait(timeout=120) == 1  # --fail-fast: the error appeared
        out = watcher.stdout.read()
    finally:
        _stop(writer, watcher)
    first = _finding_lines(out)[0]
    assert first.startswith(f"{log}:") and ": TC001 error" in first and first in _check_lines(log)


def test_watch_refuses_a_folder_that_is_not_one_session_naming_what_to_pass(tmp_path):
    projects = tmp_path / ".claude" / "projects" / "-home-dev-shop"
    projects.mkdir(parents=True)
    (projects / "5c1d.jsonl").write_text(json.dumps(get("claude-code").samples.clean[0]) + "\n")
    p = subprocess.run([sys.executable, "-m", "inspector", "watch", str(projects)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2
    [line] = p.stderr.splitlines()
    assert "is a folder that is not one session" in line and str(projects / "5c1d.jsonl") in line
