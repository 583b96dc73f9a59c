"""The pager in the headers of the timeline and of the Compare view (one ``pager()`` in
``inspector/render/cards.js``, shared by ``timeline.js`` and ``compare.js``): "page N of M", the
forward button turns the page, the back button turns it back, and a button with no page to go to
is disabled."""

from __future__ import annotations

import json

from playwright.sync_api import expect
from support import loop_shapes

from .conftest import rerun, upload

TL = '[data-testid="timeline"]'
CMP = '[data-testid="compare-timelines"]'


def _pages(view, back: str, forward: str, first_on_2: str) -> None:
    """Walk ``view``'s pager from page 1 to page 2 and back; ``first_on_2`` is on page 2 only."""
    prev, nxt = view.locator('[data-nav="prev"]'), view.locator('[data-nav="next"]')
    expect(view.locator(".tl-page").first).to_have_text("page 1 of 2", timeout=60_000)
    expect(prev).to_have_text(back)
    expect(nxt).to_have_text(forward)
    expect(prev).to_be_disabled()
    expect(view.locator(first_on_2)).to_have_count(0)
    nxt.click()
    expect(view.locator(".tl-page").first).to_have_text("page 2 of 2")
    expect(view.locator(first_on_2).first).to_be_visible()
    expect(view.locator('[data-nav="next"]')).to_be_disabled()
    view.locator('[data-nav="prev"]').click()
    expect(view.locator(".tl-page").first).to_have_text("page 1 of 2")
    expect(view.locator(first_on_2)).to_have_count(0)
    expect(view.locator('[data-nav="prev"]')).to_be_disabled()


def test_the_timeline_pages_with_prev_and_next(app_page):
    page = app_page
    items = [{"role": "user", "content": f"message {k}"} for k in range(400)]  # 300 a page: two pages
    upload(page, name="long.json", data=json.dumps(items).encode())
    _pages(page.locator(TL), "‹ Prev", "Next ›", '[data-msg-index="300"]')


def test_the_compare_view_pages_with_earlier_and_later(app_page):
    page = app_page
    a = loop_shapes.paginated_search(45)  # the task and 45 calls: 46 aligned turns, 40 a page
    b = json.loads(json.dumps(a).replace('"call_', '"r2_call_'))
    upload(page, name="run1.json", data=json.dumps(a).encode())
    expect(page.locator(TL)).to_have_count(1, timeout=90_000)
    with rerun(page):
        page.get_by_role("tab", name="Compare").click()
    with rerun(page):
        page.locator(".st-key-compare_upload input[type=file]").set_input_files(
            files=[{"name": "run2.json", "mimeType": "application/json", "buffer": json.dumps(b).encode()}])
    _pages(page.locator(CMP), "‹ Earlier", "Later ›", '[data-testid="compare-pair"][data-row="45"]')
