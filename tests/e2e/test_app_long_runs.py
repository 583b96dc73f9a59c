"""Long agent runs and the keyboard (issue 36): a compact density (one line per message, the
call → result connectors kept), each turn folded into one row that opens on click, newlines in
tool output kept (as text, never HTML); call chips take the focus, Enter follows them, and ``f``
follows the selected message's call to its result and back. At 1440x900 and 1280x720."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import rerun, upload
from .test_navigate import agent_log

TL = '[data-testid="timeline"]'
SIZES = [pytest.param((1440, 900), id="1440x900"), pytest.param((1280, 720), id="1280x720")]
VISIBLE = """() => {
  const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
  const sc = root.querySelector('.tl-scroll').getBoundingClientRect();
  const cards = [...root.querySelectorAll('.card[data-msg-index]')].filter(c => {
    const r = c.getBoundingClientRect();
    return r.height > 0 && r.top >= sc.top && r.bottom <= sc.bottom; });
  return {n: cards.length, tallest: Math.max(...cards.map(c => c.getBoundingClientRect().height)),
          lines: [...root.querySelectorAll('path.conn')].filter(p => (p.getAttribute('d') || '').length > 0).length};
}"""


def long_run(page, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    items = agent_log(200, orphan_at=None)
    items[2]["content"] = "total 2\nREADME.md\n<b>src</b>"  # tool output over three lines, with markup
    upload(page, name="run.json", data=json.dumps(items).encode())
    page.locator(f'{TL} [data-msg-index="0"]').wait_for(timeout=60_000)  # patience on a loaded machine


def focused(page) -> dict:
    return page.evaluate("""() => { const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
        const a = root.activeElement; if (!a) return {};
        return {cls: a.className, card: a.closest('.card') && Number(a.closest('.card').dataset.msgIndex)}; }""")


@pytest.mark.parametrize("size", SIZES)
def test_compact_density_and_folded_turns(app_page, size):
    page = app_page
    long_run(page, size)
    # Newlines are kept, as text: three lines, and the markup is shown, not applied.
    text = page.locator(f'{TL} [data-msg-index="2"] .card-text')
    expect(text).to_have_text("total 2\nREADME.md\n<b>src</b>")
    assert text.locator("b").count() == 0
    assert text.bounding_box()["height"] >= 3 * 16
    roomy = page.evaluate(VISIBLE)

    page.locator(f'{TL} [data-nav="compact"]').click()
    expect(page.locator(f'{TL} [data-nav="compact"]')).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(f"() => ({VISIBLE})().n >= 2 * {roomy['n']}")
    dense = page.evaluate(VISIBLE)
    assert dense["tallest"] <= 32, dense  # one line per message
    assert dense["lines"] >= dense["n"] // 2 - 2, dense  # a connector per call and its result
    page.screenshot(path=f"/tmp/i36-compact-{size[0]}.png")

    page.locator(f'{TL} [data-nav="fold"]').click()
    turn = page.locator(f'{TL} .fold-row[data-fold="1"]')
    expect(turn).to_be_visible()
    expect(turn).to_contain_text("assistant · 1 call: bash ls dir0 · 1 result")
    expect(page.locator(f'{TL} [data-msg-index="1"]')).to_be_hidden()
    expect(page.locator(f'{TL} [data-msg-index="2"]')).to_be_hidden()
    expect(page.locator(f'{TL} [data-msg-index="0"]')).to_be_visible()  # the task is not in a turn
    page.screenshot(path=f"/tmp/i36-folded-{size[0]}.png")
    turn.click()  # opens on click
    expect(turn).to_have_attribute("aria-expanded", "true")
    expect(page.locator(f'{TL} [data-msg-index="2"]')).to_be_visible()
    # A jump into a folded turn opens it.
    goto = page.locator(f"{TL} input.tl-goto-in")
    goto.fill("9")
    goto.press("Enter")
    expect(page.locator(f'{TL} [data-msg-index="9"].selected')).to_be_visible()
    expect(page.locator(f'{TL} .fold-row[data-fold="9"]')).to_have_attribute("aria-expanded", "true")
    expect(page.locator(f'{TL} .fold-row[data-fold="11"]')).to_have_attribute("aria-expanded", "false")


@pytest.mark.parametrize("size", SIZES)
def test_chips_take_the_focus_and_f_follows_the_call(app_page, size):
    page = app_page
    long_run(page, size)
    with rerun(page):
        page.locator(f'{TL} [data-msg-index="3"] .card-head').click()
    page.keyboard.press("Tab")  # one Tab from the selected card: its call chip
    got = focused(page)
    assert "chip call" in got.get("cls", "") and got.get("card") == 3, got
    page.keyboard.press("Enter")
    expect(page.locator(f'{TL} [data-msg-index="4"].selected')).to_have_count(1)
    got = focused(page)
    assert "chip result" in got.get("cls", "") and got.get("card") == 4, got
    page.keyboard.press("Enter")  # and back
    expect(page.locator(f'{TL} [data-msg-index="3"].selected')).to_have_count(1)

    page.locator(f'{TL} [data-msg-index="7"] .card-head').click()
    page.keyboard.press("f")
    expect(page.locator(f'{TL} [data-msg-index="8"].selected')).to_have_count(1)
    page.keyboard.press("f")
    expect(page.locator(f'{TL} [data-msg-index="7"].selected')).to_have_count(1)
    page.keyboard.press("?")
    expect(page.get_by_test_id("keys-help")).to_contain_text("follow the call to its result, and back")
