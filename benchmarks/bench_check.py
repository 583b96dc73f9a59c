"""Check speed as whole processes, each against its baseline measured in the same run.

Every figure is the CPU time (user + system) of a whole process, the best of 5 runs, the
commands taking turns so that a machine busy with other work slows all of them alike; CPU time
rather than wall time because other work on a shared machine stretches wall times, not CPU
seconds. Printed, with the goal of each ratio (issue 37), for the 100,000-message transcript
(34 MB) and for a broken copy of it with 1% of the tool results removed:

1. ``inspector check FILE --format json`` against a process doing ``orjson.loads`` of the file
   (the fastest parser alone): with the cyclic GC paused as inspector pauses it (goal <= 1.0x),
   and as usually called, GC running;
2. the same check against the peer libraries, each a process that parses the file with orjson
   and runs the peer on the list: ``turnsafe.validate`` (goal >= 5x faster) and
   ``tessera.inspect`` (tessera-transcript; goal >= 3x faster);
3. the check's peak memory (the process's maximum resident set) against the file's size
   (goal <= 2x);
4. start-up: ``python -c "import inspector"`` over ``python -c pass`` (goal <= +25 ms) and
   ``inspector check`` of a 4-message file (goal <= 60 ms).

Run: ``make bench`` or ``.venv/bin/python benchmarks/bench_check.py [N_MESSAGES]`` (the peers
come with ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import compileall
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen import transcript_files

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "sample_logs" / "orphan_tool_reply.json"
RUNS = 5


def cpu_of(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one whole process running ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best_cpu(commands: dict[str, list[str]], runs: int = RUNS) -> dict[str, float]:
    """The best CPU time of each command over ``runs`` turns (one warm-up each first)."""
    for cmd in commands.values():
        cpu_of(cmd)
    best = {name: float("inf") for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            best[name] = min(best[name], cpu_of(cmd))
    return best


def python(code: str, *args: str) -> list[str]:
    return [sys.executable, "-c", code, *args]


def inspector_cli() -> list[str]:
    script = Path(sys.executable).with_name("inspector")
    return [str(script)] if script.exists() else [sys.executable, "-m", "inspector"]


def peak_mb(cmd: list[str]) -> float:
    """The largest resident set (MiB) of one whole process running ``cmd``: the ``ru_maxrss`` of
    its children as a fresh process sees it, so that no earlier child counts."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
            "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True, check=True)
    return int(out.stdout) / 1024


def row(label: str, value: float, note: str) -> None:
    print(f"{label:34s} {value * 1000:8.1f} ms   {note}")


def compare(name: str, path: Path, cli: list[str]) -> None:
    """The check of ``path`` against a bare parse and the peers, and its peak memory."""
    f = str(path)
    size = path.stat().st_size
    print(f"\n{name}: {size / 1e6:.1f} MB; CPU seconds of whole processes, best of {RUNS}")
    read = "import orjson, sys; data = orjson.loads(open(sys.argv[1], 'rb').read())"
    check = [*cli, "check", f, "--format", "json"]
    t = best_cpu({
        "check": check,
        "parse": python("import gc; gc.disable(); " + read, f),
        "parse_gc": python(read, f),
        "turnsafe": python(read + "; import turnsafe; turnsafe.validate(data, provider='openai')", f),
        "tessera": python(read + "; import tessera; tessera.inspect(data)", f),
    })
    row("inspector check (process)", t["check"], "(start, read, parse, pair, every rule, JSON report)")
    row("orjson.loads (process, GC paused)", t["parse"], "(the parser alone, at its best)")
    row("orjson.loads (process, GC running)", t["parse_gc"], "(the parser as usually called)")
    row("turnsafe: parse + validate", t["turnsafe"], "(turnsafe 0.1, openai rules)")
    row("tessera: parse + inspect", t["tessera"], "(tessera-transcript 0.1)")
    print(f"check / parse (GC paused)          {t['check'] / t['parse']:8.2f}x   (goal <= 1.0x: {met(t['check'] / t['parse'] <= 1.0)})")
    print(f"check / parse (GC running)         {t['check'] / t['parse_gc']:8.2f}x")
    print(f"turnsafe / check                   {t['turnsafe'] / t['check']:8.2f}x   (goal >= 5x: {met(t['turnsafe'] / t['check'] >= 5)})")
    print(f"tessera / check                    {t['tessera'] / t['check']:8.2f}x   (goal >= 3x: {met(t['tessera'] / t['check'] >= 3)})")
    peak = peak_mb(check)
    print(f"check peak memory                  {peak:8.1f} MiB   ({peak * 2**20 / size:.2f}x "
          f"the file; goal <= 2x: {met(peak * 2**20 / size <= 2)})")


def met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    # Start-up is measured as every run after the first sees it: with the package's bytecode cached.
    compileall.compile_dir(str(ROOT / "inspector"), quiet=1)
    cli = inspector_cli()
    with tempfile.TemporaryDirectory() as tmp:
        path, broken = transcript_files(Path(tmp), n)
        compare(f"transcript: {n:,} messages", path, cli)
        compare("the same with 1% of the tool results removed", broken, cli)
    s = best_cpu({"pass": python("pass"), "import": python("import inspector"), "small": [*cli, "check", str(SMALL)]},
                 runs=2 * RUNS)
    print()
    row("python -c pass", s["pass"], "")
    row("python -c 'import inspector'", s["import"], f"({(s['import'] - s['pass']) * 1000:+.1f} ms; goal <= +25 ms: "
        f"{met(s['import'] - s['pass'] <= 0.025)})")
    row("inspector check, 4-message file", s["small"], f"({SMALL.name}; goal <= 60 ms: {met(s['small'] <= 0.060)})")


if __name__ == "__main__":
    main()
