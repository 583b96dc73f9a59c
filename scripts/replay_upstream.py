"""A stand-in provider for the guard's tests and benchmark: a loopback ASGI app (Starlette, served by
uvicorn) that answers chat requests with the responses recorded in cassettes, verbatim.

    python scripts/replay_upstream.py PORT [CASSETTE_DIR]

A request is matched to a recorded interaction by its API (``/chat/completions``, ``/responses``,
``/messages``) and its JSON body (key order ignored); the recorded status and body are sent back as
they were, an SSE body one event at a time. A body nothing recorded answers with the first recorded
200 of the same API (header ``x-replay: fallback``). Path prefixes make it misbehave on purpose:
``/cut/…`` sends half of a stream and then drops the connection, ``/hang/…`` never answers,
``/slow/…`` sends a stream's events half a second apart (a request still in flight). ``GET
/_seen`` lists what it received (path, body, the Authorization / x-api-key values) and
``DELETE /_seen`` forgets it (with ``REPLAY_KEEP_SEEN=0`` nothing is kept: the benchmark's
thousands of 1 MB bodies); ``GET /health`` answers ok.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from inspector.guard.cassettes import read_cassette

APIS = ("/chat/completions", "/responses", "/messages")


def _api(path: str) -> str | None:
    return next((a for a in APIS if path.rstrip("/").endswith(a)), None)


def _canon(body: bytes | None) -> str | None:
    try:
        return json.dumps(json.loads(body), sort_keys=True) if body else None
    except ValueError:
        return None


def build(cassettes: Path) -> Starlette:
    recorded: dict[tuple[str, str], tuple[int, bytes, str]] = {}
    fallback: dict[str, tuple[int, bytes, str]] = {}
    for f in sorted(cassettes.rglob("*.yaml")):
        for it in read_cassette(f):
            api = _api(it.uri.split("?")[0])
            if api is None or it.status is None or it.response is None:
                continue
            ctype = (it.headers.get("content-type") or ["application/json"])[0]
            answer = (it.status, it.response, ctype)
            key = _canon(it.body)
            if key is not None:
                recorded.setdefault((api, key), answer)
            if it.status == 200 and "event-stream" not in ctype:
                fallback.setdefault(api, answer)
    seen: list[dict] = []
    keep = os.environ.get("REPLAY_KEEP_SEEN", "1") != "0"

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "recorded": len(recorded)})

    async def seen_list(request: Request) -> Response:
        if request.method == "DELETE":
            seen.clear()
        return JSONResponse(seen)

    async def answer(request: Request) -> Response:
        path = request.url.path
        body = await request.body()
        if keep:
            seen.append({"path": path, "query": request.url.query, "body": body.decode("utf-8", "replace"),
                         "authorization": request.headers.get("authorization"),
                         "x-api-key": request.headers.get("x-api-key")})
        if path.startswith("/hang/"):
            await asyncio.sleep(3600)
        api = _api(path)
        key = _canon(body)
        hit = recorded.get((api, key)) if api and key else None
        headers = {}
        if hit is None:
            hit = fallback.get(api or "")
            headers["x-replay"] = "fallback"
        if hit is None:
            return JSONResponse({"error": {"message": f"nothing recorded for {path}"}}, status_code=404)
        status, data, ctype = hit
        if "event-stream" in ctype:
            events = [e + b"\n\n" for e in data.split(b"\n\n") if e.strip()]
            cut = path.startswith("/cut/")
            pause = 0.5 if path.startswith("/slow/") else 0.005

            async def stream():
                for k, e in enumerate(events):
                    if cut and k == len(events) // 2:
                        raise ConnectionResetError("replay: cut half-way on purpose")
                    yield e
                    await asyncio.sleep(pause)

            return StreamingResponse(stream(), status_code=status, media_type=ctype, headers=headers)
        return Response(data, status_code=status, media_type=ctype, headers=headers)

    return Starlette(routes=[Route("/health", health), Route("/_seen", seen_list, methods=["GET", "DELETE"]),
                             Route("/{path:path}", answer, methods=["POST"])])


def main() -> None:
    import uvicorn

    port = int(sys.argv[1])
    cassettes = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "tests" / "cassettes"
    # Keep-alive well past uvicorn's 5 s: on a loaded machine a pooled connection of the benchmark's
    # 50 clients (or of the proxy in front) can sit idle that long, and a request sent on it as the
    # server closes it failed with httpx.ReadError (issue 37); a real provider keeps connections longer.
    uvicorn.run(build(cassettes), host="127.0.0.1", port=port, log_level="warning", access_log=False,
                timeout_keep_alive=120, backlog=4096)


if __name__ == "__main__":
    main()
