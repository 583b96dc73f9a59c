"""The page keeps your place and never misleads (issue 24): a new file starts clean, fit never
offers a file the target rejects, the provider's words are labelled, refusals show in the main
panel. One behaviour per test, each one that failed before the change."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

import inspector

from .conftest import SAMPLES, open_sample, upload, wait_idle

TL = '[data-testid="timeline"]'
ANTHROPIC = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": "list the files"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01A", "name": "bash",
                                           "input": {"command": "ls"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "a.txt"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01B", "name": "bash",
                                           "input": {"command": "cat a.txt"}}]},
        {"role": "user", "content": "and?"},
    ],
}
ANTHROPIC_ERROR = ("messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: "
                   "toolu_01B. Each `tool_use` block must have a corresponding `tool_result` block in the next message.")


def test_a_second_upload_and_a_sample_start_clean(app_page):
    """Pasted error, search, selection, fit budget: the next file starts without them, and a sample
    click empties the uploader."""
    page = app_page
    upload(page, name="anthropic.json", data=json.dumps(ANTHROPIC).encode())
    box = page.get_by_role("textbox", name="Paste the error you got")
    box.fill(ANTHROPIC_ERROR)
    box.press("Control+Enter")
    wait_idle(page)
    expect(page.locator(f'{TL} [data-msg-index="3"].selected')).to_have_count(1)
    search = page.locator(f"{TL} input.tl-search")
    search.fill("bash")
    search.press("Enter")
    wait_idle(page)
    expect(page.get_by_test_id("search-count")).not_to_have_text("")
    page.get_by_role("tab", name="Repair").click()
    wait_idle(page)
    budget = page.get_by_role("spinbutton", name="Budget (tokens)")
    budget.fill("128000")
    budget.press("Enter")
    wait_idle(page)

    upload(page, SAMPLES / "missing_tool_reply.json")
    expect(page.locator(".st-key-filename")).to_contain_text("missing_tool_reply.json")
    pasted = page.get_by_role("textbox", name="Paste the error you got")
    expect(pasted).to_have_count(1)  # the previous run's box is gone
    expect(pasted).to_have_value("")
    expect(page.locator(".st-key-pasted_read")).to_have_count(0)
    expect(page.locator(TL)).to_have_count(1)
    expect(page.locator(f"{TL} input.tl-search")).to_have_value("")
    expect(page.locator(f"{TL} .card.selected")).to_have_count(0)
    expect(page.locator(".st-key-detail h3")).to_have_text("Message details")
    page.get_by_role("tab", name="Repair").click()
    wait_idle(page)
    expect(page.get_by_role("spinbutton", name="Budget (tokens)")).to_have_value("")
    expect(page.locator(".st-key-context_view")).not_to_contain_text("Budget")

    open_sample(page, "clean_parallel_calls")
    expect(page.locator(".st-key-filename")).to_contain_text("clean_parallel_calls.json")
    side = page.get_by_test_id("stSidebar")
    expect(side.get_by_test_id("stFileUploaderFile")).to_have_count(0)  # not the previous upload


def test_fit_on_a_broken_file_never_offers_a_rejected_file(app_page):
    """The file has errors: said before the fit; repair-then-fit is on by default and its download
    checks clean; switched off, no fitted file is offered at all."""
    page = app_page
    open_sample(page, "missing_tool_reply")
    page.get_by_role("tab", name="Repair").click()
    wait_idle(page)
    notice = page.locator(".st-key-fit_input_errors")
    expect(notice).to_contain_text("error(s) that openai rejects")
    # Defaults keep the system prompt and the task.
    expect(page.get_by_role("switch", name="Keep system")).to_be_checked()
    expect(page.get_by_role("switch", name="Keep first user")).to_be_checked()
    budget = page.get_by_role("spinbutton", name="Budget (tokens)")
    budget.fill("128000")
    budget.press("Enter")
    wait_idle(page)
    expect(page.locator(".st-key-fit_counts")).to_contain_text("Errors after")
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download fitted JSON").click()
    with open(dl.value.path(), "rb") as f:
        assert inspector.check(f.read(), "openai").ok

    notice.get_by_text("Repair, then fit (one step)").click()
    wait_idle(page)
    expect(page.locator(".st-key-fit_rejected")).to_contain_text("No fitted file to download")
    expect(page.get_by_role("button", name="Download fitted JSON")).to_have_count(0)


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the select box labelled ``label``."""
    page.get_by_test_id("stSelectbox").filter(has_text=label).locator("input").click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_idle(page)


def test_the_providers_words_come_first_and_labelled(app_page):
    """In the detail pane, "openai says:" and the provider's text come before anything else; the
    findings table's picked row shows them whole below it."""
    page = app_page
    open_sample(page, "missing_tool_reply")
    page.locator(f'{TL} [data-msg-index="2"] .card-head').click()
    wait_idle(page)
    detail = page.locator(".st-key-detail")
    says = detail.locator(".st-key-says-detail-0")
    expect(says).to_contain_text("openai says:")
    expect(says.locator("code")).to_contain_text("tool_call_id")
    role = detail.get_by_text("role: assistant", exact=True)
    assert says.bounding_box()["y"] < role.bounding_box()["y"]

    expect(page.locator(".st-key-finding_picked .st-key-says-table-0")).to_contain_text("openai says:")
    # No horizontal scrolling to reach them: the grid is no wider than its box.
    assert page.evaluate("""() => { const g = document.querySelector('.st-key-findings .dvn-scroller');
        return !g || g.scrollWidth <= g.clientWidth + 1; }""")


def test_refusals_show_in_the_main_panel_with_an_excerpt(app_page):
    """A YAML upload and a garbage paste: the main panel names the file and shows what was there."""
    page = app_page
    open_sample(page, "missing_tool_reply")
    upload(page, name="agent.yaml", data=b"messages:\n  - role: user\n    content: hi\n")
    err = page.locator(".st-key-input_error")
    expect(err).to_contain_text("Could not read agent.yaml")
    expect(err).to_contain_text("A .yaml file: the inspector reads JSON, JSON Lines and HAR")
    expect(err.locator("code")).to_contain_text("messages:")
    expect(page.locator(TL)).to_have_count(0)  # not the previous file's view

    side = page.get_by_test_id("stSidebar")
    side.get_by_text("Paste JSON").click()
    side.get_by_role("textbox", name="Transcript JSON").fill('{"messages": [oops]}')
    side.get_by_role("button", name="Inspect pasted JSON").click()
    wait_idle(page)
    expect(err).to_contain_text("line 1 column 15")
    expect(err.locator("code")).to_contain_text('{"messages": [oops]}')
    expect(err.locator("code")).to_contain_text("^")


def test_a_wrong_dialect_keeps_the_view_and_a_target_change_says_what_changed(app_page):
    page = app_page
    items = json.loads((SAMPLES / "missing_tool_reply.json").read_text())
    upload(page, name="body.json", data=json.dumps({"model": "gpt-4o", "messages": items}).encode())
    reason = page.locator(".st-key-target_reason")
    expect(reason).to_contain_text("Target openai: the request's model")
    choose(page, "Dialect", "langchain")
    refused = page.locator(".st-key-dialect_refused")
    expect(refused).to_contain_text("Not read as langchain")
    expect(refused).to_contain_text("Dialect box")
    expect(refused).not_to_contain_text("--from")
    expect(page.locator(TL)).to_have_count(1)  # the last good view stays

    choose(page, "Target", "mistral")
    expect(page.locator(".st-key-view_change")).to_contain_text("After target openai → mistral: for Mistral")
    # Where the target came from is still said, and that it was overridden.
    expect(reason).to_contain_text("Target mistral: chosen here, overriding openai (the request's model")


CONTRAST = (Path(__file__).parent / "contrast.js").read_text()
# Buttons, tabs, labels, badges and the timeline's own controls whose text is cut (an ellipsis or
# clipped): scrollWidth > clientWidth on the element or a text box inside it. Shadow roots too.
CUT = """() => {
  const out = [];
  const sel = 'button, [role=tab], label, [data-testid=stBadge], .tl-btn, .chip-name, .tl-key, .tl-help-row';
  function walk(root) {
    for (const e of root.querySelectorAll(sel)) {
      if (!e.getBoundingClientRect().width) continue;
      for (const c of [e, ...e.querySelectorAll('p, span, div')]) {
        if (c.clientWidth > 2 && c.scrollWidth > c.clientWidth + 1 && c.getClientRects().length) {
          out.push((e.innerText || '').slice(0, 40) + ' | ' + c.scrollWidth + ' > ' + c.clientWidth); break;
        }
      }
    }
    for (const k of root.querySelectorAll('.tl-help-row')) {
      const [key, what] = k.children;
      if (key.getBoundingClientRect().right > what.getBoundingClientRect().left) out.push('key runs into: ' + key.textContent);
    }
    for (const h of root.querySelectorAll('*')) if (h.shadowRoot) walk(h.shadowRoot);
  }
  walk(document);
  return out;
}"""


def test_nothing_is_cut_at_1280x720(app_page):
    """Buttons ("Show #3"), tabs, labels, badges, the timeline's header, chips and key help."""
    page = app_page
    page.set_viewport_size({"width": 1280, "height": 720})
    open_sample(page, "har_capture_openai_400")  # opens on the refused request, its error read
    expect(page.locator(".st-key-pasted_read").get_by_role("button", name="Show #3")).to_be_visible()
    page.locator(f"{TL} [data-nav=help]").click()
    expect(page.get_by_test_id("keys-help")).to_be_visible()
    assert page.evaluate(CUT) == []
    open_sample(page, "parallel_half_answered")
    expect(page.locator(f"{TL} .chip-name").first).to_be_visible()
    assert page.evaluate(CUT) == []


def test_timeline_text_measures_at_least_4_5_to_1(app_page):
    """Every piece of text in the timeline (index, role, legend, rule codes, ghost cards, chips),
    from its computed colour over its computed background."""
    page = app_page
    for stem in ("parallel_half_answered", "duplicate_tool_reply"):
        open_sample(page, stem)
        expect(page.locator(f"{TL} .card").first).to_be_visible()
        low = [x for x in page.evaluate(CONTRAST) if x[2] < 4.5]
        assert low == [], (stem, low)


def _records() -> bytes:
    call = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    good = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"}, {"role": "assistant", "content": "done"}]
    orphan = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "call_9", "content": "x"}]
    recs = [{"id": f"rec-{k}", "messages": orphan if k in (2, 4) else good} for k in range(6)]
    return b"".join(json.dumps(r).encode() + b"\n" for r in recs)


def test_dataset_row_click_opens_next_walks_the_table_and_back_keeps_filter_and_sort(app_page):
    page = app_page
    upload(page, name="train.jsonl", data=_records())
    grid = page.locator(".st-key-ds_table [data-testid=stDataFrameResizable]")
    grid.click(position={"x": grid.bounding_box()["width"] / 2, "y": 35 * 3 + 17})  # a cell of row #3
    wait_idle(page)
    expect(page.locator(TL)).to_have_count(1)
    expect(page.get_by_role("combobox", name="Transcript")).to_have_value(re.compile(r"^#3 of 6: rec-2 "))
    page.get_by_role("button", name="All 6 transcripts").click()
    wait_idle(page)

    sev = page.get_by_test_id("stButtonGroup").filter(has_text="clean")
    sev.get_by_role("button", name="clean").click()
    wait_idle(page)
    sev.get_by_role("button", name="warning").click()
    wait_idle(page)
    choose(page, "Sort by", "most messages")
    caption = page.get_by_text("transcripts shown.", exact=False)
    expect(caption).to_contain_text("2 of 6 transcripts shown")  # the two rejected ones
    page.get_by_role("button", name="Open transcript #3 in the timeline").click()
    wait_idle(page)
    expect(page.get_by_text("Transcript #3: 1 of 2 in the table")).to_be_visible()
    page.get_by_role("button", name=re.compile(r"^Next Shortcut")).click()
    wait_idle(page)
    expect(page.get_by_text("Transcript #5: 2 of 2 in the table")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Next Shortcut"))).to_be_disabled()
    page.keyboard.press("Alt+ArrowUp")  # previous, by key
    wait_idle(page)
    expect(page.get_by_text("Transcript #3: 1 of 2 in the table")).to_be_visible()

    page.get_by_role("button", name="All 6 transcripts").click()
    wait_idle(page)
    expect(caption).to_contain_text("2 of 6 transcripts shown")  # the filter is kept
    expect(page.get_by_role("combobox", name="Sort by")).to_have_value("most messages")
    expect(page.get_by_role("button", name="Open transcript #3 in the timeline")).to_be_visible()
    expect(page.locator(TL)).to_have_count(0)  # the kept highlight is not taken for a click
