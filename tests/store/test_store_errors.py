"""Issue 22: what a store error tells a user (a generic sentence; the database's host, port, path
and the driver's words only in the server log), and a SQLite store that cannot be written (links
still open; sharing says the store is read-only). Real SQLite files, the real PostgreSQL server."""

from __future__ import annotations

import json
import logging
import os
import subprocess
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.sharing.store import READ_ONLY, UNAVAILABLE, ReadOnlyStore, Store

MSGS = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]


def _transcript(tmp_path: Path) -> str:
    p = tmp_path / "t.json"
    p.write_text(json.dumps(MSGS))
    return str(p)


def _page():
    from inspector.ui.share import share_panel

    share_panel(b'[{"role": "user", "content": "hi"}]', "a.json", {})


def _app_errors(monkeypatch, url: str) -> list[str]:
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    from inspector.ui import share

    monkeypatch.setattr(share, "_FAILED", {})
    share._open_store.clear()
    monkeypatch.setenv("INSPECTOR_STORE_URL", url)
    at = AppTest.from_function(_page, default_timeout=60).run()
    texts = [e.value for e in at.error] + [c.value for c in at.code]
    if not at.error:
        at.button(key="share_button").click().run()
        texts = [e.value for e in at.error] + [c.value for c in at.code]
    return texts


@pytest.fixture
def bad_pg_url(pg_cluster):
    """The real server, asked for a database that does not exist: its error names host and port."""
    from sqlalchemy.engine import make_url

    u = make_url(pg_cluster.url)
    return u.set(database="no_such_db_here").render_as_string(hide_password=False), str(u.port)


@pytest.mark.postgres
def test_postgresql_errors_show_users_no_host_or_port(bad_pg_url, tmp_path, capsys, monkeypatch, caplog):
    url, port = bad_pg_url
    monkeypatch.setenv("INSPECTOR_STORE_URL", url)
    with caplog.at_level(logging.WARNING, logger="inspector.store"):
        assert main(["share", "--keep-secrets", _transcript(tmp_path)]) == 3
    err = capsys.readouterr().err
    assert err.strip() == f"inspector: cannot use the share store: {UNAVAILABLE}"
    assert port not in err and "127.0.0.1" not in err and "no_such_db_here" not in err
    assert any(port in r.getMessage() and "no_such_db_here" in r.getMessage() for r in caplog.records)

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="inspector.store"):
        shown = _app_errors(monkeypatch, url)
    assert any("Share store unavailable" in t for t in shown)
    assert not any(port in t or "127.0.0.1" in t or "no_such_db_here" in t for t in shown)
    assert any(port in r.getMessage() for r in caplog.records)


def test_sqlite_errors_show_users_no_path(tmp_path, capsys, monkeypatch, caplog):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    url = f"sqlite:///{blocker}/shares.sqlite3"
    monkeypatch.setenv("INSPECTOR_STORE_URL", url)
    assert main(["share", "--keep-secrets", _transcript(tmp_path)]) == 3
    err = capsys.readouterr().err
    assert err.strip() == f"inspector: cannot use the share store: {UNAVAILABLE}"
    # with INSPECTOR_LOG_FORMAT the details reach the operator on stderr
    monkeypatch.setenv("INSPECTOR_LOG_FORMAT", "text")
    assert main(["share", "--keep-secrets", _transcript(tmp_path)]) == 3
    assert "not-a-directory" in capsys.readouterr().err
    monkeypatch.delenv("INSPECTOR_LOG_FORMAT")
    with caplog.at_level(logging.WARNING, logger="inspector.store"):
        shown = _app_errors(monkeypatch, url)
    assert any("Share store unavailable" in t for t in shown)
    assert not any("not-a-directory" in t for t in shown)
    assert any("not-a-directory" in r.getMessage() for r in caplog.records)


@pytest.fixture
def read_only(tmp_path):
    """Make a file and its directory really unwritable: by mode, or (as root, whom modes do not
    stop) by the immutable attribute. Undone afterwards."""
    made: list[Path] = []

    def make(path: Path) -> None:
        for p in (path, path.parent):
            p.chmod(0o555 if p.is_dir() else 0o444)
        if os.access(path, os.W_OK) or os.access(path.parent, os.W_OK):
            for p in (path, path.parent):
                if subprocess.run(["chattr", "+i", str(p)], capture_output=True).returncode != 0:
                    pytest.skip("cannot make a file read-only here (root without chattr)")
                made.append(p)
        assert not os.access(path, os.W_OK) and not os.access(path.parent, os.W_OK)

    yield make
    for p in made:
        subprocess.run(["chattr", "-i", str(p)], check=True)
    for p in tmp_path.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)


def test_a_read_only_sqlite_store_still_opens_links_and_says_it_is_read_only(tmp_path, read_only, capsys, monkeypatch):
    path = tmp_path / "store" / "shares.sqlite3"
    url = f"sqlite:///{path}"
    writer = Store(url)
    token = writer.put(b'[{"role": "user", "content": "hi"}]', "a.json", {"target": "openai"})
    writer.close()
    read_only(path)

    store = Store(url)  # used to fail: "unable to open database file" / "attempt to write a readonly database"
    assert store.read_only
    shared = store.open(token)  # the open's audit row cannot be written: it goes to the log instead
    assert shared.data == b'[{"role": "user", "content": "hi"}]' and shared.view == {"target": "openai"}
    assert store.purge_expired() == 0
    with pytest.raises(ReadOnlyStore, match="read-only"):
        store.put(b"[]", "b.json")
    with pytest.raises(ReadOnlyStore):
        store.delete(token)
    store.close()

    monkeypatch.setenv("INSPECTOR_STORE_URL", url)
    assert main(["share", "--keep-secrets", _transcript(tmp_path)]) == 3
    assert READ_ONLY in capsys.readouterr().err
    shown = _app_errors(monkeypatch, url)
    assert any("read-only" in t and "existing links still open" in t for t in shown)
