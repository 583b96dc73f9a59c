"""Issue 33 figures for ``inspector proxy`` (real processes on 127.0.0.1, the replaying stand-in
provider behind): the proxy's resident memory over N recorded requests (each one refused by the
check and recorded, secret scan and database write included), and how long a small request waits
while one big allowed body is being checked. Run: ``python benchmarks/bench_proxy_hold.py [N]``."""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import guardserver


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def orphan(i: int) -> dict:
    pad = "x" * 40_000  # ~45 kB a request, as the attack's
    return {"model": "gpt-4o", "messages": [{"role": "user", "content": f"question {i} {pad}"},
                                            {"role": "tool", "tool_call_id": f"call_{i}", "content": f"r{i}"}]}


FAILED: list[str] = []


async def many(url: str, n: int, pid: int, clients: int = 20) -> list[tuple[int, float]]:
    marks: list[tuple[int, float]] = [(0, rss_mb(pid))]
    done = 0
    sem = asyncio.Semaphore(clients)
    async with httpx.AsyncClient(timeout=120) as client:
        async def one(i: int) -> None:
            nonlocal done
            async with sem:
                try:
                    await client.post(url + "/v1/chat/completions", json=orphan(i))
                except httpx.HTTPError as exc:  # counted, not fatal: the figure is how many
                    FAILED.append(type(exc).__name__)
            done += 1
            if done % (n // 4) == 0:
                marks.append((done, rss_mb(pid)))
        await asyncio.gather(*(one(i) for i in range(n)))
    return marks


async def stall(url: str) -> tuple[float, float]:
    """(median ms of a small request alone, longest ms of one while a 50 MB body is checked)."""
    small = json.dumps(orphan(0)).encode()
    big = json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": "y" * 200}] * 200_000}).encode()  # about 50 MB
    async with httpx.AsyncClient(timeout=300) as client:
        alone = []
        for _ in range(10):
            t0 = time.perf_counter()
            await client.post(url + "/v1/chat/completions", content=small, headers={"content-type": "application/json"})
            alone.append((time.perf_counter() - t0) * 1000)
        task = asyncio.create_task(client.post(url + "/v1/chat/completions", content=big,
                                               headers={"content-type": "application/json"}))
        worst = 0.0
        while not task.done():
            t0 = time.perf_counter()
            await client.post(url + "/v1/chat/completions", content=small, headers={"content-type": "application/json"})
            worst = max(worst, (time.perf_counter() - t0) * 1000)
        await task
    return sorted(alone)[len(alone) // 2], worst


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    up = guardserver.start_upstream(env={"REPLAY_KEEP_SEEN": "0"})
    with tempfile.TemporaryDirectory() as tmp:
        proxy = guardserver.start_proxy(up.url, mode="block", record=True,
                                        env={"INSPECTOR_STORE_PATH": str(Path(tmp) / "inbox.sqlite3")})
        try:
            pid = proxy.proc.pid
            t0 = time.perf_counter()
            marks = asyncio.run(many(proxy.url, n, pid))
            print(f"proxy RSS over {n:,} recorded requests ({time.perf_counter() - t0:.0f} s, "
                  f"{len(FAILED)} failed: {sorted(set(FAILED))}): " + ", ".join(f"{k:,}: {mb:.0f} MB" for k, mb in marks))
            alone, worst = asyncio.run(stall(proxy.url))
            print(f"small request: median {alone:.0f} ms alone; longest {worst:.0f} ms while a 50 MB body is checked")
        finally:
            proxy.stop()
            up.stop()


if __name__ == "__main__":
    main()
