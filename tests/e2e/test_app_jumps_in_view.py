"""Every jump lands in view (issue 36): after ``n``, "finding ›", Go to and a pasted error, the
selected card sits in the middle of the window (as near as the page can scroll), never at its
bottom edge; the first screen at 1280x720 shows the verdict and at least two whole cards. At
1440x900 and 1280x720."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import rerun, upload
from .test_navigate import agent_log

TL = '[data-testid="timeline"]'
SIZES = [pytest.param((1440, 900), id="1440x900"), pytest.param((1280, 720), id="1280x720")]

# The selected card's middle against the window's (below Streamlit's header), and whether the page
# could scroll further that way: centred, or as near as the page allows, and wholly in view.
PLACE = """() => {
  const root = document.querySelector('[data-testid=stBidiComponentIsolated]')?.shadowRoot;
  const c = root && root.querySelector('.card.selected');
  if (!c) return null;
  let ps = c.getRootNode().host;
  while (ps && ps !== document.body) {
    const oy = getComputedStyle(ps).overflowY;
    if ((oy === 'auto' || oy === 'scroll') && ps.scrollHeight > ps.clientHeight + 1) break;
    ps = ps.parentElement;
  }
  const bar = document.querySelector('[data-testid=stHeader]').getBoundingClientRect().bottom;
  const r = c.getBoundingClientRect(), box = root.querySelector('.tl-scroll').getBoundingClientRect();
  const mid = (bar + innerHeight) / 2;
  const off = r.top + r.height / 2 - mid;
  const atEnd = ps && ps !== document.body ? (off > 0 ? ps.scrollTop + ps.clientHeight >= ps.scrollHeight - 2 : ps.scrollTop <= 1) : false;
  return {off, atEnd, top: r.top, bottom: r.bottom, boxTop: box.top, boxBottom: box.bottom, bar, vh: innerHeight,
          index: Number(c.dataset.msgIndex)};
}"""


def centred(page, index: int) -> dict:
    """Wait until message ``index`` is selected, whole in the window and in its middle (within a
    sixth of the window's height), or as near as the page can scroll; return where it is."""
    expect(page.locator(f'{TL} [data-msg-index="{index}"].selected')).to_have_count(1)
    try:
        page.wait_for_function(f"""() => {{ const p = ({PLACE})(); return p && p.index === {index}
            && p.top >= p.bar && p.bottom <= p.vh && p.top >= p.boxTop - 1 && p.bottom <= p.boxBottom + 1
            && (Math.abs(p.off) <= p.vh / 6 || p.atEnd); }}""", timeout=15_000)
    except Exception as exc:
        raise AssertionError(f"#{index} not centred: {page.evaluate(PLACE)}") from exc
    return page.evaluate(PLACE)


@pytest.fixture
def long_log(app_page):
    items = agent_log(340, orphan_at=500)
    items.insert(200, {"role": "tool", "tool_call_id": "call_elsewhere", "content": "stray too"})
    upload(app_page, name="agent.json", data=json.dumps(items).encode())
    app_page.locator(f'{TL} [data-msg-index="0"]').wait_for(timeout=60_000)  # patience on a loaded machine
    return app_page


@pytest.mark.parametrize("size", SIZES)
def test_the_first_screen_shows_the_verdict_and_two_cards(app_page, size):
    page = app_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    upload(page, name="agent.json", data=json.dumps(agent_log(340, orphan_at=500)).encode())
    page.locator(f'{TL} [data-msg-index="0"]').wait_for(timeout=60_000)  # patience on a loaded machine
    page.screenshot(path=f"/tmp/i36-first-{size[0]}.png")
    verdict = page.locator("[class*='st-key-verdict-']").bounding_box()
    assert verdict["y"] >= 0 and verdict["y"] + verdict["height"] <= size[1], verdict
    whole = page.evaluate("""() => {
      const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
      const sc = root.querySelector('.tl-scroll').getBoundingClientRect();
      return [...root.querySelectorAll('.card[data-msg-index]')].filter(c => {
        const r = c.getBoundingClientRect();
        return r.height > 0 && r.top >= Math.max(0, sc.top) && r.bottom <= Math.min(innerHeight, sc.bottom);
      }).length; }""")
    assert whole >= 2, whole


@pytest.mark.parametrize("size", SIZES)
def test_key_button_and_go_to_jumps_centre_the_card(long_log, size):
    page = long_log
    page.set_viewport_size({"width": size[0], "height": size[1]})
    with rerun(page):
        page.keyboard.press("n")  # the first finding: #200, page 1
    centred(page, 200)
    with rerun(page):
        page.keyboard.press("n")  # the next: #501, on page 2
    centred(page, 501)
    page.screenshot(path=f"/tmp/i36-n-{size[0]}.png")

    goto = page.locator(f"{TL} input.tl-goto-in")
    goto.fill("420")
    with rerun(page):
        goto.press("Enter")
    centred(page, 420)
    goto.fill("90")  # back on page 1: another page, drawn anew
    with rerun(page):
        goto.press("Enter")
    centred(page, 90)

    with rerun(page):
        page.locator(f'{TL} [data-nav="next-finding"]').click()
    centred(page, 200)
    with rerun(page):
        page.locator(f'{TL} [data-nav="next-finding"]').click()
    centred(page, 501)
    page.screenshot(path=f"/tmp/i36-finding-{size[0]}.png")


@pytest.mark.parametrize("size", SIZES)
def test_a_pasted_error_centres_its_message(long_log, size):
    page = long_log
    page.set_viewport_size({"width": size[0], "height": size[1]})
    box = page.get_by_role("textbox", name="Paste the error you got")
    box.fill("Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
             "with 'tool_calls'. param: messages.[501].role")
    with rerun(page):
        box.press("Control+Enter")
    centred(page, 501)
    page.screenshot(path=f"/tmp/i36-pasted-{size[0]}.png")
