"""The guard's worker processes for big request bodies (issue 33: one allowed 50 MB body stalled
every other client of ``inspector proxy`` by 0.7 to 2.6 s even from a thread pool, since reading
and checking it holds the interpreter lock).

A body above ``threshold`` bytes is checked by ``inspect_request`` in one of at most ``workers``
child processes (started on the first such body, each with its address space capped at
``memory_mb``, as the app's ``INSPECTOR_WORKER_MB``), so the proxy's event loop and its small
requests never wait on that lock; a smaller body stays in the proxy, where it is cheaper. The
child runs the very same ``inspect_request`` on the very same bytes, so the verdict is the one the
proxy would have given itself (``tests/guard/test_check_workers.py`` holds it).

**A crash is not a verdict.** A worker that dies without an answer (``kill -9``, the OOM killer, a
fault in C code) breaks the pool: it is replaced, and the check is run once more in a fresh worker;
if that one dies too, ``CheckCrashed`` says so (the proxy answers 503 in the provider's error
shape, which an SDK retries), and the next body is checked in a fresh pool again. A body that
needs more memory than a worker may have is a measured limit: ``inspect_request`` reports it as
unreadable ("too large to read"), as it would in the proxy.

**A check that does not finish is not a verdict either.** A worker gets ``seconds`` (the app's
``INSPECTOR_WORKER_SECONDS``, default 120) for one body; past them its processes are killed and
the client gets ``CheckTimedOut`` (503). Without it, a worker CPython 3.11 leaves spinning at its
address-space cap (a failed allocation retried forever while an exception unwinds, see
``inspector/ui/workers.py``) held its request and its process until the proxy stopped.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from .inspect import Inspection, endpoint_of, inspect_request, public_url

log = logging.getLogger("inspector.guard")

DEFAULT_THRESHOLD = 1_000_000  # bytes: a body above this is checked in a worker process
DEFAULT_WORKERS = 2
DEFAULT_MEMORY_MB = 2048  # the app's INSPECTOR_WORKER_MB default (inspector/ui/workers.py)
DEFAULT_SECONDS = 120.0  # the app's INSPECTOR_WORKER_SECONDS default
# For tests only: each worker stops itself (SIGSTOP) before it checks a body, so that a test can
# kill it with certainty in the middle of a check, or let it go on (SIGCONT).
TEST_STOP_ENV = "INSPECTOR_GUARD_WORKER_TEST_STOP"


class CheckCrashed(Exception):
    """The worker processes checking a body died twice without an answer: no verdict on it."""


class CheckTimedOut(CheckCrashed):
    """The worker checking a body did not answer within its time: killed, no verdict on the body."""


def _start_worker(memory_bytes: int, proxy_pid: int | None = None) -> None:
    """In each worker, once: cap its address space (a body that needs more is a ``MemoryError``,
    which ``inspect_request`` reports as too large to read), and end with the proxy."""
    import resource

    if memory_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    if proxy_pid is not None:
        _end_with(proxy_pid)


def _end_with(pid: int) -> None:
    """End this worker as soon as process ``pid`` (the proxy) ends, however it ends. A worker waits
    for its next job on a queue whose writing end it holds itself, and the fork server lives while
    any worker does, so a proxy killed outright (``kill -9``, the OOM killer) left both behind for
    good, about 65 MB. A pidfd becomes readable when its process ends (never another process that
    takes the number later)."""
    import select

    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:  # already gone
        os._exit(0)
    except OSError:  # a kernel without pidfds (before Linux 5.3): the worker lives as before
        return

    def wait() -> None:
        select.select([fd], [], [])
        os._exit(0)

    threading.Thread(target=wait, name="inspector-proxy-watch", daemon=True).start()


def _inspect_in_worker(url: str, body: bytes, repair: bool) -> Inspection | None:
    """``inspect_request`` in the worker; the answer comes back without the body (the proxy has it)."""
    if os.environ.get(TEST_STOP_ENV) == "1":
        import signal

        os.kill(os.getpid(), signal.SIGSTOP)
    ins = inspect_request(url, body, repair=repair)
    return None if ins is None else replace(ins, body=b"")


class CheckWorkers:
    """At most ``workers`` processes that check bodies above ``threshold`` bytes (``workers`` 0:
    none, every body is checked in the calling process)."""

    def __init__(self, *, workers: int = DEFAULT_WORKERS, threshold: int = DEFAULT_THRESHOLD,
                 memory_mb: int = DEFAULT_MEMORY_MB, seconds: float = DEFAULT_SECONDS) -> None:
        self.workers = workers
        self.threshold = threshold
        self.memory_mb = memory_mb
        self.seconds = seconds
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def wants(self, body: bytes) -> bool:
        """Whether ``body`` is checked in a worker."""
        return self.workers > 0 and len(body) > self.threshold

    def _current(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                import multiprocessing

                # forkserver: a worker is forked from a small server process that has the engine
                # imported (never from the proxy, whose threads a fork would copy mid-step).
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["inspector.guard.check_workers", "inspector.checking",
                                            "inspector.reading"])
                self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_start_worker,
                                                 initargs=(self.memory_mb * 1_000_000, os.getpid()))
            return self._pool

    def _kill(self, pool: ProcessPoolExecutor) -> None:
        """Kill every process of ``pool`` (a worker past its time) and drop it: jobs of other bodies
        in it see a broken pool and are checked once more in a fresh one."""
        import signal

        for pid in list(getattr(pool, "_processes", None) or ()):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._renew(pool)

    def _renew(self, broken: ProcessPoolExecutor) -> None:
        """Drop ``broken`` (once, whoever notices first); the next job starts a fresh pool."""
        with self._lock:
            if self._pool is broken:
                self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def _submit(self, url: str, body: bytes, repair: bool) -> tuple[ProcessPoolExecutor, Future[Inspection | None]]:
        # In a thread: submitting may start a worker process, which the event loop must not wait for.
        pool = self._current()
        try:
            return pool, pool.submit(_inspect_in_worker, url, body, repair)
        except BrokenProcessPool:
            raise
        except RuntimeError:  # shut down meanwhile by a request that found it broken: take the fresh one
            if self._closed or self._pool is pool:
                raise
            pool = self._current()
            return pool, pool.submit(_inspect_in_worker, url, body, repair)

    async def inspect(self, url: str, body: bytes, *, repair: bool = False) -> Inspection | None:
        """``inspect_request(url, body, repair=repair)``, run in a worker; ``CheckCrashed`` when
        two workers in a row died on it without an answer."""
        ep = endpoint_of(url)
        if ep is None:
            return None
        for attempt in (1, 2):
            pool: ProcessPoolExecutor | None = None
            try:
                pool, future = await asyncio.to_thread(self._submit, url, body, repair)
                try:
                    ins = await asyncio.wait_for(asyncio.wrap_future(future), self.seconds or None)
                except TimeoutError:
                    assert pool is not None
                    self._kill(pool)
                    log.warning("inspector guard: the worker process checking a %s-byte body to %s did not answer "
                                "in %g s; killed, no verdict", f"{len(body):,}", public_url(url), self.seconds)
                    raise CheckTimedOut(f"the check of this request did not finish in {self.seconds:g} s (the limit "
                                        "for one check; --worker-seconds); that says nothing about the request: "
                                        "send it again, and if it goes on, ask the operator") from None
            except BrokenProcessPool:
                if pool is None:  # broken before this job was taken: not a death on this body
                    pool = self._pool
                if pool is not None:
                    self._renew(pool)
                if attempt == 1:
                    log.warning("inspector guard: the worker process checking a %s-byte body to %s stopped without "
                                "an answer (killed?); checking it once more in a fresh one", f"{len(body):,}",
                                public_url(url))
                continue
            return None if ins is None else replace(ins, body=body, endpoint=ep)
        log.warning("inspector guard: the worker process checking a %s-byte body to %s stopped without an answer "
                    "twice; no verdict", f"{len(body):,}", public_url(url))
        raise CheckCrashed("the worker process checking this request stopped twice without an answer (killed, or "
                           "the machine ran out of memory); that says nothing about the request: send it again")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
