"""Shares know their owner, only the owner (or an admin) deletes when sign-in is on, and the audit
log says who created, opened, deleted and what expired, never the transcript (issue 27).

Every test runs on SQLite and on the real PostgreSQL server (``store_url``).
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from inspector.sharing.config import ConfigError
from inspector.sharing.store import DAY, NotOwner, Store, hash_token

SECRET_TEXT = b'[{"role":"user","content":"the quarterly numbers are 4711"}]'


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_share_records_who_made_it(store_url):
    s = Store(store_url)
    mine = s.put(SECRET_TEXT, "q.json", {}, owner="ana@example.com")
    theirs = s.put(SECRET_TEXT, "q.json", {})
    assert s.get(mine).owner == "ana@example.com"
    assert s.get(theirs).owner == "anonymous"
    s.close()


def test_only_the_owner_or_an_admin_deletes_when_sign_in_is_on(store_url):
    s = Store(store_url)
    token = s.put(SECRET_TEXT, "q.json", {}, owner="ana@example.com")
    with pytest.raises(NotOwner, match="ana@example.com"):
        s.delete(token, actor="bob@example.com", owner_only=True)
    assert s.get(token) is not None  # refused: still there
    assert s.delete(token, actor="ana@example.com", owner_only=True) is True
    assert s.get(token) is None

    other = s.put(SECRET_TEXT, "q.json", {}, owner="ana@example.com")
    assert s.delete(other, actor="ops@example.com", owner_only=True, admin=True) is True
    # Without sign-in a link is the capability: whoever holds it deletes it (the default today).
    third = s.put(SECRET_TEXT, "q.json", {}, owner="ana@example.com")
    assert s.delete(third) is True
    s.close()


def test_my_shares_lists_live_shares_of_one_owner_newest_first(store_url):
    clock = Clock()
    s = Store(store_url, clock=clock)
    first = s.put(b"[]", "first.json", {}, owner="ana@example.com", ttl_days=1)
    clock.now += 10
    s.put(b"[]", "second.json", {}, owner="ana@example.com")
    s.put(b"[]", "bobs.json", {}, owner="bob@example.com")
    mine = s.list_shares("ana@example.com")
    assert [i.name for i in mine] == ["second.json", "first.json"]
    assert mine[1].id == hash_token(first) and mine[1].expires_at == mine[1].created_at + DAY
    assert {i.owner for i in s.list_shares()} == {"ana@example.com", "bob@example.com"}  # the team list
    clock.now += DAY
    assert [i.name for i in s.list_shares("ana@example.com")] == ["second.json"]  # expired: gone from lists
    s.close()


def test_a_listed_share_opens_and_deletes_by_its_id(store_url):
    s = Store(store_url)
    s.put(SECRET_TEXT, "q.json", {"selected": 0}, owner="ana@example.com")
    (info,) = s.list_shares("ana@example.com")
    assert s.open_id(info.id, actor="bob@example.com").data == SECRET_TEXT
    with pytest.raises(NotOwner):
        s.delete_id(info.id, actor="bob@example.com", owner_only=True)
    assert s.delete_id(info.id, actor="ana@example.com", owner_only=True) is True
    assert s.open_id(info.id) is None
    s.close()


def test_the_audit_log_says_who_did_what_and_never_the_transcript(store_url):
    clock = Clock()
    s = Store(store_url, clock=clock)
    token = s.put(SECRET_TEXT, "quarterly-4711.json", {}, owner="ana@example.com")
    clock.now += 5
    assert s.open(token, actor="bob@example.com") is not None
    with pytest.raises(NotOwner):
        s.delete(token, actor="bob@example.com", owner_only=True)
    s.delete(token, actor="ana@example.com", owner_only=True)
    short = s.put(b"[]", "x.json", {}, ttl_days=1)
    clock.now += 2 * DAY
    assert s.purge_expired() == 1

    log = s.audit_log()
    assert [(e.action, e.actor) for e in reversed(log)] == [
        ("create", "ana@example.com"), ("open", "bob@example.com"), ("delete-refused", "bob@example.com"),
        ("delete", "ana@example.com"), ("create", "anonymous"), ("expire", "retention"),
    ]
    assert {e.share for e in log} == {hash_token(token), hash_token(short)}
    assert log[-1].at == 1_800_000_000 and log[-2].at == 1_800_000_005
    with s.engine.connect() as conn:  # the whole table, every column, as text
        dump = repr(conn.execute(sa.text("SELECT * FROM audit")).all())
    assert "4711" not in dump and "quarterly" not in dump and token not in dump
    s.close()


def test_opening_a_missing_share_writes_no_audit_row(store_url):
    s = Store(store_url)
    assert s.open("A" * 43, actor="bob@example.com") is None
    assert s.audit_log() == []
    s.close()


def test_the_operators_maximum_lifetime_cannot_be_exceeded(store_url):
    s = Store(store_url, ttl_days=7)
    with pytest.raises(ConfigError, match="at most 7 days"):
        s.put(b"[]", "x.json", {}, ttl_days=8)
    token = s.put(b"[]", "x.json", {}, ttl_days=7)
    assert s.get(token).expires_at - s.get(token).created_at == 7 * DAY
    s.close()


def test_every_purge_is_counted(store_url):
    clock = Clock()
    s = Store(store_url, clock=clock)
    counted: list[int] = []
    s.on_expired = counted.append
    s.put(b"[]", "a.json", {}, ttl_seconds=1)
    s.put(b"[]", "b.json", {}, ttl_seconds=1)
    assert s.purge_expired() == 0
    clock.now += 1
    assert s.purge_expired() == 2 and counted == [2]
    assert s.purge_expired() == 0 and counted == [2]
    s.close()


def test_the_health_check_query_answers(store_url):
    s = Store(store_url)
    s.ping()
    s.close()
