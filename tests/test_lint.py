"""The gate `make test` runs: ruff's default rules over the repository (configured in
``pyproject.toml``), and ``mypy --strict`` over the whole package but ``ui/`` (``[tool.mypy]``).

A finding fails with ruff's or mypy's own report; ``.venv/bin/ruff check --fix .`` fixes most
lint findings."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = Path(sys.executable).with_name(name)
    found = str(path) if path.exists() else shutil.which(name)
    assert found, f"{name} is not installed: `make install` installs the [test] extra, which has it"
    return found


def test_ruff_finds_nothing():
    done = subprocess.run([_tool("ruff"), "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_the_package_but_the_app():
    done = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
