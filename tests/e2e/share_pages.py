"""Pages of the app in Chromium for the share tests: a fresh browser context per user, an upload,
the Share panel and its link, and the same link on another replica."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import expect

from .conftest import load, rerun

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import loaddriver

TIMELINE = loaddriver.TIMELINE
SLOW = 120_000  # ms; generous because the suite may share two cores with other browsers


def opened(browser, url: str):
    """A page in a fresh context (another user's browser) with the app's first run ended and drawn.
    A fresh context fetches and compiles Streamlit's scripts anew: ``load`` waits for the run."""
    page = browser.new_context(viewport={"width": 1400, "height": 1100}).new_page()
    page.set_default_timeout(SLOW)
    load(page, url)
    return page


def upload(page, data: bytes, name: str = "broken.json") -> None:
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": data}]
    )
    expect(page.locator(f"{TIMELINE} [data-msg-index]").first).to_be_visible(timeout=SLOW)


def open_share(page) -> None:
    """Open the Share panel (the button beside the file's name) unless it is open already."""
    panel = page.locator(".st-key-share_panel")
    if not panel.is_visible():
        # Opening it reruns the page (the panel then says what holds now): wait for that run, or
        # a click in the panel lands in it and a link read after it may be the one shown before.
        with rerun(page):
            page.get_by_role("button", name="Share", exact=True).click()
    expect(panel).to_be_visible(timeout=SLOW)


def share(page, select: int | None = None) -> str:
    """Create a link to the page's transcript and view (the message ``select`` picked first)."""
    if select is not None:
        page.locator(f'{TIMELINE} [data-msg-index="{select}"]').click()
        expect(page.get_by_role("heading", name=f"Message #{select}")).to_be_visible(timeout=SLOW)
    open_share(page)
    page.get_by_role("button", name="Create link").click()
    code = page.locator(".st-key-share_url code")
    expect(code).to_be_visible(timeout=SLOW)
    return code.text_content().strip()


def on(app, link: str) -> str:
    """The same link served by another replica (behind a proxy both answer one host name)."""
    return app.url + link[link.index("/?t="):]


