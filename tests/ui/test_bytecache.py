"""Issue 15: the app's caches are sized by bytes and drop idle entries, so closed tabs do not
keep hundreds of megabytes resident."""

from __future__ import annotations

import pytest

from inspector.ui import bytecache


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    bytecache.clear()
    monkeypatch.setenv("INSPECTOR_CACHE_MB", "10")
    yield
    bytecache.clear()


def test_total_stays_under_the_byte_budget():
    calls = []

    @bytecache.byte_cached(lambda key, _data: len(_data))
    def work(key, _data):
        calls.append(key)
        return key

    for i in range(10):
        work(i, b"x" * 3_000_000)  # 3 MB each against a 10 MB budget
        assert bytecache.held_bytes() <= 10_000_000
    work(9, b"x" * 3_000_000)
    assert calls.count(9) == 1  # the latest entries are still there
    work(0, b"x" * 3_000_000)
    assert calls.count(0) == 2  # the oldest went


def test_bigger_than_the_budget_is_not_kept():
    @bytecache.byte_cached(lambda _data: len(_data))
    def work(_data):
        return object()

    a = work(b"x" * 20_000_000)
    assert bytecache.held_bytes() == 0 and work(b"x" * 20_000_000) is not a


def test_idle_entries_are_dropped_at_the_next_call(monkeypatch):
    @bytecache.byte_cached(lambda key: 1_000)
    def work(key):
        return key

    work("a")
    assert bytecache.held_bytes() == 1_000
    monkeypatch.setenv("INSPECTOR_CACHE_IDLE_SECONDS", "0")
    work("b")  # any session's call sweeps entries nobody used within the idle time
    assert bytecache.held_bytes() <= 1_000


def test_a_computation_that_raises_leaves_no_gate_and_the_next_open_computes_again():
    tries = []

    @bytecache.byte_cached(lambda key: 1)
    def work(key):
        tries.append(key)
        if len(tries) == 1:
            raise MemoryError("first try fails")
        return key * 2

    with pytest.raises(MemoryError):
        work(21)
    assert not bytecache._INFLIGHT  # nothing left behind for a file that failed to open
    assert work(21) == 42 and tries == [21, 21]
    assert not bytecache._INFLIGHT
