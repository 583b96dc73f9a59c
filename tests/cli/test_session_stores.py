"""SQLite session stores in ``inspector sessions`` and ``inspector scan DIR`` (issue 32), and
message counts that count what the provider receives, not a log's lines.

The stores are the samples ``sample_logs/agents_sdk_sqlite_session.db`` (written by the OpenAI
Agents SDK's ``SQLiteSession``, see its ``.py``) and ``sample_logs/adk_sqlite_session.db`` (Google
ADK's ``DatabaseSessionService`` tables, see its ``.py``).
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import inspector
from inspector.checking import check_plain

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"
STORES = ("agents_sdk_sqlite_session.db", "adk_sqlite_session.db")


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=300)  # a guard against a hang only


def _not_a_store(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)")
    con.execute("INSERT INTO notes(body) VALUES ('x')")
    con.commit()
    con.close()
    return path


@pytest.fixture()
def project(tmp_path):
    """A project folder with both stores (one a level down, one in ADK's ``.adk``), a database that
    is no session store, and a virtual environment's database that is never walked."""
    (tmp_path / "app" / ".adk").mkdir(parents=True)
    shutil.copy(SAMPLES / STORES[0], tmp_path / "app" / "conversations.sqlite")
    shutil.copy(SAMPLES / STORES[1], tmp_path / "app" / ".adk" / "session.db")
    _not_a_store(tmp_path / "app" / "cache.db")
    venv = tmp_path / ".venv-x" / "lib"
    venv.mkdir(parents=True)
    shutil.copy(SAMPLES / STORES[0], venv / "inside.db")
    return tmp_path


def _per_session(path: str) -> dict[str, tuple]:
    """check's verdict per session of a store: session id -> (messages, dialect, target, errors, first error)."""
    doc = inspector.load(path)
    report, analyses = check_plain(doc)
    out = {}
    for k, t in enumerate(doc.transcripts):
        s = doc.root[t.path[0]][t.path[1]]
        errs = [f["text"] for f in report["findings"] if f["transcript"] == k and f["severity"] == "error"]
        out[s["session_id"]] = (len(analyses[k].msgs), report["transcript_dialects"][k],
                                report["transcript_targets"][k], len(errs), errs[0] if errs else None)
    return out


def test_sessions_lists_each_session_of_each_store_under_the_root_with_checks_verdict(project):
    p = run("sessions", "--root", project, "--format", "json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert {r["agent"] for r in rows} == {"agents-sdk", "adk"}
    assert {Path(r["path"]).name for r in rows} == {"conversations.sqlite", "session.db"}  # not cache.db, not the venv's
    by_path: dict[str, dict[str, tuple]] = {}
    for r in rows:
        want = by_path.setdefault(r["path"], _per_session(r["path"]))[r["session"]]
        assert (r["messages"], r["dialect"], r["target"], r["errors"], r["first_error"]) == want
        assert r["verdict"] == ("would reject" if want[3] else "would accept")
    assert sorted(r["session"] for r in rows) == sorted(s for p in by_path for s in _per_session(p))
    assert {r["verdict"] for r in rows} == {"would accept", "would reject"}


def test_sessions_agent_filter_and_the_current_directory_as_the_default_root(project):
    rows = json.loads(run("sessions", "--agent", "adk", "--format", "json", cwd=project / "app").stdout)
    assert {(r["agent"], Path(r["path"]).name) for r in rows} == {("adk", "session.db")}
    rows = json.loads(run("sessions", "--agent", "agents-sdk", "--root", project, "--format", "json").stdout)
    assert {(r["agent"], Path(r["path"]).name) for r in rows} == {("agents-sdk", "conversations.sqlite")}
    text = run("sessions", "--root", project).stdout
    assert "(session " in text and "first error:" in text


def test_sessions_finds_nothing_in_a_folder_of_databases_that_are_no_stores(tmp_path):
    _not_a_store(tmp_path / "a.db")
    (tmp_path / "b.sqlite").write_bytes(b"not a database at all")
    os.mkfifo(tmp_path / "c.db")  # issue 33: never opened (it waited for a writer forever)
    p = run("sessions", "--root", tmp_path, "--agent", "agents-sdk")
    assert p.returncode == 0 and p.stdout == "no sessions found\n", p.stderr


def test_scan_of_a_folder_reads_each_store_as_check_does_and_refuses_a_database_that_is_none(project):
    # ADK's .adk folder is walked (issue 33: it was passed over as a hidden folder, silently)
    p = run("scan", project / "app", "--format", "jsonl", "--jobs", "1")
    assert p.returncode == 1, p.stderr  # a session left with a call open would be rejected
    assert "Traceback" not in p.stderr
    rows = [json.loads(x) for x in p.stdout.splitlines()]
    by_file: dict[str, list[dict]] = {}
    for r in rows:
        by_file.setdefault(Path(r["source"]).name, []).append(r)
    assert set(by_file) == {"conversations.sqlite", "session.db", "cache.db"}
    [refused] = by_file.pop("cache.db")
    assert refused["problem"].endswith("SQLite database with tables notes: not a session store the inspector reads "
                                       "(an OpenAI Agents SDK SQLiteSession has agent_messages(session_id, "
                                       "message_data), a Google ADK DatabaseSessionService events(app_name, "
                                       "user_id, session_id, event_data))")
    for name, got in by_file.items():
        path = next(r["source"] for r in got)
        want = _per_session(path)
        assert len(got) == len(want), name
        for r, (messages, dialect, target, errors, _) in zip(got, want.values()):
            assert (r["messages"], r["dialect"], r["target"], r["errors"], r["problem"]) == (
                messages, dialect, target, errors, None)


# --- message counts: the messages the harness builds, not the log's lines --------------------------

def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_a_codex_rollouts_message_count_is_its_response_items_not_its_lines(tmp_path):
    from inspector.dialects import get

    rows = get("codex").samples.broken
    p = tmp_path / "rollout.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    sent = sum(r["type"] == "response_item" for r in rows)  # what the Responses API receives
    assert sent < len(rows)
    assert inspector.check(str(p)).message_count == sent
    [row] = [json.loads(x) for x in run("scan", p, "--format", "jsonl").stdout.splitlines()]
    assert row["messages"] == sent
    assert run("check", p).stdout.splitlines()[-1].startswith(f"{sent} messages in 1 transcript")


def test_a_copilot_sessions_message_count_is_the_chat_messages_copilot_sends(tmp_path):
    rows = _lines(SAMPLES / "copilot_session_aborted_call.jsonl")
    sent = sum(r["type"] in ("user.message", "assistant.message", "tool.execution_complete", "system.message")
               for r in rows)
    assert sent < len(rows)
    assert inspector.check(str(SAMPLES / "copilot_session_aborted_call.jsonl")).message_count == sent
    copilot = tmp_path / ".copilot/session-state/7d6c/events.jsonl"
    copilot.parent.mkdir(parents=True)
    shutil.copy(SAMPLES / "copilot_session_aborted_call.jsonl", copilot)
    [row] = json.loads(run("sessions", "--root", tmp_path, "--agent", "copilot", "--format", "json").stdout)
    assert row["messages"] == sent


def test_an_openhands_trajectorys_message_count_leaves_out_events_the_model_never_sees():
    path = SAMPLES / "openhands_trajectory_unanswered_call.json"
    events = json.loads(path.read_text())
    from inspector.dialects import get

    built, _ = get("openhands").chat(events, ())  # the Chat Completions messages OpenHands builds
    assert len(built) < len(events)  # agent_state_changed events are never sent
    assert inspector.check(str(path)).message_count == len(built)


# --- issue 33: a store in ADK's hidden .adk folder is scanned; an agent's hidden folder is named ----

def test_scan_walks_adks_hidden_store_folder_and_no_other_hidden_folder(project):
    (project / "app" / ".git").mkdir()
    shutil.copy(SAMPLES / STORES[0], project / "app" / ".git" / "objects.db")  # a hidden folder as any other
    p = run("scan", project / "app", "--format", "jsonl", "--jobs", "1")
    sources = {Path(json.loads(x)["source"]).relative_to(project / "app") for x in p.stdout.splitlines()}
    assert Path(".adk/session.db") in sources  # old code: passed over, and nothing said so
    assert not any(s.parts[0] == ".git" for s in sources)
    assert "passed over" not in p.stderr  # .adk is walked, .git is no agent's


def test_scan_says_in_one_line_which_agent_session_folders_it_passed_over_and_how_to_scan_one(tmp_path):
    for folder in (".claude/projects/-work-app", ".codex/sessions/2026/11/27", ".gemini"):
        (tmp_path / folder).mkdir(parents=True)  # .gemini without tmp/: a project's settings, no sessions
    shutil.copy(SAMPLES / "codex_rollout_compacted.jsonl", tmp_path / ".codex/sessions/2026/11/27/rollout-1.jsonl")
    shutil.copy(SAMPLES / STORES[0], tmp_path / "app.db")
    p = run("scan", tmp_path, "--jobs", "1")
    assert p.returncode == 1, p.stderr
    [note] = [line for line in p.stderr.splitlines() if "passed over" in line]
    assert f"({tmp_path / '.claude'}, {tmp_path / '.codex'})" in note and f"inspector scan {tmp_path / '.claude'}" in note
    named = run("scan", tmp_path / ".codex", "--format", "jsonl", "--jobs", "1")  # what the line says to do
    rows = [json.loads(x) for x in named.stdout.splitlines()]
    assert rows and all(r["source"].endswith("rollout-1.jsonl") and r["dialect"] == "codex" for r in rows)


# --- issue 33: a store's session rows carry the start its store records ------------------------------

def _utc(stamp) -> datetime.datetime:
    """A stored time as the stores write it: seconds (ADK's SqliteSessionService), or naive UTC text."""
    if isinstance(stamp, float):
        return datetime.datetime.fromtimestamp(stamp, datetime.UTC)
    return datetime.datetime.fromisoformat(stamp).replace(tzinfo=datetime.UTC)


def _started(row: dict) -> datetime.datetime:
    return datetime.datetime.fromisoformat(row["started"])


ADK_REAL = ROOT / "tests" / "reading" / "adk_real"


def test_each_adk_session_row_starts_at_its_create_time_in_adks_real_stores(tmp_path):
    for name in ("session.db", "orphan_response.db", "database_session.db"):
        shutil.copy(ADK_REAL / name, tmp_path / name)
    rows = json.loads(run("sessions", "--root", tmp_path, "--agent", "adk", "--format", "json").stdout)
    assert len(rows) == 5
    for r in rows:
        con = sqlite3.connect(f"file:{ADK_REAL / Path(r['path']).name}?mode=ro&immutable=1", uri=True)
        [(created,)] = con.execute("SELECT create_time FROM sessions WHERE id = ?", (r["session"],)).fetchall()
        con.close()
        assert r["started"] is not None, r  # old code: None for every store row
        assert abs(_started(r) - _utc(created)) < datetime.timedelta(milliseconds=1), (r, created)
    text = run("sessions", "--root", tmp_path, "--agent", "adk").stdout
    assert "adk  -  " not in text


def test_each_agents_sdk_session_row_starts_at_its_sessions_created_at(tmp_path):
    db = tmp_path / "conversations.sqlite"
    shutil.copy(SAMPLES / STORES[0], db)
    con = sqlite3.connect(db)
    con.execute("UPDATE agent_sessions SET created_at = '2026-11-26 17:45:12' WHERE session_id = 'deploy'")
    con.commit()
    want = dict(con.execute("SELECT session_id, created_at FROM agent_sessions").fetchall())
    con.close()
    rows = json.loads(run("sessions", "--root", tmp_path, "--agent", "agents-sdk", "--format", "json").stdout)
    assert {r["session"] for r in rows} == set(want) == {"weather", "deploy"}
    for r in rows:
        assert _started(r) == _utc(want[r["session"]]), r


def test_sessions_never_opens_a_named_pipe_where_a_session_file_goes(tmp_path):
    project = tmp_path / ".claude" / "projects" / "-work-app"
    project.mkdir(parents=True)
    os.mkfifo(project / "4f1c.jsonl")  # old code: sessions opened it and waited for a writer forever
    p = run("sessions", "--root", tmp_path, "--agent", "claude-code", "--format", "json")
    assert p.returncode == 0, p.stderr
    [row] = json.loads(p.stdout)
    assert row["verdict"] == f"unreadable: {project / '4f1c.jsonl'}: a named pipe, not a regular file"


def test_a_folder_whose_only_sessions_are_in_an_agents_folder_says_so_in_its_one_line(tmp_path):
    (tmp_path / ".codex/sessions/2026/11/27").mkdir(parents=True)
    shutil.copy(SAMPLES / "codex_rollout_compacted.jsonl", tmp_path / ".codex/sessions/2026/11/27/rollout-1.jsonl")
    p = run("scan", tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    [line] = p.stderr.splitlines()
    assert "no files to scan" in line and f"passed over {tmp_path / '.codex'}: name one to scan it" in line
