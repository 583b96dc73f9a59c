"""Start the app as a real ``streamlit run app.py`` process on a free port, for tests and benchmarks.

Several replicas are several calls with the same ``INSPECTOR_STORE_URL`` (and the same cookie
secret), which is how the scale-out is proven on one machine. ``start`` waits until
``/_stcore/health`` answers ``ok``; if the process dies or 60 s pass it raises with the output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pgcluster import free_port


@dataclass
class App:
    url: str
    proc: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.unlink(missing_ok=True)


def start(env: dict[str, str] | None = None, *, timeout: float = 60, script: str = "app.py",
          port: int | None = None) -> App:
    """Run ``streamlit run <script>`` with ``env`` added to the environment; return once healthy.

    ``script="server.py"`` is the hosted entry (``st.App``: the page plus ``/inspector/health`` and
    ``/inspector/metrics``, retention from start-up)."""
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    fd, log_name = tempfile.mkstemp(prefix="inspector-app-", suffix=".log")
    log = Path(log_name)
    # Without INSPECTOR_BASE_URL the app builds links from the address in the browser.
    full_env = {k: v for k, v in os.environ.items() if k != "INSPECTOR_BASE_URL"}
    full_env.update(env or {})
    with os.fdopen(fd, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / script), "--server.port", str(port),
             "--server.address", "127.0.0.1", "--server.headless", "true",
             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
            cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT,
        )
    app = App(url, proc, log)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited with {proc.returncode}:\n{app.output()}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200 and r.read().strip() == b"ok":
                    return app
        except OSError:
            pass
        time.sleep(0.2)
    app.stop()
    raise RuntimeError(f"the app did not become healthy in {timeout:.0f} s:\n{app.output()}")
