"""Databases written by Google ADK itself (google-adk 2.13.0: ``SqliteSessionService``, the store
``adk web`` keeps at ``.adk/session.db``, and ``DatabaseSessionService`` on SQLite): check, scan and
repair read them and give the right verdicts (issue 32). How they were made: ``tests/reading/adk_real/README.md`` and
``build_session_db.py`` beside it (run outside the repository; google-adk is no dependency).

What ``SqliteSessionService`` writes differs from the SQLAlchemy store (``database_session.db``, and
the hand-built ``sample_logs/adk_sqlite_session.db``): ``timestamp`` is a REAL (seconds), the
primary key is ``(app_name, user_id, session_id, id)``, there is no ``adk_internal_metadata`` table,
and it reads an event from ``event_data`` alone. Both write ``node_info`` (ADK 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.sqlite_stores import repair_refuses_to_write_the_input, repair_to, rows, run

import inspector

HERE = Path(__file__).parent / "adk_real"
SESSION_DB = HERE / "session.db"
ORPHAN_DB = HERE / "orphan_response.db"
SQLALCHEMY_DB = HERE / "database_session.db"
BOTH = pytest.mark.parametrize("db", [SESSION_DB, SQLALCHEMY_DB], ids=["SqliteSessionService", "DatabaseSessionService"])


def _rows(path: Path) -> list[tuple[Any, ...]]:
    return rows(path, "SELECT id, session_id, timestamp, event_data FROM events ORDER BY session_id, timestamp, rowid")


def _seconds(stamp: Any) -> float:
    """A row's timestamp as seconds (SqliteSessionService: REAL; DatabaseSessionService: naive UTC text)."""
    from datetime import UTC, datetime

    return stamp if type(stamp) is float else datetime.fromisoformat(stamp).replace(tzinfo=UTC).timestamp()


def test_the_fixtures_are_adk_s_own_rows_and_nothing_else_is_committed() -> None:
    assert sorted(p.name for p in HERE.iterdir() if p.suffix != ".py" and p.name != "__pycache__") == [
        "README.md", "database_session.db", "orphan_response.db", "session.db"]
    rows = _rows(SESSION_DB)
    data = json.loads(rows[1][3])
    assert data["content"]["parts"][0]["function_call"]["id"] == "adk-7f1c2a10-0001"
    assert data["invocation_id"] == "e-c1" and "node_info" in data


@BOTH
def test_check_reads_each_session_and_finds_the_call_left_open(db: Path) -> None:
    report = inspector.check(str(db))
    assert report.transcripts == 2 and report.transcript_dialects == ["adk", "adk"] and report.target == "gemini"
    assert report.transcript_labels == ["session s_clean (dice_agent, user u_1)", "session s_open (dice_agent, user u_1)"]
    assert [(f.transcript, f.code, f.severity, f.message_index) for f in report.findings] == [(1, "TC001", "error", 1)]
    assert "adk-7f1c2a10-0002" in report.findings[0].text and not report.ok
    p = run("check", str(db))
    assert p.returncode == 1
    assert f"{db}:session s_open, events row ev-o2: TC001 error" in p.stdout


def test_check_finds_the_orphan_response() -> None:
    report = inspector.check(str(ORPHAN_DB))
    assert [(f.code, f.severity, f.message_index) for f in report.findings] == [("TC002", "error", 1)]
    assert "adk-7f1c2a10-0009" in report.findings[0].text


@BOTH
def test_scan_says_what_check_says(db: Path) -> None:
    p = run("scan", str(db), "--format", "json")
    assert p.returncode == 1, p.stderr
    assert "s_open" in p.stdout and "TC001" in p.stdout and "TC002" not in p.stdout
    from test_differential import _agree

    assert _agree(db, [])  # check, scan, the app, repair and fit (the orphan's repair refuses: below)
    p = run("scan", str(ORPHAN_DB), "--format", "json")
    assert p.returncode == 1 and "TC002" in p.stdout and "adk-7f1c2a10-0009" in p.stdout


@BOTH
def test_repair_writes_a_new_database_adk_reads_in_order(tmp_path: Path, db: Path) -> None:
    source, db = db, tmp_path / "session.db"
    db.write_bytes(source.read_bytes())
    out = tmp_path / "repaired.db"
    repair_to(db, out)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["repaired.db", "session.db"]
    assert inspector.check(str(out)).ok
    old, new = _rows(db), _rows(out)
    assert set(old) <= set(new)  # every event ADK wrote, as it wrote it
    (added,) = [r for r in new if r not in old]
    assert [r[0] for r in new if r[1] == "s_open"] == ["ev-o1", "ev-o2", "repair-adk-7f1c2a10-0002", "ev-o3"]
    event = json.loads(added[3])
    call_time = next(r[2] for r in old if r[0] == "ev-o2")
    # ADK's SqliteSessionService reads an event from event_data alone: its time is the row's, after the call's
    assert call_time < added[2] < next(r[2] for r in old if r[0] == "ev-o3")
    assert event["timestamp"] == _seconds(added[2]) == _seconds(call_time) + 1e-6
    assert event["invocation_id"] == "e-o1" and event["author"] == "dice_agent"
    assert [x["function_response"]["id"] for x in event["content"]["parts"]] == ["adk-7f1c2a10-0002"]
    repair_refuses_to_write_the_input(db)


def test_repair_says_plainly_it_cannot_take_out_the_orphan(tmp_path: Path) -> None:
    out = tmp_path / "out.db"
    p = run("repair", str(ORPHAN_DB), "-o", str(out))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "can only add a result" in p.stderr and not out.exists()


def test_scan_of_the_folder_reads_every_database_adk_wrote() -> None:
    p = run("scan", str(HERE), "--format", "json")
    assert p.returncode == 1, p.stderr
    report = json.loads(p.stdout)
    assert report["transcripts"] == 5 and report["rejected"] == 3  # s_open twice, s_orphan
