"""What you can do is in reach (issue 36): the Team inbox is the sidebar's first item (it was
below the sidebar's fold), Fit has a tab of its own (it was at the foot of the Repair tab), and an
entry opened from the inbox lands centred on its culprit and has "Back to inbox". At 1440x900 and
1280x720."""

from __future__ import annotations

import openai
import pytest
from playwright.sync_api import expect
from support.guard_fixtures import DEEPSEEK_400, recorded

from .conftest import open_sample, rerun
from .test_app_jumps_in_view import centred
from .test_guard_inbox import recording_proxy  # noqa: F401 - the fixture

SIZES = [pytest.param((1440, 900), id="1440x900"), pytest.param((1280, 720), id="1280x720")]


@pytest.mark.parametrize("size", SIZES)
def test_inbox_and_fit_are_first_level(app_page, size):
    page = app_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    inbox = page.get_by_test_id("stSidebar").get_by_role("button", name="Team inbox")
    box = inbox.bounding_box()
    assert box is not None and box["y"] + box["height"] <= size[1], box  # seen without scrolling
    open_sample(page, "missing_tool_reply")
    box = page.get_by_test_id("stSidebar").get_by_role("button", name="Team inbox").bounding_box()
    assert box["y"] + box["height"] <= size[1], box
    fit = page.get_by_role("tab", name="Fit")
    expect(fit).to_be_visible()
    with rerun(page):
        fit.click()
    expect(page.get_by_role("spinbutton", name="Budget (tokens)")).to_be_visible()
    with rerun(page):
        page.get_by_role("tab", name="Repair").click()
    expect(page.get_by_role("spinbutton", name="Budget (tokens)")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_an_inbox_entry_opens_centred_and_goes_back_to_the_inbox(app_page, recording_proxy, size):  # noqa: F811
    page = app_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    body, _ = recorded(DEEPSEEK_400)
    client = openai.OpenAI(base_url=recording_proxy.url + "/v1", api_key="sk-test-e2e-0000000000000000000",
                           max_retries=0)
    with pytest.raises(openai.BadRequestError):
        client.responses.create(**body)
    with rerun(page):
        page.get_by_role("button", name="Team inbox").click()
    row = page.locator('[class*="st-key-inbox_row_"]').filter(has_text="No tool output found for tool call call-a.")
    with rerun(page):
        row.first.get_by_role("button", name="Open").click()
    expect(page.locator('[data-testid="timeline"]')).to_have_count(1, timeout=60_000)
    centred(page, 4)
    page.screenshot(path=f"/tmp/i36-inbox-entry-{size[0]}.png")
    with rerun(page):
        page.get_by_role("button", name="Back to inbox").click()
    expect(page.get_by_role("heading", name="Team inbox")).to_be_visible()
    expect(row.first).to_be_visible()
