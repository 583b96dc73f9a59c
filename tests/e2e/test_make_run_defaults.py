"""``make run`` with no settings behaves as before hosting existed (issue 27), and a share link
opened by several colleagues is checked once (issue 22).

The app is started as ``make run`` starts it (``streamlit run server.py``, the Makefile's recipe)
with no hosting variable set (the suite's conftest clears them; only a private SQLite store path
is given). In Chromium: no sign-in page and nobody named, a file uploads and shows its timeline,
Share gives a link, colleagues in other browsers open it, and one of them (anyone holding the
link, as before sign-in existed) deletes it. The server's metrics say the shared file was checked
once however many colleagues opened it.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .hosting_recipe import closing_browser  # noqa: F401 - the `browser` fixture: closes each test's contexts
from .share_pages import SLOW, open_share, opened, share, upload

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import appserver
import loaddriver

COLLEAGUES = 4


def make_run_script() -> str:
    """The script ``make run`` starts, read from the Makefile's recipe."""
    recipe = re.search(r"^run:.*\n\t(.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert recipe, "the Makefile has no run recipe"
    command = recipe.group(1).split()
    assert command[0].endswith("streamlit") and command[1] == "run", command
    assert not any(word.startswith("INSPECTOR_") for word in command), command  # no settings of its own
    return command[2]


@pytest.fixture(scope="module")
def plain_app():
    app = appserver.start(script=make_run_script())  # the conftest's private store path, nothing else
    yield app
    app.stop()


def metric(app, name: str) -> float:
    with urllib.request.urlopen(app.url + "/inspector/metrics", timeout=30) as r:
        text = r.read().decode()
    return next(float(line.split()[1]) for line in text.splitlines() if line.startswith(name + " "))


def test_no_sign_in_and_anyone_holding_the_link_opens_and_deletes_it(browser, plain_app):
    page = opened(browser, plain_app.url)
    expect(page.locator(".st-key-sign_in")).to_have_count(0)  # no sign-in page
    expect(page.get_by_text("Signed in as", exact=False)).to_have_count(0)
    data, marker, _ = loaddriver.make_transcript(9)
    upload(page, data)
    link = share(page)
    assert link.startswith(plain_app.url + "/?t=")
    expect(page.get_by_text("My shares", exact=True)).to_have_count(0)  # lists are for signed-in users

    checks_before = metric(plain_app, "inspector_checks_total")
    assert checks_before >= 1  # the upload was checked, and counted
    opened_before = metric(plain_app, "inspector_shares_opened_total")
    colleagues = []
    for _ in range(COLLEAGUES):
        colleague = opened(browser, link)
        expect(colleague.locator(loaddriver.TIMELINE).get_by_text(f"{marker} question 0", exact=True)).to_be_visible(
            timeout=SLOW)
        expect(colleague.get_by_test_id("stException")).to_have_count(0)
        colleagues.append(colleague)
    assert metric(plain_app, "inspector_shares_opened_total") == opened_before + COLLEAGUES
    # The link's view may read the file with another dialect or target than the upload did (one
    # more check then), but every colleague after the first gets the result already made.
    assert metric(plain_app, "inspector_checks_total") <= checks_before + 1

    open_share(colleagues[-1])
    colleagues[-1].get_by_role("button", name="Delete this share").click()
    colleagues[-1].get_by_role("button", name="Yes, delete it").click()
    expect(colleagues[-1].get_by_text("The share was deleted")).to_be_visible(timeout=SLOW)
    later = opened(browser, link)
    expect(later.get_by_text("not found or has expired", exact=False)).to_be_visible(timeout=SLOW)


def test_health_and_metrics_answer_with_no_settings(plain_app):
    with urllib.request.urlopen(plain_app.url + "/inspector/health", timeout=30) as r:
        assert r.status == 200 and json.loads(r.read()) == {"status": "ok", "store": "ok"}
    assert metric(plain_app, "inspector_store_up") == 1
