"""The share store against real databases: SQLite files and the PostgreSQL server of the run."""

from __future__ import annotations

import base64
import json
import os
import threading

import pytest
import sqlalchemy as sa

from inspector.sharing.store import DAY, Shared, ShareTooLarge, Store, share_link, token_from_link

TRANSCRIPT = json.dumps(
    {"messages": [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "x", "content": "ok"}]}
).encode()
VIEW = {"target": "anthropic", "dialect": None, "options": {"missing": "placeholder"}, "selected": 1, "transcript": 0}


class Clock:
    def __init__(self, now: float = 1_800_000_000):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(store_url):
    s = Store(store_url)
    yield s
    s.close()


def test_share_round_trips_bytes_name_and_view(store):
    token = store.put(TRANSCRIPT, "broken.json", VIEW)
    got = store.get(token)
    assert isinstance(got, Shared)
    assert (got.data, got.name, got.view) == (TRANSCRIPT, "broken.json", VIEW)


def test_bytes_are_kept_exactly_even_when_not_utf8_or_incompressible(store):
    odd = b"\xff\xfe not utf-8 \x00" + os.urandom(4096)
    assert store.get(store.put(odd, "odd.bin", {})).data == odd
    big = b'{"role":"user","content":"' + b"a" * 3_000_000 + b'"}'
    assert store.get(store.put(big, "big.json", {})).data == big


def test_tokens_are_unguessable_url_safe_and_distinct(store):
    tokens = {store.put(TRANSCRIPT, "t.json", {}) for _ in range(200)}
    assert len(tokens) == 200
    for t in tokens:
        raw = base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))
        assert len(raw) * 8 >= 128
        assert t == t.strip() and all(c.isalnum() or c in "-_" for c in t)


def test_database_never_holds_the_token_itself(store):
    token = store.put(TRANSCRIPT, "t.json", VIEW)
    with store.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT * FROM shares")).all()
    assert rows and all(token not in repr(tuple(r)) for r in rows)


@pytest.mark.parametrize("token", ["", "nope", "A" * 43, "'; DROP TABLE shares; --", "../../etc/passwd", "x" * 500])
def test_made_up_tokens_find_nothing(store, token):
    store.put(TRANSCRIPT, "t.json", {})
    assert store.get(token) is None
    assert store.delete(token) is False


def test_share_survives_a_restart_of_the_store(store_url):
    first = Store(store_url)
    token = first.put(TRANSCRIPT, "t.json", VIEW)
    first.close()
    second = Store(store_url)  # a new process or replica: new engine, same database
    assert second.get(token).view == VIEW
    second.close()


def test_deleted_share_is_gone(store):
    token = store.put(TRANSCRIPT, "t.json", VIEW)
    other = store.put(TRANSCRIPT, "u.json", VIEW)
    assert store.delete(token) is True
    assert store.get(token) is None
    assert store.delete(token) is False
    assert store.get(other) is not None


def test_shares_expire_after_their_ttl(store_url):
    clock = Clock()
    s = Store(store_url, ttl_days=30, clock=clock)
    default = s.put(TRANSCRIPT, "t.json", {})
    short = s.put(TRANSCRIPT, "t.json", {}, ttl_days=1)
    assert s.get(default).expires_at - s.get(default).created_at == 30 * DAY
    clock.now += DAY + 1
    assert s.get(short) is None
    assert s.get(default) is not None
    clock.now += 29 * DAY
    assert s.get(default) is None
    assert s.purge_expired() == 2
    s.close()


def test_expired_rows_are_purged_when_sharing(store_url):
    clock = Clock()
    s = Store(store_url, clock=clock)
    s.put(TRANSCRIPT, "old.json", {}, ttl_days=1)
    clock.now += 2 * DAY
    s.put(TRANSCRIPT, "new.json", {})
    with s.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT name FROM shares")).scalars().all() == ["new.json"]
    s.close()


def test_size_limit_is_enforced(store_url):
    s = Store(store_url, max_bytes=1000)
    assert s.get(s.put(b"x" * 1000, "ok.json", {})) is not None
    with pytest.raises(ShareTooLarge, match="1,001 bytes"):
        s.put(b"x" * 1001, "big.json", {})
    s.close()


def test_long_file_names_are_cut_not_refused(store):
    assert store.get(store.put(TRANSCRIPT, "n" * 1000 + ".json", {})).name == "n" * 255


def test_many_threads_share_at_once_and_nothing_is_lost(store):
    tokens: dict[int, str] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(20)

    def worker(i: int) -> None:
        try:
            barrier.wait()
            tokens[i] = store.put(f'[{{"role":"user","content":"{i}"}}]'.encode(), f"{i}.json", {"selected": i})
            assert store.get(tokens[i]).view == {"selected": i}
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for i, token in tokens.items():
        assert store.get(token).name == f"{i}.json"


@pytest.mark.postgres
def test_postgresql_url_without_driver_uses_psycopg(pg_url):
    s = Store(pg_url.replace("postgresql+psycopg://", "postgresql://"))
    assert s.engine.dialect.driver == "psycopg"
    assert s.get(s.put(TRANSCRIPT, "t.json", {})).data == TRANSCRIPT
    s.close()


def test_sqlite_store_creates_its_directory(tmp_path):
    path = tmp_path / "a" / "b" / "shares.sqlite3"
    s = Store(f"sqlite:///{path}")
    s.put(TRANSCRIPT, "t.json", {})
    s.close()
    assert path.exists()


def test_links_carry_token_and_message():
    assert share_link("https://inspector.internal/", "abc") == "https://inspector.internal/?t=abc"
    assert share_link("http://h:8501", "abc", 7) == "http://h:8501/?t=abc&m=7"
    assert token_from_link("http://h:8501/?t=abc&m=7") == "abc"
    assert token_from_link(" abc ") == "abc"


def test_settings_defaults_and_overrides(tmp_path):
    from inspector.sharing.config import ConfigError, Settings

    s = Settings.from_env({"XDG_DATA_HOME": str(tmp_path)})
    assert s.store_url == f"sqlite:///{tmp_path}/tool-call-inspector/shares.sqlite3"
    assert (s.base_url, s.share_ttl_days, s.share_max_bytes) == ("http://127.0.0.1:8501", 30, 50_000_000)
    s = Settings.from_env({"INSPECTOR_STORE_PATH": str(tmp_path / "x.db"), "INSPECTOR_BASE_URL": "https://i.internal/",
                           "INSPECTOR_SHARE_TTL_DAYS": "7", "INSPECTOR_SHARE_MAX_BYTES": "1000"})
    assert (s.store_url, s.base_url, s.share_ttl_days, s.share_max_bytes) == (
        f"sqlite:///{tmp_path / 'x.db'}", "https://i.internal", 7, 1000)
    assert Settings.from_env({"INSPECTOR_STORE_URL": "postgresql://db/x"}).store_url == "postgresql://db/x"
    for bad in ({"INSPECTOR_SHARE_TTL_DAYS": "0"}, {"INSPECTOR_SHARE_MAX_BYTES": "lots"}, {"INSPECTOR_BASE_URL": "ftp://x"}):
        with pytest.raises(ConfigError, match=next(iter(bad))):
            Settings.from_env(bad)
