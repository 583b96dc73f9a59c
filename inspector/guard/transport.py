"""httpx transports that check every chat request before it leaves: ``GuardTransport`` and
``AsyncGuardTransport`` wrap any inner transport (the default one, a mock, a proxy's).

    client = openai.OpenAI(http_client=inspector.guard.client(mode="raise"))
    client = anthropic.AsyncAnthropic(http_client=inspector.guard.async_client(mode="repair"))

Modes: ``observe`` sends the request as it is and logs what the check found (``logging``, logger
``inspector.guard``) and records it; ``raise`` sends nothing the target would reject and raises
``RejectedRequest`` instead (with the findings, the provider's words and the message index) before
any network call; ``repair`` sends the repaired body, lossless by ``inspector.repair``'s contract,
and says so on the response: the header ``x-inspector-guard`` (``repaired; TC001 x1``) and
``response.extensions["inspector_guard"]`` (the ``Inspection``, its ``repair_report`` whole).

A provider 4xx to a chat request is read (error bodies are small) and, when its text names a
tool-call problem (``inspector.provider_errors``), recorded with the request. Every other
response, streamed ones included, is handed back untouched: nothing is buffered.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .inspect import Inspection, inspect_request
from .recorder import Recorder, error_text, names_a_tool_call_problem
from .refusal import RejectedRequest

if TYPE_CHECKING:
    from .check_workers import CheckWorkers

log = logging.getLogger("inspector.guard")

MODES = ("observe", "raise", "repair")
_ALIASES = {"block": "raise"}
HEADER = "x-inspector-guard"
# Issue 33: one allowed 85 MB body froze every other client and stream for 4.6 s. A body above
# this is checked, and every record is written (secret scan, database), off the event loop, in a
# pool of this many threads (so that four big bodies at once do not all hold their parse at once).
OFF_LOOP_BYTES = 1_000_000
OFF_LOOP_THREADS = 2
_POOL: list[Any] = []
_T = TypeVar("_T")


def _off_loop(fn: Callable[..., _T], *args: Any) -> Awaitable[_T]:
    """``fn(*args)`` in the guard's thread pool, awaited from the event loop."""
    import asyncio

    if not _POOL:
        from concurrent.futures import ThreadPoolExecutor

        _POOL.append(ThreadPoolExecutor(OFF_LOOP_THREADS, thread_name_prefix="inspector-guard"))
    return asyncio.get_running_loop().run_in_executor(_POOL[0], fn, *args)


def check_mode(mode: str) -> str:
    mode = _ALIASES.get(mode, mode)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)} (got {mode!r})")
    return mode


class _Guard:
    """What both transports do around the inner one: inspect, refuse or rewrite, record."""

    def __init__(self, mode: str, recorder: Recorder | None, source: str) -> None:
        self.mode = check_mode(mode)
        self.recorder = recorder if recorder is not None else Recorder(source)

    def before(self, request: Any, body: bytes) -> tuple[Inspection | None, Any]:
        if request.method != "POST":
            return None, request
        return self.decide(request, inspect_request(str(request.url), body, repair=self.mode == "repair"))

    def decide(self, request: Any, ins: Inspection | None) -> tuple[Inspection | None, Any]:
        """What ``before`` does with ``inspect_request``'s answer (however it was computed)."""
        if ins is None:
            return None, request
        if ins.report is None:
            if self.mode == "raise":
                self.recorder.record(ins, "unreadable")
                raise RejectedRequest(ins)
            log.info("inspector guard: forwarded unchanged, %s", ins.summary())
            return ins, request
        if ins.would_reject and self.mode == "raise":
            self.recorder.record(ins, "would_reject")
            raise RejectedRequest(ins)
        if ins.repaired is not None:
            return ins, None  # the transport builds the request with the repaired body
        if ins.would_reject:
            log.warning("inspector guard: %s (%s, sent anyway: observe mode)", ins.summary(), ins.url)
        return ins, request

    def after(self, ins: Inspection | None, response: Any, error_body: bytes | None) -> None:
        if ins is None:
            return
        status = response.status_code
        said = error_text(error_body) if error_body is not None else None
        if said is not None and names_a_tool_call_problem(said):
            self.recorder.record(ins, "rejected", status=status, provider_error=said, response_body=error_body)
        elif ins.repaired is not None:
            self.recorder.record(ins, "repaired", status=status)
        elif ins.would_reject:
            self.recorder.record(ins, "would_reject", status=status, response_body=error_body)
        if ins.report is not None:
            response.extensions = {**response.extensions, "inspector_guard": ins}
            response.headers[HEADER] = header_value(ins)

    def failed(self, ins: Inspection | None) -> None:
        """The request never got an answer (connection refused, timeout): record what was found."""
        if ins is not None and ins.report is not None:
            if ins.repaired is not None:
                self.recorder.record(ins, "repaired")
            elif ins.would_reject:
                self.recorder.record(ins, "would_reject")


def header_value(ins: Inspection) -> str:
    """``ok``, ``would_reject; TC001 TC003``, ``repaired; TC001 x2`` (ASCII, one line)."""
    if ins.repaired is not None and ins.repair_report:
        tally: dict[str, int] = {}
        for c in ins.repair_report.get("changes", []):
            tally[c["code"]] = tally.get(c["code"], 0) + 1
        return "repaired; " + " ".join(f"{k} x{v}" for k, v in tally.items())
    if ins.would_reject:
        return "would_reject; " + " ".join(sorted({f["code"] for f in ins.errors}))
    return "ok"


def _with_body(hx: Any, request: Any, body: bytes | None) -> Any:
    assert body is not None  # only a repaired request is rebuilt
    headers = hx.Headers(request.headers)
    headers["content-length"] = str(len(body))
    headers.pop("transfer-encoding", None)
    return hx.Request(request.method, request.url, headers=headers, content=body, extensions=request.extensions)


def _is_client_error(response: Any) -> bool:
    status: int = response.status_code
    return 400 <= status < 500


def _transports(hx: Any) -> tuple[type, type]:
    """``(GuardTransport, AsyncGuardTransport)`` for one httpx package (``httpx`` or ``httpx2``,
    whose APIs are the same: the Anthropic SDK takes only ``httpx2`` clients, the OpenAI SDK both)."""

    class GuardTransport(hx.BaseTransport):
        """Wraps ``transport`` (default ``HTTPTransport()``) with the guard."""

        def __init__(self, transport: Any = None, *, mode: str = "observe", recorder: Recorder | None = None,
                     source: str = "sdk") -> None:
            self.inner = transport if transport is not None else hx.HTTPTransport()
            self.guard = _Guard(mode, recorder, source)

        def handle_request(self, request: Any) -> Any:
            body = request.read() if request.method == "POST" else b""
            ins, send = self.guard.before(request, body)
            if send is not request:
                send = _with_body(hx, request, ins.repaired if ins is not None else None)
            try:
                response = self.inner.handle_request(send)
            except Exception:
                self.guard.failed(ins)
                raise
            err = response.read() if ins is not None and _is_client_error(response) else None
            self.guard.after(ins, response, err)
            return response

        def close(self) -> None:
            self.inner.close()

    class AsyncGuardTransport(hx.AsyncBaseTransport):
        """Wraps ``transport`` (default ``AsyncHTTPTransport()``) with the guard. The check of a
        usual request runs in the event loop's thread: a fraction of a millisecond
        (``benchmarks/bench_guard.py``); a body over ``OFF_LOOP_BYTES`` is checked, and a request
        that is recorded is recorded, in the guard's thread pool, so no other client waits."""

        def __init__(self, transport: Any = None, *, mode: str = "observe", recorder: Recorder | None = None,
                     source: str = "sdk", workers: CheckWorkers | None = None) -> None:
            self.inner = transport if transport is not None else hx.AsyncHTTPTransport()
            self.guard = _Guard(mode, recorder, source)
            self.workers = workers

        async def handle_async_request(self, request: Any) -> Any:
            body = await request.aread() if request.method == "POST" else b""
            recording = self.guard.recorder is not None and self.guard.recorder.enabled
            if request.method == "POST" and self.workers is not None and self.workers.wants(body):
                # Checked in a worker process, off this process's interpreter lock (check_workers.py).
                far = await self.workers.inspect(str(request.url), body, repair=self.guard.mode == "repair")
                ins, send = await _off_loop(self.guard.decide, request, far)
            elif len(body) > OFF_LOOP_BYTES or recording:
                ins, send = await _off_loop(self.guard.before, request, body)
            else:
                ins, send = self.guard.before(request, body)
            if send is not request:
                send = _with_body(hx, request, ins.repaired if ins is not None else None)
            try:
                response = await self.inner.handle_async_request(send)
            except Exception:
                if recording:
                    await _off_loop(self.guard.failed, ins)
                else:
                    self.guard.failed(ins)
                raise
            err = await response.aread() if ins is not None and _is_client_error(response) else None
            if recording:
                await _off_loop(self.guard.after, ins, response, err)
            else:
                self.guard.after(ins, response, err)
            return response

        async def aclose(self) -> None:
            await self.inner.aclose()

    for cls in (GuardTransport, AsyncGuardTransport):
        cls.__module__ = __name__
    return GuardTransport, AsyncGuardTransport


_BUILT: dict[str, tuple[type, type]] = {}


def _package(package: str | None) -> str:
    """"httpx" or "httpx2" (``None``: httpx2 when it is installed, else httpx)."""
    import importlib.util

    if package is None:
        package = "httpx2" if importlib.util.find_spec("httpx2") is not None else "httpx"
    if package not in ("httpx", "httpx2"):
        raise ValueError(f"package must be httpx or httpx2 (got {package!r})")
    return package


def transports(package: str | None = None) -> tuple[type, type]:
    """``(GuardTransport, AsyncGuardTransport)`` for ``package`` ("httpx" or "httpx2"; default: httpx2
    when it is installed, which both SDKs take, else httpx)."""
    import importlib

    package = _package(package)
    if package not in _BUILT:
        _BUILT[package] = _transports(importlib.import_module(package))
    return _BUILT[package]


def __getattr__(name: str) -> type:
    if name in ("GuardTransport", "AsyncGuardTransport"):  # the httpx package's
        return transports("httpx")[name == "AsyncGuardTransport"]
    raise AttributeError(name)


def client(mode: str = "observe", *, transport: Any = None, recorder: Recorder | None = None,
           package: str | None = None, **kwargs: Any) -> Any:
    """A client whose requests pass the guard; give it to an SDK as ``http_client``. An
    ``httpx2.Client`` when httpx2 is installed (the OpenAI and Anthropic SDKs both take it),
    else an ``httpx.Client``; ``package`` chooses."""
    import importlib

    package = _package(package)
    sync, _ = transports(package)
    hx = importlib.import_module(package)
    kwargs.setdefault("timeout", hx.Timeout(600.0, connect=5.0))  # the SDKs' own default
    return hx.Client(transport=sync(transport, mode=mode, recorder=recorder), **kwargs)


def async_client(mode: str = "observe", *, transport: Any = None, recorder: Recorder | None = None,
                 package: str | None = None, **kwargs: Any) -> Any:
    """The async ``client``: an ``AsyncClient`` of the same package."""
    import importlib

    package = _package(package)
    _, asyn = transports(package)
    hx = importlib.import_module(package)
    kwargs.setdefault("timeout", hx.Timeout(600.0, connect=5.0))
    return hx.AsyncClient(transport=asyn(transport, mode=mode, recorder=recorder), **kwargs)
