"""Issue 22: a hostile upload cannot take the shared server down. One session uploads a file that
needs more memory to read and check than a worker may have (``INSPECTOR_WORKER_MB``, made small
here); while its worker runs into the limit, a second session opens a sample and works; the
first session gets one readable sentence, and the server stays up and keeps serving both."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from .conftest import appserver, load, open_sample

LIMIT_MB = 150


@pytest.fixture(scope="module")
def small_worker_app():
    app = appserver.start({"INSPECTOR_WORKER_MB": str(LIMIT_MB), "INSPECTOR_WORKER_SECONDS": "120",
                           "INSPECTOR_WORKERS": "2"})
    try:
        yield app
    finally:
        app.stop()


def _session(browser, url: str):
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    load(page, url + "/")
    return context, page


def test_an_upload_over_the_worker_memory_limit_leaves_other_sessions_and_the_server_alone(browser, small_worker_app):
    url = small_worker_app.url
    hostile_ctx, hostile = _session(browser, url)
    calm_ctx, calm = _session(browser, url)
    try:
        # ~12 MB of tiny messages: its parsed messages and analysis need far more than 150 MB
        data = json.dumps([{"role": "user", "content": "x"}] * 400_000).encode()
        hostile.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
            files=[{"name": "hostile.json", "mimeType": "application/json", "buffer": data}])

        open_sample(calm, "missing_tool_reply")  # meanwhile, a colleague works as usual
        expect(calm.locator('[data-testid="timeline"]')).to_have_count(1)

        box = hostile.locator(".st-key-input_error")
        expect(box).to_contain_text(f"needs more than {LIMIT_MB} MB of memory to read and check", timeout=120_000)

        assert small_worker_app.proc.poll() is None  # the server is still running
        with urllib.request.urlopen(url + "/_stcore/health", timeout=10) as r:
            assert r.read().strip() == b"ok"
        open_sample(calm, "orphan_tool_reply")  # and still serves the other session
        expect(calm.locator('[data-testid="timeline"]')).to_have_count(1)
        open_sample(hostile, "clean_parallel_calls")  # the hostile session itself can go on too
        expect(hostile.locator('[data-testid="timeline"]')).to_have_count(1)
    finally:
        hostile_ctx.close()
        calm_ctx.close()
