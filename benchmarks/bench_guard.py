"""The guard's cost, measured (issue 26). Prints ratios and milliseconds; asserts nothing.

1. ``inspector proxy`` (a real uvicorn process, observe mode) against calling the same loopback
   stand-in provider directly: added latency p50 and p99 for 10-, 100- and 1,000-message Chat
   Completions requests, sequential and with 50 concurrent clients. Goal (issue 37): p50 added
   <= 2 ms at 100 messages, sequential.
2. The check part of the guard (``inspect_request``) against a bare parse of the body
   (``orjson.loads``), same sizes. Goal: <= 2x at 100 messages.
3. The SDK transport (``inspector.guard.client``) against a plain httpx client to the same
   provider, same sizes: added time per request.
4. The proxy's memory (RSS) under 50 concurrent 1 MB requests, sampled every 1,000 requests
   across 10,000: flat means the last sample is within a few percent of the first.

Run: ``.venv/bin/python benchmarks/bench_guard.py [--quick] [--memory-requests N]`` (``--quick``:
fewer requests; the memory part sends 10,000 unless told otherwise).
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import httpx
import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "scripts"))
import guardserver
from gen import build_transcript

import inspector.guard
from inspector.guard import inspect_request
from inspector.guard.recorder import Recorder

QUICK = "--quick" in sys.argv
SIZES = (10, 100, 1000)
SEQ = 60 if QUICK else 300
CONC_TOTAL = 200 if QUICK else 1000
MEM_TOTAL = (int(sys.argv[sys.argv.index("--memory-requests") + 1]) if "--memory-requests" in sys.argv
             else 1000 if QUICK else 10_000)


def body_of(n: int) -> bytes:
    return orjson.dumps({"model": "gpt-4o", "messages": build_transcript(n)[:n]})


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def sequential(url: str, body: bytes, n: int, client: httpx.Client | None = None) -> list[float]:
    c = client or httpx.Client(timeout=60)
    out = []
    for _ in range(5):  # warm the connection
        c.post(url, content=body, headers={"content-type": "application/json"})
    for _ in range(n):
        t = time.perf_counter()
        c.post(url, content=body, headers={"content-type": "application/json"})
        out.append((time.perf_counter() - t) * 1000)
    if client is None:
        c.close()
    return out


async def _concurrent(url: str, body: bytes, total: int, width: int = 50) -> list[float]:
    out: list[float] = []
    queue = list(range(total))
    limits = httpx.Limits(max_connections=width, max_keepalive_connections=width)
    async with httpx.AsyncClient(timeout=120, limits=limits) as c:
        async def worker():
            while queue:
                queue.pop()
                t = time.perf_counter()
                await c.post(url, content=body, headers={"content-type": "application/json"})
                out.append((time.perf_counter() - t) * 1000)

        await asyncio.gather(*(worker() for _ in range(width)))
    return out


def concurrent(url: str, body: bytes, total: int) -> list[float]:
    return asyncio.run(_concurrent(url, body, total))


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    up = guardserver.start_upstream(env={"REPLAY_KEEP_SEEN": "0"})
    proxy = guardserver.start_proxy(up.url, mode="observe")
    direct = up.url + "/v1/chat/completions"
    via = proxy.url + "/v1/chat/completions"
    bodies = {n: body_of(n) for n in SIZES}
    try:
        print("bodies: " + ", ".join(f"{n} messages {len(b) / 1e3:.0f} kB" for n, b in bodies.items()))
        print("\n1. proxy added latency over a direct call to the same loopback provider (ms)")
        for n, body in bodies.items():
            d, p = sequential(direct, body, SEQ), sequential(via, body, SEQ)
            print(f"  {n:>5} msgs sequential ({SEQ} req): direct p50 {pct(d, 50):.2f} p99 {pct(d, 99):.2f} | proxy "
                  f"p50 {pct(p, 50):.2f} p99 {pct(p, 99):.2f} | added p50 {pct(p, 50) - pct(d, 50):+.2f} "
                  f"p99 {pct(p, 99) - pct(d, 99):+.2f}" + ("   (goal: p50 added <= 2 ms)" if n == 100 else ""))
            d, p = concurrent(direct, body, CONC_TOTAL), concurrent(via, body, CONC_TOTAL)
            print(f"  {n:>5} msgs 50 concurrent ({CONC_TOTAL} req): direct p50 {pct(d, 50):.2f} p99 {pct(d, 99):.2f} | "
                  f"proxy p50 {pct(p, 50):.2f} p99 {pct(p, 99):.2f} | added p50 {pct(p, 50) - pct(d, 50):+.2f} "
                  f"p99 {pct(p, 99) - pct(d, 99):+.2f}")

        print("\n2. the guard's check against a bare parse of the body (best of 20)")
        for n, body in bodies.items():
            parse = best(lambda b=body: orjson.loads(b), 20)
            check = best(lambda b=body: inspect_request("http://127.0.0.1/v1/chat/completions", b), 20)
            print(f"  {n:>5} msgs: orjson.loads {parse * 1000:.3f} ms, inspect_request {check * 1000:.3f} ms: "
                  f"{check / parse:.2f}x" + ("   (goal <= 2x)" if n == 100 else ""))

        print("\n3. the SDK transport against a plain httpx client, same provider (ms per request, p50)")
        for n, body in bodies.items():
            plain = sequential(direct, body, SEQ, httpx.Client(timeout=60))
            guarded = sequential(direct, body, SEQ, inspector.guard.client(mode="observe", package="httpx",
                                                                           recorder=Recorder(enabled=False)))
            print(f"  {n:>5} msgs: plain {pct(plain, 50):.3f}, guarded {pct(guarded, 50):.3f}, added "
                  f"{pct(guarded, 50) - pct(plain, 50):+.3f} ({pct(guarded, 50) / pct(plain, 50):.2f}x)")

        print(f"\n4. proxy memory under 50 concurrent 1 MB requests, {MEM_TOTAL:,} requests")
        msgs = build_transcript(4000)
        big = orjson.dumps({"model": "gpt-4o", "messages": msgs[:len(msgs)]})
        while len(big) > 1_000_000:
            msgs = msgs[: int(len(msgs) * 0.95)]
            big = orjson.dumps({"model": "gpt-4o", "messages": msgs})
        print(f"  body {len(big) / 1e6:.2f} MB, {len(msgs)} messages; proxy RSS before: "
              f"{rss_kb(proxy.proc.pid) / 1024:.0f} MB")
        samples = []
        step = MEM_TOTAL // 10
        t0 = time.perf_counter()
        for k in range(10):
            concurrent(via, big, step)
            samples.append(rss_kb(proxy.proc.pid) / 1024)
            print(f"  after {step * (k + 1):>6,} requests: RSS {samples[-1]:.0f} MB")
        print(f"  {MEM_TOTAL:,} requests in {time.perf_counter() - t0:.0f} s; last / first sample: "
              f"{samples[-1] / samples[0]:.2f}x")
    finally:
        proxy.stop()
        up.stop()


if __name__ == "__main__":
    main()
