"""Loops in the browser (issue 38): the timeline folds a run of repeated calls into one row that
opens on click, the summary says what loops cost, and the sidebar's settings change what is found."""

from __future__ import annotations

import json

from playwright.sync_api import expect
from support import loop_shapes

from .conftest import rerun, upload

TL = '[data-testid="timeline"]'


def open_file(page, name: str, messages: list) -> None:
    """Upload a transcript and wait for its timeline (the component may take long on a busy machine)."""
    upload(page, name=name, data=json.dumps(messages).encode())
    expect(page.locator(TL)).to_have_count(1, timeout=90_000)


def test_the_rig_loop_is_one_folded_row_that_opens_on_click(app_page):
    page = app_page
    open_file(page, "rig.json", loop_shapes.rig_loop())
    tl = page.locator(TL)
    fold = tl.locator('[data-testid="fold"]')
    expect(fold).to_have_count(1)
    expect(fold).to_contain_text("list_tables_tool × 6, same arguments, results sent as user text")
    expect(fold).to_contain_text("#1–#12")
    expect(tl.locator("[data-msg-index]")).to_have_count(2)  # the question and the last answer
    loops = page.locator(".st-key-loops")
    expect(loops).to_contain_text("Loops: 1 loop cost 6 calls and")
    expect(loops).to_contain_text("tokens")
    with rerun(page):
        fold.click()
    expect(tl.locator('[data-testid="fold"]')).to_have_count(0)
    expect(tl.locator("[data-msg-index]")).to_have_count(14)
    expect(page.locator(".st-key-detail")).to_contain_text("#1")  # the run's first call is shown


def test_a_poll_is_not_folded_and_an_allowed_tool_is_not_reported(app_page):
    page = app_page
    open_file(page, "poll.json", loop_shapes.job_poll())
    expect(page.locator(f"{TL} [data-msg-index]")).to_have_count(12)
    expect(page.locator(f'{TL} [data-testid="fold"]')).to_have_count(0)
    expect(page.locator(".st-key-loops")).to_have_count(0)
    open_file(page, "rig.json", loop_shapes.rig_loop())
    expect(page.locator(f'{TL} [data-testid="fold"]')).to_have_count(1)
    side = page.get_by_test_id("stSidebar")
    side.get_by_text("Loop detection").click()
    box = side.get_by_role("textbox", name="Never report these tools")
    box.fill("list_tables_tool")
    with rerun(page):
        box.press("Enter")
    expect(page.locator(f'{TL} [data-testid="fold"]')).to_have_count(0)
    expect(page.locator(".st-key-loops")).to_have_count(0)
