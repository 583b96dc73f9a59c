"""Finding, following and navigating a long transcript in the browser (issue 12): search, chip →
result → call, next/previous finding, keys across a page boundary, jumps into view, the
bounded detail pane and the URL."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from .conftest import load, rerun, upload
from .share_pages import open_share

TL = '[data-testid="timeline"]'


def call(cid, name, **args):
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def agent_log(rounds: int = 340, orphan_at: int | None = 500) -> list:
    """user, then rounds of assistant(bash call) → tool result; one stray result to have a finding."""
    items = [{"role": "user", "content": "fix the bug"}]
    for k in range(rounds):
        cmd = "git diff" if k == 250 else f"ls dir{k}"
        items.append({"role": "assistant", "content": None, "tool_calls": [call(f"call_{k:04d}", "bash", command=cmd)]})
        items.append({"role": "tool", "tool_call_id": f"call_{k:04d}", "content": f"output {k}"})
    if orphan_at is not None:
        items.insert(orphan_at, {"role": "tool", "tool_call_id": "call_nowhere", "content": "stray"})
    return items


def load_log(page, items=None, name="agent.json"):
    upload(page, name=name, data=json.dumps(items or agent_log()).encode())
    page.locator(f'{TL} [data-msg-index="0"]').wait_for()


def selected(page):
    return page.locator(f"{TL} .card.selected")


def in_viewport(page, loc) -> bool:
    box = loc.bounding_box()
    vh = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= vh


def test_call_chips_show_their_first_argument(app_page):
    """188 bash calls are told apart: each chip shows its command."""
    page = app_page
    load_log(page)
    chip = page.locator(f'{TL} [data-msg-index="1"] .chip.call')
    expect(chip.locator(".chip-arg")).to_have_text("ls dir0")


def test_search_lists_marks_and_steps_across_pages(app_page):
    """Typing a command finds the one call on page 2, marks it in the overview and selects it."""
    page = app_page
    load_log(page)
    box = page.locator(f"{TL} input.tl-search")
    box.fill("git diff")
    box.press("Enter")
    expect(page.locator(f'{TL} .card.hit.selected')).to_have_count(1)
    assert "git diff" in page.locator(f"{TL} .card.selected .chip-arg").inner_text()
    expect(page.locator(f"{TL} [data-testid=search-matches] [data-match]")).to_have_count(1)
    expect(page.locator(f"{TL} .tl-overview [data-hit]")).to_have_count(1)
    expect(page.locator(".st-key-detail")).to_contain_text("git diff")
    # A query matching many: Enter steps forward, Shift+Enter back, across pages.
    box = page.locator(f"{TL} input.tl-search")
    box.fill("dir2")
    box.press("Enter")
    count = page.locator(f"{TL} [data-testid=search-count]")
    expect(count).to_contain_text(" of 110")
    k = int(count.inner_text().split()[0])
    page.locator(f"{TL} input.tl-search").press("Enter")
    expect(count).to_have_text(f"{k + 1} of 110")
    page.locator(f"{TL} input.tl-search").press("Shift+Enter")
    expect(count).to_have_text(f"{k} of 110")


def test_chip_goes_to_result_and_back_to_call(app_page):
    page = app_page
    load_log(page)
    page.locator(f'{TL} [data-msg-index="3"] .chip.call').click()
    expect(page.locator(f'{TL} [data-msg-index="4"].selected')).to_have_count(1)
    expect(page.locator(".st-key-detail h3")).to_have_text("Message #4")
    page.locator(f'{TL} [data-msg-index="4"] .chip.result').click()
    expect(page.locator(f'{TL} [data-msg-index="3"].selected')).to_have_count(1)
    expect(page.locator(".st-key-detail h3")).to_have_text("Message #3")


def test_a_connector_leads_to_its_other_end(app_page):
    page = app_page
    load_log(page, agent_log(5, None))
    page.locator(f'{TL} [data-msg-index="3"] .card-head').click()
    line = page.locator(f'{TL} path[data-link="call_0001"]')
    line.dispatch_event("click")
    expect(page.locator(f'{TL} [data-msg-index="4"].selected')).to_have_count(1)
    line.dispatch_event("click")
    expect(page.locator(f'{TL} [data-msg-index="3"].selected')).to_have_count(1)


def test_next_and_previous_finding_keys(app_page):
    """n goes to the next message with a finding, in transcript order, on another page if need be."""
    page = app_page
    items = agent_log()
    items.insert(40, {"role": "tool", "tool_call_id": "call_early", "content": "stray early"})
    load_log(page, items)
    page.locator(f'{TL} [data-msg-index="0"] .card-head').click()
    page.keyboard.press("n")
    expect(page.locator(f'{TL} [data-msg-index="40"].selected')).to_have_count(1)
    page.keyboard.press("n")
    expect(page.locator(f'{TL} [data-msg-index="501"].selected')).to_have_count(1)
    expect(page.locator(".st-key-detail h3")).to_have_text("Message #501")
    page.keyboard.press("p")
    expect(page.locator(f'{TL} [data-msg-index="40"].selected')).to_have_count(1)


def test_keys_keep_working_across_the_page_boundary(app_page):
    """j from #298 to #302: the page turns at #300 and the keys go on working."""
    page = app_page
    load_log(page)
    card = page.locator(f'{TL} [data-msg-index="298"] .card-head')
    card.scroll_into_view_if_needed()
    card.click()
    for _ in range(4):
        with rerun(page):  # each step's run ends before the next key
            page.keyboard.press("j")
    expect(page.locator(f'{TL} [data-msg-index="302"].selected')).to_have_count(1)
    expect(page.locator(".st-key-detail h3")).to_have_text("Message #302")
    page.keyboard.press("k")
    expect(page.locator(f'{TL} [data-msg-index="301"].selected')).to_have_count(1)
    page.keyboard.press("Home")
    expect(page.locator(f'{TL} [data-msg-index="0"].selected')).to_have_count(1)
    page.keyboard.press("End")
    expect(page.locator(f'{TL} [data-msg-index="681"].selected')).to_have_count(1)


def test_question_mark_shows_the_keys(app_page):
    page = app_page
    load_log(page, agent_log(5, None))
    page.locator(f'{TL} [data-msg-index="0"] .card-head').click()
    expect(page.locator(f"{TL} [data-testid=keys-help]")).to_be_hidden()
    page.keyboard.press("?")
    expect(page.locator(f"{TL} [data-testid=keys-help]")).to_be_visible()
    expect(page.locator(f"{TL} [data-testid=keys-help]")).to_contain_text("next / previous finding")


def test_slash_focuses_search(app_page):
    page = app_page
    load_log(page, agent_log(5, None))
    page.locator(f'{TL} [data-msg-index="0"] .card-head').click()
    page.keyboard.press("/")
    page.keyboard.type("dir3")
    page.keyboard.press("Enter")
    expect(page.locator(f'{TL} [data-msg-index="7"].selected')).to_have_count(1)


def test_detail_pane_is_bounded_and_shows_the_text_once(app_page):
    """A 120 KB tool result: the head with real newlines and 'show all', not a 73,000 px page."""
    page = app_page
    big = "\n".join(f"line {k}: " + "x" * 100 for k in range(1_100))  # ~120 KB
    items = [
        {"role": "user", "content": "read it"},
        {"role": "assistant", "content": None, "tool_calls": [call("call_1", "cat", path="big.log")]},
        {"role": "tool", "tool_call_id": "call_1", "content": big},
    ]
    load_log(page, items, "bigresult.json")
    with rerun(page):  # the click's run has drawn the pane (a run still going may redraw it under the reads below)
        page.locator(f'{TL} [data-msg-index="2"] .card-head').click()
    detail = page.locator(".st-key-detail")
    expect(detail.locator("h3")).to_have_text("Message #2")
    expect(detail).to_contain_text("line 0: x")
    assert detail.bounding_box()["height"] < 2_500
    assert detail.inner_text().count("line 10: ") == 1  # the head once; "All fields" is collapsed and shortened
    expect(detail).not_to_contain_text("line 1099: ")
    with rerun(page):
        detail.get_by_text("Show all").click()
    expect(detail.locator("code").filter(has_text="line 1099: ")).to_have_count(1)
    assert detail.bounding_box()["height"] < 2_500


def test_pasted_error_box_sits_by_the_verdict_and_brings_the_message_into_view(app_page):
    """The box is above the timeline; a hit on page 2 is selected and scrolled into the viewport."""
    page = app_page
    page.set_viewport_size({"width": 1280, "height": 800})
    load_log(page)
    box = page.get_by_role("textbox", name="Paste the error you got")
    verdict = page.locator("[class*='st-key-verdict-']")
    assert box.bounding_box()["y"] < page.locator(TL).bounding_box()["y"]
    assert abs(box.bounding_box()["y"] - verdict.bounding_box()["y"]) < 200
    box.fill("Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
             "with 'tool_calls'. param: messages.[500].role")
    with rerun(page):
        box.press("Control+Enter")
    card = page.locator(f'{TL} [data-msg-index="500"].selected')
    expect(card).to_have_count(1)
    expect(card).to_be_in_viewport()  # the jump's scroll follows the run's drawing
    assert in_viewport(page, card)


def test_pasted_error_says_when_an_id_is_not_in_the_file(app_page):
    page = app_page
    load_log(page, agent_log(5, None))
    box = page.get_by_role("textbox", name="Paste the error you got")
    box.fill("unexpected `tool_use_id` found in `tool_result` blocks: toolu_0123456789abcdef.")
    box.press("Control+Enter")
    expect(page.locator(".st-key-pasted_read")).to_contain_text("Not in this file: id toolu_0123456789abcdef")


def test_layout_fits_a_laptop_with_six_cards_in_view(app_page):
    page = app_page
    page.set_viewport_size({"width": 1280, "height": 800})
    load_log(page)
    tl = page.locator(TL)
    tl.scroll_into_view_if_needed()
    page.locator(f'{TL} [data-msg-index="0"] .card-head').click()
    visible = page.evaluate("""() => {
      const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
      const sc = root.querySelector('.tl-scroll').getBoundingClientRect();
      return [...root.querySelectorAll('.card[data-msg-index]')].filter(c => {
        const r = c.getBoundingClientRect();
        return r.top >= Math.max(0, sc.top) && r.bottom <= Math.min(innerHeight, sc.bottom);
      }).length;
    }""")
    assert visible >= 6


def test_url_restores_the_view_on_reload_and_back(app_page):
    """A shared view's address follows the selection; reload and back/forward open the same place."""
    page = app_page
    load_log(page, agent_log(20, None), "urlview.json")
    page.locator(f'{TL} [data-msg-index="5"] .card-head').click()
    expect(page.locator(".st-key-detail h3")).to_have_text("Message #5")
    open_share(page)
    page.get_by_role("button", name="Create link").click()
    link = page.locator(".st-key-share_url code")
    expect(link).to_be_visible()
    url = link.inner_text().strip()
    assert "t=" in url
    load(page, url)
    expect(page.locator(f'{TL} [data-msg-index="5"].selected')).to_have_count(1)
    page.locator(f'{TL} [data-msg-index="9"] .card-head').click()
    expect(page.locator(".st-key-detail h3")).to_have_text("Message #9")
    page.wait_for_function("() => new URLSearchParams(location.search).get('m') === '9'")
    assert "target=openai" in page.url and "dialect=" not in page.url
    load(page)
    expect(page.locator(f'{TL} [data-msg-index="9"].selected')).to_have_count(1)
    expect(page.locator(".st-key-detail h3")).to_have_text("Message #9")
    page.go_back()
    expect(page.locator(".st-key-detail h3")).to_have_text("Message #5")
    expect(page.locator(f'{TL} [data-msg-index="5"].selected')).to_have_count(1)


def test_findings_only_toggle_reads_whole_and_keeps_only_findings(app_page):
    """The filter's label is not cut at 1280 px (Streamlit ellipsises a label that does not fit), and
    switching it on leaves the one message with a finding (the stray result) on the timeline; the
    others are dimmed."""
    page = app_page
    page.set_viewport_size({"width": 1280, "height": 800})
    load_log(page)
    toggle = page.get_by_test_id("stCheckbox").filter(has_text="Findings only")
    label = toggle.get_by_test_id("stMarkdownContainer").first
    expect(label).to_have_text("Findings only")
    assert label.evaluate("e => e.scrollWidth <= e.clientWidth"), "the toggle's label is truncated"
    toggle.locator("label").first.click()
    expect(page.locator(f"{TL} .tl-filtered")).to_have_text("filtered: 1 shown")
    shown = page.locator(f"{TL} .card[data-msg-index]:not(.filtered)")
    expect(shown).to_have_count(1)
    expect(shown.first).to_have_attribute("data-msg-index", "500")


def test_a_tool_that_failed_is_marked_where_its_format_says_so(app_page):
    """Bedrock says a tool failed with ``status: "error"`` on its toolResult, Anthropic with
    ``is_error``: the dialect the file is read as answers, and the card, its chip and the detail
    pane say so; a result that did not fail says nothing of the kind."""
    page = app_page
    use = [{"toolUse": {"toolUseId": "t1", "name": "read", "input": {"path": "a"}}},
           {"toolUse": {"toolUseId": "t2", "name": "read", "input": {"path": "b"}}}]
    items = [{"role": "user", "content": [{"text": "read a and b"}]},
             {"role": "assistant", "content": use},
             {"role": "user", "content": [
                 {"toolResult": {"toolUseId": "t1", "content": [{"text": "no such file"}], "status": "error"}},
                 {"toolResult": {"toolUseId": "t2", "content": [{"text": "b's text"}], "status": "success"}}]},
             {"role": "assistant", "content": [{"text": "a is missing"}]}]
    load_log(page, items, name="bedrock.json")
    card = page.locator(f'{TL} [data-msg-index="2"]')
    expect(card.locator(".mark.exec-error")).to_have_count(1)
    expect(card.locator(".chip.result.failed")).to_have_attribute("data-pos", "0")  # t1, not t2
    expect(card.locator(".chip.result:not(.failed)")).to_have_attribute("data-goto", "1")
    card.locator(".card-head").click()
    expect(page.locator(".st-key-detail")).to_contain_text("the tool reported an error when it ran")
    expect(page.locator(f'{TL} [data-msg-index="1"] .mark.exec-error')).to_have_count(0)
