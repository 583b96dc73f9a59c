"""Nothing cut or covered, readable contrast (issue 36): the cut-text check over every tab of a
transcript (Findings, Repair, Fit, Compare), the dataset view and the team inbox, the search box's hint
whole, and the timeline's new rows (compact density, folded turns) at 4.5:1 or better. At
1440x900 and 1280x720."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import open_sample, rerun, upload
from .test_app_keeps_place import DATASET
from .test_app_ux import CONTRAST, CUT

TL = '[data-testid="timeline"]'
SIZES = [pytest.param((1440, 900), id="1440x900"), pytest.param((1280, 720), id="1280x720")]
# The search box's hint against the room the box gives it (a placeholder is not measured by scrollWidth).
HINT_FITS = """() => { const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
  const i = root.querySelector('input.tl-search'); const cs = getComputedStyle(i);
  const ctx = document.createElement('canvas').getContext('2d'); ctx.font = cs.font;
  const room = i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return [ctx.measureText(i.placeholder).width, room]; }"""


@pytest.mark.parametrize("size", SIZES)
def test_nothing_is_cut_in_any_tab_the_dataset_view_or_the_inbox(app_page, size):
    page = app_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_sample(page, "har_capture_openai_400")
    assert page.evaluate(CUT) == [], "Findings"
    width, room = page.evaluate(HINT_FITS)
    assert width <= room, (width, room)
    for tab in ("Repair", "Fit", "Compare"):
        with rerun(page):
            page.get_by_role("tab", name=tab).click()
        assert page.evaluate(CUT) == [], tab
    with rerun(page):
        page.get_by_role("tab", name="Findings").click()  # the Compare tab's uploader goes with it
    open_sample(page, "parallel_half_answered")  # a turn to fold, ghost cards
    page.locator(f'{TL} [data-nav="compact"]').click()
    page.locator(f'{TL} [data-nav="fold"]').click()
    expect(page.locator(f"{TL} .fold-row").first).to_be_visible()
    assert page.evaluate(CUT) == [], "compact, folded"
    low = [x for x in page.evaluate(CONTRAST, "timeline") if x[2] < 4.5]
    assert low == [], low

    page.wait_for_function("() => document.querySelectorAll('[data-testid=stFileUploaderDropzoneInput]').length === 1")
    upload(page, name="runs.jsonl", data=DATASET)
    expect(page.locator(".st-key-dataset_summary")).to_be_visible()
    assert page.evaluate(CUT) == [], "dataset view"

    with rerun(page):
        page.get_by_role("button", name="Team inbox").click()
    expect(page.get_by_role("heading", name="Team inbox")).to_be_visible()
    assert page.evaluate(CUT) == [], "inbox"
    page.screenshot(path=f"/tmp/i36-inbox-{size[0]}.png")
