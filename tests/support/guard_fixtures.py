"""Fixtures for the guard's tests: the replaying stand-in provider and proxies in front of it, all
real processes on 127.0.0.1 (``scripts/guardserver.py``), and the recorded bodies they replay."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import guardserver

from inspector.guard.cassettes import read_cassette

CASSETTES = ROOT / "tests" / "cassettes" / "pydantic-ai"
DEEPSEEK_400 = CASSETTES / "test_deepseek_responses" / "test_deepseek_responses_rejects_interleaved_function_calls.yaml"
ANTHROPIC_200 = CASSETTES / "test_anthropic" / "test_anthropic_tool_with_thinking.yaml"
OPENAI_SSE = CASSETTES / "test_openai" / "test_run_stream_sync_streams_real_model.yaml"
RESPONSES_400 = CASSETTES / "test_openai_responses" / "test_openai_responses_thinking_with_modified_history.yaml"


# LiteLLM fetches its model cost map from GitHub at import unless told to use the copy it ships:
# this machine (like a company's) has no internet, and the retries cost seconds per test.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def run_coroutine(coro):
    """``asyncio.run`` in a thread of its own: once the browser tests have started Playwright's
    synchronous API, the main thread has a running event loop and ``asyncio.run`` refuses to start
    there. Returns the coroutine's value or raises its exception."""
    outcome: dict = {}

    def target():
        try:
            outcome["value"] = asyncio.run(coro)
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread as is
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="run_coroutine")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


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
