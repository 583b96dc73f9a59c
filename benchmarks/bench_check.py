"""Check speed against two baselines, in one process, on a 100,000-message transcript.

1. A bare ``orjson.loads`` of the bytes (the fastest parser alone) against a full
   ``inspector.check`` of the same bytes. Goal: the check costs at most 2.5x the parse. Also
   inspector's own parse (duplicate-key and wide-integer checks included) against the bare one.
2. The whole ``inspector check FILE`` process against ``turnsafe.validate`` (a pure-Python
   peer) on the already parsed list. Goal: the process is at least 4x faster.

Run: ``make bench`` (with ``bench_repair`` and ``bench_dialects``), or alone after ``make install``:
``.venv/bin/python benchmarks/bench_check.py [N_MESSAGES]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen import build_transcript

import inspector
from inspector.gc_pause import gc_paused


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    msgs = build_transcript(n)
    data = orjson.dumps(msgs)
    print(f"transcript: {len(msgs):,} messages, {len(data) / 1e6:.1f} MB")

    # The baseline is given its best conditions: the cyclic GC paused during the parse, as
    # inspector does for its own parse (with the GC running, orjson takes 3-5x longer here).
    def parse_alone():
        with gc_paused():
            orjson.loads(data)

    parse = best_of(parse_alone, 7)
    parse_gc = best_of(lambda: orjson.loads(data), 3)
    check = best_of(lambda: inspector.check(data), 7)
    print(f"orjson parse alone      {parse * 1000:8.1f} ms   (GC paused; {parse_gc * 1000:.1f} ms with the GC running)")
    print(f"inspector.check (bytes) {check * 1000:8.1f} ms   (read, parse, pair, every rule, pydantic report)")
    print(f"check / parse ratio     {check / parse:8.2f}x   (goal <= 2.5x; against the GC-paused parse)")
    print(f"check / plain parse     {check / parse_gc:8.2f}x   (against orjson.loads as usually called)")

    # inspector's own parse notices duplicate object keys (a colon count against orjson's
    # write-back, see jsonio); what that costs, against the same GC-paused bare parse.
    from inspector.jsonio import parse as inspector_parse

    def parse_ours():
        with gc_paused():
            inspector_parse(data)

    ours = best_of(parse_ours, 7)
    print(f"inspector parse         {ours * 1000:8.1f} ms   (orjson + duplicate-key and wide-integer checks)")
    print(f"  its cost over orjson  {ours / parse:8.2f}x   ({(ours - parse) * 1000:.1f} ms)")

    import turnsafe

    parsed = orjson.loads(data)
    peer = best_of(lambda: turnsafe.validate(parsed, provider="openai"), 3)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.json"
        path.write_bytes(data)
        cmd = [sys.executable, "-m", "inspector", "check", str(path), "--format", "json"]
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}

        def run_process():
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)

        proc = best_of(run_process, 3)
    print(f"turnsafe.validate       {peer * 1000:8.1f} ms   (on the parsed list)")
    print(f"inspector check process {proc * 1000:8.1f} ms   (whole process: start, read, parse, check, print)")
    print(f"turnsafe / process      {peer / proc:8.2f}x   (goal >= 4x)")


if __name__ == "__main__":
    main()
