"""Google ADK ``DatabaseSessionService`` SQLite stores (issue 32): one transcript per session of the
``events`` table, read by the ADK dialect in ``get_session``'s order (by timestamp), read-only;
repair writes a new database (v1 schema) or says plainly it cannot (v0, whose actions are pickled);
a database of other tables is still refused in one line.

The schema and the rows are ADK's own: google/adk-python ``src/google/adk/sessions/schemas/v1.py``
(``StorageEvent``: ``events(id, app_name, user_id, session_id, invocation_id, timestamp,
event_data)``, ``event_data`` = ``Event.model_dump(exclude_none=True, mode="json")``, commit 0c505fe)
and ``schemas/v0.py`` (``events(..., author, actions PICKLE, content JSON, partial, ...)``, commit
0e57908); ``database_session_service.py`` ``get_session`` (commit 0012809) orders by timestamp. Read
2026-11-27. The sample is built by ``sample_logs/adk_sqlite_session.py`` (compared here).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.sqlite_stores import builder, repair_refuses_to_write_the_input, repair_to, run, written
from support.sqlite_stores import rows as _stored

import inspector

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "adk_sqlite_session.db"


def _builder() -> Any:
    return builder(SAMPLE)


def _rows(path: Path) -> list[tuple[Any, ...]]:
    return _stored(path, "SELECT id, session_id, timestamp, event_data FROM events ORDER BY session_id, timestamp")


def test_the_committed_sample_is_what_its_script_builds(tmp_path: Path) -> None:
    assert _rows(_builder().build(tmp_path / "s.db")) == _rows(SAMPLE)


def test_one_transcript_per_session_in_timestamp_order_read_as_adk_events() -> None:
    report = inspector.check(str(SAMPLE))
    assert report.transcripts == 2 and report.transcript_dialects == ["adk", "adk"]
    assert report.target == "gemini"
    errors = [(f.transcript, f.code, f.message_index) for f in report.findings if f.severity == "error"]
    assert errors == [(1, "TC001", 1)]
    doc = inspector.load(str(SAMPLE))
    assert [t.label for t in doc.transcripts] == ["session s_clean (hello_world, user user_123)",
                                                  "session s_open (hello_world, user user_123)"]
    # the rows were written newest first; the transcript is in ADK's order, each event as stored
    assert doc.transcripts[0].items == _builder().SESSIONS["s_clean"]


def test_check_names_the_session_and_event_and_exits_1() -> None:
    p = run("check", str(SAMPLE))
    assert p.returncode == 1
    assert f"{SAMPLE}:session s_open, events row ev-o2: TC001 error" in p.stdout


def test_the_database_is_opened_read_only(tmp_path: Path) -> None:
    db = tmp_path / "ro.db"
    db.write_bytes(SAMPLE.read_bytes())
    assert inspector.check(str(db)).transcripts == 2
    assert inspector.repair(str(db)).report.ok  # repair reads it too (and its result checks clean)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro.db"]
    assert db.read_bytes() == SAMPLE.read_bytes()


def test_a_database_of_other_tables_is_still_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "app.db"
    with written(db) as con:
        con.execute("CREATE TABLE events (id INTEGER, name TEXT, at TEXT)")  # an "events" table, not ADK's
    p = run("check", str(db))
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "SQLite database with tables events: not a session store" in lines[0]
    assert "Google ADK DatabaseSessionService events(app_name, user_id, session_id, event_data)" in lines[0]


def test_repair_writes_a_new_database_and_never_the_input(tmp_path: Path) -> None:
    db = _builder().build(tmp_path / "s.db")
    out = tmp_path / "repaired.db"
    repair_to(db, out)
    again = inspector.check(str(out))
    assert again.ok and again.transcripts == 2
    old, new = _rows(db), _rows(out)
    assert [r for r in old if r[1] == "s_clean"] == [r for r in new if r[1] == "s_clean"]  # untouched session
    added = [r for r in new if r not in old]
    assert [r[0] for r in added] == ["repair-adk-o"]
    order = [r[0] for r in new if r[1] == "s_open"]
    assert order == ["ev-o1", "ev-o2", "repair-adk-o", "ev-o3"]  # between the call and the next event by timestamp
    event = json.loads(added[0][3])
    assert event["invocation_id"] == "e-o" and event["content"]["role"] == "user"
    assert [p["functionResponse"]["id"] for p in event["content"]["parts"]] == ["adk-o"]
    assert set(old) <= set(new)  # every stored event kept as it was
    assert inspector.repair(str(out)).output == out.read_bytes()  # idempotent
    repair_refuses_to_write_the_input(db)


def _v0(path: Path) -> Path:
    """The sample's sessions in ADK's v0 schema (``schemas/v0.py``: content JSON, actions pickled;
    the actions column is left NULL here: it is never read)."""
    with written(path) as con:
        con.execute("CREATE TABLE events (id VARCHAR(128) NOT NULL, app_name VARCHAR(128) NOT NULL, "
                    "user_id VARCHAR(128) NOT NULL, session_id VARCHAR(128) NOT NULL, invocation_id VARCHAR(256), "
                    "author VARCHAR(256), actions BLOB, long_running_tool_ids_json TEXT, branch VARCHAR(256), "
                    "timestamp DATETIME, content TEXT, grounding_metadata TEXT, custom_metadata TEXT, "
                    "usage_metadata TEXT, citation_metadata TEXT, partial BOOLEAN, turn_complete BOOLEAN, "
                    "error_code VARCHAR(256), error_message TEXT, interrupted BOOLEAN, input_transcription TEXT, "
                    "output_transcription TEXT, PRIMARY KEY (id, app_name, user_id, session_id))")
        b = _builder()
        for sid, events in b.SESSIONS.items():
            for e in events:
                con.execute("INSERT INTO events (id, app_name, user_id, session_id, invocation_id, author, timestamp, "
                            "content) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            (e["id"], b.APP, b.USER, sid, e["invocation_id"], e["author"], b._stamp(e["timestamp"]),
                             json.dumps(e["content"])))
    return path


def test_the_v0_schema_is_read_and_repair_says_plainly_it_cannot_write_it(tmp_path: Path) -> None:
    db = _v0(tmp_path / "v0.db")
    report = inspector.check(str(db))
    assert report.transcript_dialects == ["adk", "adk"]
    assert [(f.transcript, f.code, f.message_index) for f in report.findings if f.severity == "error"] == [(1, "TC001", 1)]
    p = run("repair", str(db), "-o", str(tmp_path / "out.db"))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "v0 schema" in p.stderr and "cannot" in p.stderr
    assert not (tmp_path / "out.db").exists()


def test_a_partial_event_is_not_sent_as_adk_does(tmp_path: Path) -> None:
    """A stored ``partial`` event (ADK does not store one, but a database may hold it) is not among
    the contents the model receives (``_get_contents``)."""
    db = _builder().build(tmp_path / "p.db")
    e = {"content": {"parts": [{"function_response": {"id": "adk-o", "name": "roll_die", "response": {"r": 1}}}],
                     "role": "user"}, "invocation_id": "e-o", "author": "hello_world_agent", "partial": True,
         "id": "ev-p", "timestamp": 0}
    with written(db) as con:
        con.execute("INSERT INTO events VALUES ('ev-p', 'hello_world', 'user_123', 's_open', 'e-o', "
                    "'2025-11-27 08:00:12.000000', ?)", (json.dumps(e),))
    assert [f.code for f in inspector.check(str(db)).findings if f.severity == "error"] == ["TC001"]


def test_scan_and_the_app_read_it_as_check_does() -> None:
    from test_differential import _agree

    assert _agree(SAMPLE, [])


def test_bytes_read_as_the_file() -> None:
    a = inspector.check(SAMPLE.read_bytes())
    b = inspector.check(str(SAMPLE))
    assert a.model_dump()["findings"] == b.model_dump()["findings"]


def test_a_database_holding_both_stores_gives_every_session(tmp_path: Path) -> None:
    db = _builder().build(tmp_path / "both.db")
    with written(db) as con:
        con.execute("CREATE TABLE agent_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, "
                    "message_data TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)")
        con.execute("INSERT INTO agent_messages (session_id, message_data) VALUES ('s', ?)",
                    (json.dumps({"role": "user", "content": "hi"}),))
    assert inspector.check(str(db)).transcripts == 3


def test_repair_says_plainly_when_a_new_event_would_not_sort_before_the_next(tmp_path: Path) -> None:
    """The next event one microsecond after the call: no timestamp between them, so no event can be
    placed there in ADK's order; repair says so in one line and writes nothing."""
    db = _builder().build(tmp_path / "tight.db")
    with written(db) as con:
        con.execute("UPDATE events SET timestamp = '2025-11-27 08:00:11.250001' WHERE id = 'ev-o3'")
    out = tmp_path / "out.db"
    p = run("repair", str(db), "-o", str(out))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "no room for a new event" in p.stderr and "session s_open" in p.stderr
    assert not out.exists()
