"""Issue 33: each guard record ran ``DELETE … WHERE expires_at <= now`` over an unindexed table.
The expiry is indexed (migration 5) and add_record purges on a schedule, not per record."""

from __future__ import annotations

import sqlalchemy as sa

from inspector.sharing.store import RECORD_PURGE_SECONDS, Store

FIELDS = {"source": "proxy", "verdict": "would_reject", "findings": "[]"}


def _count(s: Store) -> int:
    with s.engine.connect() as conn:
        return conn.execute(sa.text("SELECT count(*) FROM guard_records")).scalar()


def test_the_expiry_of_guard_records_is_indexed(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    try:
        with s.engine.connect() as conn:
            plan = " ".join(str(r) for r in conn.execute(sa.text(
                "EXPLAIN QUERY PLAN DELETE FROM guard_records WHERE expires_at <= 5")))
        assert "ix_guard_records_expires_at" in plan
    finally:
        s.close()


def test_expired_records_go_on_a_schedule_not_with_every_record(tmp_path):
    now = [1_000_000.0]
    s = Store(f"sqlite:///{tmp_path / 's.sqlite3'}", ttl_days=1 / 96, clock=lambda: now[0])  # 15 minutes
    try:
        s.add_record(FIELDS, b"{}")  # t0: purges (nothing to), keeps one
        now[0] += 15 * 60 - 10
        s.add_record(FIELDS, b"{}")  # t0 + 890 s: purges (nothing expired yet)
        now[0] += 11
        s.add_record(FIELDS, b"{}")  # t0 + 901 s: the first has expired, but the last purge was 11 s ago
        assert _count(s) == 3 and len(s.records()) == 2  # an expired record is never listed
        now[0] += RECORD_PURGE_SECONDS
        s.add_record(FIELDS, b"{}")  # the schedule's turn: the expired one goes
        assert _count(s) == 3 and len(s.records()) == 3
    finally:
        s.close()
