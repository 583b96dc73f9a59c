"""The web app (Streamlit). The only package that imports streamlit; ``app.py`` calls ``main``.

Modules: ``state`` (what the session remembers), ``analysis`` (cached parse and check, keyed by
the file's sha256), ``loading`` (upload, paste, samples, shared links), ``summary``,
``timeline`` (the components-v2 timeline and the detail pane, in one fragment), ``findings``,
``pasted_error``, ``repair_panel``, ``workers`` (the heavy work in memory-capped child processes),
and ``app_main`` which lays them out.
"""

from __future__ import annotations


def main() -> None:
    """Run the app (imported lazily so that ``import inspector.ui`` stays cheap)."""
    from .app_main import main as run
    from .run_marker import mark

    run()
    mark("app")  # last: browser tests wait for it to grow (run_marker.py)
