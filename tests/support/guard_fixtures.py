"""Fixtures for the guard's tests: the replaying stand-in provider and proxies in front of it, all
real processes on 127.0.0.1 (``scripts/guardserver.py``), and the recorded bodies they replay."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import guardserver

from inspector.cassettes import read_cassette

CASSETTES = ROOT / "tests" / "cassettes" / "pydantic-ai"
DEEPSEEK_400 = CASSETTES / "test_deepseek_responses" / "test_deepseek_responses_rejects_interleaved_function_calls.yaml"
ANTHROPIC_200 = CASSETTES / "test_anthropic" / "test_anthropic_tool_with_thinking.yaml"
OPENAI_SSE = CASSETTES / "test_openai" / "test_run_stream_sync_streams_real_model.yaml"
RESPONSES_400 = CASSETTES / "test_openai_responses" / "test_openai_responses_thinking_with_modified_history.yaml"


def recorded(path: Path, index: int = 0):
    """The interaction's request body (parsed) and the interaction."""
    it = read_cassette(path)[index]
    return json.loads(it.body), it


@pytest.fixture(scope="session")
def upstream():
    server = guardserver.start_upstream()
    yield server
    server.stop()


def seen(upstream) -> list[dict]:
    import httpx

    return httpx.get(upstream.url + "/_seen").json()


def forget(upstream) -> None:
    import httpx

    httpx.delete(upstream.url + "/_seen")


@pytest.fixture
def guard_store(tmp_path, monkeypatch):
    """A fresh SQLite store for the records of one test (the processes it starts use it too)."""
    path = tmp_path / "inbox.sqlite3"
    monkeypatch.setenv("INSPECTOR_STORE_PATH", str(path))
    return f"sqlite:///{path}"
