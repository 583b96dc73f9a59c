"""The Share panel's secret scan leaves the server's memory flat (issue 33's recorder fix, applied
to the app; review follow-up of issue 35).

The panel scans through ``share.scanned`` -> ``workers.run_remembered("secrets")`` ->
``Redactor.scan``; with the workers off (``INSPECTOR_WORKERS=0``) that scan runs in the server
process. ``Redactor.scan`` pauses the GC with ``gc_paused``, which on the way out moved every young
object of the process into the oldest generation: other work's cyclic garbage (here an exception
holding a 40 kB body, made before each scan, as the proxy's refused requests did) then waited for
a rare full collection. Measured in a process that runs the panel's path 1,500 times: its
resident memory grew 38.5 MB between the 500th and the 1,500th scan (~39 kB a scan) before the
fix, 1.8 MB after: the bound of 10 MB sits far from both. (In a running app Streamlit's
``runner.postScriptGC``, on by default, also collects after each page run; the scan must not
depend on it, as the guard's recorder does not.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("streamlit")

ROOT = Path(__file__).resolve().parents[2]

SCANS = r'''
import json, hashlib, sys
from pathlib import Path
from inspector.sharing.redact import Redactor
from inspector.ui import bytecache, share, workers

def rss_kb():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

PAD = "x" * 40_000
data = json.dumps([{"role": "user", "content": "OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"},
                   {"role": "assistant", "content": "ok"}]).encode()
digest = hashlib.sha256(data).hexdigest()
budget = Redactor.build(()).budget

def other_work(i):
    try:
        raise ValueError((PAD + str(i)).encode())
    except ValueError as exc:
        err = exc  # the exception -> its traceback -> this frame -> err: cyclic garbage holding the body

marks = {}
for i in range(1, 1501):
    other_work(i)
    bytecache.clear()  # the panel caches a scan by the file's digest: scan as for a new file each time
    found = share.scanned(digest, data, (), budget, workers.limits())
    assert isinstance(found, list) and found, found
    if i in (500, 1500):
        marks[i] = rss_kb()
print(marks[500], marks[1500])
'''


def test_repeated_share_panel_scans_keep_the_server_memory_flat():
    env = {**os.environ, "INSPECTOR_WORKERS": "0"}  # the scan in this process, as a server without workers
    p = subprocess.run([sys.executable, "-c", SCANS], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert p.returncode == 0, p.stderr
    at_500, at_1500 = map(int, p.stdout.split()[-2:])
    growth_mb = (at_1500 - at_500) / 1024
    assert growth_mb < 10, f"RSS grew {growth_mb:.1f} MB over 1,000 Share-panel scans"
