"""The dataset view in the browser: summary, chart, table; a row click opens the transcript, and back;
a shared link reopens the same view and transcript."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from .conftest import load, rerun, upload
from .share_pages import open_share

CALL = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
GOOD = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": [CALL]},
                     {"role": "tool", "tool_call_id": "call_1", "content": "ok"}, {"role": "assistant", "content": "done"}]}
ORPHAN = {"messages": [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "call_9", "content": "x"}]}
RECORDS = [GOOD, GOOD, ORPHAN, GOOD, GOOD]
TL = '[data-testid="timeline"]'


def click_row(page, row: int) -> None:
    """Click a row of the transcripts table (a canvas grid: by position, below the header)."""
    grid = page.locator(".st-key-ds_table [data-testid=stDataFrameResizable]")
    grid.wait_for()
    grid.scroll_into_view_if_needed()  # the mouse clicks only what is on screen
    box = grid.bounding_box()
    with rerun(page):
        page.mouse.click(box["x"] + 14, box["y"] + 35 * (row + 1) + 17)  # the row marker column


def test_dataset_view_row_opens_the_transcript_and_back_and_share(app_page, browser):
    page = app_page
    upload(page, name="train.jsonl", data=b"".join(json.dumps(r).encode() + b"\n" for r in RECORDS))
    summary = page.locator(".st-key-dataset_summary")
    expect(summary).to_contain_text("Transcripts")
    expect(summary).to_contain_text("5")
    expect(page.locator(".st-key-verdict-bad")).to_contain_text("would reject 1 of 5 transcripts (20.0%)")
    expect(page.locator(".st-key-rule_chart canvas, .st-key-rule_chart svg").first).to_be_visible()
    expect(page.locator(TL)).to_have_count(0)

    click_row(page, 2)  # the broken one
    expect(page.locator(TL)).to_be_visible()
    expect(page.locator(f"{TL} [data-msg-index]")).to_have_count(2)
    expect(page.get_by_test_id("stMetric").filter(has_text="Messages")).to_contain_text("2")

    # Share the open transcript: the link reopens it, in a browser that has never seen the file.
    open_share(page)
    page.get_by_role("button", name="Create link").click()
    link = page.locator(".st-key-share_url code")
    expect(link).to_be_visible()
    url = link.inner_text().strip()
    other = browser.new_context().new_page()
    load(other, url.replace("http://127.0.0.1:8501", page.url.split("/?")[0].rstrip("/")))
    expect(other.locator(f"{TL} [data-msg-index]")).to_have_count(2)
    expect(other.get_by_role("button", name="All 5 transcripts")).to_be_visible()
    other.context.close()

    with rerun(page):
        page.get_by_role("button", name="All 5 transcripts").click()
    expect(page.locator(TL)).to_have_count(0)
    expect(page.locator(".st-key-dataset_summary")).to_be_visible()

    # Share the dataset view itself: the link opens the table, not a transcript.
    open_share(page)
    with rerun(page):
        page.get_by_role("button", name="Create link").click()
    expect(page.locator(".st-key-share_url code")).to_be_visible()
    url = page.locator(".st-key-share_url code").inner_text().strip()
    other = browser.new_context().new_page()
    load(other, url.replace("http://127.0.0.1:8501", page.url.split("/?")[0].rstrip("/")))
    expect(other.locator(".st-key-dataset_summary")).to_be_visible()
    expect(other.locator(TL)).to_have_count(0)
    other.context.close()


def test_rule_chart_gives_each_rule_a_readable_bar(app_page):
    """Two rules in two transcripts (the OTLP sample): the chart is tall enough for a band per rule
    (it was squeezed to 80 px with the legend and axis inside, the labels on top of each other)."""
    page = app_page
    side = page.get_by_test_id("stSidebar")
    with rerun(page):
        side.get_by_role("button", name="otel trace export", exact=True).click()
    chart = page.locator(".st-key-rule_chart .vega-embed canvas, .st-key-rule_chart svg.marks").first
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["height"] >= 2 * 28 + 40, box
