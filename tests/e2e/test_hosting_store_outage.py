"""The store check (issue 27): PostgreSQL stopped under a running app, then started again.

While the database is down, ``/inspector/health`` answers 503 "store unavailable" and the page
says "Share store unavailable" when asked to share; once it is back, both recover without
restarting the app, and a link made before the outage still opens (nothing lost).
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import appserver
import loaddriver
import pgcluster

from .share_pages import SLOW, on, open_share, opened, share, upload

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


def health(app) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(app.url + "/inspector/health", timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture
def own_postgres():
    """A server of this test's own: stopping it must not disturb the session's shared one."""
    try:
        cluster = pgcluster.start()
    except pgcluster.PostgresUnavailable as exc:
        pytest.skip(str(exc))
    yield cluster
    cluster.stop()


def test_postgres_down_and_back_without_restarting_the_app(browser, own_postgres):
    app = appserver.start({"INSPECTOR_STORE_URL": own_postgres.url}, script="server.py")
    try:
        assert health(app) == (200, {"status": "ok", "store": "ok"})
        data, marker, _ = loaddriver.make_transcript(4)
        page = opened(browser, app.url)
        upload(page, data)
        before = share(page)

        own_postgres.halt()
        status, body = health(app)
        assert status == 503 and body["status"] == "unavailable" and body["store"] == "unavailable"
        open_share(page)
        page.get_by_role("button", name="Create link").click()
        expect(page.get_by_text("Share store unavailable", exact=False)).to_be_visible(timeout=SLOW)
        expect(page.get_by_test_id("stException")).to_have_count(0)

        own_postgres.resume()  # pg_ctl -w: back once it accepts connections
        # the pool pings a connection before use and replaces a dead one: the first ask answers ok
        assert health(app) == (200, {"status": "ok", "store": "ok"})
        open_share(page)
        page.get_by_role("button", name="Create link").click()
        code = page.locator(".st-key-share_url code")
        expect(code).not_to_have_text(before, timeout=SLOW)  # a new link: the store works again
        expect(page.get_by_text("Share store unavailable", exact=False)).to_have_count(0)

        colleague = opened(browser, on(app, before))  # the link made before the outage
        expect(colleague.locator(loaddriver.TIMELINE).get_by_text(f"{marker} question 0", exact=True)).to_be_visible(
            timeout=SLOW)
        with urllib.request.urlopen(app.url + "/inspector/metrics", timeout=30) as r:
            text = r.read().decode()
        errors = next(float(line.split()[1]) for line in text.splitlines() if line.startswith("inspector_store_errors_total "))
        assert errors >= 2  # the failed health check and the failed share
    finally:
        app.stop()
