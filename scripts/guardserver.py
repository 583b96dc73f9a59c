"""Start the guard's processes for tests and the benchmark: the replaying stand-in provider
(``replay_upstream.py``) and ``inspector proxy`` pointed at it, each a real process on a free
loopback port, returned once its ``/health`` answers."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from appserver import App as Server
from pgcluster import free_port


def _start(args: list[str], port: int, env: dict[str, str] | None, timeout: float) -> Server:
    fd, name = tempfile.mkstemp(prefix="inspector-guard-", suffix=".log")
    with os.fdopen(fd, "wb") as out:
        proc = subprocess.Popen(args, env={**os.environ, **(env or {})}, stdout=out, stderr=subprocess.STDOUT,
                                cwd=HERE.parent)
    server = Server(f"http://127.0.0.1:{port}", proc, Path(name))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{args[1]} exited with {proc.returncode}:\n{server.output()}")
        try:
            with urllib.request.urlopen(server.url + "/health", timeout=2) as r:
                if r.status == 200:
                    return server
        except OSError:
            time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"{args[1]} did not answer /health in {timeout:.0f} s:\n{server.output()}")


def start_upstream(cassettes: Path | None = None, *, env: dict[str, str] | None = None, timeout: float = 60) -> Server:
    port = free_port()
    args = [sys.executable, str(HERE / "replay_upstream.py"), str(port)] + ([str(cassettes)] if cassettes else [])
    return _start(args, port, env, timeout)


def start_proxy(upstream: str, *, mode: str = "observe", record: bool = False, env: dict[str, str] | None = None,
                prefix: str = "", timeout: float = 60, extra: tuple[str, ...] = ()) -> Server:
    """``inspector proxy`` with every upstream on ``upstream`` (plus ``prefix``: ``/cut``, ``/hang``)."""
    port = free_port()
    base = upstream.rstrip("/") + prefix
    args = [sys.executable, "-m", "inspector", "proxy", "--port", str(port), "--mode", mode,
            "--upstream-openai", base + "/v1", "--upstream-anthropic", base + "/v1", "--upstream-gemini", base]
    if record:
        args.append("--record")
    args += extra
    return _start(args, port, env, timeout)


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (the proxy's check workers and their fork server), from /proc."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [pid], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out
