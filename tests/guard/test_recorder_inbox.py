"""The guard's recorder and the team inbox: records kept redacted in the share store (SQLite and
PostgreSQL), under the shares' retention, listed by ``inspector inbox``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from inspector.guard import inspect_request
from inspector.guard.recorder import Recorder, error_text
from inspector.sharing.store import Store

SECRET = "sk-proj-ABCDEFGHIJKLMNOPQRSTUV0123456789abcdefgh"
ORPHAN = {"model": "gpt-4o", "messages": [
    {"role": "user", "content": f"my key is {SECRET}"},
    {"role": "tool", "tool_call_id": "call_1", "content": "72F"},
]}
OPENAI_400 = (b'{"error": {"message": "Invalid parameter: messages with role \'tool\' must be a response to a '
              b'preceeding message with \'tool_calls\'.", "type": "invalid_request_error", "param": "messages.[1].role", '
              b'"code": null}}')


def _ins(url="http://127.0.0.1:1/v1/chat/completions", body=ORPHAN):
    return inspect_request(url, json.dumps(body).encode())


def test_a_record_is_redacted_has_no_headers_and_names_the_culprit(store_url):
    store = Store(store_url)
    rid = Recorder("proxy", enabled=True, store=store).record(_ins(), "rejected", status=400,
                                                              provider_error=error_text(OPENAI_400),
                                                              response_body=OPENAI_400)
    (row,) = store.records()
    assert row["id"] == rid and row["verdict"] == "rejected" and row["source"] == "proxy"
    assert row["provider"] == "openai" and row["model"] == "gpt-4o" and row["culprit"] == 1
    assert row["provider_error"].startswith("Invalid parameter: messages with role 'tool'")
    assert row["provider_error"].endswith("(param: messages.[1].role)")
    assert [f["code"] for f in row["findings"] if f["severity"] == "error"] == ["TC002"]
    assert row["rules"] == " TC002 "
    _, data = store.record(rid)
    assert SECRET not in data.decode() and "[REDACTED API key" in data.decode()  # masked, its kind said
    har = json.loads(data)
    (entry,) = har["log"]["entries"]
    assert entry["request"]["headers"] == [] and entry["response"]["status"] == 400
    # the app reads the record as any HAR capture: the request, and the provider's error with it
    import inspector
    from inspector.reading import load_bytes

    doc = load_bytes(data, "record.har")
    assert doc.transcripts[0].extra["response_error"].startswith('{"error"')
    assert not inspector.check(doc).ok
    store.close()


def test_the_query_string_never_reaches_the_record(store_url):
    store = Store(store_url)
    body = {"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}]}
    ins = inspect_request("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
                          "?key=AIzaSyD-abcdefghijklmnopqrstuvwxyz0123456", json.dumps(body).encode())
    assert ins.target == "gemini" and ins.model == "gemini-2.5-flash" and ins.would_reject
    rid = Recorder("sdk", enabled=True, store=store).record(ins, "would_reject")
    meta, data = store.record(rid)
    assert "key=" not in meta["url"] and b"AIza" not in data and b"key=" not in data
    store.close()


def test_records_expire_with_the_shares_retention_and_filter(tmp_path):
    now = [1_000_000.0]
    store = Store(f"sqlite:///{tmp_path / 's.sqlite3'}", ttl_days=1, clock=lambda: now[0])
    rec = Recorder("test", enabled=True, store=store)
    rec.record(_ins(), "would_reject")
    now[0] += 3600
    rec.record(_ins("https://api.deepseek.com/chat/completions"), "would_reject")
    assert [r["provider"] for r in store.records()] == ["deepseek", "openai"]  # newest first
    assert [r["provider"] for r in store.records(since=int(now[0]) - 60)] == ["deepseek"]
    assert [r["provider"] for r in store.records(provider="openai")] == ["openai"]
    assert len(store.records(rule="TC002")) == 2 and store.records(rule="TC001") == []
    assert store.records(source="proxy") == []
    now[0] += 86400 - 60
    assert [r["provider"] for r in store.records()] == ["deepseek"]  # the first one's day is over
    store.close()


def test_the_scheduled_purge_removes_expired_records_too(store_url):
    """Retention runs by itself (issue 27): the server's purge, not only the next record, drops an
    expired guard record from the store, so a redacted request is not kept past its day."""
    import sqlalchemy as sa

    from inspector.sharing.store import guard_records

    now = [1_000_000.0]
    store = Store(store_url, ttl_days=1, clock=lambda: now[0])
    Recorder("test", enabled=True, store=store).record(_ins(), "would_reject")
    now[0] += 86400 + 1
    store.purge_expired()
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(guard_records)).scalar() == 0
    store.close()


def test_recording_is_off_unless_asked(monkeypatch, tmp_path):
    monkeypatch.delenv("INSPECTOR_RECORD", raising=False)
    assert Recorder().record(_ins(), "would_reject") is None
    monkeypatch.setenv("INSPECTOR_RECORD", "1")
    assert Recorder().enabled


def _inbox(*args, env=None):
    import os

    return subprocess.run([sys.executable, "-m", "inspector", "inbox", *args], capture_output=True,
                          env={**os.environ, **(env or {})}, timeout=60)


def test_inbox_cli_json_has_the_fields_the_issue_lists(tmp_path):
    path = tmp_path / "inbox.sqlite3"
    store = Store(f"sqlite:///{path}")
    Recorder("proxy", enabled=True, store=store).record(_ins(), "rejected", status=400,
                                                        provider_error=error_text(OPENAI_400), response_body=OPENAI_400)
    store.close()
    env = {"INSPECTOR_STORE_PATH": str(path), "INSPECTOR_BASE_URL": "http://inspector.example"}
    p = _inbox("--since", "1h", "--format", "json", env=env)
    assert p.returncode == 0, p.stderr
    (r,) = json.loads(p.stdout)
    assert {"time", "source", "provider", "model", "verdict", "provider_error", "findings", "link"} <= set(r)
    assert r["verdict"] == "rejected" and r["source"] == "proxy" and r["findings"][0]["code"] == "TC002"
    assert r["link"] == f"http://inspector.example/?inbox={r['id']}&m=1"
    text = _inbox(env=env)
    assert text.returncode == 0 and b"rejected" in text.stdout and b"TC002" in text.stdout
    assert json.loads(_inbox("--format", "json", "--rule", "TC001", env=env).stdout) == []


@pytest.mark.parametrize("since", ["yesterday", "1x", "-1h", ""])
def test_inbox_cli_bad_since_is_one_line_exit_2(since, tmp_path):
    p = _inbox(f"--since={since}", env={"INSPECTOR_STORE_PATH": str(tmp_path / "s.sqlite3")})
    assert p.returncode == 2 and p.stderr.decode().count("\n") == 1 and b"--since" in p.stderr
