"""Share links across replicas: two app processes on one PostgreSQL store, driven in Chromium.

This is the scale-out proven on one machine: a link made on the first replica opens the same
transcript and view on the second, in another browser context (no shared cookies or storage),
survives a replica restart, and dies everywhere once deleted.
"""

from __future__ import annotations

import json
import secrets
import sys
import urllib.request
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .share_pages import SLOW, TIMELINE, on, open_share, opened, share, upload

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import appserver
import loaddriver

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"


@pytest.fixture(scope="module")
def replicas(pg_cluster):
    """Two app processes sharing one PostgreSQL database and one cookie secret."""
    env = {
        "INSPECTOR_STORE_URL": pg_cluster.create_database("replicas_" + uuid.uuid4().hex[:8]),
        "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32),
    }
    apps = [appserver.start(env), appserver.start(env)]
    yield env, apps
    for app in apps:
        app.stop()


def test_link_made_on_one_replica_opens_on_the_other(browser, replicas):
    _, (first, second) = replicas
    data, marker, count = loaddriver.make_transcript(1)
    page = opened(browser, first.url)
    upload(page, data)
    link = share(page, select=5)
    assert link.startswith(first.url + "/?t=") and link.endswith("&m=5")

    colleague = opened(browser, on(second, link))
    timeline = colleague.locator(TIMELINE)
    expect(timeline.locator(f'[data-msg-index="{count - 1}"]')).to_be_visible(timeout=SLOW)
    expect(timeline.get_by_text(f"{marker} question 0", exact=True)).to_be_visible(timeout=SLOW)
    expect(timeline.locator('.card.selected[data-msg-index="5"]')).to_be_visible(timeout=SLOW)
    expect(colleague.get_by_role("heading", name="Message #5")).to_be_visible(timeout=SLOW)
    expect(colleague.get_by_test_id("stException")).to_have_count(0)


def test_links_survive_a_replica_restart(browser, replicas):
    env, (first, _) = replicas
    data, marker, _ = loaddriver.make_transcript(2)
    page = opened(browser, first.url)
    upload(page, data)
    link = share(page)
    restarted = appserver.start(env)  # a new process: nothing in memory, only the database
    try:
        colleague = opened(browser, on(restarted, link))
        expect(colleague.locator(TIMELINE).get_by_text(f"{marker} question 0", exact=True)).to_be_visible(timeout=SLOW)
    finally:
        restarted.stop()


def test_every_replica_answers_its_health_check(replicas):
    for app in replicas[1]:
        with urllib.request.urlopen(app.url + "/_stcore/health", timeout=10) as r:
            assert (r.status, r.read()) == (200, b"ok")


def test_made_up_token_says_not_found_or_expired(browser, replicas):
    _, (_, second) = replicas
    page = opened(browser, f"{second.url}/?t={secrets.token_urlsafe(32)}")
    expect(page.get_by_text("not found or has expired", exact=False)).to_be_visible(timeout=SLOW)
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_deleting_on_one_replica_kills_the_link_on_all(browser, replicas):
    _, (first, second) = replicas
    data, _, _ = loaddriver.make_transcript(3)
    page = opened(browser, first.url)
    upload(page, data)
    link = share(page)

    holder = opened(browser, on(second, link))  # a colleague who holds the link deletes it
    expect(holder.locator(TIMELINE + " [data-msg-index]").first).to_be_visible(timeout=SLOW)
    open_share(holder)
    holder.get_by_role("button", name="Delete this share").click()
    holder.get_by_role("button", name="Yes, delete it").click()
    expect(holder.get_by_text("The share was deleted")).to_be_visible(timeout=SLOW)

    later = opened(browser, on(first, link))
    expect(later.get_by_text("not found or has expired", exact=False)).to_be_visible(timeout=SLOW)


def test_secrets_are_previewed_and_masked_in_the_shared_copy(browser, replicas):
    _, (first, second) = replicas
    data = json.dumps({"messages": [
        {"role": "user", "content": f"deploy with {KEY} please"},
        {"role": "assistant", "content": "done"},
    ]}).encode()
    page = opened(browser, first.url)
    upload(page, data)
    open_share(page)
    expect(page.get_by_text("1 possible secret(s) found")).to_be_visible(timeout=SLOW)
    expect(page.get_by_text("Mask the 1 secret(s) before sharing")).to_be_visible(timeout=SLOW)
    link = share(page)

    colleague = opened(browser, on(second, link))
    card = colleague.locator(f'{TIMELINE} [data-msg-index="0"]')
    expect(card).to_contain_text("[REDACTED API key (sk-)]", timeout=SLOW)
    assert KEY not in card.inner_text()
