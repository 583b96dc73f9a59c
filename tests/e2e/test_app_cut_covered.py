"""Cut and covered, contrast and explanations (issue 36, second pass), at 1440x900 and 1280x720:

- text the canvas grids cut is read whole: the Repair tab's change log and the Share panel's
  "after masking" preview show the clicked row (the first until one is) whole below the grid;
- the uploader's chip shows a long file name whole;
- a table's hover toolbar does not cover "Sort by" (the dataset view) or "Rule code" (Findings);
- every piece of text on the page measures 4.5:1 or better (icons 3:1): the welcome page, the
  sidebar, a transcript with its tabs (Findings, Repair, Fit), badges and timeline, the dataset
  view and the team inbox;
- the Target box says why a target is not offered, in the engine's words;
- a folded turn names the rule codes (and counts) of the findings inside it.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

import inspector
from inspector.checking import check_document, not_offered
from inspector.render import TimelineModel
from inspector.sharing.redact import Redactor, context

from .conftest import SAMPLES, load, open_sample, open_tab, rerun, upload
from .share_pages import open_share
from .test_app_keeps_place import DATASET

TL = '[data-testid="timeline"]'
SIZES = [pytest.param((1440, 900), id="1440x900"), pytest.param((1280, 720), id="1280x720")]
CONTRAST = (Path(__file__).parent / "contrast.js").read_text()  # with "page": all of it
# A box's text laid out whole: no element inside it wider than its box (nothing clipped or ellipsed).
WHOLE = """(sel) => { const box = document.querySelector(sel); if (!box) return ['no ' + sel];
  return [...box.querySelectorAll('*')].filter(e => e.clientWidth > 2 && e.scrollWidth > e.clientWidth + 1)
    .map(e => (e.textContent || '').slice(0, 40) + ' | ' + e.scrollWidth + ' > ' + e.clientWidth); }"""
LONG_NAME = "search_the_internal_knowledge_base_for_matching_documents_v2"
MISSING = [{"role": "user", "content": "go"},
           {"role": "assistant", "content": None, "tool_calls": [
               {"id": "call_" + "x" * 60, "type": "function", "function": {"name": LONG_NAME, "arguments": "{}"}}]},
           {"role": "user", "content": "and?"}]


def sized(page, size) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})


def overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


# The app's own style sheet (inspector/ui/style.py) is on the page: a first run may be idle before it arrives.
STYLED = """() => [...document.styleSheets].some(s => { try { return [...s.cssRules].some(r => r.cssText.includes('stFileChipName')); }
  catch (e) { return false; } })"""

SETTLED = """() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'
  && !document.querySelector('[data-stale=true]')"""


def low_contrast(page) -> list:
    """Text under 4.5:1, icons (Material Symbols ligatures) under 3:1 (WCAG 1.4.11)."""
    page.wait_for_function(STYLED)
    page.wait_for_function(SETTLED)  # a rerun's stale elements are drawn faded: measure the page drawn
    return [x for x in page.evaluate(CONTRAST, "page") if x[2] < (3 if "stIconMaterial" in x[0] else 4.5)]


@pytest.mark.parametrize("size", SIZES)
def test_the_change_log_reads_each_change_whole(app_page, size):
    page = app_page
    sized(page, size)
    upload(page, name="long_ids.json", data=json.dumps(MISSING).encode())
    with rerun(page):
        page.get_by_role("tab", name="Repair").click()
    changes = inspector.repair(MISSING).report.changes
    assert len(changes) >= 2 and all(len(c.text) > 150 for c in changes)
    whole = page.locator(".st-key-repair_changes_whole")
    expect(whole).to_contain_text("change: " + changes[0].text)  # the first until one is clicked
    expect(whole.get_by_text(changes[0].text, exact=False)).to_be_visible()
    assert page.evaluate(WHOLE, ".st-key-repair_changes_whole") == []
    grid = page.locator(".st-key-repair_changes [data-testid=stDataFrameResizable]")
    grid.scroll_into_view_if_needed()
    grid.click(position={"x": 200, "y": 36 + 35 + 17})  # a cell of the second change
    expect(whole).to_contain_text("change: " + changes[1].text)
    expect(whole).to_contain_text(changes[1].code)
    page.screenshot(path=f"/tmp/i36-changes-{size[0]}.png")


@pytest.mark.parametrize("size", SIZES)
def test_the_masking_preview_reads_whole(app_page, size):
    page = app_page
    sized(page, size)
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8" * 3
    items = [{"role": "user", "content": "deploy with the key " + key + " on the staging cluster, then report the "
                                         "status of every service and the version it runs"},
             {"role": "assistant", "content": "done"}]
    data = json.dumps(items).encode()
    upload(page, name="with_secret.json", data=data)
    open_share(page)
    found = Redactor.from_env().scan(data)
    assert found
    around = context(data.decode(), found[0])
    whole = page.locator(".st-key-share_secrets_whole")
    expect(whole).to_contain_text("after masking: " + around)
    expect(whole).to_contain_text(found[0].kind)
    assert key not in whole.inner_text()  # the preview is masked
    assert page.evaluate(WHOLE, ".st-key-share_secrets_whole") == []
    page.screenshot(path=f"/tmp/i36-masking-{size[0]}.png")


CHIP = """() => [...document.querySelectorAll('[data-testid=stFileChipName]')].map(e => {
  const r = e.getBoundingClientRect(), side = document.querySelector('[data-testid=stSidebar]').getBoundingClientRect();
  return {shown: getComputedStyle(e, '::after').content, cut: e.scrollWidth > e.clientWidth + 1,
          inside: r.right <= side.right && r.width > 0}; })"""


@pytest.mark.parametrize("size", SIZES)
def test_the_uploader_chip_shows_the_file_name_whole(app_page, size):
    page = app_page
    sized(page, size)
    name = "agent_run_2026-11-27_customer-support-evaluation_batch-07_retry-3.json"
    upload(page, name=name, data=json.dumps(MISSING).encode())
    (chip,) = page.evaluate(CHIP)
    assert chip == {"shown": json.dumps(name), "cut": False, "inside": True}, chip
    page.get_by_test_id("stSidebar").screenshot(path=f"/tmp/i36-chip-{size[0]}.png")


@pytest.mark.parametrize("size", SIZES)
def test_a_table_toolbar_covers_no_box(app_page, size):
    page = app_page
    sized(page, size)
    upload(page, name="runs.jsonl", data=DATASET)
    for table, label in ((".st-key-ds_table", "Sort by"),):
        grid = page.locator(f"{table} [data-testid=stDataFrameResizable]")
        grid.scroll_into_view_if_needed()
        grid.hover()
        bar = page.locator(f"{table} [data-testid=stElementToolbar]")
        expect(bar).to_be_visible()
        box = page.get_by_test_id("stSelectbox").filter(has_text=label)
        assert not overlap(bar.bounding_box(), box.bounding_box()), (label, bar.bounding_box(), box.bounding_box())
    open_sample(page, "parallel_half_answered")
    grid = page.locator(".st-key-findings [data-testid=stDataFrameResizable]")
    grid.scroll_into_view_if_needed()
    grid.hover()
    bar = page.locator(".st-key-findings [data-testid=stElementToolbar]")
    expect(bar).to_be_visible()
    box = page.get_by_test_id("stMultiSelect").filter(has_text="Rule code")
    assert not overlap(bar.bounding_box(), box.bounding_box()), (bar.bounding_box(), box.bounding_box())


@pytest.mark.parametrize("size", SIZES)
def test_every_text_on_the_page_measures_at_least_4_5_to_1(own_page, app_server, size):
    # A fresh context of its own (own_page) listening from its first request on: in the session's
    # shared context the scripts come from cache.
    page = own_page
    outside: list[str] = []
    page.context.on("request", lambda r: None if urlparse(r.url).hostname in (None, "127.0.0.1")
                    else outside.append(r.url))
    sized(page, size)
    load(page, app_server + "/")
    assert low_contrast(page) == [], "welcome"
    open_sample(page, "har_capture_openai_400")  # badges, the pasted error read, the verdict
    assert low_contrast(page) == [], "transcript"
    for tab, drawn in (("Repair", page.locator(".st-key-downloads")),
                       ("Fit", page.get_by_role("spinbutton", name="Budget (tokens)")),
                       ("Compare", page.get_by_role("textbox", name="…or a share link")),
                       ("Findings", page.locator(".st-key-findings"))):
        open_tab(page, tab)
        expect(drawn).to_be_visible()
        assert low_contrast(page) == [], tab
    open_sample(page, "parallel_half_answered")
    page.locator(f'{TL} [data-nav="fold"]').click()
    expect(page.locator(f"{TL} .fold-row").first).to_be_visible()
    assert low_contrast(page) == [], "folded"
    upload(page, name="runs.jsonl", data=DATASET)
    expect(page.locator(".st-key-dataset_summary")).to_be_visible()
    assert low_contrast(page) == [], "dataset view"
    with rerun(page):
        page.get_by_role("button", name="Team inbox").click()
    expect(page.get_by_role("heading", name="Team inbox")).to_be_visible()
    assert low_contrast(page) == [], "inbox"
    assert outside == []  # nothing asked of another host on the way


@pytest.mark.parametrize("size", SIZES)
def test_the_target_box_says_why_a_target_is_not_offered(app_page, size):
    page = app_page
    sized(page, size)
    open_sample(page, "missing_tool_reply")
    said = not_offered("openai-chat")
    assert said and "Responses API" in said
    note = page.locator(".st-key-target_not_offered")
    expect(note).to_have_text(said)
    target = page.get_by_test_id("stSelectbox").filter(has_text="Target").bounding_box()
    box = note.bounding_box()
    beside = box["x"] >= target["x"] + target["width"] and box["y"] + box["height"] <= target["y"] + target["height"] + 1
    under = box["y"] >= target["y"] + target["height"] - 1
    assert (beside or under) and box["y"] + box["height"] <= size[1], (box, target)


@pytest.mark.parametrize("size", SIZES)
def test_a_folded_turn_names_the_rule_codes_inside(app_page, size):
    page = app_page
    sized(page, size)
    open_sample(page, "parallel_half_answered")
    doc = inspector.load(SAMPLES / "parallel_half_answered.json")
    report, (a,) = check_document(doc)
    model = TimelineModel(a.msgs, a.pairing, report.findings, a.dialect)
    broken = [t for t in model.turns() if t.codes]
    assert broken
    page.locator(f'{TL} [data-nav="fold"]').click()
    for t in broken:
        row = page.locator(f'{TL} .fold-row[data-fold="{t.first}"]')
        expect(row).to_have_attribute("aria-expanded", "false")
        expect(row.locator(".fold-codes")).to_have_text(t.codes)
        expect(row.locator(".fold-codes")).to_be_visible()
        for f in report.findings:
            if t.first <= f.message_index <= t.last:
                assert f.code in t.codes
    page.screenshot(path=f"/tmp/i36-fold-codes-{size[0]}.png")
