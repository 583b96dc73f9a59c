"""OpenAI Agents SDK ``SQLiteSession`` databases (issue 32): read-only, one transcript per session,
repaired into a new database, a database of other tables refused naming them.

The schema and the rows are the SDK's own: the tables as ``SQLiteSession._create_schema_for_connection``
creates them and each row a Responses item as ``_insert_items`` writes it (``json.dumps``), in
openai/openai-agents-python ``src/agents/memory/sqlite_session.py`` (commit 7f7a44f, 2026-08-22);
``get_items`` reads ``ORDER BY id ASC`` and skips a row that is not JSON. The ``weather`` session of
the sample is the history of the SDK's test ``test_session_limit_drops_unmatched_history_function_
call_output`` (tests/memory/test_session_limit.py, 2026-08-13). The sample is built by
``sample_logs/agents_sdk_sqlite_session.py`` (this suite builds it again and compares).

The container's conformance entry: the clean session checks clean and the broken one has an error;
repair of the store writes a new database whose sessions check clean, keeps every row it did not
need to change (ids and text), loses no string, and repairing it again changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from support.sqlite_stores import builder, repair_refuses_to_write_the_input, repair_to, run, written
from support.sqlite_stores import rows as _stored

import inspector
from inspector.errors import InputError
from inspector.sqlite_sessions import HEADER

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "agents_sdk_sqlite_session.db"


def _builder():
    return builder(SAMPLE)


def _rows(path: Path) -> list[tuple]:
    return _stored(path, "SELECT id, session_id, message_data FROM agent_messages ORDER BY id")


def test_the_committed_sample_is_what_its_script_builds(tmp_path):
    built = _builder().build(tmp_path / "s.db")
    assert _rows(built) == _rows(SAMPLE)


def test_one_transcript_per_session_read_as_responses_items():
    report = inspector.check(str(SAMPLE))
    assert report.transcripts == 2 and report.transcript_dialects == ["openai-responses"] * 2
    assert report.target == "responses"
    assert [(f.transcript, f.code, f.message_index) for f in report.findings if f.severity == "error"] == [(1, "TC001", 1)]
    doc = inspector.load(str(SAMPLE))
    assert [t.label for t in doc.transcripts] == ["session weather", "session deploy"]
    assert doc.transcripts[0].items == _builder().SESSIONS["weather"]


def test_check_names_the_session_and_row_and_exits_1():
    p = run("check", str(SAMPLE))
    assert p.returncode == 1
    assert f"{SAMPLE}:session deploy, agent_messages row 6: TC001 error" in p.stdout


def test_the_database_is_opened_read_only(tmp_path):
    """Nothing is written: the file keeps its bytes and nothing appears beside it (no journal, no WAL)."""
    db = tmp_path / "ro.db"
    db.write_bytes(SAMPLE.read_bytes())
    assert inspector.check(str(db)).transcripts == 2
    assert inspector.repair(str(db)).report.ok
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro.db"]
    assert db.read_bytes() == SAMPLE.read_bytes()


def test_a_database_that_is_no_session_store_is_refused_naming_its_tables(tmp_path):
    db = tmp_path / "app.db"
    with written(db) as con:
        con.execute("CREATE TABLE users (id INTEGER, name TEXT)")
        con.execute("CREATE TABLE orders (id INTEGER, total REAL)")
    p = run("check", str(db))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip().splitlines() == [(
        f"inspector: {db}: SQLite database with tables users, orders: not a session store the inspector reads "
        "(an OpenAI Agents SDK SQLiteSession has agent_messages(session_id, message_data), a Google ADK "
        "DatabaseSessionService events(app_name, user_id, session_id, event_data))")]
    (tmp_path / "bad.db").write_bytes(HEADER + b"\x00" * 84)
    p = run("check", str(tmp_path / "bad.db"))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_a_row_that_is_not_json_is_skipped_as_the_sdk_does_and_kept_by_repair(tmp_path):
    db = _builder().build(tmp_path / "s.db")
    with written(db) as con:
        con.execute("INSERT INTO agent_messages (session_id, message_data) VALUES ('deploy', 'not json')")
    doc = inspector.load(str(db))
    assert doc.transcripts[1].extra["skipped_rows"] == [8]
    res = inspector.repair(str(db))
    out = tmp_path / "out.db"
    out.write_bytes(res.output)
    assert "not json" in [r[2] for r in _rows(out)]


def test_repair_writes_a_new_database_and_never_the_input(tmp_path):
    db = _builder().build(tmp_path / "s.db")
    out = tmp_path / "repaired.db"
    repair_to(db, out)
    assert out.read_bytes()[:16] == HEADER
    again = inspector.check(str(out))
    assert again.ok and again.transcripts == 2
    old, new = _rows(db), _rows(out)
    assert [r for r in old if r[1] == "weather"] == [r for r in new if r[1] == "weather"]  # untouched session
    assert old[4:6] == new[4:6]  # the deploy session's rows before the change keep their ids and text
    added = [json.loads(r[2]) for r in new if r not in old]
    assert added[0]["type"] == "function_call_output" and added[0]["call_id"] == "call_deploy_1"
    strings = {json.dumps(json.loads(r[2])) for r in old}
    assert strings <= {json.dumps(json.loads(r[2])) for r in new}  # nothing lost
    assert inspector.repair(str(out)).output == out.read_bytes()  # idempotent: nothing more to do
    repair_refuses_to_write_the_input(db)  # never over the input, never to stdout


def test_scan_and_the_app_read_it_as_check_does():
    from test_differential import _agree

    assert _agree(SAMPLE, [])


def test_bytes_read_as_the_file(tmp_path):
    """An upload (bytes) and the file read in place give the same sessions."""
    a = inspector.check(SAMPLE.read_bytes())
    b = inspector.check(str(SAMPLE))
    assert a.model_dump()["findings"] == b.model_dump()["findings"]


@pytest.mark.parametrize("table", ["agent_messages", "custom_messages"])
def test_a_renamed_messages_table_is_read(tmp_path, table):
    db = tmp_path / "c.db"
    with written(db) as con:
        con.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, "
                    "message_data TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)")
        con.execute(f"INSERT INTO {table} (session_id, message_data) VALUES ('s', ?)",
                    (json.dumps({"role": "user", "content": "hi"}),))
    doc = inspector.load(str(db))
    assert doc.transcripts[0].label == ("session s" if table == "agent_messages" else f"session s ({table})")


def test_an_empty_store_is_refused(tmp_path):
    db = _builder().build(tmp_path / "e.db")
    with written(db) as con:
        con.execute("DELETE FROM agent_messages")
    with pytest.raises(InputError, match="holds no session"):
        inspector.check(str(db))


def test_rows_still_in_the_wal_of_a_running_agent_are_read(tmp_path):
    db = _builder().build(tmp_path / "live.db")
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("INSERT INTO agent_messages (session_id, message_data) VALUES ('deploy', ?)",
                (json.dumps({"type": "function_call_output", "call_id": "call_deploy_1", "output": "deployed"}),))
    con.commit()  # in the -wal file, not yet in the database file; the connection stays open
    try:
        assert (tmp_path / "live.db-wal").stat().st_size > 0
        assert len(inspector.load(str(db)).transcripts[1].items) == 4
    finally:
        con.close()


def test_watch_says_a_database_is_no_json_lines_file():
    p = run("watch", str(SAMPLE), "--once")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "SQLite database" in p.stderr
