"""The Compare view in the browser (issue 38): a second file uploaded beside the first, the two
runs aligned call by call with the first divergence on top; the Repair tab's "show changes"
is the same view of the repaired file against its original."""

from __future__ import annotations

import json

from playwright.sync_api import expect
from support import loop_shapes

from .conftest import SAMPLES, open_sample, upload, wait_idle

TL = '[data-testid="timeline"]'


def test_compare_a_second_upload_shows_the_first_divergence_and_the_aligned_calls(app_page):
    page = app_page
    a = loop_shapes.paginated_search(4)
    b = json.loads(json.dumps(a).replace('"call_', '"r2_call_'))
    b[6]["content"] = json.dumps({"page": 3, "hits": []})  # page 3 answered otherwise
    upload(page, name="run1.json", data=json.dumps(a).encode())
    expect(page.locator(TL)).to_have_count(1, timeout=90_000)
    page.get_by_role("tab", name="Compare").click()
    wait_idle(page)
    inp = page.locator(".st-key-compare_upload input[type=file]")
    inp.set_input_files(files=[{"name": "run2.json", "mimeType": "application/json",
                                "buffer": json.dumps(b).encode()}])
    wait_idle(page)
    box = page.locator(".st-key-compare_divergence")
    expect(box).to_contain_text("First divergence: A #5, B #5: 'search' with the same arguments is answered "
                                "differently", timeout=60_000)
    expect(box).to_contain_text("3 same, 0 other arguments, 1 answered differently, 0 added, 0 removed")
    # the aligned calls, one row each (the grid draws its cells on a canvas: its row count is read)
    expect(page.locator(".st-key-compare_aligned [data-testid=stDataFrame]")).to_be_visible()
    expect(page.locator(".st-key-compare_aligned [role=row]")).to_have_count(5)  # header + 4 calls


def test_the_repair_tab_shows_its_changes_in_the_compare_view(app_page):
    page = app_page
    open_sample(page, "missing_tool_reply")
    page.get_by_role("tab", name="Repair").click()
    wait_idle(page)
    page.get_by_text("Show changes call by call").click()
    wait_idle(page)
    box = page.locator(".st-key-repair_compare_divergence")
    expect(box).to_contain_text("answered differently", timeout=60_000)
    expect(box).to_contain_text("TC001")
    assert SAMPLES.exists()
