"""Fit to N tokens in the browser: the preview, the shading on the curve and in the timeline, and
the downloaded file (within the budget, clean, whole units, same wrapper)."""

from __future__ import annotations

import json

from playwright.sync_api import expect

import inspector
from inspector.tokens import count_messages, counter_for

from .conftest import SAMPLES, download, open_sample, rerun


def test_fit_action_shades_what_goes_and_downloads_the_fitted_file(app_page):
    page = app_page
    items = json.loads((SAMPLES / "clean_parallel_calls.json").read_text())
    counts = count_messages(items, counter_for("openai"))
    budget = sum(counts) // 2
    open_sample(page, "clean_parallel_calls")
    with rerun(page):
        page.get_by_role("tab", name="Fit").click()
    box = page.get_by_role("spinbutton", name="Budget (tokens)")
    box.fill(str(budget))
    with rerun(page):
        box.press("Enter")

    # The preview lists the units that go; the metrics say what is left.
    expect(page.locator(".st-key-fit_preview")).to_be_visible()
    expect(page.locator(".st-key-fit_counts")).to_contain_text("Units removed")

    # The timeline hatches the removed cards (a call block whole) and the overview slices.
    timeline = page.locator('[data-testid="timeline"]')
    gone_cards = timeline.locator(".card.fit-out")
    expect(gone_cards.first).to_be_attached()
    gone = sorted(int(x) for x in gone_cards.evaluate_all("cs => cs.map(c => c.getAttribute('data-msg-index'))"))
    assert timeline.locator(".tl-overview .ob.fit-out").count() > 0
    # The context view draws the curve with the budget and the bands.
    expect(page.locator(".st-key-context_chart [data-testid='stVegaLiteChart']")).to_be_visible()
    expect(page.locator(".st-key-context_view")).to_contain_text(f"Budget {budget:,}")

    dl = download(page, page.get_by_role("button", name="Download fitted JSON"))
    with open(dl.path(), "rb") as f:
        data = f.read()
    out = json.loads(data)
    assert sum(count_messages(out, counter_for("openai"))) <= budget
    assert inspector.check(data, "openai").ok
    # The file is the input without exactly the shaded messages.
    assert out == [m for k, m in enumerate(items) if k not in gone]
    # A call block goes whole: no removed call has its result kept, and no kept result lost its call.
    kept_calls = {c["id"] for m in out for c in m.get("tool_calls") or []}
    kept_results = {m["tool_call_id"] for m in out if m["role"] == "tool"}
    assert kept_calls == kept_results
