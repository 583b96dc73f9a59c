"""``inspector proxy``: an OpenAI-, Anthropic- and Gemini-compatible HTTP proxy with the guard in it,
for teams that cannot change client code (point ``OPENAI_BASE_URL`` / ``ANTHROPIC_BASE_URL`` at it).

A Starlette app served by uvicorn; each request is forwarded with httpx through the same
``AsyncGuardTransport`` the SDK path uses, so its verdicts are ``inspector check``'s.

=====================================  ==============================================
on the proxy                            forwarded to
=====================================  ==============================================
``POST /v1/chat/completions``           ``{upstream-openai}/chat/completions``
``POST /v1/responses``                  ``{upstream-openai}/responses``
``POST /v1/messages``                   ``{upstream-anthropic}/messages``
``POST /{version}/models/M:generateContent`` (and ``:streamGenerateContent``)  ``{upstream-gemini}/{version}/models/M:…``
any other ``/v1/…``                     the OpenAI upstream (the Anthropic one when the request
                                        carries ``anthropic-version``), not inspected
``GET /health``                         answered by the proxy: ``{"status": "ok", "mode": …}``
=====================================  ==============================================

Headers (``Authorization``, ``x-api-key``, ``x-goog-api-key``) and the query string go upstream
untouched and are never stored or logged (uvicorn's access log is off: Gemini's ``?key=`` is an
API key; the proxy logs the URL without its query). Responses, SSE streams included, are passed
on as the upstream sends them, chunk by chunk, never buffered; a stream the upstream cuts is cut
for the client too (never ended as if complete). ``block`` answers a request the target would
reject with a 400 in the provider's own error JSON shape, our finding in it, and a request it
cannot read with a clear 400; ``observe`` and ``repair`` forward what they cannot read unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from .check_workers import (
    DEFAULT_MEMORY_MB,
    DEFAULT_SECONDS,
    DEFAULT_THRESHOLD,
    DEFAULT_WORKERS,
    CheckCrashed,
    CheckWorkers,
)
from .inspect import endpoint_of, public_url
from .recorder import Recorder
from .refusal import RejectedRequest, error_body, shaped
from .transport import AsyncGuardTransport

log = logging.getLogger("inspector.guard")

DEFAULT_UPSTREAMS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com/v1",
    "gemini": "https://generativelanguage.googleapis.com",
}
PROXY_MODES = ("observe", "block", "repair")
# A request body above this is refused with 413 before it is read whole. What the providers accept
# (docs/provider-evidence.md, "Request body limits"): Gemini up to 100 MB of inline (base64) data
# since 2026-01-12, the largest of the three, so the default leaves 10 MB for the JSON around it
# and never refuses what a provider would take; Anthropic's Messages API refuses a request over
# 32 MB itself (413 ``request_too_large``), so toward api.anthropic.com the proxy refuses at once
# what Anthropic would (32 MiB: the larger reading of its "32 MB", never below what it accepts).
MAX_BODY_BYTES = 110_000_000
PROVIDER_BODY_BYTES = {"api.anthropic.com": 32 * 1024 * 1024}
# Issue 33: a slow or lying client holds nothing for long, and neither does a hung upstream.
HEADER_SECONDS = 10.0  # from connecting to the end of the request's headers
BODY_IDLE_SECONDS = 30.0  # longest pause between two pieces of a request body
BODY_SECONDS = 300.0  # the whole request body
# The upstream's response headers must all arrive within this of the proxy starting to send
# (connecting and sending included: a total, not per read, which an upstream trickling a byte at a
# time would reset forever); after them, a body or stream may run as long as it needs but pause
# no longer than this between two chunks.
UPSTREAM_SECONDS = 300.0
# Hop-by-hop headers (RFC 9110 §7.6.1) and the ones httpx / uvicorn set themselves.
_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
                  "transfer-encoding", "upgrade", "host", "content-length"})


def upstream_url(path: str, query: bytes, headers: Any, upstreams: dict[str, str]) -> str | None:
    """Where a request to the proxy's ``path`` goes, or None (no route)."""
    q = ("?" + query.decode("latin-1")) if query else ""
    if "/models/" in path and ":" in path.rsplit("/", 1)[-1]:
        return upstreams["gemini"].rstrip("/") + path + q
    if path.startswith("/v1/"):
        rest = path[3:]
        anthropic = rest.startswith("/messages") or "anthropic-version" in headers
        return upstreams["anthropic" if anthropic else "openai"].rstrip("/") + rest + q
    return None


_ENCODED = re.compile(rb"%(?:3f|23|00|2f|5c|2e|25)", re.IGNORECASE)


def refused_path(raw_path: bytes, path: str) -> str | None:
    """Why the request's path is refused, or None: a ``.`` or ``..`` segment (``/v1/../../x`` would
    reach the upstream as ``/x`` with the client's key), an encoded ``?``, ``#``, NUL, ``/``, ``\\``,
    ``.`` or ``%`` (each makes the proxy and the upstream read different paths: a chat request that
    skips the check), a control character, or an empty segment."""
    if _ENCODED.search(raw_path):
        return "an encoded ?, #, NUL, /, \\, . or % in the path"
    if any(seg in (".", "..") for seg in path.split("/")):
        return "a . or .. segment in the path"
    if any(ord(c) < 0x20 or c == "\x7f" for c in path):
        return "a control character in the path"
    if "//" in path:
        return "an empty segment (//) in the path"
    return None


def body_limit(target: str, max_body_bytes: int) -> int:
    """The body limit toward ``target``: ``max_body_bytes``, or the provider's own when its host
    refuses less (a body it would refuse anyway is not read whole first)."""
    host = urlsplit(target).hostname or ""
    return min(max_body_bytes, PROVIDER_BODY_BYTES.get(host, max_body_bytes))


def _whose(limit: int, max_body_bytes: int) -> str:
    return " (the provider's own limit: it would refuse the request)" if limit < max_body_bytes else ""


def _provider_of(path: str) -> str:
    ep = endpoint_of(path)
    return ep.provider if ep is not None else "openai"


def _error(provider: str, status: int, text: str, close: bool = False) -> JSONResponse:
    """An error of the proxy's own (no upstream, body too large), in the provider's JSON shape;
    ``close``: the connection ends with it (what is left of the body is not read)."""
    return JSONResponse(shaped(provider, status, f"inspector proxy: {text}", code="inspector_proxy"), status_code=status,
                        headers={"connection": "close"} if close else None)


class HeadersDeadline(httpx.AsyncBaseTransport):
    """``inner`` with one deadline from the start of a request to its response's headers
    (connecting, sending and waiting included): httpx's own timeouts are per operation, so an
    upstream sending a header byte a second was waited for indefinitely. Past the deadline the
    connection is dropped and ``httpx.ReadTimeout`` raised; the body is not under it."""

    def __init__(self, inner: httpx.AsyncBaseTransport, seconds: float) -> None:
        self.inner = inner
        self.seconds = seconds

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            async with asyncio.timeout(self.seconds):
                return await self.inner.handle_async_request(request)
        except TimeoutError:
            raise httpx.ReadTimeout(f"no response headers within {self.seconds:g} s", request=request) from None

    async def aclose(self) -> None:
        await self.inner.aclose()


def build_app(*, mode: str = "observe", upstreams: dict[str, str] | None = None, record: bool | None = None,
              transport: httpx.AsyncBaseTransport | None = None, recorder: Recorder | None = None,
              max_body_bytes: int = MAX_BODY_BYTES, upstream_seconds: float = UPSTREAM_SECONDS,
              body_idle_seconds: float = BODY_IDLE_SECONDS, body_seconds: float = BODY_SECONDS,
              workers: CheckWorkers | None = None) -> ProxyApp:
    """The proxy as an ASGI app. ``transport`` is the one requests leave through (default: the
    network); ``record`` None reads ``INSPECTOR_RECORD``; ``workers`` check the big bodies
    (``check_workers.py``; None: every body is checked in this process)."""
    if mode not in PROXY_MODES:
        raise ValueError(f"mode must be one of {', '.join(PROXY_MODES)}")
    ups = {**DEFAULT_UPSTREAMS, **{k: v for k, v in (upstreams or {}).items() if v}}
    rec = recorder if recorder is not None else Recorder("proxy", enabled=record)
    network = HeadersDeadline(transport if transport is not None else httpx.AsyncHTTPTransport(), upstream_seconds)
    guard = AsyncGuardTransport(network, mode=mode, recorder=rec, source="proxy", workers=workers)
    holder: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        # No cookie jar: one client serves every team member, so a cookie the provider sets on one
        # member's response must never go out with another's request (it reaches its own client
        # in the response; what a client sends itself is forwarded as one of its headers).
        from http.cookiejar import CookieJar, DefaultCookiePolicy

        keep_none = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
        holder["client"] = httpx.AsyncClient(transport=guard, timeout=httpx.Timeout(upstream_seconds, connect=10.0),
                                             cookies=keep_none)
        try:
            yield
        finally:  # graceful shutdown: uvicorn waits for requests in flight, then this runs
            await holder["client"].aclose()
            if workers is not None:
                workers.close()

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "mode": mode, "recording": rec.enabled})

    async def forward(request: Request) -> Response:
        path = request.url.path
        why = refused_path(request.scope.get("raw_path") or path.encode("utf-8", "surrogateescape"), path)
        if why is not None:
            return _error(_provider_of(path), 400, f"refused: {why}; send the API path as the provider documents it")
        target = upstream_url(path, request.scope.get("query_string", b""), request.headers, ups)
        if target is None:
            return _error("openai", 404, f"no route for {request.method} {path} (chat APIs live under /v1/ and "
                          "/{version}/models/…)")
        limit = body_limit(target, max_body_bytes)
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            return _error(_provider_of(path), 413, f"the request body is {int(declared):,} bytes; "
                          f"this proxy accepts up to {limit:,}{_whose(limit, max_body_bytes)}", close=True)
        try:
            body = await _read_body(request, limit, body_idle_seconds, body_seconds)
        except ClientDisconnect:  # the client gave up (its own timeout, a cancelled run): no one to answer
            log.info("inspector proxy: the client closed the connection before its request body to %s was "
                     "complete; nothing was sent", public_url(target))
            return Response(status_code=400)
        except TimeoutError:
            return _error(_provider_of(path), 408, f"the request body did not arrive in time (a pause over "
                          f"{body_idle_seconds:g} s, or over {body_seconds:g} s in all)", close=True)
        if body is None:
            return _error(_provider_of(path), 413, f"the request body is larger than {limit:,} bytes"
                          f"{_whose(limit, max_body_bytes)}", close=True)
        headers = [(k, v) for k, v in request.headers.raw if k.decode("latin-1").lower() not in _HOP]
        client = holder["client"]
        out = client.build_request(request.method, target, headers=headers, content=body)
        try:
            resp = await client.send(out, stream=True) if out.url.userinfo else await _sent(guard, out)
        except RejectedRequest as refused:
            log.warning("inspector proxy: refused %s: %s", public_url(target), refused)
            return JSONResponse(error_body(refused.inspection), status_code=400)
        except CheckCrashed as exc:  # not a verdict: the client is told to send it again
            return _error(_provider_of(path), 503, str(exc))
        except httpx.TimeoutException:
            return _error(_provider_of(path), 504, f"the upstream {public_url(target)} did not answer in time")
        except httpx.HTTPError as exc:
            return _error(_provider_of(path), 502, f"the upstream {public_url(target)} cannot be reached "
                          f"({type(exc).__name__})")
        keep = [(k.lower(), v) for k, v in resp.headers.raw if k.decode("latin-1").lower() not in _HOP]
        if resp.is_closed:  # an error body the guard read: it went through the decoder once
            keep = [(k, v) for k, v in keep if k != b"content-encoding"]
            answer: Response = Response(resp.content, status_code=resp.status_code)
        else:
            answer = StreamingResponse(_relay(resp, target), status_code=resp.status_code,
                                       background=BackgroundTask(resp.aclose))
        # Every header as the upstream sent it, repeated ones too (two Set-Cookie stay two).
        answer.raw_headers = [(k, v) for k, v in answer.raw_headers if k == b"content-length"] + keep
        return answer

    routes = [Route("/health", health, methods=["GET"]), Route("/healthz", health, methods=["GET"]),
              Route("/{path:path}", forward, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.recorder = rec
    return ProxyApp(app)


async def _sent(transport: httpx.AsyncBaseTransport, request: httpx.Request) -> httpx.Response:
    """``client.send(request, stream=True)`` for the proxy's client, straight through its transport:
    that client follows no redirect, has no auth (an upstream URL with user info goes through
    ``client.send``, which makes it Basic auth), keeps no cookie (its jar takes none) and mounts no
    other transport (it was given one), so what its layers add is time only: 0.06-0.15 ms of CPU a
    request, measured in-process (issue 37)."""
    try:
        resp = await transport.handle_async_request(request)
    except httpx.RequestError as exc:
        exc.request = request  # (as the client's ``request_context`` sets it)
        raise
    resp.request = request
    return resp


async def _read_body(request: Request, limit: int, idle: float = BODY_IDLE_SECONDS,
                     total: float = BODY_SECONDS) -> bytes | None:
    """The body, None as soon as it passes ``limit`` (not read to its end), ``TimeoutError`` when a
    piece takes longer than ``idle`` or the whole longer than ``total``."""
    parts: list[bytes] = []
    size = 0
    stream = request.stream().__aiter__()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + total
    # One timeout moved along for each piece (``asyncio.wait_for`` made a task per piece).
    async with asyncio.timeout(min(idle, total)) as piece:
        while True:
            try:
                chunk = await stream.__anext__()
            except StopAsyncIteration:
                return b"".join(parts)
            size += len(chunk)
            if size > limit:
                return None
            parts.append(chunk)
            piece.reschedule(min(loop.time() + idle, deadline))


def header_timeout_protocol(seconds: float) -> type:
    """uvicorn's HTTP protocol, closing a connection whose first request's headers have not all
    arrived ``seconds`` after it opened (uvicorn has no such limit: 200 slow clients held the proxy
    for 90 s, issue 33). The httptools parser when it is installed (the guard extra installs it:
    measured about 0.4 ms less CPU per proxied request than h11, issue 37), else h11."""
    base: type
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as base
    except ImportError:  # (httptools missing)
        from uvicorn.protocols.http.h11_impl import H11Protocol as base

    class HeaderTimeout(base):  # type: ignore[misc]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._headers_timer = self.loop.call_later(seconds, self._no_headers)

        def _no_headers(self) -> None:
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._headers_timer.cancel()
            super().connection_lost(exc)

    return HeaderTimeout


class _StreamCut(Exception):
    """The upstream cut a stream the proxy was relaying (already logged in one line)."""


class ProxyApp:
    """The app, with a stream the upstream cut ended for the client without a traceback in the
    log: the app returns with the response unfinished, and uvicorn closes the connection (the
    client sees the stream cut, never a clean end) with its one line "ASGI callable returned
    without completing response"."""

    def __init__(self, app: Starlette):
        self.app = app
        self.state = app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except _StreamCut:
            pass


async def _relay(resp: httpx.Response, target: str) -> AsyncIterator[bytes]:
    """The upstream's bytes as they arrive (raw: a compressed body stays compressed)."""
    try:
        async for chunk in resp.aiter_raw():
            yield chunk
    except httpx.HTTPError as exc:
        # Cut the client's stream too: ending it cleanly would pass a half answer off as whole.
        log.warning("inspector proxy: the upstream %s closed the stream early (%s); the client's stream is cut too",
                    public_url(target), type(exc).__name__)
        raise _StreamCut() from None


def serve(*, host: str, port: int, mode: str, upstreams: dict[str, str], record: bool | None,
          log_level: str = "info", max_body_bytes: int = MAX_BODY_BYTES, upstream_seconds: float = UPSTREAM_SECONDS,
          header_seconds: float = HEADER_SECONDS, body_idle_seconds: float = BODY_IDLE_SECONDS,
          body_seconds: float = BODY_SECONDS, check_workers: int = DEFAULT_WORKERS,
          worker_threshold: int = DEFAULT_THRESHOLD, worker_mb: int = DEFAULT_MEMORY_MB,
          worker_seconds: float = DEFAULT_SECONDS) -> None:
    """Run the proxy with uvicorn until SIGINT/SIGTERM (requests in flight are finished first).
    A body over ``worker_threshold`` bytes is checked in one of ``check_workers`` processes of at
    most ``worker_mb`` MB each, killed past ``worker_seconds`` on one body (0 workers: in the proxy's
    threads)."""
    import uvicorn

    workers = (CheckWorkers(workers=check_workers, threshold=worker_threshold, memory_mb=worker_mb,
                            seconds=worker_seconds) if check_workers else None)
    app = build_app(mode=mode, upstreams=upstreams, record=record, max_body_bytes=max_body_bytes,
                    upstream_seconds=upstream_seconds, body_idle_seconds=body_idle_seconds, body_seconds=body_seconds,
                    workers=workers)
    config = uvicorn.Config(app, host=host, port=port, access_log=False, log_level=log_level,
                            timeout_graceful_shutdown=30, lifespan="on", http=header_timeout_protocol(header_seconds))
    server = uvicorn.Server(config)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for name in ("httpx", "httpx2", "httpcore"):  # they log each request's URL whole, ?key= included, at INFO
        logging.getLogger(name).setLevel(logging.WARNING)
    log.info("inspector proxy: mode %s, recording %s; OpenAI %s, Anthropic %s, Gemini %s",
             mode, "on" if app.state.recorder.enabled else "off",
             public_url(upstreams.get("openai") or DEFAULT_UPSTREAMS["openai"]),
             public_url(upstreams.get("anthropic") or DEFAULT_UPSTREAMS["anthropic"]),
             public_url(upstreams.get("gemini") or DEFAULT_UPSTREAMS["gemini"]))
    log.info("inspector proxy: %s", f"a body over {worker_threshold:,} bytes is checked in one of {check_workers} "
             f"worker processes of at most {worker_mb:,} MB and {worker_seconds:g} s a body" if workers else "every body is checked in this process")
    server.run()

