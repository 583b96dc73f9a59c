"""Each format added in issue 11 opens from its sample and draws: cards, links, ghosts, markers.

The HAR capture opens on the entry whose recorded response was the provider's 400, reads that
error as a pasted one and selects the message it names."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import open_sample

TL = '[data-testid="timeline"]'
pytestmark = pytest.mark.e2e

CASES = [
    # stem, dialect badge, cards, finding code on a card (or None)
    ("agui_parallel_half_answered", "ag-ui", 6, "TC001"),
    ("vercel_ai_missing_tool_result", "vercel-ai", 4, "TC001"),
    ("vercel_ui_pending_tool_part", "vercel-ui", 3, "TC001"),
    ("pydantic_ai_history", "pydantic-ai", 6, None),
    ("otel_trace_export", "otel-genai", 3, None),  # the first span: 2 input messages, 1 output
]


def test_each_new_format_sample_draws(app_page):
    page = app_page
    for stem, dialect, cards, code in CASES:
        open_sample(page, stem)
        tl = page.locator(TL)
        expect(tl.locator("[data-msg-index]")).to_have_count(cards)
        expect(page.locator("body")).to_contain_text(dialect)  # the badge (the samples are named with spaces)
        if code:
            expect(tl.locator(f"[data-finding={code}]")).not_to_have_count(0)
            expect(tl.locator("[data-ghost-for]")).not_to_have_count(0)
    # Pydantic AI pairs its calls and results across requests: lines are drawn.
    open_sample(page, "pydantic_ai_history")
    expect(page.locator(f"{TL} path[data-link]")).to_have_count(2)


def test_har_capture_opens_on_the_refused_request_and_its_culprit(app_page):
    page = app_page
    open_sample(page, "har_capture_openai_400")
    tl = page.locator(TL)
    expect(tl.locator("[data-msg-index]")).to_have_count(4)
    expect(tl.locator('[data-msg-index="3"] [data-finding="TC002"]')).to_have_count(1)
    expect(page.locator(f'{TL} [data-msg-index="3"].selected')).to_have_count(1)
    expect(page.locator(".st-key-pasted_read")).to_contain_text("openai")
