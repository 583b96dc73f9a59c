"""The guard's cost, measured (issue 26). Prints ratios and milliseconds; asserts nothing.

1. ``inspector proxy`` (a real uvicorn process, observe mode) against calling the same loopback
   stand-in provider directly: added latency p50 and p99 for 10-, 100- and 1,000-message Chat
   Completions requests, sequential and with 50 concurrent clients. Goal (issue 37): p50 added
   <= 2 ms at 100 messages, sequential.
2. The check part of the guard (``inspect_request``) against a bare parse of the body
   (``orjson.loads``), same sizes, and the 100-message body without the calls it ends on (what an
   agent sends: its results in). Goal: <= 2x at 100 messages.
3. The SDK transport (``inspector.guard.client``) against a plain httpx client to the same
   provider, same sizes: added time per request.
4. The proxy's memory (RSS) under 50 concurrent 1 MB requests, sampled every 1,000 requests
   across 10,000: flat means the last sample is within a few percent of the first.

Run: ``.venv/bin/python benchmarks/bench_guard.py [--quick] [--part N ...] [--memory-requests N]``
(``--quick``: fewer requests; ``--part 2``: only that part, repeatable; the memory part sends 10,000
unless told otherwise).

On a busy machine a request can meet a connection the server is closing (a keep-alive that ran out
while the client waited for the CPU): the benchmark sends such a request again, once or twice, times
the attempt that got its answer, and says how many it resent and how many answers were not 200, so
every figure is printed and none hides a failure.
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
PARTS = {int(sys.argv[k + 1]) for k, a in enumerate(sys.argv) if a == "--part"} or {1, 2, 3, 4}
SIZES = (10, 100, 1000)
SEQ = 60 if QUICK else 300
CONC_TOTAL = 200 if QUICK else 1000
BEST_OF = 100  # part 2: the best of this many calls (20 let a busy machine's noise in)
MEM_TOTAL = (int(sys.argv[sys.argv.index("--memory-requests") + 1]) if "--memory-requests" in sys.argv
             else 1000 if QUICK else 10_000)


def body_of(n: int) -> bytes:
    return orjson.dumps({"model": "gpt-4o", "messages": build_transcript(n)[:n]})


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


HEADERS = {"content-type": "application/json"}
ATTEMPTS = 3  # a request cut by a closing connection is sent again, up to this many times in all
TROUBLE = {"resent": 0, "not 200": 0}  # since the last ``trouble()``


def trouble() -> str:
    """`` (N resent after a dropped connection, M answers not 200)`` since the last call, or ''."""
    said = [f"{v} {'resent after a dropped connection' if k == 'resent' else 'answers not 200'}"
            for k, v in TROUBLE.items() if v]
    TROUBLE.update(dict.fromkeys(TROUBLE, 0))
    return f"  ({', '.join(said)})" if said else ""


def _answered(r: httpx.Response) -> None:
    if r.status_code != 200:
        TROUBLE["not 200"] += 1


def post(c: httpx.Client, url: str, body: bytes) -> float:
    """Milliseconds of the attempt that got an answer."""
    for attempt in range(ATTEMPTS):
        t = time.perf_counter()
        try:
            _answered(c.post(url, content=body, headers=HEADERS))
            return (time.perf_counter() - t) * 1000
        except httpx.TransportError:
            if attempt == ATTEMPTS - 1:
                raise
            TROUBLE["resent"] += 1
    raise AssertionError("unreachable")


async def apost(c: httpx.AsyncClient, url: str, body: bytes) -> float:
    for attempt in range(ATTEMPTS):
        t = time.perf_counter()
        try:
            _answered(await c.post(url, content=body, headers=HEADERS))
            return (time.perf_counter() - t) * 1000
        except httpx.TransportError:
            if attempt == ATTEMPTS - 1:
                raise
            TROUBLE["resent"] += 1
    raise AssertionError("unreachable")


def sequential(url: str, body: bytes, n: int, client: httpx.Client | None = None) -> list[float]:
    c = client or httpx.Client(timeout=60)
    for _ in range(5):  # warm the connection
        post(c, url, body)
    out = [post(c, url, body) for _ in range(n)]
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
                out.append(await apost(c, url, body))

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
    servers = PARTS & {1, 3, 4}
    # A recorded 200 answers every request (``benchmarks/cassettes/README.md``): what is measured is an
    # answer relayed, not an error body the guard reads.
    up = (guardserver.start_upstream(ROOT / "benchmarks" / "cassettes", env={"REPLAY_KEEP_SEEN": "0"})
          if servers else None)
    proxy = guardserver.start_proxy(up.url, mode="observe") if up is not None and PARTS & {1, 4} else None
    direct = up.url + "/v1/chat/completions" if up is not None else ""
    via = proxy.url + "/v1/chat/completions" if proxy is not None else ""
    bodies = {n: body_of(n) for n in SIZES}
    try:
        print("bodies: " + ", ".join(f"{n} messages {len(b) / 1e3:.0f} kB" for n, b in bodies.items()))
        if 1 in PARTS:
            part1(bodies, direct, via)
        if 2 in PARTS:
            part2(bodies)
        if 3 in PARTS:
            part3(bodies, direct)
        if 4 in PARTS:
            assert proxy is not None
            part4(proxy, via)
    finally:
        if proxy is not None:
            proxy.stop()
        if up is not None:
            up.stop()


def part1(bodies: dict[int, bytes], direct: str, via: str) -> None:
    print("\n1. proxy added latency over a direct call to the same loopback provider (ms)")
    for n, body in bodies.items():
        d = sequential(direct, body, SEQ)
        said = trouble()
        p = sequential(via, body, SEQ)
        print(f"  {n:>5} msgs sequential ({SEQ} req): direct p50 {pct(d, 50):.2f} p99 {pct(d, 99):.2f}{said} | proxy "
              f"p50 {pct(p, 50):.2f} p99 {pct(p, 99):.2f}{trouble()} | added p50 {pct(p, 50) - pct(d, 50):+.2f} "
              f"p99 {pct(p, 99) - pct(d, 99):+.2f}" + ("   (goal: p50 added <= 2 ms)" if n == 100 else ""))
        d = concurrent(direct, body, CONC_TOTAL)
        said = trouble()
        p = concurrent(via, body, CONC_TOTAL)
        print(f"  {n:>5} msgs 50 concurrent ({CONC_TOTAL} req): direct p50 {pct(d, 50):.2f} p99 {pct(d, 99):.2f}{said} | "
              f"proxy p50 {pct(p, 50):.2f} p99 {pct(p, 99):.2f}{trouble()} | added p50 {pct(p, 50) - pct(d, 50):+.2f} "
              f"p99 {pct(p, 99) - pct(d, 99):+.2f}")


def answered(n: int) -> bytes:
    """The ``n``-message body without the calls it ends on: what an agent sends, the results in
    (the cut transcript ends on a call block, which a request about to be sent never does)."""
    msgs = build_transcript(n)[:n]
    while msgs and (msgs[-1].get("tool_calls") or msgs[-1]["role"] == "tool"):
        msgs.pop()
    return orjson.dumps({"model": "gpt-4o", "messages": msgs})


def part2(bodies: dict[int, bytes]) -> None:
    print(f"\n2. the guard's check against a bare parse of the body (best of {BEST_OF})")
    rows = [(f"{n:>5} msgs", body, n == 100) for n, body in bodies.items()]
    clean = answered(100)
    rows.insert(2, (f"{len(orjson.loads(clean)['messages']):>5} msgs ending on a user message (the 100's last calls cut)",
                    clean, False))
    for label, body, goal in rows:
        parse = best(lambda b=body: orjson.loads(b), BEST_OF)
        check = best(lambda b=body: inspect_request("http://127.0.0.1/v1/chat/completions", b), BEST_OF)
        print(f"  {label}: orjson.loads {parse * 1000:.3f} ms, inspect_request {check * 1000:.3f} ms: "
              f"{check / parse:.2f}x" + ("   (goal <= 2x)" if goal else ""))


def part3(bodies: dict[int, bytes], direct: str) -> None:
    print("\n3. the SDK transport against a plain httpx client, same provider (ms per request, p50)")
    for n, body in bodies.items():
        plain = sequential(direct, body, SEQ, httpx.Client(timeout=60))
        said = trouble()
        guarded = sequential(direct, body, SEQ, inspector.guard.client(mode="observe", package="httpx",
                                                                       recorder=Recorder(enabled=False)))
        print(f"  {n:>5} msgs: plain {pct(plain, 50):.3f}{said}, guarded {pct(guarded, 50):.3f}{trouble()}, added "
              f"{pct(guarded, 50) - pct(plain, 50):+.3f} ({pct(guarded, 50) / pct(plain, 50):.2f}x)")


def part4(proxy: guardserver.Server, via: str) -> None:
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
        print(f"  after {step * (k + 1):>6,} requests: RSS {samples[-1]:.0f} MB{trouble()}")
    print(f"  {MEM_TOTAL:,} requests in {time.perf_counter() - t0:.0f} s; last / first sample: "
          f"{samples[-1] / samples[0]:.2f}x")


if __name__ == "__main__":
    main()
