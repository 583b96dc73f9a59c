"""The Compare view in the browser (issue 38): a second file uploaded beside the first, the two
runs as two timelines side by side, aligned pair by pair, the first divergence on top and its
row marked; the Repair tab's "show changes" is the same view of the repaired file against its
original."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect
from support import loop_shapes

from .conftest import SAMPLES, open_sample, rerun, upload

TL = '[data-testid="timeline"]'


def test_compare_a_second_upload_shows_the_first_divergence_and_the_aligned_calls(app_page):
    page = app_page
    a = loop_shapes.paginated_search(4)
    b = json.loads(json.dumps(a).replace('"call_', '"r2_call_'))
    b[6]["content"] = json.dumps({"page": 3, "hits": []})  # page 3 answered otherwise
    upload(page, name="run1.json", data=json.dumps(a).encode())
    expect(page.locator(TL)).to_have_count(1, timeout=90_000)
    with rerun(page):
        page.get_by_role("tab", name="Compare").click()
    inp = page.locator(".st-key-compare_upload input[type=file]")
    with rerun(page):
        inp.set_input_files(files=[{"name": "run2.json", "mimeType": "application/json",
                                    "buffer": json.dumps(b).encode()}])
    box = page.locator(".st-key-compare_divergence")
    expect(box).to_contain_text("First divergence: A #5, B #5: 'search' with the same arguments is answered "
                                "differently", timeout=60_000)
    expect(box).to_contain_text("3 same, 0 other arguments, 1 answered differently, 0 added, 0 removed")
    # two timelines side by side, aligned pair by pair: A's cards left, B's right, one row per turn
    view = page.locator('[data-testid="compare-timelines"]')
    expect(view).to_be_visible(timeout=60_000)
    expect(view).to_contain_text("run1.json")
    expect(view).to_contain_text("run2.json")
    pairs = view.locator('[data-testid="compare-pair"]')
    expect(pairs).to_have_count(5)  # the task, then the four calls with their results
    for k in range(5):
        a_cards = pairs.nth(k).locator(".cmp-a [data-msg-index]")
        b_cards = pairs.nth(k).locator(".cmp-b [data-msg-index]")
        expect(a_cards.first).to_be_visible()
        expect(b_cards.first).to_be_visible()
        # the pair stands level: each side's first card starts at the same height
        ya, yb = a_cards.first.bounding_box()["y"], b_cards.first.bounding_box()["y"]
        assert abs(ya - yb) < 2, (k, ya, yb)
        assert a_cards.first.get_attribute("data-msg-index") == b_cards.first.get_attribute("data-msg-index")
    # the calls are drawn as the timeline draws them: a call chip on the call, a result chip on its reply
    row = pairs.nth(3)
    expect(row.locator(".cmp-a .chip.call")).to_contain_text("search")
    expect(row.locator(".cmp-b .chip.result")).to_contain_text("search")
    # the difference is marked on its row, with the first divergence's badge; the others are not
    expect(row).to_have_attribute("data-status", "answered_differently")
    expect(row).to_have_class(re.compile(r"\bdiffers\b"))
    expect(row.locator(".cmp-badge")).to_have_text("first divergence")
    expect(row.locator('[data-call-status="answered_differently"]')).to_contain_text("search")
    expect(view.locator(".cmp-row.differs")).to_have_count(1)
    expect(row.locator(".cmp-b .card-text").last).to_have_text('{"page": 3, "hits": []}')  # text as text
    expect(row).to_be_in_viewport()
    # the aligned calls are a table too, under an expander
    page.get_by_text("The aligned calls as a table").click()
    expect(page.locator(".st-key-compare_aligned [role=row]")).to_have_count(5)  # header + 4 calls


def test_the_repair_tab_shows_its_changes_in_the_compare_view(app_page):
    page = app_page
    open_sample(page, "missing_tool_reply")
    with rerun(page):
        page.get_by_role("tab", name="Repair").click()
    with rerun(page):
        page.get_by_text("Show changes call by call").click()
    box = page.locator(".st-key-repair_compare_divergence")
    expect(box).to_contain_text("answered differently", timeout=60_000)
    expect(box).to_contain_text("TC001")
    # the same two timelines: the original left, the repaired file right, the repaired call marked
    view = page.locator('.st-key-repair_compare_timelines [data-testid="compare-timelines"]')
    expect(view.locator('[data-first-divergence="1"]')).to_have_count(1, timeout=60_000)
    expect(view.locator('[data-first-divergence="1"] .cmp-b [data-msg-index]').first).to_be_visible()
    assert SAMPLES.exists()
