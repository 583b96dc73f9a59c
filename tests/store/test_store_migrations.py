"""The schema_version migrations: fresh start, upgrade with data, idempotence, races, refusals."""

from __future__ import annotations

import secrets
import threading
import time

import pytest
import sqlalchemy as sa

from inspector.sharing import store as store_mod
from inspector.sharing.store import MIGRATIONS, SchemaTooNew, Store, hash_token


def versions(s: Store) -> list[int]:
    with s.engine.connect() as conn:
        return conn.execute(sa.text("SELECT version FROM schema_version ORDER BY version")).scalars().all()


def test_fresh_database_gets_the_whole_schema(store_url):
    s = Store(store_url)
    assert s.schema_version() == len(MIGRATIONS)
    assert versions(s) == list(range(1, len(MIGRATIONS) + 1))
    tables = set(sa.inspect(s.engine).get_table_names())
    assert {"shares", "schema_version"} <= tables
    s.close()


def test_upgrade_from_version_1_keeps_existing_shares(store_url):
    old = Store(store_url, migrate=False)
    assert old.schema_version() == 0
    assert old.migrate(to=1) == 1
    token = secrets.token_urlsafe(32)
    with old.engine.begin() as conn:  # a share as the version-1 code wrote it
        conn.execute(sa.text(
            "INSERT INTO shares (token_hash, name, data, encoding, size, view, created_at, expires_at) "
            "VALUES (:h, 'old.json', :d, 'identity', 34, '{\"selected\": 0}', :now, :later)"),
            {"h": hash_token(token), "d": b'[{"role":"user","content":"kept"}]', "now": int(time.time()),
             "later": int(time.time()) + 86400})
    assert "ix_shares_expires_at" not in {i["name"] for i in sa.inspect(old.engine).get_indexes("shares")}
    old.close()

    new = Store(store_url)  # starting the app migrates
    assert new.schema_version() == len(MIGRATIONS)
    assert "ix_shares_expires_at" in {i["name"] for i in sa.inspect(new.engine).get_indexes("shares")}
    kept = new.get(token)
    assert kept.data == b'[{"role":"user","content":"kept"}]' and kept.view == {"selected": 0}
    assert kept.owner == "anonymous"  # migration 3: nobody is known to have made an older share
    assert "audit" in sa.inspect(new.engine).get_table_names()
    new.close()


def test_starting_again_changes_nothing(store_url):
    for _ in range(3):
        s = Store(store_url)
        assert versions(s) == list(range(1, len(MIGRATIONS) + 1))
        s.close()


def test_replicas_starting_together_migrate_once(store_url):
    """Several processes opening an empty database at once: no error, each step applied once."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(6)
    opened: list[Store] = []

    def start() -> None:
        try:
            barrier.wait()
            opened.append(Store(store_url))  # each has its own engine and connections
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert versions(opened[0]) == list(range(1, len(MIGRATIONS) + 1))
    for s in opened:
        s.close()


def test_failed_migration_leaves_no_trace(store_url, monkeypatch):
    s = Store(store_url)

    def broken(conn):
        conn.execute(sa.text("CREATE TABLE half_done (x INTEGER)"))
        raise RuntimeError("the next migration failed")

    monkeypatch.setattr(store_mod, "MIGRATIONS", [*MIGRATIONS, broken])
    with pytest.raises(RuntimeError, match="the next migration failed"):
        s.migrate()
    assert versions(s) == list(range(1, len(MIGRATIONS) + 1))
    assert "half_done" not in sa.inspect(s.engine).get_table_names()
    s.close()


def test_database_from_a_newer_inspector_is_refused(store_url):
    s = Store(store_url)
    with s.engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO schema_version (version, applied_at) VALUES (99, 0)"))
    s.close()
    with pytest.raises(SchemaTooNew, match="schema version 99"):
        Store(store_url)
