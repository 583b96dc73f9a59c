"""The app offers the destinations a gateway reaches with an OpenAI-format history (issue 31): a body
whose model names a gateway prefix opens on that destination, named "through a gateway" in the
Target box and the badge, with the destination's own words."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from .conftest import upload, wait_idle

HISTORY = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "list the files"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}},
        {"id": "call_2", "type": "function", "function": {"name": "pwd", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "a.py"},
    {"role": "assistant", "content": "There is a.py."},
]


def test_a_history_for_claude_through_a_gateway_opens_on_that_destination(app_page):
    page = app_page
    upload(page, name="litellm.json",
           data=json.dumps({"model": "anthropic/claude-sonnet-4-5", "messages": HISTORY}).encode())
    wait_idle(page)
    target = page.locator('[data-testid="stSelectbox"]').filter(has_text="Target")
    expect(target).to_match_aria_snapshot('- combobox "Target": anthropic (through a gateway)')
    expect(page.locator(".st-key-file_row")).to_contain_text("through a gateway")
    page.locator('[data-testid="timeline"] [data-msg-index="2"]').first.click()
    wait_idle(page)
    detail = page.locator(".st-key-detail")
    # the destination's own words, with its own index (the system message left the list) ...
    expect(detail).to_contain_text("messages.1: `tool_use` ids were found without `tool_result` blocks")
    # ... and the evidence beside them, as text
    expect(detail).to_contain_text("Evidence: protocol-research.md §3.3")
