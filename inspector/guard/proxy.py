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

import logging
from contextlib import asynccontextmanager

import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

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
MAX_BODY_BYTES = 100_000_000  # a request body above this is refused with 413 before it is read whole
# Hop-by-hop headers (RFC 9110 §7.6.1) and the ones httpx / uvicorn set themselves.
_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
                  "transfer-encoding", "upgrade", "host", "content-length"})


def upstream_url(path: str, query: bytes, headers, upstreams: dict[str, str]) -> str | None:
    """Where a request to the proxy's ``path`` goes, or None (no route)."""
    q = ("?" + query.decode("latin-1")) if query else ""
    if "/models/" in path and ":" in path.rsplit("/", 1)[-1]:
        return upstreams["gemini"].rstrip("/") + path + q
    if path.startswith("/v1/"):
        rest = path[3:]
        anthropic = rest.startswith("/messages") or "anthropic-version" in headers
        return upstreams["anthropic" if anthropic else "openai"].rstrip("/") + rest + q
    return None


def _provider_of(path: str) -> str:
    ep = endpoint_of(path)
    return ep.provider if ep is not None else "openai"


def _error(provider: str, status: int, text: str) -> JSONResponse:
    """An error of the proxy's own (no upstream, body too large), in the provider's JSON shape."""
    return JSONResponse(shaped(provider, status, f"inspector proxy: {text}", code="inspector_proxy"), status_code=status)


def build_app(*, mode: str = "observe", upstreams: dict[str, str] | None = None, record: bool | None = None,
              transport: httpx.AsyncBaseTransport | None = None, recorder: Recorder | None = None,
              max_body_bytes: int = MAX_BODY_BYTES) -> Starlette:
    """The proxy as an ASGI app. ``transport`` is the one requests leave through (default: the
    network); ``record`` None reads ``INSPECTOR_RECORD``."""
    if mode not in PROXY_MODES:
        raise ValueError(f"mode must be one of {', '.join(PROXY_MODES)}")
    ups = {**DEFAULT_UPSTREAMS, **{k: v for k, v in (upstreams or {}).items() if v}}
    rec = recorder if recorder is not None else Recorder("proxy", enabled=record)
    guard = AsyncGuardTransport(transport, mode=mode, recorder=rec, source="proxy")
    holder: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(app):
        holder["client"] = httpx.AsyncClient(transport=guard, timeout=httpx.Timeout(600.0, connect=10.0))
        try:
            yield
        finally:  # graceful shutdown: uvicorn waits for requests in flight, then this runs
            await holder["client"].aclose()

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "mode": mode, "recording": rec.enabled})

    async def forward(request: Request) -> Response:
        path = request.url.path
        target = upstream_url(path, request.scope.get("query_string", b""), request.headers, ups)
        if target is None:
            return _error("openai", 404, f"no route for {request.method} {path} (chat APIs live under /v1/ and "
                          "/{version}/models/…)")
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > max_body_bytes:
            return _error(_provider_of(path), 413, f"the request body is {int(declared):,} bytes; "
                          f"this proxy accepts up to {max_body_bytes:,}")
        body = await _read_body(request, max_body_bytes)
        if body is None:
            return _error(_provider_of(path), 413, f"the request body is larger than {max_body_bytes:,} bytes")
        headers = [(k, v) for k, v in request.headers.raw if k.decode("latin-1").lower() not in _HOP]
        client = holder["client"]
        out = client.build_request(request.method, target, headers=headers, content=body)
        try:
            resp = await client.send(out, stream=True)
        except RejectedRequest as refused:
            log.warning("inspector proxy: refused %s: %s", public_url(target), refused)
            return JSONResponse(error_body(refused.inspection), status_code=400)
        except httpx.TimeoutException:
            return _error(_provider_of(path), 504, f"the upstream {public_url(target)} did not answer in time")
        except httpx.HTTPError as exc:
            return _error(_provider_of(path), 502, f"the upstream {public_url(target)} cannot be reached "
                          f"({type(exc).__name__})")
        keep = [(k, v) for k, v in resp.headers.raw if k.decode("latin-1").lower() not in _HOP]
        if resp.is_closed:  # an error body the guard read: it went through the decoder once
            keep = [(k, v) for k, v in keep if k.decode("latin-1").lower() != "content-encoding"]
            return Response(resp.content, status_code=resp.status_code, headers=dict(_merge(keep)))
        return StreamingResponse(_relay(resp, target), status_code=resp.status_code, headers=dict(_merge(keep)),
                                 background=BackgroundTask(resp.aclose))

    routes = [Route("/health", health, methods=["GET"]), Route("/healthz", health, methods=["GET"]),
              Route("/{path:path}", forward, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.recorder = rec
    return app


def _merge(pairs: list[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in pairs]


async def _read_body(request: Request, limit: int) -> bytes | None:
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        parts.append(chunk)
    return b"".join(parts)


async def _relay(resp: httpx.Response, target: str):
    """The upstream's bytes as they arrive (raw: a compressed body stays compressed)."""
    try:
        async for chunk in resp.aiter_raw():
            yield chunk
    except httpx.HTTPError as exc:
        # Cut the client's stream too: ending it cleanly would pass a half answer off as whole.
        log.warning("inspector proxy: the upstream %s closed the stream early (%s)", public_url(target),
                    type(exc).__name__)
        raise


def serve(*, host: str, port: int, mode: str, upstreams: dict[str, str], record: bool | None,
          log_level: str = "info", max_body_bytes: int = MAX_BODY_BYTES) -> None:
    """Run the proxy with uvicorn until SIGINT/SIGTERM (requests in flight are finished first)."""
    import uvicorn

    app = build_app(mode=mode, upstreams=upstreams, record=record, max_body_bytes=max_body_bytes)
    config = uvicorn.Config(app, host=host, port=port, access_log=False, log_level=log_level,
                            timeout_graceful_shutdown=30, lifespan="on")
    server = uvicorn.Server(config)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for name in ("httpx", "httpx2", "httpcore"):  # they log each request's URL whole, ?key= included, at INFO
        logging.getLogger(name).setLevel(logging.WARNING)
    log.info("inspector proxy: mode %s, recording %s; OpenAI %s, Anthropic %s, Gemini %s",
             mode, "on" if app.state.recorder.enabled else "off",
             public_url(upstreams.get("openai") or DEFAULT_UPSTREAMS["openai"]),
             public_url(upstreams.get("anthropic") or DEFAULT_UPSTREAMS["anthropic"]),
             public_url(upstreams.get("gemini") or DEFAULT_UPSTREAMS["gemini"]))
    server.run()

