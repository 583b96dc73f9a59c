"""Issue 33, a proxy that lives for weeks: paths that would reach another upstream path refused in
the provider's error shape, a body over the limit answered 413 as soon as it passes it, a slow or
lying client and a hung upstream held for a bounded time, repeated response headers kept. Real
processes on 127.0.0.1 (``inspector proxy`` and the replaying stand-in provider), raw sockets
where httpx would be too polite; every wait is bounded by a socket timeout, none is a sleep."""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from urllib.parse import urlsplit

import httpx
import pytest
from support import guard_fixtures
from support.guard_fixtures import forget, guardserver, seen

upstream = guard_fixtures.upstream  # the stand-in provider process (a fixture)

BODY = json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}).encode()
HOLD = []  # (what, seconds) measured here, printed for the report


@pytest.fixture(scope="module")
def proxy(upstream):
    p = guardserver.start_proxy(upstream.url, mode="block",
                                extra=("--header-timeout", "1", "--body-timeout", "1", "--max-body-mb", "1"))
    yield p
    p.stop()


def _connect(url: str) -> socket.socket:
    u = urlsplit(url)
    return socket.create_connection((u.hostname, u.port), timeout=60)


def _answer(sock: socket.socket) -> tuple[int, bytes, bytes]:
    """(status, head, body) of the one answer on ``sock``, read to the connection's end."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    head, _, payload = data.partition(b"\r\n\r\n")
    return (int(head.split()[1]) if head else 0), head, payload


def _post(url: str, path: str, body: bytes = BODY) -> tuple[int, bytes, bytes]:
    sock = _connect(url)
    u = urlsplit(url)
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {u.netloc}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode("latin-1") + body)
    return _answer(sock)


@pytest.mark.parametrize("path", ["/v1/../../x", "/v1/chat/../../secret", "/v1/./chat/completions",
                                  "/v1/chat/completions%3Fx=1", "/v1/chat/completions%23frag", "/v1/chat%00/completions",
                                  "/v1/chat%2Fcompletions", "/v1/%2e%2e/x", "/v1//chat/completions"])
def test_a_path_that_would_change_on_the_way_is_refused_in_the_providers_shape(proxy, upstream, path):
    forget(upstream)
    status, head, body = _post(proxy.url, path)
    assert status == 400, (path, head)
    err = json.loads(body)["error"]
    assert err["code"] == "inspector_proxy" and "refused" in err["message"]
    assert seen(upstream) == []  # nothing reached the provider, with or without the client's key
    _post(proxy.url, "/v1/chat/completions")  # the plain path still goes through (the control)
    assert [r["path"] for r in seen(upstream)] == ["/v1/chat/completions"]


def test_a_body_over_the_limit_is_answered_413_before_its_end(proxy):
    """A chunked body that passes 1 MB by one byte and then stops (its last chunk not ended): the
    413 comes without the rest. (Sending more than the proxy reads before its answer would make the
    close a reset, which hides the answer from a raw socket: the byte that passes the limit is the
    last one sent, so the proxy has read everything when it answers, however the reads fall.)"""
    sock = _connect(proxy.url)
    u = urlsplit(proxy.url)
    sock.sendall(f"POST /v1/chat/completions HTTP/1.1\r\nHost: {u.netloc}\r\nContent-Type: application/json\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n".encode())
    piece = b"x" * 65536
    for _ in range(15):  # 983,040 bytes
        sock.sendall(b"%x\r\n" % len(piece) + piece + b"\r\n")
    last = 1_000_001 - 15 * len(piece)  # the limit (--max-body-mb 1) passed by one byte
    sock.sendall(b"%x\r\n" % (last + 1) + b"x" * last)  # a chunk announced one byte longer: the body not ended
    status, _, body = _answer(sock)
    assert status == 413 and json.loads(body)["error"]["code"] == "inspector_proxy"


def test_a_client_that_never_finishes_its_headers_is_let_go(proxy):
    sock = _connect(proxy.url)
    sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n")  # and nothing more
    t0 = time.monotonic()
    assert sock.recv(65536) == b""  # closed by the proxy (the socket's own bound: 60 s)
    HOLD.append(("slow headers", time.monotonic() - t0))
    sock.close()


def test_a_body_shorter_than_its_content_length_ends_in_408(proxy):
    sock = _connect(proxy.url)
    u = urlsplit(proxy.url)
    sock.sendall(f"POST /v1/chat/completions HTTP/1.1\r\nHost: {u.netloc}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(BODY) + 1000}\r\n\r\n".encode() + BODY)  # lies: 1,000 bytes never come
    t0 = time.monotonic()
    status, _, body = _answer(sock)
    HOLD.append(("lying Content-Length", time.monotonic() - t0))
    assert status == 408 and json.loads(body)["error"]["code"] == "inspector_proxy"


def test_a_hung_upstream_is_answered_504_after_the_upstream_timeout(upstream):
    p = guardserver.start_proxy(upstream.url, mode="observe", prefix="/hang", extra=("--upstream-timeout", "2"))
    try:
        t0 = time.monotonic()
        r = httpx.post(p.url + "/v1/chat/completions", content=BODY, headers={"content-type": "application/json"},
                       timeout=60)
        HOLD.append(("hung upstream", time.monotonic() - t0))
        assert r.status_code == 504 and r.json()["error"]["code"] == "inspector_proxy"
    finally:
        p.stop()


class _TricklingUpstream:
    """A loopback upstream that takes one request, then sends its response's status line and headers
    a byte at a time, a byte every 0.2 s (never a pause as long as the proxy's per-read timeout),
    and notes whether the proxy went away before the headers were all sent: every byte "arrives in
    time", the headers never do."""

    HEAD = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-slow: " + b"s" * 40
            + b"\r\ncontent-length: 2\r\n\r\n")

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(60)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sent = 0  # bytes of HEAD sent
        self.client_left_at: int | None = None  # bytes of HEAD sent when the proxy closed the connection
        self.thread = threading.Thread(target=self._serve, name="trickling-upstream", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            data = b""
            while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < len(BODY):
                data += conn.recv(65536)  # the proxy's request, read whole (its body is BODY)
            for byte in self.HEAD:
                # The pace: wait up to 0.2 s for the proxy to close (readable at EOF); a byte if it did not.
                if select.select([conn], [], [], 0.2)[0] and conn.recv(1) == b"":
                    self.client_left_at = self.sent
                    return
                conn.sendall(bytes([byte]))
                self.sent += 1
            conn.sendall(b"{}")
        self.listener.close()


def test_an_upstream_that_trickles_its_headers_is_answered_504_before_it_finishes():
    """``--upstream-timeout`` bounds the wait for the response's headers as a whole (connecting and
    sending included), not each read: an upstream that sends a header byte every 0.2 s never pauses
    for 1 s, yet its headers would take 24 s. The 504 comes, and the proxy has left the upstream
    before the upstream sent its last header byte (the order of events, not a clock)."""
    slow = _TricklingUpstream()
    p = guardserver.start_proxy(slow.url, mode="observe", extra=("--upstream-timeout", "1"))
    try:
        t0 = time.monotonic()
        r = httpx.post(p.url + "/v1/chat/completions", content=BODY, headers={"content-type": "application/json"},
                       timeout=60)
        HOLD.append(("trickling upstream", time.monotonic() - t0))
        assert r.status_code == 504 and r.json()["error"]["code"] == "inspector_proxy", r.text
        assert "did not answer in time" in r.json()["error"]["message"]
        slow.thread.join(timeout=60)
        assert not slow.thread.is_alive()
        assert slow.client_left_at is not None and slow.client_left_at < len(slow.HEAD), \
            (slow.client_left_at, slow.sent)
    finally:
        p.stop()


def test_figures():
    print("\nissue 33 hold times:", ", ".join(f"{what} {s:.1f} s" for what, s in HOLD))


def test_repeated_response_headers_are_all_passed_on():
    """Two Set-Cookie headers from the upstream stay two (they were merged into one). In process:
    the replaying stand-in sends no cookies, its cassettes have them scrubbed."""
    from starlette.testclient import TestClient

    from inspector.guard.proxy import build_app

    def provider(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=[("content-type", "application/json"), ("set-cookie", "a=1; Path=/"),
                                            ("set-cookie", "b=2; Path=/"), ("x-request-id", "r1")],
                              content=b'{"id": "x", "choices": []}')

    app = build_app(mode="observe", transport=httpx.MockTransport(provider), record=False,
                    upstreams={"openai": "http://upstream.invalid/v1"})
    with TestClient(app) as client:
        r = client.post("/v1/chat/completions", content=BODY, headers={"content-type": "application/json"})
    assert r.status_code == 200
    assert r.headers.get_list("set-cookie") == ["a=1; Path=/", "b=2; Path=/"]
    assert r.headers["x-request-id"] == "r1"


def test_a_cookie_one_client_got_from_the_upstream_never_goes_out_with_another_clients_request():
    """The proxy's one upstream client kept a cookie jar: a cookie the provider set on one team
    member's response (a load balancer's, Cloudflare's ``__cf_bm``) went out with every later
    request of everyone. The Set-Cookie still reaches the client it was meant for; only what a
    client sends itself goes upstream."""
    from starlette.testclient import TestClient

    from inspector.guard.proxy import build_app

    sent: list[str | None] = []

    def provider(request: httpx.Request) -> httpx.Response:
        sent.append(request.headers.get("cookie"))
        return httpx.Response(200, headers=[("content-type", "application/json"),
                                            ("set-cookie", "__cf_bm=first-client; Path=/; HttpOnly")],
                              content=b'{"id": "x", "choices": []}')

    app = build_app(mode="observe", transport=httpx.MockTransport(provider), record=False,
                    upstreams={"openai": "https://upstream.example.com/v1"})
    with TestClient(app) as first, TestClient(app) as second:
        r = first.post("/v1/chat/completions", content=BODY, headers={"content-type": "application/json"})
        assert r.headers.get_list("set-cookie") == ["__cf_bm=first-client; Path=/; HttpOnly"]
        second.cookies.clear()
        second.post("/v1/chat/completions", content=BODY, headers={"content-type": "application/json"})
        second.post("/v1/chat/completions", content=BODY,
                    headers={"content-type": "application/json", "cookie": "own=mine"})
    assert sent == [None, None, "own=mine"], sent


def test_what_goes_upstream_is_what_the_proxys_client_would_send():
    """The proxy hands its request straight to its transport (``proxy._sent``, issue 37): what reaches
    the upstream (method, URL, headers in order, body) is what ``client.send`` sent, and an upstream
    URL with user info still goes through the client, which makes it Basic auth."""
    import base64

    from starlette.testclient import TestClient

    from inspector.guard import proxy as proxy_module
    from inspector.guard.proxy import build_app

    def run(upstream: str, through_client: bool) -> list[tuple[str, str, list[tuple[bytes, bytes]], bytes]]:
        sent: list[tuple[str, str, list[tuple[bytes, bytes]], bytes]] = []

        def provider(request: httpx.Request) -> httpx.Response:
            sent.append((request.method, str(request.url), list(request.headers.raw), request.read()))
            return httpx.Response(200, headers=[("content-type", "application/json")], content=b'{"id": "x"}')

        real = proxy_module._sent
        if through_client:  # what the client's own send made of the same request
            async def via_client(transport: httpx.AsyncBaseTransport, request: httpx.Request) -> httpx.Response:
                async with httpx.AsyncClient(transport=transport) as c:
                    return await c.send(request, stream=True)
            proxy_module._sent = via_client  # type: ignore[assignment]
        try:
            app = build_app(mode="observe", transport=httpx.MockTransport(provider), record=False,
                            upstreams={"openai": upstream})
            with TestClient(app) as client:
                for headers in ({"content-type": "application/json", "authorization": "Bearer k", "x-a": "1"},
                                {"content-type": "application/json", "accept-encoding": "identity"}):
                    r = client.post("/v1/chat/completions?x=1", content=BODY, headers=headers)
                    assert r.status_code == 200 and r.json() == {"id": "x"}
        finally:
            proxy_module._sent = real  # type: ignore[assignment]
        return sent

    direct = run("https://upstream.example.com/v1", through_client=False)
    assert direct == run("https://upstream.example.com/v1", through_client=True)
    assert len(direct) == 2 and direct[0][1] == "https://upstream.example.com/v1/chat/completions?x=1"
    assert (b"authorization", b"Bearer k") in direct[0][2] and direct[0][3] == BODY
    with_user = run("https://team:secret@upstream.example.com/v1", through_client=False)
    assert (b"Authorization", b"Basic " + base64.b64encode(b"team:secret")) in with_user[1][2], with_user[1][2]


def test_the_default_body_limit_takes_what_gemini_takes_and_refuses_early_what_anthropic_refuses():
    """Defaults from the providers' documented limits (docs/provider-evidence.md): Gemini takes up
    to 100 MB of inline data, so the default limit is above it; api.anthropic.com refuses a request
    over 32 MB itself, so the proxy answers that 413 at once, in Anthropic's shape, and sends
    nothing; the same body toward OpenAI goes through. In process (the provider's own hosts are
    not reachable from a test): the app with a transport that records what leaves."""
    from starlette.testclient import TestClient

    from inspector.guard.proxy import MAX_BODY_BYTES, body_limit, build_app

    assert MAX_BODY_BYTES >= 100_000_000 + 1_000_000  # Gemini's inline data, with room for its JSON
    assert body_limit("https://generativelanguage.googleapis.com/v1beta/models/m:generateContent",
                      MAX_BODY_BYTES) == MAX_BODY_BYTES
    sent: list[str] = []

    def upstream_side(request: httpx.Request) -> httpx.Response:
        sent.append(request.url.host)
        return httpx.Response(200, json={"ok": True})

    app = build_app(mode="observe", record=False, transport=httpx.MockTransport(upstream_side))
    text = "x" * (32 * 1024 * 1024)  # over 32 MiB once in JSON
    big = json.dumps({"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": text}]}).encode()
    with TestClient(app) as client:
        refused = client.post("/v1/messages", content=big, headers={"content-type": "application/json"})
        forwarded = client.post("/v1/chat/completions", content=big, headers={"content-type": "application/json"})
    assert refused.status_code == 413 and refused.json()["type"] == "error"  # Anthropic's error shape
    assert "33,554,432" in refused.json()["error"]["message"] and "provider's own limit" in refused.json()["error"]["message"]
    assert forwarded.status_code == 200
    assert sent == ["api.openai.com"]  # nothing went to Anthropic


def test_a_client_that_goes_away_mid_body_is_one_log_line_and_the_proxy_serves_on(upstream):
    """Issue 33: 3 of 10,000 requests under 50 clients ended in ``ClientDisconnect`` tracebacks in
    the proxy's log: a client (its own timeout, a cancelled agent run) closing its connection
    before its request body was complete. A real client does that here, twice (declared length,
    and chunked); the proxy says it in one line, forwards nothing, and serves the next request."""
    p = guardserver.start_proxy(upstream.url, mode="block")
    host, port = urlsplit(p.url).hostname, urlsplit(p.url).port
    try:
        forget(upstream)
        for head in (b"Content-Length: 5000\r\n", b"Transfer-Encoding: chunked\r\n"):
            with socket.create_connection((host, port), timeout=30) as s:
                part = b'{"model": "gpt-4o", "messages": ['
                if b"chunked" in head:
                    part = b"%x\r\n%s\r\n" % (len(part), part)
                s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          + head + b"\r\n" + part)
            # closed: the proxy reads the end of the connection and says so
        line = "the client closed the connection before its request body"
        _wait_for_log(p, line, 2)
        assert seen(upstream) == []  # nothing of the cut requests went on
        r = httpx.post(p.url + "/v1/chat/completions", content=BODY, timeout=60)  # the next, whole one
        assert len(seen(upstream)) == 1
        assert r.headers.get("x-inspector-guard") == "ok"  # checked and forwarded: the proxy serves on
        log = p.output()
    finally:
        p.stop()
    assert "Traceback" not in log and "ClientDisconnect" not in log


def _wait_for_log(p, line: str, count: int) -> None:
    """Until ``line`` is in the proxy's log ``count`` times: each health request is a round trip
    through the proxy's event loop, which handles the closed connections in order; bounded."""
    for _ in range(500):
        if p.output().count(line) >= count:
            return
        httpx.get(p.url + "/health", timeout=30)
    raise AssertionError(f"{line!r} not {count} times in the log:\n{p.output()}")


def test_the_proxy_reads_http_with_the_httptools_parser_the_guard_extra_installs():
    """The guard extra installs httptools, and the proxy's protocol (with its header deadline,
    which the slow-client tests above hold against a real process) is uvicorn's httptools one:
    about 0.4 ms less CPU per proxied request than h11 (issue 37, docs/guard.md)."""
    pytest.importorskip("httptools", reason="the guard extra installs httptools")
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from inspector.guard.proxy import header_timeout_protocol

    assert issubclass(header_timeout_protocol(1.0), HttpToolsProtocol)
