"""Shared fixtures: a real PostgreSQL server for the store tests, and a store URL per backend.

``pg_cluster`` starts a throwaway server (``scripts/pgcluster.py``) once per test session on a free
loopback port; tests that need it are marked ``postgres``. It skips only when the PostgreSQL
binaries are absent (``make test`` installs them via ``scripts/system-deps.sh``); a server that is
installed but fails to start is an error, not a skip. ``INSPECTOR_TEST_PG_URL`` points the tests
at an existing server instead.
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import pgcluster

from inspector.sharing.config import OIDC_VARIABLES


class _External:
    """An already running server named by ``INSPECTOR_TEST_PG_URL``."""

    def __init__(self, url: str):
        self.url = url.replace("postgresql://", "postgresql+psycopg://", 1)

    create_database = pgcluster.Cluster.create_database

    def stop(self) -> None:
        pass


@pytest.fixture(scope="session", autouse=True)
def _private_share_store(tmp_path_factory):
    """Tests (and the app processes they start) never touch a real share store.

    Without this, any app test that renders the Share panel would create the default SQLite file
    in the home directory, or write to whatever ``INSPECTOR_STORE_URL`` the developer has set.
    """
    with pytest.MonkeyPatch.context() as mp:
        for name in ("INSPECTOR_STORE_URL", "INSPECTOR_BASE_URL", "INSPECTOR_SHARE_TTL_DAYS",
                     "INSPECTOR_SHARE_MAX_BYTES", "INSPECTOR_REDACT_PATTERNS", "INSPECTOR_REDACT_PATTERNS_FILE",
                     "INSPECTOR_AUTH", "INSPECTOR_PROXY_SECRET", "INSPECTOR_ADMINS", "INSPECTOR_ADMIN_GROUP",
                     "INSPECTOR_TEAM_SHARES", "INSPECTOR_PURGE_INTERVAL_SECONDS", "INSPECTOR_LOG_FORMAT",
                     *OIDC_VARIABLES):
            mp.delenv(name, raising=False)
        mp.setenv("INSPECTOR_STORE_PATH", str(tmp_path_factory.mktemp("store") / "shares.sqlite3"))
        yield


@pytest.fixture(scope="session", autouse=True)
def _repair_logs_replay():
    """Every repair the test suite makes in this process: its change log replayed on its input
    gives its output (tests/support/repair_log.py, issue 34). A log that does not match fails the
    test that made the repair."""
    from support.repair_log import check_result

    from inspector import repairing

    real = repairing._repair_document

    def checked(doc, *args, **kwargs):
        result = real(doc, *args, **kwargs)
        problems = check_result(doc, result)
        assert not problems, "the repair's change log does not replay to its output: " + "; ".join(problems[:5])
        return result

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(repairing, "_repair_document", checked)
        yield


@pytest.fixture(scope="session")
def pg_cluster():
    external = os.environ.get("INSPECTOR_TEST_PG_URL")
    if external:
        yield _External(external)
        return
    try:
        cluster = pgcluster.start()
    except pgcluster.PostgresUnavailable as exc:
        pytest.skip(f"PostgreSQL tests need the server binaries: {exc}")
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def pg_url(pg_cluster) -> str:
    """SQLAlchemy URL of the session's PostgreSQL database (shared by every test that uses it)."""
    return pg_cluster.url


@pytest.fixture
def fresh_pg_url(pg_cluster) -> str:
    """A new, empty PostgreSQL database for one test."""
    return pg_cluster.create_database("t_" + uuid.uuid4().hex[:12])


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request, tmp_path) -> str:
    """An empty store database, once on SQLite and once on the real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shares.sqlite3'}"
    return request.getfixturevalue("fresh_pg_url")
