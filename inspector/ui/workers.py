"""Heavy work for the app in worker processes with a memory and a time limit (issue 22).

One hostile upload once took the whole server down: a file of many tiny strings needed 130x its
size to scan, a run of orphan results took minutes to check, and a segfault or ``MemoryError``
in the one server process ended every user's session. Before the app parses, checks, repairs or
scans a file in its own process, the same work runs here first, in a child process
(``python -m inspector.ui.workers``) whose address space is capped (``RLIMIT_AS``) and which is
killed when it runs past its time. A file that needs more ends as one readable sentence for the
user who opened it ("this file needs more than 512 MB of memory to check", ``WorkLimit``), and
the server never starts that work; every other session carries on. What passed is remembered by
the file's SHA-256 and the job's arguments (``admit``), so a share link opened by ten colleagues
is tried once, and a file over the limit is refused at once for the next one too. Repair, fit
and the secret scan bring their results back whole (``run_remembered``): the server shows them
and never does that work in its own process; only reading and checking is done there again,
since the page keeps the parsed file and its analysis.

At most ``INSPECTOR_WORKERS`` children run at a time (default 2; more wait their turn). Limits:
``INSPECTOR_WORKER_MB`` (default 2048) and ``INSPECTOR_WORKER_SECONDS`` (default 120);
``INSPECTOR_WORKERS=0`` turns the workers off (the work then runs only in the server).

The child reads its job and arguments as a pickle on stdin and writes ``("ok", result)`` or
``("error", kind, message)`` on stdout. **Only a measured limit is a verdict** (issue 33): the
child's own ``MemoryError`` under its ``RLIMIT_AS`` (``("memory",)``, or exit status 3 when even
the answer could not be written), a fault in C code once its peak resident set (``wait4``) was
near the limit (``NEAR_LIMIT``), and the time limit. A child that dies without an answer for any
other reason (``kill -9``, the kernel's OOM killer picking it because the *machine* ran short, a
crash in a C extension) says nothing about the file: the job is run once more, and if that child
dies too the user reads that the worker crashed (``WorkCrash``), which is never remembered.

**The memory limit is measured on the address space, not only enforced by it.** The child's hard
cap (``RLIMIT_AS``) is ``HEADROOM`` above the limit, and a job whose address space went past the
limit (its ``VmPeak``) is a memory verdict: the child says so itself when it ends, and the parent,
which watches ``/proc/<pid>/status`` while it runs, kills it at once. Without the headroom a child
could sit at its cap without ever answering: CPython 3.11 unwinding an exception through a
``with`` block needs a new int for the instruction offset, and when that allocation fails it
retries it forever, holding the interpreter lock (``ceval.c``'s ``exception_unwind``: measured
here, one check in four of a file at its limit spun until the time limit, which then called it too
slow). Now such a child is past its limit, so the parent sees it and the verdict is memory.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..errors import InputError

DEFAULT_MB = 2048
DEFAULT_SECONDS = 120.0
DEFAULT_WORKERS = 2
_WATCH_EVERY = 0.05  # seconds between two looks at a running child's address space
_REMEMBERED = 512  # verdicts kept (file digest and arguments -> None or the sentence)


class WorkLimit(InputError):
    """The work on this file needs more memory or time than one job may have."""


class WorkCrash(WorkLimit):
    """The worker died twice without an answer (killed, crashed): no verdict on the file, so it is
    never remembered or cached; said to the user like a limit, in one sentence."""


def limits() -> tuple[int, float, int]:
    """``(MB, seconds, workers)`` from the environment (defaults where unset or unusable)."""

    def number(name: str, default: float) -> float:
        try:
            value = float(os.environ.get(name, default))
        except ValueError:
            return default
        return value if value >= 0 else default

    return (int(number("INSPECTOR_WORKER_MB", DEFAULT_MB)), number("INSPECTOR_WORKER_SECONDS", DEFAULT_SECONDS),
            int(number("INSPECTOR_WORKERS", DEFAULT_WORKERS)))


# --- the jobs (run in the child) --------------------------------------------------------------

def _check(data: bytes, name: str) -> int:
    from ..checking import check_document
    from ..reading import load_bytes

    report, _ = check_document(load_bytes(data, name))
    return len(report.findings)


def _repair(data: bytes, target: str, options: dict, dialect: str | None) -> Any:
    """The ``RepairResult``, brought back whole (its output built): the server shows it and never
    repairs the file itself."""
    from ..repairing import repair

    return repair(data, target=target, options=options, dialect=dialect)


def _secrets(data: bytes, patterns: tuple[str, ...], budget: float | None = None) -> list:
    """The secrets found (``redact.Secret``), brought back whole: the server masks with them and
    never scans the file itself."""
    from ..gc_pause import without_settling
    from ..sharing.redact import Redactor, ScanTooLong

    try:
        # With workers off the scan runs in the server, which lives for weeks: as in the guard's
        # recorder, its GC pause must not move the process's young objects (other work's cyclic
        # garbage) into the oldest generation on the way out, where they wait for a full collection
        # (~40 kB a scan, tests/ui/test_share_scan_memory.py).
        with without_settling():
            return Redactor.build(patterns, budget).scan(data)
    except ScanTooLong as exc:  # the patterns' own time budget: a limit, remembered like the others
        raise WorkLimit(str(exc)) from None


def _fit(data: bytes, max_tokens: int, target: str | None, options: dict, dialect: str | None,
         repair_options: dict | None = None) -> Any:
    """The ``FitResult`` (repaired first when ``repair_options`` are given), or the sentence saying
    why the budget cannot be met, brought back whole: the server never fits the file itself."""
    from ..fitting import FitError, fit, repair_and_fit

    try:
        if repair_options is not None:
            return repair_and_fit(data, max_tokens, target, options, dialect=dialect, repair_options=repair_options)
        return fit(data, max_tokens, target, options, dialect=dialect)
    except FitError as exc:
        return str(exc)


def _hog(data: bytes, mb: int, seconds: float) -> int:
    """For tests: hold ``mb`` MB, then sleep ``seconds``."""
    import time

    held = bytearray(mb * 1_000_000)
    time.sleep(seconds)
    return len(held) + len(data)


def _stuck(data: bytes) -> int:
    """For tests: fill the address space to the cap, then never answer, as CPython 3.11 does when an
    allocation fails while it unwinds an exception through a ``with`` block (see the module's text)."""
    held = []
    for size in (1 << 24, 1 << 20, 1 << 16, 1 << 12):
        try:
            while True:
                held.append(bytearray(size))
        except MemoryError:
            pass
    while held:
        pass
    return 0


def _die(data: bytes, marker: str = "") -> int:
    """For tests: killed by SIGKILL (as by ``kill -9`` or the OOM killer); with ``marker``, only the
    first time (the marker file is created then), and the retry answers."""
    import signal

    if marker and os.path.exists(marker):
        return len(data)
    if marker:
        open(marker, "w").close()
    os.kill(os.getpid(), signal.SIGKILL)
    return 0


JOBS: dict[str, tuple[Callable[..., Any], str]] = {
    "check": (_check, "read and check"),
    "repair": (_repair, "repair"),
    "secrets": (_secrets, "scan for secrets"),
    "fit": (_fit, "fit"),
    "hog": (_hog, "run"),
    "stuck": (_stuck, "run"),
    "die": (_die, "run"),
}


def headroom(limit_bytes: int) -> int:
    """How far above the memory limit a child's hard cap is: room enough that a child stuck at its
    cap is always past its limit, where the parent sees it."""
    return max(32_000_000, limit_bytes // 16)


def address_space_peak(pid: int | str = "self") -> int | None:
    """The process's peak address space in bytes (``VmPeak``), or None where ``/proc`` cannot say
    (another system, or the process has ended)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmPeak:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _child(job: str, limit_bytes: int) -> None:
    import resource

    if limit_bytes > 0:
        cap = limit_bytes + headroom(limit_bytes)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    out = sys.stdout.buffer
    try:
        args = pickle.load(sys.stdin.buffer)
        result: tuple = ("ok", JOBS[job][0](*args))
        peak = address_space_peak()
        if limit_bytes > 0 and peak is not None and peak > limit_bytes:
            result = ("memory",)  # within its cap, but past its limit: measured all the same
    except MemoryError:
        result = ("memory",)
    except WorkLimit as exc:
        result = ("limit", str(exc))
    except InputError as exc:
        result = ("error", "input", str(exc))
    except Exception as exc:  # noqa: BLE001 - said in the parent, in one sentence
        result = ("error", type(exc).__name__, str(exc))
    try:
        out.write(pickle.dumps(result))
    except MemoryError:
        os._exit(3)
    out.flush()


# --- the parent (the server) ------------------------------------------------------------------

_SLOTS_LOCK = threading.Lock()
_SLOTS: tuple[int, threading.BoundedSemaphore] | None = None
_VERDICTS: OrderedDict[tuple, str | None] = OrderedDict()
_VERDICTS_LOCK = threading.Lock()
_INFLIGHT: dict[tuple, threading.Lock] = {}


def _slots(n: int) -> threading.BoundedSemaphore:
    global _SLOTS
    with _SLOTS_LOCK:
        if _SLOTS is None or _SLOTS[0] != n:
            _SLOTS = (n, threading.BoundedSemaphore(n))
        return _SLOTS[1]


def run(job: str, *args: Any) -> Any:
    """Run ``job`` on ``args`` in a child process within the limits; its result, or ``WorkLimit``
    (over a limit) or ``InputError`` (the input cannot be read) with the child's sentence."""
    mb, seconds, workers = limits()
    fn, what = JOBS[job]
    if workers <= 0:
        return fn(*args)
    payload = pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL)
    result = _attempt(job, payload, mb, seconds, workers, what)
    if result[0] == "crash":  # not the file's doing, as far as anyone knows: once more
        result = _attempt(job, payload, mb, seconds, workers, what)
    if result[0] == "crash":
        raise WorkCrash(f"the worker process that was to {what} this file stopped twice without an answer "
                        f"({result[1]}); that says nothing about the file (a memory limit would have been "
                        "measured and said so): try again, and if it goes on, ask the operator") from None
    if result[0] == "ok":
        return result[1]
    if result[0] == "memory":
        raise WorkLimit(f"this file needs more than {mb:,} MB of memory to {what} (the limit for one job; "
                        "INSPECTOR_WORKER_MB)")
    if result[0] == "limit":
        raise WorkLimit(result[1])
    _, kind, message = result
    raise InputError(message if kind == "input" else f"{kind}: {message}")


# A child that faults (SIGSEGV, SIGABRT, SIGBUS) after its peak resident set reached this share of
# its address-space limit hit the limit in C code that does not raise MemoryError (msgspec at
# 160 MB of a 200 MB limit, measured): that is a measured limit. SIGKILL never is: RLIMIT_AS
# makes allocations fail, it kills nothing; a SIGKILL came from outside (kill -9, the OOM killer).
NEAR_LIMIT = 0.5
_FAULTS = ("SIGSEGV", "SIGABRT", "SIGBUS")


def _attempt(job: str, payload: bytes, mb: int, seconds: float, workers: int, what: str) -> tuple:
    """One child for the job: its answer, ``("memory",)`` when it measured its memory limit, or
    ``("crash", how)`` when it died without an answer for another reason. The child is reaped
    with ``wait4`` for its peak resident set."""
    with _slots(workers):
        proc = subprocess.Popen([sys.executable, "-m", "inspector.ui.workers", job, str(mb * 1_000_000)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        expired, over, ended = threading.Event(), threading.Event(), threading.Event()

        def expire() -> None:
            expired.set()
            proc.kill()

        def watch() -> None:  # past its limit: a memory verdict now, whether it would answer or not
            while not ended.wait(_WATCH_EVERY):
                peak = address_space_peak(proc.pid)
                if peak is not None and peak > mb * 1_000_000:
                    over.set()
                    proc.kill()
                    return

        timer = threading.Timer(seconds, expire) if seconds else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        watcher = threading.Thread(target=watch, daemon=True) if mb > 0 else None
        if watcher is not None:
            watcher.start()
        try:
            try:  # the child reads all of its job before it writes a byte: no deadlock
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(payload)
                proc.stdin.close()
            except BrokenPipeError:  # died before reading all of its job
                pass
            out = proc.stdout.read()
        finally:
            if timer is not None:
                timer.cancel()
            proc.stdout.close()
            ended.set()  # before the reap: the watcher never reads a recycled pid's status
            if watcher is not None:
                watcher.join()
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
    if over.is_set():
        return ("memory",)
    if expired.is_set():
        raise WorkLimit(f"this file needs more than {seconds:g} s to {what} (the limit for one job; "
                        "INSPECTOR_WORKER_SECONDS)")
    try:
        return pickle.loads(out) if out else _death(proc.returncode, usage.ru_maxrss * 1024, mb)
    except Exception:  # noqa: BLE001 - a cut answer: the child died while writing it
        return _death(proc.returncode, usage.ru_maxrss * 1024, mb)


def _death(code: int, peak: int, mb: int) -> tuple:
    """Why a child ended without an answer: ``("memory",)`` when measured, else ``("crash", how)``."""
    import signal

    if code == 3:  # the child's MemoryError while writing its answer: measured
        return ("memory",)
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        if name in _FAULTS and peak >= NEAR_LIMIT * mb * 1_000_000:
            return ("memory",)
        return ("crash", f"killed by {name}")
    return ("crash", f"exit status {code}")


def run_remembered(job: str, digest: str, *args: Any, key: tuple = ()) -> Any:
    """``run``, for the file whose SHA-256 is ``digest``; a job over a limit is remembered (by job,
    digest, ``key`` and the limits) and refused at once the next time, from any session, instead
    of running again to its limit. The caller caches what succeeded."""
    mb, seconds, _ = limits()
    remembered = (job, digest, key, mb, seconds)
    with _VERDICTS_LOCK:
        verdict = _VERDICTS.get(remembered)
    if verdict is not None:
        raise WorkLimit(verdict)
    try:
        return run(job, *args)
    except WorkCrash:
        raise  # no verdict: the next request runs it again
    except WorkLimit as exc:
        _remember(remembered, str(exc))
        raise


def _remember(remembered: tuple, verdict: str | None) -> None:
    with _VERDICTS_LOCK:
        _VERDICTS[remembered] = verdict
        while len(_VERDICTS) > _REMEMBERED:
            _VERDICTS.popitem(last=False)
        _INFLIGHT.pop(remembered, None)


def admit(job: str, digest: str, *args: Any, key: tuple = ()) -> None:
    """Raise ``WorkLimit`` unless ``job`` on this file fits the limits (an input the job cannot
    read is admitted: the server then says why in its own words, as without workers); each (job, file digest, ``key``) is tried once while remembered, whatever the number
    of sessions asking at the same time."""
    mb, seconds, workers = limits()
    if workers <= 0:
        return
    remembered = (job, digest, key, mb, seconds)
    with _VERDICTS_LOCK:
        if remembered in _VERDICTS:
            _VERDICTS.move_to_end(remembered)
            verdict = _VERDICTS[remembered]
            gate = None
        else:
            gate = _INFLIGHT.setdefault(remembered, threading.Lock())
    if gate is not None:
        with gate:
            with _VERDICTS_LOCK:
                known = remembered in _VERDICTS
                verdict = _VERDICTS.get(remembered)
            if not known:
                try:
                    run(job, *args)
                    verdict = None
                except WorkCrash:
                    with _VERDICTS_LOCK:
                        _INFLIGHT.pop(remembered, None)
                    raise  # no verdict: the next request runs it again
                except WorkLimit as exc:
                    verdict = str(exc)
                except InputError:  # unreadable, within the limits: the server says so in its own words
                    verdict = None
                _remember(remembered, verdict)
    if verdict is not None:
        raise WorkLimit(verdict)


def forget() -> None:
    """Drop every remembered verdict (tests)."""
    with _VERDICTS_LOCK:
        _VERDICTS.clear()


if __name__ == "__main__":
    _child(sys.argv[1], int(sys.argv[2]))
