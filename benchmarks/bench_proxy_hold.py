"""Issue 33 figures for ``inspector proxy`` (real processes on 127.0.0.1, the replaying stand-in
provider behind): the proxy's resident memory over N recorded requests (each one refused by the
check and recorded, secret scan and database write included), and how long a small request waits
while one big allowed body is being checked. Run: ``python benchmarks/bench_proxy_hold.py [N] [proxy options]`` (N 0: the stall figure only)."""

from __future__ import annotations

import asyncio
import json
import os
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


def family_rss_mb(pid: int) -> tuple[float, float]:
    """(the process's RSS, its and its descendants' together: the proxy's check workers) in MB."""
    total = 0.0
    for p in guardserver.descendants(pid):
        try:
            total += rss_mb(p)
        except OSError:
            continue
    return rss_mb(pid), total


async def stall(url: str, pid: int, rounds: int = 3) -> tuple[float, list[float], list[float], tuple[float, float]]:
    """(median ms of a small request alone; every small chat request's ms (checked, refused and
    recorded) and every ``GET /health``'s ms (the event loop alone) while a 50 MB body is checked,
    over ``rounds`` big bodies one after the other; the proxy's RSS after: alone, with its workers)."""
    small = json.dumps(orphan(0)).encode()
    big = json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": "y" * 200}] * 200_000}).encode()  # about 50 MB
    head = {"content-type": "application/json"}
    async with httpx.AsyncClient(timeout=300) as client, httpx.AsyncClient(timeout=300) as prober:
        alone = []
        for _ in range(10):
            t0 = time.perf_counter()
            await client.post(url + "/v1/chat/completions", content=small, headers=head)
            alone.append((time.perf_counter() - t0) * 1000)
        during: list[float] = []
        health: list[float] = []

        async def probe(task: asyncio.Task) -> None:
            while not task.done():
                t0 = time.perf_counter()
                await prober.get(url + "/health")
                health.append((time.perf_counter() - t0) * 1000)

        for _ in range(rounds):
            task = asyncio.create_task(client.post(url + "/v1/chat/completions", content=big, headers=head))
            probing = asyncio.create_task(probe(task))
            while not task.done():
                t0 = time.perf_counter()
                await client.post(url + "/v1/chat/completions", content=small, headers=head)
                during.append((time.perf_counter() - t0) * 1000)
            big_answer = await task
            await probing
            # the stand-in provider answers what it has no recording of as it likes; the proxy must not refuse it
            assert big_answer.status_code < 400 or "inspector" not in big_answer.text, big_answer.text[:300]
    return sorted(alone)[len(alone) // 2], during, health, family_rss_mb(pid)


def cpu_seconds(pid: int) -> tuple[float, float, float]:
    """CPU seconds so far of the proxy's event-loop thread (its main thread), of its other threads
    (the check and record thread pools), and of its child processes (its check workers, alive or
    reaped): what the machine's load does not change, unlike the stall."""
    tick = os.sysconf("SC_CLK_TCK")

    def used(stat: Path) -> float:
        try:
            f = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # a thread or worker gone meanwhile
            return 0.0
        return (int(f[11]) + int(f[12])) / tick

    main = used(Path(f"/proc/{pid}/task/{pid}/stat"))
    others = sum(used(t / "stat") for t in Path(f"/proc/{pid}/task").iterdir() if t.name != str(pid))
    f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    kids = (int(f[13]) + int(f[14])) / tick  # reaped children
    return main, others, kids + sum(used(Path(f"/proc/{k}/stat")) for k in guardserver.descendants(pid) if k != pid)


def load() -> str:
    return "load average " + " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    """``N`` (default 10,000; 0: only the stall figure), then proxy options (``--check-workers 0``)."""
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    up = guardserver.start_upstream(env={"REPLAY_KEEP_SEEN": "0"})
    with tempfile.TemporaryDirectory() as tmp:
        # BENCH_RECORD=0: the small requests are not recorded, so the proxy's threads do nothing but
        # check the big bodies (the CPU figure then shows where the check ran)
        proxy = guardserver.start_proxy(up.url, mode="block", record=os.environ.get("BENCH_RECORD") != "0",
                                        extra=tuple(sys.argv[2:]),
                                        env={"INSPECTOR_STORE_PATH": str(Path(tmp) / "inbox.sqlite3")})
        try:
            pid = proxy.proc.pid
            if n:
                t0 = time.perf_counter()
                marks = asyncio.run(many(proxy.url, n, pid))
                print(f"proxy RSS over {n:,} recorded requests ({time.perf_counter() - t0:.0f} s, "
                      f"{len(FAILED)} failed: {sorted(set(FAILED))}): " + ", ".join(f"{k:,}: {mb:.0f} MB" for k, mb in marks))
            print(f"before the stall figure: {load()}")
            cpu0 = cpu_seconds(pid)
            alone, during, health, (rss, rss_all) = asyncio.run(stall(proxy.url, pid))
            cpu = [b - a for a, b in zip(cpu0, cpu_seconds(pid))]
            during.sort()
            health.sort()
            print(f"small request: median {alone:.0f} ms alone; while a 50 MB body is checked (3 bodies): "
                  f"{len(during)} small chat requests median {during[len(during) // 2]:.0f} ms, worst {during[-1]:.0f} ms; "
                  f"{len(health)} GET /health median {health[len(health) // 2]:.0f} ms, worst {health[-1]:.0f} ms; "
                  f"{load()}; proxy RSS after {rss:.0f} MB, {rss_all:.0f} MB with its worker processes; CPU meanwhile: "
                  f"event-loop thread {cpu[0]:.1f} s, the proxy's other threads {cpu[1]:.1f} s, its worker processes "
                  f"{cpu[2]:.1f} s")
        finally:
            proxy.stop()
            up.stop()


if __name__ == "__main__":
    main()
