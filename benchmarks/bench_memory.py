"""Where the check's peak memory comes from (issue 37: peak <= 2x the file's size).

``bench_check.py`` prints the peak resident set of ``inspector check`` against the file's size;
this prints what it is made of, for the 100,000-message transcript (35 MB) and its broken copy
(1% of the tool results removed), each in a fresh process:

1. the resident set of the interpreter with the check's modules imported;
2. each step of the check as the memory it keeps (Python allocations, ``tracemalloc``) and the
   most it held at once while it ran: the file's bytes, the typed reading (``document``: msgspec
   structs over the bytes, the proof that they read the file exactly and the clean proof, a piece
   of the file at a time, each piece's structs let go once proved, so that a clean file's are never
   all held; a file the proof refuses is read whole), the neutral view (``read``: a ``Msg`` per
   message, a ``Call`` per call, a ``Result`` per result), the pairing and the rest of the check
   (rules, findings, loops, the report);
3. the process's peak resident set (``ru_maxrss``), against the file's size.

Run: ``.venv/bin/python benchmarks/bench_memory.py [N_MESSAGES]``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import inspector_cli, peak_mb
from gen import transcript_files

# Run in a fresh process: the check of argv[1], step by step, each step's kept and peak memory.
STEPS = r"""
import gc, sys, tracemalloc
import inspector.checking as checking, inspector.reading as reading, inspector.jsonio as jsonio
import inspector.dialects.openai_chat as openai_chat, inspector.dialects.openai_typed as typed

def rss(field="VmRSS"):  # (this process's own: ``ru_maxrss`` keeps the parent's across fork and exec)
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith(field)) / 1024

print(f"{'interpreter and modules (resident)':44s} {rss():7.1f} MiB")
rows = []

def measured(owner, name, label, peak=True):
    step, held = getattr(owner, name), peak
    def run(*args, **kwargs):
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        try:
            return step(*args, **kwargs)
        finally:
            now, peak = tracemalloc.get_traced_memory()
            rows.append((label, now - before, peak - before if held else 0))
    setattr(owner, name, run)

measured(reading, "read_source", "the file's bytes", peak=False)  # (its read asks for the cap: 2 GB)
measured(typed, "document", "typed reading (structs and proofs)")
measured(typed, "read", "neutral view (read)")
measured(checking, "pair", "pairing")
gc.disable()
tracemalloc.start()
doc = reading.read_document(sys.argv[1], False)
before = tracemalloc.get_traced_memory()[0]
report, analyses = checking.check_plain(doc)
out = jsonio.dumps(report)
rows.append(("the whole check (after reading)", tracemalloc.get_traced_memory()[0] - before, 0))
for label, kept, peak in rows:
    held = f"(held at most {peak / 2**20:6.1f} MiB while it ran)" if peak else ""
    print(f"{label:44s} {kept / 2**20:7.1f} MiB kept {held}")
print(f"{'Python allocations at the end':44s} {tracemalloc.get_traced_memory()[0] / 2**20:7.1f} MiB")
tracemalloc.stop()
print(f"{'resident set at most (with tracemalloc)':44s} {rss('VmHWM'):7.1f} MiB")
"""


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        path, broken = transcript_files(Path(tmp), n)
        for name, f in ((f"transcript: {n:,} messages", path), ("the same with 1% of the tool results removed", broken)):
            size = f.stat().st_size
            print(f"\n{name}: {size / 2**20:.1f} MiB")
            subprocess.run([sys.executable, "-c", STEPS, str(f)], check=True)
            peak = peak_mb([*inspector_cli(), "check", str(f), "--format", "json"])
            print(f"{'check peak resident set (inspector check)':44s} {peak:7.1f} MiB   "
                  f"({peak * 2**20 / size:.2f}x the file; goal <= 2x)")


if __name__ == "__main__":
    main()
