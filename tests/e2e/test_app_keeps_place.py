"""The dataset list keeps your place (issue 36): after opening one of 300 transcripts, also when
another file was opened earlier in the session, "All 300 transcripts" gives back the filter, the
order and the scroll, with the opened row highlighted; a first click on any cell opens a row.
The test follows the user's path: filter, sort, scroll, open by a cell click, back. At 1440x900
and 1280x720."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import open_sample, rerun, upload

TL = '[data-testid="timeline"]'
SIZES = [pytest.param((1440, 900), id="1440x900"), pytest.param((1280, 720), id="1280x720")]
ROW, HEAD = 35, 36  # the grid's row and header heights
# Where a column's cells are, from the grid's left edge (the row box is 38 px, then the widths
# the dataset view gives "#", "transcript", "dialect", "messages"): the grid is a canvas.
CENTRE = {"transcript": 38 + 76 + 100, "messages": 38 + 76 + 200 + 110 + 48}


def _record(n: int) -> dict:
    msgs = [{"role": "user", "content": f"task {n}"}]
    for k in range(n % 7 + 1):
        msgs += [{"role": "assistant", "content": None,
                  "tool_calls": [{"id": f"call_{k}", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
                 {"role": "tool", "tool_call_id": f"call_{k}", "content": "ok"}]
    if n % 3 == 0:  # a third of them have a stray result: rejected
        msgs.append({"role": "tool", "tool_call_id": "call_x", "content": "stray"})
    return {"id": f"rec-{n:03d}", "messages": msgs}


DATASET = b"".join(json.dumps(_record(n)).encode() + b"\n" for n in range(300))


def grid(page):
    g = page.locator(".st-key-ds_table [data-testid=stDataFrameResizable]")
    g.wait_for()
    return g


def scroll_grid(page, rows: int) -> None:
    """Wheel the table's grid down by ``rows`` rows, as a user does (the grid is a canvas)."""
    g = grid(page)
    g.scroll_into_view_if_needed()
    box = g.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, ROW * rows)
    page.wait_for_function("(n) => document.querySelector('.st-key-ds_table .dvn-scroller').scrollTop >= n",
                           arg=ROW * rows - 2)


def click_cell(page, column: str, visible_row: int) -> None:
    """Click the cell of ``column`` in the ``visible_row``-th row shown (0: the top one in view)."""
    g = grid(page)
    g.scroll_into_view_if_needed()
    box = g.bounding_box()
    top = page.evaluate("() => document.querySelector('.st-key-ds_table .dvn-scroller').scrollTop")
    first = int(top // ROW) + (1 if top % ROW > 4 else 0)  # the first row wholly in view
    y = box["y"] + HEAD + (first * ROW - top) + ROW * visible_row + ROW / 2
    page.mouse.click(box["x"] + CENTRE[column], y)


def row_colour(page, y_in_grid: float) -> list[int]:
    """The grid's background colour at the left edge of the "transcript" cell, ``y_in_grid`` px down."""
    return page.evaluate("""(y) => { const c = document.querySelector('.st-key-ds_table canvas[data-testid=data-grid-canvas]');
        const k = c.width / c.getBoundingClientRect().width;
        return [...c.getContext('2d').getImageData(Math.round((38 + 76 + 190) * k), Math.round(y * k), 1, 1).data]; }""",
                         y_in_grid)


def opened(page) -> int:
    """The transcript (1-based #) now open in the timeline."""
    expect(page.locator(TL)).to_have_count(1)
    text = page.locator(".st-key-ds_nav").inner_text()
    return int(re.search(r"Transcript #(\d+)", text).group(1))


def choose_sort(page, option: str) -> None:
    page.locator(".st-key-ds_sort input").click()
    with rerun(page):
        page.get_by_role("option", name=option, exact=True).click()


@pytest.mark.parametrize("size", SIZES)
def test_back_restores_filter_sort_scroll_and_highlights_the_row(app_page, size):
    page = app_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_sample(page, "missing_tool_reply")  # another file first: the case that lost the place
    page.wait_for_function("() => document.querySelectorAll('[data-testid=stFileUploaderDropzoneInput]').length === 1")
    upload(page, name="runs.jsonl", data=DATASET)
    expect(page.locator(".st-key-dataset_summary")).to_contain_text("300")

    # Filter: only the rejected ones (clean off); sort: most messages first.
    with rerun(page):
        page.locator(".st-key-ds_sev").get_by_role("button", name="clean").click()
    expect(page.get_by_text("100 of 300 transcripts shown")).to_be_visible()
    choose_sort(page, "most messages")
    scroll_grid(page, 40)
    with rerun(page):
        click_cell(page, "transcript", 3)  # a first click on a cell opens the row
    n = opened(page)
    page.screenshot(path=f"/tmp/i36-open-{size[0]}.png")

    with rerun(page):
        page.get_by_role("button", name="All 300 transcripts").click()
    expect(page.locator(TL)).to_have_count(0)
    expect(page.get_by_text("100 of 300 transcripts shown")).to_be_visible()
    expect(page.locator(".st-key-ds_sort input")).to_have_value("most messages")
    # The opened row is highlighted and in view: in the grid's own scroll, and the grid on screen.
    table = page.locator(".st-key-ds_table")
    expect(table).to_have_attribute("data-restored-row", re.compile(r"\d+"))
    row = int(table.get_attribute("data-restored-row"))
    assert row >= 40, row  # its place in the sorted, filtered list, not its place in the file
    state = page.evaluate("""() => { const sc = document.querySelector('.st-key-ds_table .dvn-scroller');
        const r = sc.getBoundingClientRect(); return [sc.scrollTop, sc.clientHeight, r.top, r.bottom, innerHeight]; }""")
    top, height, gtop, _gbottom, vh = state
    assert top <= row * ROW and (row + 1) * ROW <= top + height - HEAD, state
    y = gtop + HEAD + row * ROW - top
    assert 0 <= y and y + ROW <= vh, state
    # Highlighted: its cells are drawn in the selection colour, its neighbours are not.
    mid = HEAD + row * ROW - top + ROW / 2
    assert row_colour(page, mid) != row_colour(page, mid + ROW) == row_colour(page, mid - ROW)
    page.screenshot(path=f"/tmp/i36-back-{size[0]}.png")

    # Another first click, on another column, opens another row.
    with rerun(page):
        click_cell(page, "messages", 1)
    assert opened(page) != n
