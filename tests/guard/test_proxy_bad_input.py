"""``inspector proxy`` under what a real network does to it (issue 26): a client that sends its body
slowly or gives up half-way, API keys in every place a client puts them, and a SIGTERM while a
stream is still flowing. Real processes on 127.0.0.1: the proxy and the stand-in provider
(``scripts/replay_upstream.py``), driven over raw sockets where httpx would be too polite."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from support import guard_fixtures
from support.guard_fixtures import OPENAI_SSE, forget, guardserver, recorded, seen

from inspector.sharing.store import Store

upstream = guard_fixtures.upstream  # the stand-in provider process (a fixture)


def _orphan(marker: str) -> dict:
    """A Chat Completions body OpenAI refuses (a tool message with no call), ``marker`` in its text."""
    return {"model": "gpt-4o", "messages": [{"role": "user", "content": f"question {marker}"},
                                            {"role": "tool", "tool_call_id": f"call_{marker}", "content": marker}]}


def _proxy(upstream, store: Path, mode: str, prefix: str = ""):
    return guardserver.start_proxy(upstream.url, mode=mode, record=True, prefix=prefix,
                                   env={"INSPECTOR_STORE_PATH": str(store)})


def _record_texts(store: Path) -> list[str]:
    """Every kept record, as the stored bytes (the redacted one-entry HAR) and its columns."""
    s = Store(f"sqlite:///{store}")
    try:
        return [json.dumps(row, default=str) + s.record(row["id"])[1].decode("utf-8", "replace")
                for row in s.records(limit=1000)]
    finally:
        s.close()


def _raw_request(proxy_url: str, path: str, body: bytes, extra: str = "") -> tuple[socket.socket, bytes]:
    """A socket with the request line and headers sent, and the body still to send."""
    u = urlsplit(proxy_url)
    sock = socket.create_connection((u.hostname, u.port), timeout=60)
    head = (f"POST {path} HTTP/1.1\r\nHost: {u.netloc}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n{extra}\r\n")
    sock.sendall(head.encode("latin-1"))
    return sock, body


def _read_all(sock: socket.socket) -> tuple[int, dict]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    head, _, payload = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(payload)


def test_a_slow_client_holds_up_nobody_and_gets_its_own_answer(upstream, tmp_path):
    store = tmp_path / "inbox.sqlite3"
    proxy = _proxy(upstream, store, "block")
    try:
        slow, body = _raw_request(proxy.url, "/v1/chat/completions", json.dumps(_orphan("slowpoke")).encode())
        slow.sendall(body[:20])  # a few bytes, then nothing for a while
        for k in range(3):  # meanwhile other clients are answered, each about its own request
            r = httpx.post(proxy.url + "/v1/chat/completions", json=_orphan(f"quick{k}"), timeout=60)
            assert r.status_code == 400
            assert r.json()["inspector"]["findings"][0]["tool_call_id"] == f"call_quick{k}"
        for k in range(20, len(body), 25):  # the rest, a trickle
            slow.sendall(body[k:k + 25])
            time.sleep(0.02)
        status, answer = _read_all(slow)
        assert status == 400 and answer["error"]["param"] == "messages.[1]"
        assert answer["inspector"]["findings"][0]["tool_call_id"] == "call_slowpoke"

        gone, body = _raw_request(proxy.url, "/v1/chat/completions", json.dumps(_orphan("quitter")).encode())
        gone.sendall(body[: len(body) // 2])
        gone.close()  # gives up half-way: nothing to check, nothing to record, nobody else affected
        r = httpx.post(proxy.url + "/v1/chat/completions", json=_orphan("after"), timeout=60)
        assert r.status_code == 400 and httpx.get(proxy.url + "/health").status_code == 200
    finally:
        proxy.stop()
    texts = _record_texts(store)
    markers = ["slowpoke", "quick0", "quick1", "quick2", "after"]
    assert sorted(m for t in texts for m in markers if m in t) == sorted(markers)  # one record each
    for t in texts:
        assert sum(m in t for m in markers) == 1, t[:300]  # and never another request's text
    assert not any("quitter" in t for t in texts)


KEYS = {"authorization": "sk-proj-AuthHeaderKey0123456789abcdefXYZ", "x-api-key": "sk-ant-api03-HeaderKey0123456789abc",
        "x-goog-api-key": "AIzaSyGoogHeaderKey0123456789abcdefghi", "query": "AIzaSyQueryKey0123456789abcdefghijklmn"}


def _send_with_every_kind_of_key(proxy_url: str) -> None:
    httpx.post(proxy_url + "/v1/chat/completions", json=_orphan("openai"),
               headers={"authorization": f"Bearer {KEYS['authorization']}"}, timeout=60)
    httpx.post(proxy_url + "/v1/messages", timeout=60,
               headers={"x-api-key": KEYS["x-api-key"], "anthropic-version": "2023-06-01"},
               json={"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_anthropic",
                                                 "content": "anthropic"}]}]})
    httpx.post(proxy_url + f"/v1beta/models/gemini-2.5-flash:generateContent?key={KEYS['query']}", timeout=60,
               headers={"x-goog-api-key": KEYS["x-goog-api-key"]},
               json={"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "gemini", "response": {}}}]}]})


@pytest.mark.parametrize("mode", ["observe", "block"])
def test_api_keys_in_headers_or_query_reach_the_provider_and_are_never_stored_or_logged(upstream, tmp_path, mode):
    store = tmp_path / "inbox.sqlite3"
    proxy = _proxy(upstream, store, mode)
    try:
        forget(upstream)
        _send_with_every_kind_of_key(proxy.url)
        got = seen(upstream)
        log = proxy.log.read_text(errors="replace")  # the whole log, not its tail
    finally:
        proxy.stop()
    if mode == "observe":  # forwarded untouched
        assert [g["path"] for g in got] == ["/v1/chat/completions", "/v1/messages",
                                            "/v1beta/models/gemini-2.5-flash:generateContent"]
        assert got[0]["authorization"] == f"Bearer {KEYS['authorization']}" and got[1]["x-api-key"] == KEYS["x-api-key"]
        assert got[2]["query"] == f"key={KEYS['query']}"
    else:
        assert got == []  # refused before sending
    texts = _record_texts(store)
    assert len(texts) == 3  # each request was recorded, so the absence below means something
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())  # the database and its journal, raw
    for where, key in KEYS.items():
        assert key.encode() not in stored, f"the {where} key is in the store"
        assert key not in log, f"the {where} key is in the proxy's log"
    assert b"Bearer" not in stored


def test_sigterm_lets_a_stream_in_flight_finish_then_stops(upstream, tmp_path):
    proxy = _proxy(upstream, tmp_path / "inbox.sqlite3", "observe", prefix="/slow")
    body, it = recorded(OPENAI_SSE, 1)
    whole = b"".join(e + b"\n\n" for e in it.response.split(b"\n\n") if e.strip())
    try:
        got = []
        with httpx.stream("POST", proxy.url + "/v1/chat/completions", json=body, timeout=60) as r:
            chunks = r.iter_raw()
            got.append(next(chunks))  # the stream has started; the rest is half a second an event away
            proxy.proc.send_signal(signal.SIGTERM)
            got += list(chunks)
        assert b"".join(got) == whole  # finished whole, [DONE] included
        assert proxy.proc.wait(timeout=60) in (0, -signal.SIGTERM)
        with pytest.raises(httpx.ConnectError):  # and then it stopped listening
            httpx.get(proxy.url + "/health", timeout=5)
        out = proxy.log.read_text(errors="replace")
        assert "Application shutdown complete" in out and "Traceback" not in out
    finally:
        proxy.stop()


def test_a_body_over_the_limit_is_refused_with_413_declared_or_streamed(upstream, tmp_path):
    proxy = guardserver.start_proxy(upstream.url, mode="observe", record=True, extra=("--max-body-mb", "1"),
                                    env={"INSPECTOR_STORE_PATH": str(tmp_path / "inbox.sqlite3")})
    big = json.dumps(_orphan("x" * 1_500_000)).encode()
    try:
        forget(upstream)
        declared = httpx.post(proxy.url + "/v1/messages", content=big, timeout=60)  # Content-Length says it
        streamed = httpx.post(proxy.url + "/v1/chat/completions", content=iter([big[:700_000], big[700_000:]]),
                              timeout=60)  # chunked: found out while reading
        assert seen(upstream) == []  # nothing forwarded
        fine = httpx.post(proxy.url + "/v1/chat/completions", json=_orphan("small"), timeout=60)
    finally:
        proxy.stop()
    assert declared.status_code == 413 and declared.json()["type"] == "error"  # Anthropic's shape on its route
    assert "1,000,000" in declared.json()["error"]["message"]
    assert streamed.status_code == 413 and "larger than 1,000,000 bytes" in streamed.json()["error"]["message"]
    assert fine.status_code != 413  # and the next request goes through


@pytest.mark.parametrize("args", [("--upstream-openai", "api.openai.com/v1"), ("--port", "70000"),
                                  ("--max-body-mb", "0"), ("--check-workers", "-1"), ("--worker-above-mb", "-1")])
def test_bad_proxy_arguments_are_one_line_exit_2(args):
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "inspector", "proxy", *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and args[0] in p.stderr, p.stderr
