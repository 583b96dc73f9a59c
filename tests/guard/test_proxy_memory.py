"""Issue 33, item 3: the proxy must live for weeks. With recording on, ``inspector proxy`` grew
~47 kB per recorded request (37 -> 512 MB over 10,000, ``benchmarks/bench_proxy_hold.py``).
A real ``inspector proxy`` process on 127.0.0.1 (block mode, recording into a SQLite inbox,
the replaying stand-in provider behind) gets 1,500 requests that are refused and recorded; its
resident memory between the 500th and the 1,500th must grow by far less than 47 kB a request
(46.6 MB over those 1,000 before the fix, about 0-2 MB after: the bound of 10 MB sits far from both).

The cause: the record's secret scan (``Redactor.scan``) pauses the GC with ``gc_paused``, which on
the way out moved every young object of the process into the oldest generation, a refused
request's cyclic garbage (the exception, its frames, the body they hold) included; full
collections are rare, so each record kept about one body. ``Recorder.record`` now scans
``without_settling``, as the guard's check already did."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from support import guard_fixtures
from support.guard_fixtures import guardserver

upstream = guard_fixtures.upstream  # the stand-in provider process (a fixture)

PAD = "x" * 40_000  # ~45 kB a request, as the attack's


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _orphan(i: int) -> bytes:
    return json.dumps({"model": "gpt-4o", "messages": [
        {"role": "user", "content": f"question {i} {PAD}"},
        {"role": "tool", "tool_call_id": f"call_{i}", "content": f"r{i}"}]}).encode()


def test_recording_proxy_memory_stays_flat(upstream, tmp_path):
    proxy = guardserver.start_proxy(upstream.url, mode="block", record=True,
                                    env={"INSPECTOR_STORE_PATH": str(tmp_path / "inbox.sqlite3")})
    try:
        pid = proxy.proc.pid
        marks = {}
        with httpx.Client(timeout=60) as client:
            for i in range(1, 1501):
                r = client.post(proxy.url + "/v1/chat/completions", content=_orphan(i),
                                headers={"content-type": "application/json"})
                assert r.status_code == 400  # refused by the check, and recorded
                if i in (500, 1500):
                    marks[i] = _rss_kb(pid)
        growth_mb = (marks[1500] - marks[500]) / 1024
        assert growth_mb < 10, f"proxy RSS grew {growth_mb:.1f} MB over 1,000 recorded requests"
    finally:
        proxy.stop()
