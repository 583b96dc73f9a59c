"""Issue 33: the browser tests' wait for a run (``rerun`` in conftest.py) returns only once the
action's run has ended and drawn, however late that run starts. A fixed pause before asking
whether the app is idle returned while nothing had run yet, on a busy machine."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import rerun

TL = '[data-testid="timeline"]'
# The browser's messages to the server leave a second late, as on a machine too busy to send
# them at once: the app stays "not running" for that second after the click.
LATE_SENDS = """() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { setTimeout(() => send.call(this, data), 1000); };
}"""


def test_a_wait_for_the_run_returns_once_a_late_run_has_drawn(app_page):
    page = app_page
    page.evaluate(LATE_SENDS)
    with rerun(page):
        page.get_by_test_id("stSidebar").get_by_role("button", name="missing tool reply", exact=True).click()
    # read at once, no auto-waiting expect: the run that opened the sample has drawn its elements
    # (the timeline component then draws its cards in the browser, after the run: expect waits)
    assert page.locator(".st-key-filename").inner_text().strip() == "missing_tool_reply.json"
    expect(page.locator(f'{TL} [data-msg-index="2"]')).to_have_count(1)
    with rerun(page):
        page.locator(f'{TL} [data-msg-index="2"] .card-head').click()  # a run of the timeline alone
    assert page.locator(".st-key-detail h3").inner_text() == "Message #2"
