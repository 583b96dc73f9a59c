"""The server's own endpoints and start-up, given to ``st.App`` by ``server.py``.

- ``GET /inspector/health``: 200 ``{"status": "ok", "store": "ok"}`` when the share store answers
  ``SELECT 1``, else 503 with ``"store": "unavailable"`` and the error's class (never its text).
  Streamlit's ``/_stcore/health`` says only that the process runs.
- ``GET /inspector/metrics``: Prometheus text: checks run, shares created / opened / deleted /
  expired, refused deletes, unreadable inputs, store errors, and ``inspector_store_up``.
- ``ReturnAfterSignIn``: Streamlit's OIDC callback always lands on ``/``; a share link opened
  while signed out would lose its ``?t=``. The middleware remembers the page's query (from the
  ``Referer`` of ``/auth/login``) in a short-lived cookie and puts it back on the callback's
  redirect, so the link opens after sign-in.
- ``lifespan``: at start-up, logging (``INSPECTOR_LOG_FORMAT``) and the retention schedule.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from ..sharing.config import Hosting, oidc_secrets
from . import events, retention

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

NO_CACHE = {"Cache-Control": "no-cache, no-store"}
RETURN_COOKIE = "inspector_return"
RETURN_SECONDS = 900


async def health(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    try:
        await run_in_threadpool(lambda: retention.process_store().ping())
    except Exception as exc:  # noqa: BLE001 - any failure means the store cannot serve links
        events.store_up(False)
        kind = events.error_kind(exc)
        events.record("store_errors", where="health", error=kind, level=logging.WARNING)
        return JSONResponse({"status": "unavailable", "store": "unavailable", "error": kind}, 503, headers=NO_CACHE)
    events.store_up(True)
    return JSONResponse({"status": "ok", "store": "ok"}, headers=NO_CACHE)


async def metrics(request: Request) -> Response:
    from starlette.responses import Response

    return Response(events.exposition(), media_type=events.METRICS_TYPE, headers=NO_CACHE)


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k.lower() == name:
            text: str = v.decode("latin-1")
            return text
    return None


def _return_query(referer: str | None, host: str | None) -> str:
    """The query of the page that started the sign-in, when it is this app's own page."""
    if not referer:
        return ""
    parts = urlsplit(referer)
    if host and parts.netloc and parts.netloc != host:
        return ""
    return urlencode(parse_qsl(parts.query))  # re-encoded: only key=value pairs go back


class ReturnAfterSignIn:
    """ASGI middleware: bring ``?t=...`` (the share link) back after Streamlit's OIDC round trip."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path.endswith("/auth/login"):
            query = _return_query(_header(scope, b"referer"), _header(scope, b"host"))
            if query:
                packed = base64.urlsafe_b64encode(query.encode()).decode("ascii")
                send = self._adding_cookie(send, f"{RETURN_COOKIE}={packed}; Max-Age={RETURN_SECONDS}")
        elif path.endswith("/oauth2callback"):
            cookie = SimpleCookie()
            cookie.load(_header(scope, b"cookie") or "")
            saved = cookie.get(RETURN_COOKIE)
            if saved is not None:
                try:
                    query = base64.urlsafe_b64decode(saved.value.encode("ascii")).decode("utf-8")
                except (ValueError, UnicodeError):
                    query = ""
                send = self._returning(send, urlencode(parse_qsl(query)))
        await self.app(scope, receive, send)

    @staticmethod
    def _adding_cookie(send: Send, value: str) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"set-cookie", f"{value}; Path=/; HttpOnly; SameSite=Lax".encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        return wrapped

    @classmethod
    def _returning(cls, send: Send, query: str) -> Send:
        clear = cls._adding_cookie(send, f"{RETURN_COOKIE}=; Max-Age=0")

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (302, 303, 307) and query:
                headers: list[tuple[bytes, bytes]] = []
                for k, v in message.get("headers", []):
                    if k.lower() == b"location":
                        target = v.decode("latin-1")
                        if "?" not in target:  # Streamlit's redirect to the app's own base path
                            v = f"{target}?{query}".encode("latin-1")
                    headers.append((k, v))
                message = {**message, "headers": headers}
            await clear(message)

        return wrapped


@asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    hosting = Hosting.from_env()
    events.configure(hosting.log_json)
    events.record("server_started", mode=hosting.auth)
    retention.start(hosting)
    try:
        yield
    finally:
        retention.stop()


def app_options() -> dict[str, Any]:
    """Keyword arguments for ``st.App``: routes, middleware, lifespan and (OIDC from the
    environment) secrets."""
    from starlette.middleware import Middleware
    from starlette.routing import Route

    options: dict[str, Any] = {
        "routes": [Route("/inspector/health", health), Route("/inspector/metrics", metrics)],
        "middleware": [Middleware(ReturnAfterSignIn)],
        "lifespan": lifespan,
    }
    auth = oidc_secrets()
    if auth:
        options["secrets"] = {"auth": auth}
    return options
