"""The page keeps your place and never misleads (issue 24): a new file starts clean, fit never
offers a file the target rejects, the provider's words are labelled, refusals show in the main
panel. One behaviour per test, each one that failed before the change."""

from __future__ import annotations

import json

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
    expect(page.get_by_role("textbox", name="Paste the error you got")).to_have_value("")
    expect(page.locator(".st-key-pasted_read")).to_have_count(0)
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
