"""Upload-to-timeline time with 20 concurrent browser sessions against one, on one app process.

A throwaway PostgreSQL server holds the shares and one ``streamlit run app.py`` serves every
session. Each session opens the app in its own browser context, uploads its own transcript and
waits until the timeline shows it (the time measured), then selects a message and shares it.
The single-session figure is the median of several sequential runs (the first one warms the
server); the concurrent figure is the median over the 20 sessions of one run.

What to expect: the app process is one Python interpreter, so parses and checks of different
sessions do not run in parallel, and on a small machine the browser's own rendering competes
for the same cores. The ratio says how much a user waits when 20 colleagues upload at once.

Run: ``make bench-all`` (after the engine benchmarks, with ``bench_browser``), or alone after ``make install
system-deps`` (Chromium and PostgreSQL): ``.venv/bin/python benchmarks/bench_load.py [SESSIONS]``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import appserver
import loaddriver
import pgcluster


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    sessions = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    single_runs = 5
    if loaddriver.CHROMIUM is None:
        sys.exit("bench_load: no Chromium found (set CHROMIUM=/path/to/chromium)")
    cluster = pgcluster.start()
    app = appserver.start({"INSPECTOR_STORE_URL": cluster.url})
    try:
        loaddriver.run_sessions(app.url, 1, first=10_000)  # warm-up: imports, caches, first connection
        single: list[float] = []
        cpu0 = cpu_seconds(app.proc.pid)
        for i in range(single_runs):
            [o] = loaddriver.run_sessions(app.url, 1, first=20_000 + i)
            if o.errors:
                sys.exit(f"bench_load: single session failed: {o.errors}")
            single.append(o.upload_to_timeline)
        cpu_single = (cpu_seconds(app.proc.pid) - cpu0) / single_runs
        cpu0, started = cpu_seconds(app.proc.pid), time.perf_counter()
        many = loaddriver.run_sessions(app.url, sessions, first=30_000)
        wall = time.perf_counter() - started
        cpu_many = cpu_seconds(app.proc.pid) - cpu0
    finally:
        app.stop()
        cluster.stop()

    failed = [o for o in many if o.errors or o.upload_to_timeline is None]
    times = sorted(o.upload_to_timeline for o in many if o.upload_to_timeline is not None)
    one = statistics.median(single)
    print(f"machine: {os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.1f} at the end")
    print(f"1 session:   median upload-to-timeline {one:6.2f} s over {single_runs} runs "
          f"(min {min(single):.2f}, max {max(single):.2f})")
    if times:
        med = statistics.median(times)
        print(f"{sessions} sessions: median upload-to-timeline {med:6.2f} s "
              f"(min {times[0]:.2f}, max {times[-1]:.2f}); all {sessions} done in {wall:.1f} s")
        print(f"ratio: the median at {sessions} concurrent sessions is {med / one:.1f}x the single-session median "
              f"({med / one / sessions:.2f}x of a fully serial {sessions}x)")
    print(f"app process CPU: {cpu_single:.2f} s per single session; {cpu_many:.1f} s for the {sessions} sessions "
          f"({cpu_many / sessions:.2f} s each). The rest of the wait is the {sessions} browsers and anything else "
          f"sharing the {os.cpu_count()} CPU(s).")
    print(f"sessions with errors: {len(failed)}" + (f" {[(o.index, o.errors) for o in failed]}" if failed else ""))


if __name__ == "__main__":
    main()
