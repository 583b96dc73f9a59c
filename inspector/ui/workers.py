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
``("error", kind, message)`` on stdout; a child that dies without writing (the kernel's or
Python's out-of-memory, a crash in a C extension under memory pressure) was over the memory limit.
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
_REMEMBERED = 512  # verdicts kept (file digest and arguments -> None or the sentence)


class WorkLimit(InputError):
    """The work on this file needs more memory or time than one job may have."""


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
    from ..sharing.redact import Redactor, ScanTooLong

    try:
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


JOBS: dict[str, tuple[Callable[..., Any], str]] = {
    "check": (_check, "read and check"),
    "repair": (_repair, "repair"),
    "secrets": (_secrets, "scan for secrets"),
    "fit": (_fit, "fit"),
    "hog": (_hog, "run"),
}


def _child(job: str, limit_bytes: int) -> None:
    import resource

    if limit_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    args = pickle.load(sys.stdin.buffer)
    out = sys.stdout.buffer
    try:
        result: tuple = ("ok", JOBS[job][0](*args))
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
    with _slots(workers):
        proc = subprocess.Popen([sys.executable, "-m", "inspector.ui.workers", job, str(mb * 1_000_000)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            out, _ = proc.communicate(payload, timeout=seconds or None)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise WorkLimit(f"this file needs more than {seconds:g} s to {what} (the limit for one job; "
                            "INSPECTOR_WORKER_SECONDS)") from None
    try:
        result = pickle.loads(out) if out else ("memory",)
    except Exception:  # noqa: BLE001 - a cut answer: the child died while writing it
        result = ("memory",)
    if result[0] == "ok":
        return result[1]
    if result[0] == "memory":
        raise WorkLimit(f"this file needs more than {mb:,} MB of memory to {what} (the limit for one job; "
                        "INSPECTOR_WORKER_MB)")
    if result[0] == "limit":
        raise WorkLimit(result[1])
    _, kind, message = result
    raise InputError(message if kind == "input" else f"{kind}: {message}")


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
