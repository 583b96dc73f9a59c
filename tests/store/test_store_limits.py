"""Issue 15: the share store and its settings under a locked database, dead-on-arrival links and
masking that would not read back. Each bound is a clear message or a call that does not wait."""

from __future__ import annotations

import json
import sqlite3

import pytest

from inspector.cli import main
from inspector.sharing.config import ConfigError, Settings
from inspector.sharing.store import MIGRATIONS, Store

MSGS = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in ("INSPECTOR_REDACT_PATTERNS", "INSPECTOR_REDACT_PATTERNS_FILE", "INSPECTOR_SHARE_TTL_DAYS",
                 "INSPECTOR_SHARE_MAX_BYTES", "INSPECTOR_STORE_PATH", "INSPECTOR_STORE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INSPECTOR_STORE_URL", f"sqlite:///{tmp_path / 's.sqlite3'}")
    p = tmp_path / "t.json"
    p.write_text(json.dumps(MSGS))
    return str(p)


def test_a_locked_sqlite_store_still_opens_and_serves_links(tmp_path):
    """Another process holds the write lock: opening the (migrated) store takes no lock, reads work."""
    path = tmp_path / "locked.sqlite3"
    url = f"sqlite:///{path}"
    first = Store(url)
    token = first.put(b"[]", "a.json")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a writer that does not let go
    holder.execute("DELETE FROM shares WHERE 0")
    try:
        second = Store(url)  # used to run BEGIN IMMEDIATE here and fail after its busy timeout
        assert second.get(token).data == b"[]"
        assert second.schema_version() == len(MIGRATIONS)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_failed_store_open_is_not_retried_on_every_page(monkeypatch):
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    from inspector.ui import share

    calls = []

    def broken(url, max_bytes, ttl_days):
        calls.append(url)
        raise RuntimeError("database is locked")

    monkeypatch.setattr(share, "_open_store", broken)
    monkeypatch.setattr(share, "_FAILED", {})
    monkeypatch.setenv("INSPECTOR_STORE_URL", "sqlite:////nonexistent/dir/x.sqlite3")

    def page():
        import streamlit as st

        from inspector.ui.share import share_panel

        share_panel(b"[]", "a.json", {})
        st.text("rest of the page")

    at = AppTest.from_function(page, default_timeout=30).run()
    at.run()
    at.run()
    assert len(calls) == 1
    assert any("cannot be reached" in e.value for e in at.error)
    assert any(t.value == "rest of the page" for t in at.text)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_in_memory_sqlite_is_a_bad_setting_not_a_dying_link(clean_env, monkeypatch, capsys, url):
    monkeypatch.setenv("INSPECTOR_STORE_URL", url)
    assert main(["share", clean_env]) == 2
    err = capsys.readouterr()
    assert err.out == "" and "in-memory" in err.err and len(err.err.strip().splitlines()) == 1


@pytest.mark.parametrize("ttl", ["1e-9", "nan", "inf", "-1", "0"])
def test_ttl_that_cannot_work_is_a_bad_setting(clean_env, capsys, ttl):
    assert main(["share", clean_env, "--ttl-days", ttl]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "--ttl-days" in out.err and "store" not in out.err


@pytest.mark.parametrize("ttl", ["nan", "inf", "1e-9"])
def test_ttl_setting_that_cannot_work_names_the_variable(ttl):
    with pytest.raises(ConfigError, match="INSPECTOR_SHARE_TTL_DAYS"):
        Settings.from_env({"INSPECTOR_SHARE_TTL_DAYS": ttl})


def test_a_masked_file_that_no_longer_reads_the_same_is_refused():
    from inspector.sharing.redact import MaskingError, check_masked

    data = json.dumps(MSGS).encode()
    check_masked(data, data)
    with pytest.raises(MaskingError, match="no longer reads"):
        check_masked(data, b'{"x": 1}')
    with pytest.raises(MaskingError, match="structure"):
        check_masked(data, json.dumps(MSGS[:1]).encode())


def test_custom_pattern_spanning_quotes_gives_a_share_that_parses(clean_env, monkeypatch, capsys, tmp_path):
    p = tmp_path / "pw.json"
    p.write_text(json.dumps([{"role": "user", "content": "password=hunter2", "x": "y"}]))
    monkeypatch.setenv("INSPECTOR_REDACT_PATTERNS", r'["password=\\S+"]')
    assert main(["share", str(p), "--redact"]) == 0
    link = capsys.readouterr().out.strip()
    token = link.split("t=")[1]
    shared = Store.from_env().get(token)
    assert json.loads(shared.data) == [{"role": "user", "content": "[REDACTED custom pattern]", "x": "y"}]
