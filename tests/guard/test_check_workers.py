"""Issue 33, item 3: a big body is checked in a worker process (``inspector/guard/check_workers.py``),
off the proxy's interpreter lock, and says exactly what the proxy would have said itself; a worker
that dies (``kill -9``) is never a verdict.

One verdict: the same bodies checked by ``inspect_request`` here and in a worker give the same
``Inspection`` field for field (repair included), and through two real ``inspector proxy``
processes, one checking every body in a worker and one checking none there, the same answers.
A crash: a real ``inspector proxy`` (``--check-workers 1``) whose worker stops itself before each
check (the test hook ``INSPECTOR_GUARD_WORKER_TEST_STOP``), so that the test kills it with
``SIGKILL`` in the middle of a check for certain, driven by the OpenAI SDK: one kill is checked
again in a fresh worker (the right verdict), two kills answer 503 in OpenAI's error shape, and the
next request is checked in a fresh pool. Every wait is for a state (a stopped process, an answer),
bounded; none is a sleep standing in for one."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import threading
import time
from pathlib import Path

import openai
import pytest
from support import guard_fixtures
from support.guard_fixtures import ANTHROPIC_200, DEEPSEEK_400, RESPONSES_400, forget, guardserver, seen

from inspector.guard.check_workers import TEST_STOP_ENV, CheckWorkers
from inspector.guard.inspect import inspect_request

upstream = guard_fixtures.upstream  # the stand-in provider process (a fixture)
KEY = "sk-test-check-workers"

ORPHAN = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"},
                                          {"role": "tool", "tool_call_id": "call_1", "content": "r"}]}
CLEAN = {"model": "gpt-4o", "messages": [
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]}
DUPLICATE = {"model": "gpt-4o", "messages": [
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    {"role": "tool", "tool_call_id": "call_1", "content": "sunny again"}]}
GEMINI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]},
                       {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"x": 1}}}]}]}


def _cassette_body(path: Path) -> bytes:
    from inspector.guard.cassettes import read_cassette

    body = read_cassette(path)[0].body
    assert body is not None
    return body


# (path on the proxy, URL a client would send it to, body)
CASES = [
    ("/v1/chat/completions", "https://api.openai.com/v1/chat/completions", json.dumps(ORPHAN).encode()),
    ("/v1/chat/completions", "https://api.openai.com/v1/chat/completions", json.dumps(CLEAN).encode()),
    ("/v1/chat/completions", "https://api.openai.com/v1/chat/completions", json.dumps(DUPLICATE).encode()),
    ("/v1/chat/completions", "https://api.openai.com/v1/chat/completions", b'{"model": "gpt-4o", "messages": [tru'),
    ("/v1/chat/completions", "https://api.deepseek.com/chat/completions", _cassette_body(DEEPSEEK_400)),
    ("/v1/responses", "https://api.openai.com/v1/responses", _cassette_body(RESPONSES_400)),
    ("/v1/messages", "https://api.anthropic.com/v1/messages", _cassette_body(ANTHROPIC_200)),
    ("/v1beta/models/gemini-2.0-flash:generateContent",
     "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=k",
     json.dumps(GEMINI).encode()),
]


@pytest.fixture(scope="module")
def workers():
    pool = CheckWorkers(workers=1, threshold=0)
    yield pool
    pool.close()


@pytest.mark.parametrize("repair", [False, True], ids=["check", "repair"])
def test_a_worker_says_what_the_proxy_would_say_itself(workers, repair):
    for _, url, body in CASES:
        here = inspect_request(url, body, repair=repair)
        there = guard_fixtures.run_coroutine(workers.inspect(url, body, repair=repair))
        assert here is not None and there is not None
        assert dataclasses.asdict(there) == dataclasses.asdict(here), url
        assert there.endpoint is here.endpoint  # the API's own record, as ``endpoint is GEMINI`` reads it
        assert there.body is body


def test_a_request_the_guard_does_not_read_never_starts_a_worker():
    pool = CheckWorkers(workers=1, threshold=0)
    assert guard_fixtures.run_coroutine(pool.inspect("https://api.openai.com/v1/embeddings", b"{}")) is None
    assert pool._pool is None
    pool.close()


@pytest.fixture(scope="module")
def proxies(upstream):
    far = guardserver.start_proxy(upstream.url, mode="block", extra=("--check-workers", "1", "--worker-above-mb", "0"))
    near = guardserver.start_proxy(upstream.url, mode="block", extra=("--check-workers", "0"))
    yield far, near
    far.stop()
    near.stop()


def _answer(r) -> tuple[int, object, str | None]:
    try:
        body: object = r.json()
    except ValueError:
        body = r.text
    return r.status_code, body, r.headers.get("x-inspector-guard")


def test_through_the_proxy_a_body_checked_in_a_worker_is_answered_as_one_checked_in_the_proxy(proxies, upstream):
    import httpx

    far, near = proxies
    assert "checked in one of 1 worker processes" in far.output()
    for path, _, body in CASES:
        answers = []
        for proxy in (far, near):
            forget(upstream)
            r = httpx.post(proxy.url + path, content=body, timeout=60,
                           headers={"content-type": "application/json", "authorization": f"Bearer {KEY}",
                                    "anthropic-version": "2023-06-01"})
            answers.append((_answer(r), [s["body"] for s in seen(upstream)]))
        assert answers[0] == answers[1], path
    # and the worker really checked them: the proxy started its worker process (a grandchild)
    assert _descendants(far.proc.pid) - {far.proc.pid}


# --- a worker killed in the middle of a check ---------------------------------------------------

def _descendants(pid: int) -> set[int]:
    return set(guardserver.descendants(pid))


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def _stopped_worker(proxy, not_in: set[int], seconds: float = 60) -> int:
    """The worker that stopped itself before its check (state T), once there is one not in ``not_in``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = [p for p in _descendants(proxy.proc.pid) if p not in not_in and _state(p) == "T"]
        if found:
            return found[0]
        assert proxy.proc.poll() is None, proxy.output()
        time.sleep(0.02)  # polling the process table for the state; the state is what is waited for
    raise AssertionError(f"no worker stopped before its check within {seconds:g} s:\n{proxy.output()}")


class _Call:
    """The OpenAI SDK's request in a thread of its own; ``result()`` waits for its answer (bounded)."""

    def __init__(self, proxy) -> None:
        self.outcome: dict[str, object] = {}
        client = openai.OpenAI(base_url=proxy.url + "/v1", api_key=KEY, max_retries=0, timeout=120)

        def run() -> None:
            try:
                self.outcome["value"] = client.chat.completions.create(**ORPHAN)
            except Exception as exc:  # noqa: BLE001 - handed back to the test
                self.outcome["error"] = exc

        self.thread = threading.Thread(target=run, name="sdk-call", daemon=True)
        self.thread.start()

    def result(self) -> object:
        self.thread.join(120)
        assert not self.thread.is_alive(), "the proxy did not answer within 120 s"
        return self.outcome.get("error", self.outcome.get("value"))


@pytest.fixture(scope="module")
def stopping(upstream):
    p = guardserver.start_proxy(upstream.url, mode="block", env={TEST_STOP_ENV: "1"},
                                extra=("--check-workers", "1", "--worker-above-mb", "0"))
    yield p
    p.stop()


def test_a_worker_killed_once_mid_check_is_checked_again_and_gives_the_verdict(stopping):
    call = _Call(stopping)
    first = _stopped_worker(stopping, set())
    os.kill(first, signal.SIGKILL)
    second = _stopped_worker(stopping, {first})
    os.kill(second, signal.SIGCONT)
    err = call.result()
    assert isinstance(err, openai.BadRequestError), err  # the check's own verdict, not a crash
    assert "TC002" in err.message
    assert "checking it once more in a fresh one" in stopping.output()


def test_a_worker_killed_twice_is_a_503_not_a_verdict_and_the_next_request_is_checked(stopping):
    call = _Call(stopping)
    first = _stopped_worker(stopping, set())
    os.kill(first, signal.SIGKILL)
    second = _stopped_worker(stopping, {first})
    os.kill(second, signal.SIGKILL)
    err = call.result()
    assert isinstance(err, openai.InternalServerError) and err.status_code == 503, err
    body = err.response.json()["error"]  # OpenAI's error shape: the SDK read it as its own
    assert body["code"] == "inspector_proxy" and "stopped twice without an answer" in body["message"]
    assert "TC002" not in body["message"]  # no verdict on the request
    # The pool recovers: the next request is checked by a fresh worker.
    call = _Call(stopping)
    third = _stopped_worker(stopping, {first, second})
    os.kill(third, signal.SIGCONT)
    err = call.result()
    assert isinstance(err, openai.BadRequestError) and "TC002" in err.message, err


def test_a_worker_killed_while_idle_leaves_a_pool_that_recovers_for_the_next_body():
    pool = CheckWorkers(workers=1, threshold=0)
    url, body = CASES[0][1], CASES[0][2]
    try:
        first = guard_fixtures.run_coroutine(pool.inspect(url, body))
        assert pool._pool is not None
        (pid,) = pool._pool._processes  # the one worker, idle now
        os.kill(pid, signal.SIGKILL)
        again = guard_fixtures.run_coroutine(pool.inspect(url, body))
        assert dataclasses.asdict(again) == dataclasses.asdict(first) == dataclasses.asdict(inspect_request(url, body))
        assert pid not in pool._pool._processes  # a fresh worker answered
    finally:
        pool.close()


@pytest.fixture(scope="module")
def timing_out(upstream):
    p = guardserver.start_proxy(upstream.url, mode="block", env={TEST_STOP_ENV: "1"},
                                extra=("--check-workers", "1", "--worker-above-mb", "0", "--worker-seconds", "2"))
    yield p
    p.stop()


def test_a_worker_that_never_answers_is_killed_at_its_time_and_the_client_gets_a_503_not_a_verdict(timing_out):
    """A worker CPython leaves spinning at its memory cap never answers; a stopped one stands in for
    it. Before, the request and the worker were held until the proxy stopped."""
    call = _Call(timing_out)
    stuck = _stopped_worker(timing_out, set())
    err = call.result()
    assert isinstance(err, openai.InternalServerError) and err.status_code == 503, err
    body = err.response.json()["error"]
    assert body["code"] == "inspector_proxy" and "did not finish in 2 s" in body["message"], body
    assert "TC002" not in body["message"]  # no verdict on the request
    deadline = time.monotonic() + 60  # the kill is sent; its end is what is waited for
    while _state(stuck) not in ("gone", "Z") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _state(stuck) in ("gone", "Z"), _state(stuck)  # the worker was killed, not left behind
    assert "did not answer in 2 s; killed, no verdict" in timing_out.output()


def test_a_proxy_killed_outright_leaves_no_worker_or_fork_server_behind(upstream):
    """Before, a proxy ended by ``kill -9`` (or the OOM killer) left its worker and the fork server
    alive for good: the worker waits on a queue whose writing end it holds itself, and the fork
    server lives while a worker does."""
    import httpx

    proxy = guardserver.start_proxy(upstream.url, mode="block", extra=("--check-workers", "1", "--worker-above-mb", "0"))
    try:
        path, _, body = CASES[0]
        r = httpx.post(proxy.url + path, content=body, timeout=60,
                       headers={"content-type": "application/json", "authorization": f"Bearer {KEY}",
                                "anthropic-version": "2023-06-01"})
        assert r.status_code in (200, 400), r.text
        below = _descendants(proxy.proc.pid) - {proxy.proc.pid}
        assert below  # the fork server and its worker
        os.kill(proxy.proc.pid, signal.SIGKILL)
        proxy.proc.wait()
        deadline = time.monotonic() + 60  # their end is the state waited for
        while any(_state(p) not in ("gone", "Z") for p in below) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert {p: _state(p) for p in below if _state(p) not in ("gone", "Z")} == {}
    finally:
        proxy.stop()
