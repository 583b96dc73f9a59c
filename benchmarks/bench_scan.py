"""Scan speed and memory on a 1 GB (and a 2 GB) JSON Lines tool-use fine-tuning dataset.

Generates the datasets (a few percent broken in known ways: an orphan result, a missing
result, a duplicated result, a result placed after the next user turn), then runs the real
``inspector scan`` process and prints, from one run:

- transcripts per second with 1 job and with all cores, and the speed-up;
- the ratio to a bare ``orjson.loads`` of every line on one core (in this process);
- the peak RSS of the whole run (the CLI and every worker process, summed; sampled), at 1 GB
  and at 2 GB (goal: under 500 MB at 1 GB, and no higher at 2 GB);
- that the number of transcripts the scan says OpenAI would reject equals the number broken;
- the same for ``--engine dask`` on a ``LocalCluster`` with two workers.

First, on 60,000 examples: the whole ``inspector scan --jobs 1`` process against a process that
``orjson.loads`` every line, by CPU time (goal: at most 3x); ``--examples`` runs that part alone.

Run: ``make bench-heavy`` (with ``bench_fit`` and ``bench_hostile``), or alone after ``make install``:
``.venv/bin/python benchmarks/bench_scan.py [GB] [--examples]``. It writes 3 GB under a temporary
directory and deletes it. Its figures are times: run it on a machine doing nothing else.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson
import psutil

import inspector

BROKEN_SHARE = 0.03
TOOLS = [{"type": "function", "function": {"name": n, "description": f"{n} tool",
                                            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}
         for n in ("search", "get_weather", "lookup_order", "run_sql")]


def _call(rng: random.Random, k: int) -> dict:
    name = rng.choice(TOOLS)["function"]["name"]
    return {"id": f"call_{rng.getrandbits(48):012x}{k}", "type": "function",
            "function": {"name": name, "arguments": json.dumps({"q": "x" * rng.randint(10, 80)})}}


def example(rng: random.Random) -> list[dict]:
    """A clean tool-use conversation of one to three rounds (about 2-3 KB as a line)."""
    filler = "lorem ipsum dolor sit amet " * rng.randint(8, 20)
    msgs = [{"role": "system", "content": "You are a helpful agent. " + filler[:200]},
            {"role": "user", "content": "Please help: " + filler}]
    for _ in range(rng.randint(1, 3)):
        calls = [_call(rng, k) for k in range(rng.randint(1, 3))]
        msgs.append({"role": "assistant", "content": None, "tool_calls": calls})
        for c in calls:
            msgs.append({"role": "tool", "tool_call_id": c["id"], "content": "result: " + filler[: rng.randint(50, 300)]})
    msgs.append({"role": "assistant", "content": "Here is what I found. " + filler[:150]})
    return msgs


def break_it(msgs: list[dict], how: str, rng: random.Random) -> list[dict]:
    tools = [i for i, m in enumerate(msgs) if m["role"] == "tool"]
    i = rng.choice(tools)
    if how == "orphan":
        return msgs[:i] + [{**msgs[i], "tool_call_id": "call_orphan_" + str(i)}] + msgs[i + 1:]
    if how == "missing":
        return msgs[:i] + msgs[i + 1:]
    if how == "duplicate":
        return msgs[: i + 1] + [dict(msgs[i], content="again")] + msgs[i + 1:]
    # displaced: the result moves after a new user turn
    return msgs[:i] + msgs[i + 1:-1] + [{"role": "user", "content": "and?"}, msgs[i], msgs[-1]]


def pool(rng: random.Random) -> tuple[list[bytes], list[bytes]]:
    """Distinct clean and broken lines, each verified with ``inspector.check`` (so the count is known)."""
    good, bad = [], []
    for _ in range(1000):
        line = orjson.dumps({"messages": example(rng), "tools": TOOLS})
        assert inspector.check(line).ok
        good.append(line)
    for how in ("orphan", "missing", "duplicate", "displaced"):
        for _ in range(100):
            line = orjson.dumps({"messages": break_it(example(rng), how, rng), "tools": TOOLS})
            assert not inspector.check(line).ok, how
            bad.append(line)
    return good, bad


def generate(path: Path, size: int, good: list[bytes], bad: list[bytes], rng: random.Random) -> tuple[int, int]:
    """Write about ``size`` bytes; returns (lines, broken lines)."""
    n = broken = written = 0
    buf: list[bytes] = []
    with open(path, "wb") as f:
        while written < size:
            if rng.random() < BROKEN_SHARE:
                line = rng.choice(bad)
                broken += 1
            else:
                line = rng.choice(good)
            buf.append(line)
            n += 1
            written += len(line) + 1
            if len(buf) >= 4096:
                f.write(b"\n".join(buf) + b"\n")
                buf.clear()
        if buf:
            f.write(b"\n".join(buf) + b"\n")
    return n, broken


def tree_rss(proc: psutil.Process) -> int:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def run_scan(path: Path, *args: str) -> tuple[float, int, dict]:
    """Wall time, peak summed RSS of the process tree, and the JSON summary of one scan.

    Also prints the CPU seconds the run used (the CLI and every process it waited for): on a
    machine shared with other work, wall times say little about parallelism, CPU seconds do.
    """
    import resource

    cli = Path(sys.executable).with_name("inspector")
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen([str(cli), "scan", str(path), "--format", "json", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ps = psutil.Process(proc.pid)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            try:
                peak[0] = max(peak[0], tree_rss(ps))
            except psutil.Error:
                pass
            done.wait(0.05)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    done.set()
    th.join()
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    print(f"  ({' '.join(args)}: {cpu:.1f} CPU-s in {wall:.1f} s wall, {cpu / wall:.2f} cores busy on average)")
    if proc.returncode not in (0, 1):
        raise SystemExit(f"scan failed ({proc.returncode}): {err.decode()[-2000:]}")
    CPU[" ".join(args)] = cpu
    return wall, peak[0], json.loads(out)


CPU: dict[str, float] = {}


def orjson_baseline(path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of a bare ``orjson.loads`` of every line, in this process."""
    t0, c0 = time.perf_counter(), time.process_time()
    with open(path, "rb", buffering=1 << 20) as f:
        for line in f:
            orjson.loads(line)
    return time.perf_counter() - t0, time.process_time() - c0


def process_cpu(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one whole process running ``cmd``."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


EXAMPLES = 60_000


def per_example_ratio(tmp: Path, good: list[bytes], bad: list[bytes], rng: random.Random, runs: int = 3) -> None:
    """``inspector scan --jobs 1`` of 60,000 examples against a process that ``orjson.loads``
    every line, both whole processes, by CPU time, the best of ``runs`` taking turns (goal <= 3x)."""
    path = tmp / "examples.jsonl"
    with open(path, "wb") as f:
        f.write(b"".join((rng.choice(bad) if rng.random() < BROKEN_SHARE else rng.choice(good)) + b"\n"
                         for _ in range(EXAMPLES)))
    cli = str(Path(sys.executable).with_name("inspector"))
    scan = [cli, "scan", str(path), "--jobs", "1", "--format", "json"]
    parse = [sys.executable, "-c", "import orjson, sys\nfor line in open(sys.argv[1], 'rb'):\n    orjson.loads(line)",
             str(path)]
    best = {"scan": float("inf"), "parse": float("inf")}
    for _ in range(runs):
        best["scan"] = min(best["scan"], process_cpu(scan))
        best["parse"] = min(best["parse"], process_cpu(parse))
    print(f"{EXAMPLES:,} examples ({path.stat().st_size / 1e6:.0f} MB), whole processes, CPU, best of {runs}: "
          f"scan --jobs 1 {best['scan']:.2f} s ({1e6 * best['scan'] / EXAMPLES:.0f} us per example), "
          f"orjson.loads of every line {best['parse']:.2f} s; scan / parse = {best['scan'] / best['parse']:.1f}x "
          f"(goal <= 3x)")
    path.unlink()


def main() -> None:
    quick = "--examples" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if a != "--examples"]
    gb = float(args[0]) if args else 1.0
    cores = len(os.sched_getaffinity(0))
    rng = random.Random(14)
    good, bad = pool(rng)
    if quick:
        tmp = Path(tempfile.mkdtemp(prefix="bench_scan_"))
        try:
            per_example_ratio(tmp, good, bad, rng)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench_scan_"))
    try:
        one, two = tmp / "one.jsonl", tmp / "two.jsonl"
        n1, b1 = generate(one, int(gb * 1e9), good, bad, rng)
        n2, b2 = generate(two, int(2 * gb * 1e9), good, bad, rng)
        print(f"dataset: {one.stat().st_size / 1e9:.2f} GB, {n1:,} transcripts, {b1:,} broken ({100 * b1 / n1:.1f}%); "
              f"second: {two.stat().st_size / 1e9:.2f} GB, {n2:,} transcripts, {b2:,} broken; {cores} cores")

        per_example_ratio(tmp, good, bad, rng)
        base, base_cpu = orjson_baseline(one)
        print(f"bare orjson.loads of every line, one core: {base:.1f} s ({base_cpu:.1f} CPU-s) = {n1 / base:,.0f} lines/s")

        w1, rss1, s1 = run_scan(one, "--jobs", "1")
        CPU["1 job"] = CPU["--jobs 1"]
        print(f"scan --jobs 1:       {w1:6.1f} s = {n1 / w1:8,.0f} transcripts/s; peak RSS {rss1 / 1e6:5.0f} MB; "
              f"scan / bare parse = {w1 / base:.1f}x")
        wn, rssn, sn = run_scan(one, "--jobs", str(cores))
        CPU["all cores"] = CPU[f"--jobs {cores}"]
        print(f"scan --jobs {cores}:       {wn:6.1f} s = {n1 / wn:8,.0f} transcripts/s; peak RSS {rssn / 1e6:5.0f} MB; "
              f"speed-up {w1 / wn:.2f}x over 1 job; scan / bare parse = {wn / base:.1f}x")
        w2, rss2, s2 = run_scan(two, "--jobs", str(cores))
        print(f"scan --jobs {cores} at 2x: {w2:6.1f} s = {n2 / w2:8,.0f} transcripts/s; peak RSS {rss2 / 1e6:5.0f} MB "
              f"({rss2 / rssn:.2f}x the 1x run's)")
        wd, rssd, sd = run_scan(one, "--engine", "dask", "--jobs", "2")
        print(f"scan --engine dask (LocalCluster, 2 workers): {wd:6.1f} s = {n1 / wd:8,.0f} transcripts/s; "
              f"peak RSS {rssd / 1e6:5.0f} MB; {wn / wd:.2f}x the speed of the local engine")

        c1, cn = CPU["1 job"], CPU["all cores"]
        print(f"by CPU time (what a busy shared machine does not distort): 1 job {n1 / c1:,.0f} transcripts per "
              f"CPU-s, {cores} jobs {n1 / cn:,.0f}; parallel efficiency {c1 / cn:.2f} (the speed-up on {cores} idle "
              f"cores would be about {cores * c1 / cn:.2f}x); scan / bare parse by CPU = {c1 / base_cpu:.1f}x")
        exact = [(name, s["transcripts"], s["rejected"], n, b) for name, s, n, b in
                 (("jobs 1", s1, n1, b1), (f"jobs {cores}", sn, n1, b1), ("2x", s2, n2, b2), ("dask", sd, n1, b1))]
        for name, seen, rejected, n, b in exact:
            ok = seen == n and rejected == b
            print(f"broken count {name}: scanned {seen:,} of {n:,}, rejected {rejected:,} of {b:,} broken: "
                  f"{'exact' if ok else 'WRONG'}")
        goal = rssn < 500e6 and rss2 <= rssn * 1.1
        print(f"memory goal (< 500 MB at {gb:g} GB, no higher at {2 * gb:g} GB): {'met' if goal else 'NOT met'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
