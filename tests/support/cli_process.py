"""``python -m inspector`` as a real process, the way scripts and CI run it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"


def run(*args, stdin: bytes | None = None, cwd=None) -> subprocess.CompletedProcess[bytes]:
    # INSPECTOR_DEBUG lets a bug surface as a traceback instead of the CLI's one-line last resort,
    # so these tests see real crashes.
    env = {**os.environ, "INSPECTOR_DEBUG": "1"}
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], input=stdin, capture_output=True,
                          timeout=300, env=env, cwd=cwd)
