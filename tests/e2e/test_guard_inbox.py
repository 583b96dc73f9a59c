"""The team inbox in Chromium: a request the provider refused, sent by the real OpenAI SDK through a
real ``inspector proxy --record`` process, appears in the Inbox; opening it shows the request in
the timeline on the culprit message with the provider's error applied; its link works in a browser
that has never seen it."""

from __future__ import annotations

import os

import openai
import pytest
from playwright.sync_api import expect
from support.guard_fixtures import DEEPSEEK_400, guardserver, recorded

from .conftest import load, rerun

TL = '[data-testid="timeline"]'


@pytest.fixture(scope="module")
def recording_proxy():
    up = guardserver.start_upstream()
    # the app's own store (tests/conftest.py points INSPECTOR_STORE_PATH at a throwaway file)
    proxy = guardserver.start_proxy(up.url, mode="observe", record=True,
                                    env={"INSPECTOR_STORE_PATH": os.environ["INSPECTOR_STORE_PATH"]})
    yield proxy
    proxy.stop()
    up.stop()


def test_a_refused_request_appears_in_the_inbox_and_opens_on_the_culprit(app_page, recording_proxy, browser,
                                                                          app_server):
    page = app_page
    with rerun(page):
        page.get_by_role("button", name="Team inbox").click()
    expect(page.get_by_role("heading", name="Team inbox")).to_be_visible()

    body, _ = recorded(DEEPSEEK_400)
    client = openai.OpenAI(base_url=recording_proxy.url + "/v1", api_key="sk-test-e2e-0000000000000000000",
                           max_retries=0)
    with pytest.raises(openai.BadRequestError):
        client.responses.create(**body)

    # the list refreshes itself: the refusal shows up without a reload
    row = page.locator('[class*="st-key-inbox_row_"]').filter(has_text="No tool output found for tool call call-a.")
    expect(row.first).to_be_visible()
    expect(row.first).to_contain_text("rejected by the provider")
    expect(row.first).to_contain_text("deepseek / deepseek-v4-flash")
    link = row.first.get_by_text("Link: ").inner_text().removeprefix("Link: ").strip()
    assert link.startswith(app_server) and "?inbox=" in link and link.endswith("&m=4")

    with rerun(page):
        row.first.get_by_role("button", name="Open").click()
    expect(page.locator(TL)).to_have_count(1, timeout=60_000)  # patience on a loaded machine, no timing claim
    expect(page.locator(f'{TL} [data-msg-index="4"].selected')).to_have_count(1)
    # the provider's error is applied, as for a HAR capture that recorded it
    expect(page.locator(".st-key-pasted_read")).to_contain_text("Show #4")

    # the link, in a browser that has never seen this record
    other = browser.new_context()
    try:
        p2 = other.new_page()
        p2.set_viewport_size({"width": 1440, "height": 1000})
        load(p2, link)
        expect(p2.locator(TL)).to_have_count(1, timeout=60_000)
        expect(p2.locator(f'{TL} [data-msg-index="4"].selected')).to_have_count(1)
        expect(p2.locator(".st-key-pasted_read")).to_contain_text("Show #4")
    finally:
        other.close()
