"""``inspector watch``'s cost per appended line (issue 32), against re-checking the whole file.

Wall time and this process's CPU time are both printed: on a shared machine the wall time's mean
carries the other processes' load (a look preempted for a time slice), the CPU time does not.

A Codex rollout of ``--lines`` lines (calls, exec events, outputs, replies; one call in
``--open-every`` left unanswered, the assistant replying without it) is written up to its last
``--tail`` lines; then those lines are appended one at a time, and after each append the
follower reads the new line and reports new findings (``Follower.poll``), as ``inspector watch``
does between two looks at the file. Beside it: ``inspector.check`` of the whole file after each
append (what a loop around ``check`` would cost). The issue's goal is at most 2 ms per line for a
10,000-line session. The follower checks only the lines after its last safe point unless an
appended line may change what came before (``inspector.watching``); how many looks checked the
whole session is printed too, and whether the findings the follower holds at the end are those
``check`` of the final file gives (they must be).

    python benchmarks/bench_watch.py [--lines 10000] [--tail 100]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import inspector
from inspector.watching import Follower


def rollout(n: int, open_every: int = 0) -> list[bytes]:
    rows = [{"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta",
             "payload": {"id": "bench", "cwd": "/p", "cli_version": "0.46.0", "source": "cli"}}]
    k = 0
    while len(rows) < n:
        k += 1
        cid = f"call_{k}"
        answered = not open_every or k % open_every
        rows += [
            {"timestamp": "t", "type": "response_item", "payload": {"type": "function_call", "name": "shell",
                                                                   "arguments": '{"command":["ls"]}', "call_id": cid}},
            {"timestamp": "t", "type": "event_msg", "payload": {"type": "exec_command_end", "call_id": cid}},
            *([{"timestamp": "t", "type": "response_item", "payload": {"type": "function_call_output", "call_id": cid,
                                                                      "output": "a.py"}}] if answered else []),
            {"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "assistant",
                                                                   "content": [{"type": "output_text", "text": "ok"}]}},
        ]
    return [json.dumps(r).encode() + b"\n" for r in rows[:n]]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=10_000)
    ap.add_argument("--tail", type=int, default=100, help="how many of the last lines are appended one by one")
    ap.add_argument("--open-every", type=int, default=7, help="one call in this many is left unanswered (0: none)")
    args = ap.parse_args()
    lines = rollout(args.lines, args.open_every)
    head, tail = lines[: -args.tail], lines[-args.tail:]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rollout.jsonl"
        path.write_bytes(b"".join(head))
        follower = Follower(str(path))
        follower.poll()
        whole_before = follower.whole_checks
        per_poll, per_check, cpu_poll = [], [], []
        for ln in tail:
            with open(path, "ab") as f:
                f.write(ln)
            t, c = time.perf_counter(), time.process_time()
            follower.poll()
            per_poll.append(time.perf_counter() - t)
            cpu_poll.append(time.process_time() - c)
            t = time.perf_counter()
            inspector.check(str(path))
            per_check.append(time.perf_counter() - t)
        whole = follower.whole_checks - whole_before
        final = inspector.check(str(path)).model_dump()["findings"]
        same = [_key(f) for f in follower.findings] == [_key(f) for f in final]
    ms = lambda xs: statistics.median(xs) * 1000
    mean = lambda xs: statistics.fmean(xs) * 1000
    opened = f", one call in {args.open_every} left unanswered" if args.open_every else ""
    print(f"{args.lines:,}-line rollout{opened}, last {args.tail} lines appended one by one:")
    print(f"  watch (Follower.poll) per appended line: median {ms(per_poll):.2f} ms, mean {mean(per_poll):.2f} ms, "
          f"max {max(per_poll) * 1000:.1f} ms ({whole} of {args.tail} looks checked the whole session)")
    print(f"  the same looks in this process's CPU time (the machine's other load left out): median "
          f"{ms(cpu_poll):.2f} ms, mean {mean(cpu_poll):.2f} ms, max {max(cpu_poll) * 1000:.1f} ms")
    print(f"  check of the whole file per appended line: median {ms(per_check):.1f} ms, mean {mean(per_check):.1f} ms")
    print(f"  ratio (check / watch, medians): {ms(per_check) / ms(per_poll):.0f}x")
    print(f"  findings the follower holds at the end: {len(follower.findings)}, "
          f"{'identical to' if same else 'NOT the same as'} check of the final file ({len(final)})")
    print("  goal: <= 2 ms per line" + (" (met)" if mean(per_poll) <= 2 else
                                        f" (median {'met' if ms(per_poll) <= 2 else 'NOT met'}, mean NOT met)")
          + f"; in CPU time {'met' if mean(cpu_poll) <= 2 else 'NOT met'}")
    if not same:
        raise SystemExit(1)


def _key(f: dict) -> tuple:
    return (f["transcript"], f["message_index"], f["code"], f["tool_call_id"], f["severity"], f["text"])


if __name__ == "__main__":
    main()
