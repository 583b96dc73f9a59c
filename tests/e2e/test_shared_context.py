"""Issue 33: one browser context for the session (tests/e2e/conftest.py). A test's page reuses the
scripts the context has already fetched and compiled, starts a new session of the app, and cannot
watch requests in the shared context (a test that does takes a fresh context, ``own_page``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import SharedContextMisuse, load, upload

# Streamlit's own scripts the page has loaded, with the bytes each took over the network
# (0: from the browser's cache).
SCRIPTS = """() => performance.getEntriesByType('resource')
  .filter(e => e.initiatorType === 'script' || /[/]static[/]js[/]/.test(e.name))
  .map(e => [e.name, e.transferSize])"""


def test_a_second_page_of_the_context_takes_the_scripts_from_cache(page, context, shared_context, app_server):
    assert context is shared_context  # every test's page is in it (conftest.py)
    load(page, app_server + "/")
    first = dict(page.evaluate(SCRIPTS))
    assert first, "no script entries"
    other = context.new_page()
    load(other, app_server + "/")
    again = dict(other.evaluate(SCRIPTS))
    fetched = {name: size for name, size in again.items() if name in first and size > 0}
    assert not fetched, fetched


def test_a_page_starts_a_new_session_of_the_app(app_page, page, app_server):
    upload(app_page, name="one.json", data=b'[{"role": "user", "content": "hi"}]')
    expect(app_page.locator(".st-key-filename")).to_have_text("one.json")
    load(page, app_server + "/")  # the same page, navigated: a new session, no file
    expect(page.get_by_test_id("stFileUploaderDropzoneInput")).to_have_count(1)
    expect(page.locator(".st-key-filename")).to_have_count(0)


@pytest.mark.parametrize("watch", [
    lambda page: page.context.on("request", lambda r: None),
    lambda page: page.on("request", lambda r: None),
    lambda page: page.on("console", lambda m: None),
    lambda page: page.route("**/*", lambda route: route.continue_()),
], ids=["context.on", "page.on-request", "page.on-console", "page.route"])
def test_the_shared_context_refuses_to_be_watched(page, watch):
    with pytest.raises(SharedContextMisuse, match="own_page"):
        watch(page)


def test_a_context_of_its_own_is_watched_from_its_first_request(own_page, app_server):
    seen: list[str] = []
    own_page.context.on("request", lambda r: seen.append(r.url))
    load(own_page, app_server + "/")
    assert any("/static/js/" in url for url in seen), seen
