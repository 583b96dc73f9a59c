"""Issue 22, heavy work isolated: the app tries parse, check, repair, fit and the secret scan in a
child process with a memory limit (RLIMIT_AS) and a time limit; a file over either ends as one
sentence for that user, and the verdict is remembered by the file's digest (a share link opened
by ten colleagues is tried once). Real child processes; limits made small."""

from __future__ import annotations

import hashlib
import json
import threading

import pytest

from inspector import workers
from inspector.errors import InputError


@pytest.fixture(autouse=True)
def small_limits(monkeypatch):
    monkeypatch.setenv("INSPECTOR_WORKER_MB", "200")
    monkeypatch.setenv("INSPECTOR_WORKER_SECONDS", "60")
    monkeypatch.setenv("INSPECTOR_WORKERS", "2")
    workers.forget()
    yield
    workers.forget()


def test_a_job_over_the_memory_limit_ends_as_a_sentence():
    with pytest.raises(workers.WorkLimit, match="needs more than 200 MB of memory to run"):
        workers.run("hog", b"", 400, 0)
    assert workers.run("hog", b"x", 10, 0) == 10_000_001  # within it: the result comes back


def test_a_job_over_the_time_limit_is_killed(monkeypatch):
    monkeypatch.setenv("INSPECTOR_WORKER_SECONDS", "1")
    with pytest.raises(workers.WorkLimit, match="needs more than 1 s to run"):
        workers.run("hog", b"", 1, 600)


def _tiny_messages(n: int) -> bytes:
    return json.dumps([{"role": "user", "content": "x"}] * n).encode()


def test_checking_a_file_that_needs_more_memory_than_a_job_has_is_refused():
    data = _tiny_messages(400_000)  # ~12 MB: its parsed messages and analysis need well over 200 MB
    with pytest.raises(workers.WorkLimit, match="needs more than 200 MB of memory to read and check"):
        workers.admit("check", hashlib.sha256(data).hexdigest(), data, "big.json")
    small = _tiny_messages(100)
    workers.admit("check", hashlib.sha256(small).hexdigest(), small, "small.json")  # admitted: no error


def test_unreadable_input_is_admitted_for_the_server_to_explain():
    with pytest.raises(InputError):
        workers.run("check", b"[1, 2", "x.json")
    workers.admit("check", "d", b"[1, 2", "x.json")  # the server's own reader then says where


def test_a_verdict_is_remembered_per_file_and_asked_once_by_many_sessions(monkeypatch):
    calls = []
    real = workers.run

    def counting(job, *args):
        calls.append(job)
        return real(job, *args)

    monkeypatch.setattr(workers, "run", counting)
    data = _tiny_messages(50)
    digest = hashlib.sha256(data).hexdigest()
    threads = [threading.Thread(target=workers.admit, args=("check", digest, data, "t.json")) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == ["check"]


def test_workers_off_runs_in_process(monkeypatch):
    monkeypatch.setenv("INSPECTOR_WORKERS", "0")
    assert workers.run("secrets", json.dumps([{"role": "user", "content": "AKIAIOSFODNN7EXAMPLE"}]).encode(), ()) == 1
