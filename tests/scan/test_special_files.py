"""Names under a scanned folder that are no regular file (issue 33): a named pipe called ``x.json``
made ``inspector scan DIR`` open it and wait forever for a writer. Now such a name is never
opened: it gives one "could not read" row saying what it is, and the scan goes on. A named pipe
given to ``check`` (or ``check -``, or a process substitution) is still read: a user pipes into it.

Each process has a timeout only as a guard against the old hang; no assertion is about time.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "adk_session_unanswered_call.json"
GUARD = 120  # seconds: the old code never returned; a run that does is judged by its output alone


def run(*args, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], capture_output=True, input=stdin,
                          timeout=GUARD)


@pytest.fixture()
def folder(tmp_path):
    """A folder with one readable transcript and, beside it, every kind of name that is no file."""
    d = tmp_path / "logs"
    d.mkdir()
    (d / "good.json").write_bytes(SAMPLE.read_bytes())
    os.mkfifo(d / "x.json")
    (d / "null.json").symlink_to("/dev/null")  # a character device, under a name scan takes
    (d / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(d / "s.json"))
    yield d
    sock.close()


WHAT = {"x.json": "a named pipe, not a regular file", "null.json": "a character device, not a regular file",
        "s.json": "a socket, not a regular file", "gone.jsonl": "a symbolic link to nothing"}


def test_scan_of_a_folder_says_what_each_special_name_is_and_reads_the_rest(folder):
    p = run("scan", folder, "--format", "jsonl", "--jobs", "1")
    assert p.returncode == 1, p.stderr  # a name that cannot be read counts, as an unreadable file does
    rows = {Path(r["source"]).name: r for r in map(json.loads, p.stdout.splitlines())}
    assert set(rows) == {"good.json", *WHAT}
    assert rows["good.json"]["problem"] is None and rows["good.json"]["messages"] > 0
    for name, what in WHAT.items():
        assert rows[name]["problem"] == what, name
    assert b"Traceback" not in p.stderr


def test_the_text_summary_names_each_one_under_could_not_read(folder):
    p = run("scan", folder, "--jobs", "2")
    out = p.stdout.decode()
    assert p.returncode == 1 and "could not read:" in out
    for name, what in WHAT.items():
        assert f"{folder / name}: {what}" in out


def test_a_folder_holding_only_a_named_pipe_is_refused_in_one_line(tmp_path):
    os.mkfifo(tmp_path / "x.jsonl")
    p = run("scan", tmp_path)
    assert p.returncode == 2 and p.stdout == b""
    [line] = p.stderr.decode().splitlines()
    assert "no transcript could be read" in line and f"{tmp_path / 'x.jsonl'}: a named pipe, not a regular file" in line


def test_a_named_pipe_given_to_scan_is_refused_in_one_line_naming_check(tmp_path):
    os.mkfifo(tmp_path / "x.json")
    p = run("scan", tmp_path / "x.json")
    assert p.returncode == 2 and p.stdout == b""
    [line] = p.stderr.decode().splitlines()
    assert f"{tmp_path / 'x.json'}: a named pipe, not a regular file" in line and "inspector check" in line


def _checked(p: subprocess.CompletedProcess[bytes]) -> str:
    assert p.returncode == 1, p.stderr  # the sample leaves a call unanswered
    return p.stdout.decode().splitlines()[-1]


def test_check_still_reads_a_named_pipe_stdin_and_a_process_substitution(tmp_path):
    want = _checked(run("check", SAMPLE))
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as f:  # blocks until check opens the pipe for reading
            f.write(SAMPLE.read_bytes())

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    assert _checked(run("check", fifo)) == want
    writer.join(GUARD)
    assert _checked(run("check", "-", stdin=SAMPLE.read_bytes())) == want
    cmd = f"{shlex.quote(sys.executable)} -m inspector check <(cat {shlex.quote(str(SAMPLE))})"
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=GUARD, cwd=ROOT)
    assert _checked(p) == want


def test_a_named_pipe_among_a_conversation_folders_events_is_refused_naming_it(tmp_path):
    from inspector.dialects import get

    events = tmp_path / "conversation" / "events"
    events.mkdir(parents=True)
    for n, e in enumerate(get("openhands").samples.broken):
        (events / f"event-{n:05d}-{e['id']}.json").write_text(json.dumps(e))
    fifo = events / "event-99999-late.json"
    os.mkfifo(fifo)
    for door in ("check", "scan"):
        p = run(door, events.parent)
        assert p.returncode == 2 and p.stdout == b"", (door, p.stderr)
        [line] = p.stderr.decode().splitlines()
        assert f"{fifo}: a named pipe, not a regular file" in line, (door, line)
