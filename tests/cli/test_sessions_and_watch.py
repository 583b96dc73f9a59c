"""``inspector sessions`` and ``inspector watch`` (issue 32)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import inspector
from inspector.watching import Follower

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"


def run(*args):
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True)


@pytest.fixture()
def home(tmp_path):
    codex = tmp_path / ".codex/sessions/2025/10/29/rollout-2025-10-29T01-00-00-019a2d7a.jsonl"
    gemini = tmp_path / ".gemini/tmp/9c2d0e/chats/session-2026-05-02T10-00-3f1c9a52.jsonl"
    claude = tmp_path / ".claude/projects/-home-dev-shop/5c1d.jsonl"
    for p in (codex, gemini, claude):
        p.parent.mkdir(parents=True)
    shutil.copy(SAMPLES / "codex_rollout_compacted.jsonl", codex)
    shutil.copy(SAMPLES / "gemini_cli_session_rewound.jsonl", gemini)
    from inspector.dialects import get

    clean = get("claude-code").samples.clean
    claude.write_text("".join(json.dumps(e) + "\n" for e in clean))
    for k, p in enumerate((claude, gemini, codex)):  # codex the newest
        os.utime(p, (1_700_000_000 + k, 1_700_000_000 + k))
    return tmp_path


def test_sessions_lists_the_newest_first_with_the_verdict_check_gives(home):
    p = run("sessions", "--root", str(home), "--format", "json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert [r["agent"] for r in rows] == ["codex", "gemini", "claude-code"]
    for r in rows:
        report = inspector.check(r["path"])
        assert (r["dialect"], r["target"], r["messages"]) == (report.dialect, report.target, report.message_count)
        assert r["verdict"] == ("would accept" if report.ok else "would reject")
        assert r["errors"] == sum(f.severity == "error" for f in report.findings)
    assert rows[0]["project"] == "/home/dev/shop" and rows[0]["first_error"].startswith("Message #3 calls tool")
    assert rows[2]["project"] == "-home-dev-shop" and rows[2]["verdict"] == "would accept"


def test_sessions_filters_by_agent_and_count(home):
    rows = json.loads(run("sessions", "--root", str(home), "--format", "json", "--agent", "gemini").stdout)
    assert [r["agent"] for r in rows] == ["gemini"]
    rows = json.loads(run("sessions", "--root", str(home), "--format", "json", "--last", "1").stdout)
    assert [r["agent"] for r in rows] == ["codex"]
    text = run("sessions", "--root", str(home)).stdout
    assert "codex" in text and "would reject" in text and "first error:" in text


def test_sessions_with_a_root_that_is_no_directory_exits_2(tmp_path):
    p = run("sessions", "--root", str(tmp_path / "nowhere"))
    assert p.returncode == 2 and "is not a directory" in p.stderr


def _lines(rows) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in rows)


def _codex_rows():
    return [json.loads(x) for x in (SAMPLES / "codex_rollout_compacted.jsonl").read_text().splitlines()]


def test_watch_reads_complete_lines_only_and_reports_each_finding_once(tmp_path):
    rows = _codex_rows()
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(_lines(rows[:19]))  # up to the open call_B1: pending, a note
    f = Follower(str(path))
    new, _, _ = f.poll()
    assert [x["code"] for x in new] == ["TC022"]
    tail = _lines(rows[19:21])
    with open(path, "ab") as out:
        out.write(tail[:-10])  # call_B2's line cut short: not read yet
    new, _, _ = f.poll()
    assert f.line_numbers[-1] == 20 and [x["code"] for x in new] == []
    with open(path, "ab") as out:
        out.write(tail[-10:] + _lines(rows[21:]))
    new, _, _ = f.poll()
    assert sorted((x["code"], x["tool_call_id"]) for x in new) == [("TC001", "call_B1"), ("TC001", "call_B2")]
    assert f.poll()[0] == []  # nothing appended: nothing new, nothing said twice
    whole = inspector.check(str(path))
    assert {(x.code, x.tool_call_id) for x in whole.findings if x.severity == "error"} == {
        ("TC001", "call_B1"), ("TC001", "call_B2")}


def test_watch_reads_a_truncated_or_rotated_file_again_from_its_start(tmp_path):
    rows = _codex_rows()
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(_lines(rows))
    f = Follower(str(path))
    assert len(f.poll()[0]) == 2
    path.write_bytes(_lines(rows[:5]))  # truncated
    f.poll()
    assert f.restarted == "the file was truncated" and len(f.items) == 5
    other = tmp_path / "next.jsonl"
    other.write_bytes(_lines(rows))
    os.replace(other, path)  # rotated: a new file under the same name
    new, _, _ = f.poll()
    assert f.restarted == "the file was replaced (rotated)" and len(new) == 2


def test_watch_fail_fast_exits_1_at_the_first_error_as_it_is_appended(tmp_path):
    rows = _codex_rows()
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(_lines(rows[:18]))
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "watch", str(path), "--fail-fast", "--interval", "0.05"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with open(path, "ab") as out:
            out.write(_lines(rows[18:]))
        first = proc.stdout.readline()  # waits for the finding to be printed
        assert f"{path}:19: TC001 error" in first
        assert proc.wait(timeout=60) == 1
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
