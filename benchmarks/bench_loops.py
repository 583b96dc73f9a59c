"""What loop detection (``inspector.loops``, issue 38) adds to a check of the 100,000-message
benchmark transcript (``gen.build_transcript``; goal <= 5%).

In one process, side by side: the check as ``check_plain`` runs it (loops on), the same check
with loop detection off (``checking.loops_for`` replaced by a function finding nothing), and loop
detection alone (``loops_for`` over the same analyses). Two ratios are printed: on / off - 1 (what
a user's check pays), and loops alone / off (the same share measured directly, steadier: a
difference of two checks carries both checks' noise). Each figure is the best CPU time
(``process_time``: other work on a shared machine stretches wall time, not CPU seconds) of
``RUNS`` runs, the three taking turns. The same with a wider window (``--loop-window 4``: each step is one more pass
over the calls' arguments), and a last line does the same on a transcript where every tenth round repeats a
call three times with the same result (stuck loops to report, tokens counted).

Run: ``.venv/bin/python benchmarks/bench_loops.py [N_MESSAGES]``.
"""

from __future__ import annotations

import copy
import gc
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen import build_transcript

from inspector import checking
from inspector.checking import check_plain
from inspector.loops import DEFAULT, LoopOptions, loops_for
from inspector.reading import load_bytes

RUNS = int(__import__("os").environ.get("BENCH_RUNS", "9"))
GOAL = 0.05


def cpu(fn) -> float:
    gc.collect()
    t = time.process_time()
    fn()
    return time.process_time() - t


def with_loops(msgs: list[dict]) -> list[dict]:
    """Every tenth assistant call message is followed by two more rounds of the same call, answered
    the same: a stuck loop each."""
    out: list[dict] = []
    calls_seen = 0
    k = 0
    while k < len(msgs):
        m = msgs[k]
        out.append(m)
        if m.get("tool_calls") and len(m["tool_calls"]) == 1 and k + 1 < len(msgs) and msgs[k + 1].get("role") == "tool":
            calls_seen += 1
            out.append(msgs[k + 1])
            if calls_seen % 10 == 0:
                for r in range(2):
                    c = copy.deepcopy(m)
                    c["tool_calls"][0]["id"] += f"r{r}"
                    out.append(c)
                    out.append({**msgs[k + 1], "tool_call_id": c["tool_calls"][0]["id"]})
            k += 2
            continue
        k += 1
    return out


def _no_loops(*_args: object) -> list:
    return []


def measure(label: str, msgs: list[dict], options=None) -> float:
    data = orjson.dumps(msgs)
    doc = load_bytes(data, "bench.json")
    report, analyses = check_plain(doc, loops=options)
    targets = report["transcript_targets"]
    real = checking.loops_for
    on = off = alone = float("inf")
    def check_off() -> float:
        checking.loops_for = _no_loops
        try:
            return cpu(lambda: check_plain(doc, loops=options))
        finally:
            checking.loops_for = real

    for k in range(RUNS):
        # on and off take turns going first: neither gains from the other's warm caches
        if k % 2:
            off = min(off, check_off())
        on = min(on, cpu(lambda: check_plain(doc, loops=options)))
        if not k % 2:
            off = min(off, check_off())
        alone = min(alone, cpu(lambda: loops_for(analyses, targets, options or DEFAULT)))
    side_by_side = on / off - 1
    ratio = alone / off
    n = len(report["loops"])
    print(f"{label}: {len(msgs):,} messages ({len(data) / 1e6:.0f} MB), {n} loop(s) found; best of {RUNS}: "
          f"check {on:.3f} s CPU with loops, {off:.3f} s with loop detection off: adds {100 * side_by_side:+.2f}%; "
          f"loop detection alone {alone * 1000:.1f} ms: adds {100 * ratio:.2f}% "
          f"(goal <= {100 * GOAL:.0f}%: {'met' if ratio <= GOAL else 'NOT met'})")
    return ratio


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    msgs = build_transcript(n)
    measure("benchmark transcript", msgs)
    # each step of the window is one more C-level pass over the calls' arguments
    measure("the same, --loop-window 4", msgs, LoopOptions(window=4))
    measure("with a stuck loop every tenth single call", with_loops(msgs)[:n])


if __name__ == "__main__":
    main()
