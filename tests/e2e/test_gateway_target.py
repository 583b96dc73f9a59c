"""The app offers the destinations a gateway reaches with an OpenAI-format history (issue 31): a body
whose model names a gateway prefix opens on that destination, named "through a gateway" in the
Target box and the badge, with the destination's own words."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import rerun, upload


def _drift():
    """tests/rules/test_provider_drift.py, as pytest imports it (by its file name): its GATEWAY_HISTORY
    is the history these tests upload, so the browser and the library are held to one input."""
    name = "test_provider_drift"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).parents[1] / "rules" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


HISTORY = _drift().GATEWAY_HISTORY


@pytest.mark.parametrize(("model", "destination", "words"), [
    # the destination's own words, with its own index (the system message left the list), and the
    # evidence beside them, as text
    pytest.param("anthropic/claude-sonnet-4-5", "anthropic",
                 ["messages.1: `tool_use` ids were found without `tool_result` blocks",
                  "Evidence: protocol-research.md §3.3"], id="claude"),
    # the half-answered parallel calls, in Gemini's words (LiteLLM), on the file's own message and call id
    pytest.param("gemini/gemini-2.5-pro", "gemini",
                 [("Please ensure that the number of function response parts is equal to the number "
                   "of function call parts of the function call turn."), "call_2"], id="gemini"),
])
def test_a_history_through_a_gateway_opens_on_its_destination_with_its_words(app_page, model, destination, words):
    page = app_page
    upload(page, name="litellm.json", data=json.dumps({"model": model, "messages": HISTORY}).encode())
    target = page.locator('[data-testid="stSelectbox"]').filter(has_text="Target")
    expect(target).to_match_aria_snapshot(f'- combobox "Target": {destination} (through a gateway)')
    expect(page.locator(".st-key-file_row")).to_contain_text("through a gateway")
    with rerun(page):
        page.locator('[data-testid="timeline"] [data-msg-index="2"]').first.click()
    detail = page.locator(".st-key-detail")
    for text in words:
        expect(detail).to_contain_text(text)
