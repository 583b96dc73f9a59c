"""Hostile-input bounds (issue 15): secret scan time and peak memory per byte.

1. Secret scan (``Redactor.scan``, the share panel's check) on hostile text from 48 KB to 4 MB:
   private-key headers with no END in one string (the old pattern backtracked: 57 s at 385 KB)
   and AWS-style keys packed on one line (the old line counting was quadratic: 71 s at 4.2 MB).
   Also Slack tokens (a pattern RE2 runs) and keys in values with escapes (decoded first).
   Goal: time linear in the size, under 1 s per 10 MB (CPU time: the machine may be shared).
2. Peak memory of ``inspector check`` and ``inspector repair`` (the CLI, one process each) on
   100 MB and 500 MB openai-chat transcripts, as a multiple of the file size: the whole process's
   peak resident set (``VmHWM`` from ``/proc/self/status``, read in the child; ``ru_maxrss`` is
   not used because Linux carries it across exec from the parent), and the part above the idle
   process. Two kinds of transcript, because the multiple depends on how long messages are (each
   message and field costs a Python dict or string object whatever its length):
   - synthetic: ``gen.build_transcript`` with 1% of its results removed, short messages (about
     340 bytes each: one-line contents and results);
   - trajectories: the corpus's real agent trajectories (``../shared/corpus/trajectories``,
     mini-swe-agent, SWE-agent and Letta runs: tool outputs of code and logs, about 3 KB per
     message), repeated with fresh ids. Skipped when the corpus is not beside the repository.
   Goal: check <= 3x, repair <= 4x.

3. Secret scan memory (issue 22) on a valid transcript made of many tiny escaped strings
   (``[{"role":"user","content":"hi","x":["\n","\n",...]}]``, 5 and 20 MB): the scan's peak
   resident set above the process before it, as a multiple of the file (one child process per
   size). Before issue 22: ~130x (2.5 GB for 20 MB). Goal: at most ~10x.
   Also ``--python-repr`` (``pyrepr.repr_value``) on a 5 MB ``print(messages)`` repr: once 175x.
4. Bounds (issue 22): a placeholder of ``{name}`` repeated on 10,000 missing results with long
   tool names (once 216 MB of output from 2.2 MB) is refused, and a user pattern
   ``[^\n]{1000}X`` on 1.5 MB of CJK text (once 13.4 s) stops at the scan's time budget; the
   time until each says so.
5. A run of orphan results (``[user, tool(x0), tool(x1), ...]``, issue 22): ``inspector.check``
   and ``inspector.repair`` in this process on 10,000 to 100,000 of them, against a clean
   transcript of as many messages. Goal: linear (the time per message flat as the run grows);
   before issue 22, 20,000 took 7-11 s and 100,000 timed out at 120 s.

Run: ``make bench-heavy`` (with ``bench_fit`` and ``bench_scan``), or alone after ``make install``:
``.venv/bin/python benchmarks/bench_hostile.py [--sizes 100,500]``. The big files are written once
into a temporary directory and removed. Its figures are times: run it on a machine doing nothing else.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import orjson
from gen import build_transcript, drop_results

from inspector.sharing.redact import Redactor

MB = 1_000_000
SCAN_SIZES = (48_000, 96_000, 192_000, 385_000, 1 * MB, 2 * MB, 4 * MB)


def _headers(size: int) -> bytes:
    unit = "-----BEGIN PRIVATE KEY-----"
    return json.dumps([{"role": "user", "content": unit * (size // len(unit))}]).encode()


def _keys(size: int) -> bytes:
    # one line, one AWS-style key every ~52 bytes (80,000 keys in 4.2 MB)
    n = size // 52
    return json.dumps([{"role": "user", "content": f"k AKIA{i:016d}"} for i in range(n)]).encode()


def _slack(size: int) -> bytes:
    # Slack tokens run on RE2 (no literal-prefix fast path in Python's re for them)
    return json.dumps([{"role": "user", "content": f"k xoxb-{i:012d}"} for i in range(size // 48)]).encode()


def _escaped_keys(size: int) -> bytes:
    # every value has an escape (\n), so every one is decoded before it is scanned
    return json.dumps([{"role": "user", "content": f"k\nAKIA{i:016d}"} for i in range(size // 54)]).encode()


def bench_scan() -> None:
    r = Redactor.build()
    print("secret scan on hostile input (best of 3; CPU seconds per 10 MB, the goal: linear, < 1 s per 10 MB;\n"
          "  'x parse' is the scan's CPU time over orjson.loads of the same bytes, run in this process)")
    for name, make in (("private-key headers, no END", _headers), ("AWS keys on one line", _keys),
                       ("Slack tokens on one line", _slack), ("AWS keys after \\n escapes", _escaped_keys)):
        for size in SCAN_SIZES:
            data = make(size)
            wall = cpu = parse = float("inf")
            for _ in range(3):
                w, c = time.perf_counter(), time.process_time()
                found = r.scan(data)
                wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
                c = time.process_time()
                orjson.loads(data)
                parse = min(parse, time.process_time() - c)
            print(f"  {name:28s} {len(data) / 1e3:8.0f} KB  {wall * 1000:8.1f} ms wall  {cpu * 1000:8.1f} ms CPU  "
                  f"{cpu / len(data) * 10 * MB:5.2f} s/10MB  {cpu / max(parse, 1e-6):6.1f}x parse  ({len(found)} found)")


SCAN_MEMORY_SIZES = (5 * MB, 20 * MB)
SCAN_CHILD = r"""
import sys, time
from inspector.sharing.redact import Redactor

def status(key):
    with open("/proc/self/status") as f:
        return next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith(key))

n = int(sys.argv[1]) // 5
data = b'[{"role":"user","content":"hi","x":[' + b'"\\n",' * n + b'"\\n"]}]'
r = Redactor.build()
before = status("VmRSS:")
c = time.process_time()
found = r.scan(data)
print(len(data), status("VmHWM:") - before, time.process_time() - c, len(found))
"""


REPR_CHILD = r"""
import sys, time
from inspector.pyrepr import repr_value

def status(key):
    with open("/proc/self/status") as f:
        return next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith(key))

msgs = [{'role': 'user', 'content': f'hello {i}', 'meta': None, 'ok': True} for i in range(int(sys.argv[1]) // 70)]
data = repr(msgs).encode()
del msgs
before = status("VmRSS:")
c = time.process_time()
value = repr_value(data)
print(len(data), status("VmHWM:") - before, time.process_time() - c, len(value))
"""


def bench_scan_memory() -> None:
    print("secret scan memory on many tiny escaped strings (issue 22): peak resident set above the process "
          "before the scan, per byte of file (goal <= ~10x; before: ~130x)")
    for size in SCAN_MEMORY_SIZES:
        done = subprocess.run([sys.executable, "-c", SCAN_CHILD, str(size)], capture_output=True, text=True)
        if done.returncode:
            print(f"  {size / MB:5.0f} MB  failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        n, peak, cpu, found = done.stdout.split()
        n, peak = int(n), int(peak)
        print(f"  {n / MB:5.1f} MB  peak +{peak / MB:6.0f} MB = {peak / n:5.1f}x  {float(cpu):5.2f} s CPU  ({found} found)")
    done = subprocess.run([sys.executable, "-c", REPR_CHILD, str(5 * MB)], capture_output=True, text=True)
    if done.returncode == 0:
        n, peak, cpu, items = done.stdout.split()
        n, peak = int(n), int(peak)
        print(f"  --python-repr: {n / MB:5.1f} MB repr  peak +{peak / MB:6.0f} MB = {peak / n:5.1f}x  "
              f"{float(cpu):5.2f} s CPU  ({items} messages; before issue 22: ~175x)")


def bench_bounds() -> None:
    import inspector
    from inspector.sharing.redact import PatternError

    print("bounds (issue 22): what a hostile option or pattern gets, and how long until it is told")
    msgs = [{"role": "user", "content": "go"}]
    for i in range(10_000):
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": "t" * 190, "arguments": "{}"}}]})
        msgs.append({"role": "user", "content": "next"})
    data = orjson.dumps(msgs)
    w = time.perf_counter()
    try:
        out = len(inspector.repair(data, "openai", {"placeholder": "{name}" * 333}).output)
        said = f"written: {out / MB:.0f} MB"
    except inspector.InputError as exc:
        said = f"refused: {str(exc)[:90]}…"
    print(f"  placeholder {{name}}x333 on {len(data) / MB:.1f} MB, 10,000 missing results: "
          f"{time.perf_counter() - w:5.2f} s, {said}")
    cjk = orjson.dumps([{"role": "user", "content": "漢字かな交じり文" * 60} for _ in range(1_100)])
    w = time.perf_counter()
    try:
        n = len(Redactor.build(["[^\\n]{1000}X"]).scan(cjk))
        said = f"finished, {n} found"
    except PatternError as exc:
        said = f"stopped: {str(exc)[:90]}…"
    print(f"  pattern [^\\n]{{1000}}X on {len(cjk) / MB:.1f} MB of CJK text: {time.perf_counter() - w:5.2f} s, {said}")


ORPHAN_RUNS = (10_000, 20_000, 40_000, 100_000)


def _orphans(n: int) -> list:
    return [{"role": "user", "content": "hi"}] + [
        {"role": "tool", "tool_call_id": f"x{i}", "content": "r"} for i in range(n)]


def bench_orphans() -> None:
    import inspector

    print("a run of orphan results (issue 22): check and repair in this process, seconds, and microseconds per "
          "message (goal: flat as the run grows); 'clean' is a valid transcript of as many messages")
    for n in ORPHAN_RUNS:
        hostile = orjson.dumps(_orphans(n))
        clean = orjson.dumps(build_transcript(n + 1))
        row = []
        for data in (hostile, clean):
            w = time.perf_counter()
            inspector.check(data, "openai")
            took_check = time.perf_counter() - w
            w = time.perf_counter()
            inspector.repair(data, "openai")
            row.append((took_check, time.perf_counter() - w))
        (hc, hr), (cc, cr) = row
        print(f"  {n:7d} orphans  check {hc:6.2f} s ({hc / n * 1e6:5.1f} us/msg)  repair {hr:6.2f} s "
              f"({hr / n * 1e6:5.1f} us/msg)   clean: check {cc:5.2f} s  repair {cr:5.2f} s")


def _write_repeats(path: Path, target_bytes: int, body: str, fresh) -> int:
    """Stream one JSON array of about ``target_bytes`` to ``path``: repeats of ``body`` (array
    elements without the brackets), repeat ``k`` written as ``fresh(body, k)`` (its ids made
    unique), without holding the whole in memory."""
    written = 0
    with path.open("w") as f:
        f.write("[")
        k = 0
        while written < target_bytes:
            if k:
                f.write(",")
            piece = fresh(body, k)
            f.write(piece)
            written += len(piece) + 1
            k += 1
        f.write("]")
    return path.stat().st_size


def write_transcript(path: Path, target_bytes: int) -> int:
    """A synthetic transcript of about ``target_bytes`` (repeats of a 100,000-message block with
    fresh ids)."""
    body = json.dumps(drop_results(build_transcript(100_000), 0.01))[1:-1]
    return _write_repeats(path, target_bytes, body, lambda b, k: b.replace('"call_', f'"call_r{k}_'))


CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "trajectories"
_IDS = re.compile(r'("(?:id|tool_call_id)": ")')


def write_trajectories(path: Path, target_bytes: int) -> int | None:
    """The corpus's trajectories' messages, about ``target_bytes`` of them (repeats with fresh
    call ids); None when the corpus is not there."""
    import inspector

    files = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []
    if not files:
        return None
    msgs: list = []
    for f in files:
        msgs.extend(inspector.load(str(f)).transcripts[0].items)
    body = json.dumps(msgs)[1:-1]
    return _write_repeats(path, target_bytes, body, lambda b, k: _IDS.sub(lambda m: f"{m.group(1)}r{k}_", b))


CHILD = r"""
import sys, os


def hwm():
    # VmHWM: the peak resident set of this process image. (ru_maxrss would not do: Linux keeps
    # it across exec, so a child would report its parent's peak when that was higher.)
    with open("/proc/self/status") as f:
        return next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith("VmHWM:"))


import inspector.cli
base = hwm()
try:
    code = inspector.cli.main(sys.argv[1:])
except SystemExit as e:
    code = e.code
sys.stderr.write(f"\nPEAK {hwm()} {base} {code}\n")
sys.stderr.flush()
os._exit(0)
"""


def peak_of(args: list[str]) -> tuple[int, int, int]:
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    line = [ln for ln in done.stderr.splitlines() if ln.startswith("PEAK ")]
    if not line:
        raise RuntimeError(done.stderr[-2000:])
    _, peak, base, code = line[-1].split()
    return int(peak), int(base), int(code)


def bench_memory(sizes_mb: list[int]) -> None:
    print("peak memory per byte of file: peak resident set (VmHWM) of the whole CLI process, and the part "
          "above the idle process with the package imported; goal check <= 3x, repair <= 4x")
    with tempfile.TemporaryDirectory() as tmp:
        for kind, write in (("synthetic", write_transcript), ("trajectories", write_trajectories)):
            for mb in sizes_mb:
                path = Path(tmp) / f"t{mb}.json"
                size = write(path, mb * MB)
                if size is None:
                    print(f"  {kind}: skipped, no corpus at {CORPUS}")
                    break
                out = Path(tmp) / "out.json"
                for name, args in (("check", ["check", str(path)]),
                                   ("repair", ["repair", str(path), "-o", str(out)])):
                    start = time.perf_counter()
                    peak, base, code = peak_of(args)
                    took = time.perf_counter() - start
                    print(f"  {kind:12s} {name:6s} {size / MB:6.0f} MB  peak {peak / MB:7.0f} MB = {peak / size:4.2f}x  "
                          f"(above idle {(peak - base) / size:4.2f}x)  {took:5.1f} s  exit {code}")
                path.unlink()
                out.unlink(missing_ok=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100,500", help="transcript sizes in MB for the memory part")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--skip-scan", action="store_true")
    ap.add_argument("--skip-orphans", action="store_true")
    args = ap.parse_args()
    if not args.skip_scan:
        bench_scan()
    if not args.skip_scan:
        bench_scan_memory()
    if not args.skip_orphans:
        bench_bounds()
        bench_orphans()
    if not args.skip_memory:
        bench_memory([int(x) for x in args.sizes.split(",") if x])


if __name__ == "__main__":
    main()
