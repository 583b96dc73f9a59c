"""What only a browser shows: the timeline's cards, connectors, ghosts and markers, clicks,
the pasted-error jump across pages, and a hostile transcript that must stay text."""

from __future__ import annotations

import json
from urllib.parse import urlparse

from playwright.sync_api import expect

from inspector.ui.app_main import TABS

from .conftest import load, open_sample, open_tab, rerun, upload
from .share_pages import open_share

TL = '[data-testid="timeline"]'


def call(cid, name="lookup"):
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": "{}"}}


def test_cards_connectors_ghosts_and_markers(app_page):
    """The half-answered sample: one line to the one result, a ghost per missing result, markers in place."""
    page = app_page
    open_sample(page, "parallel_half_answered")
    tl = page.locator(TL)
    expect(tl.locator("[data-msg-index]")).to_have_count(6)
    links = tl.locator("path[data-link]")
    expect(links).to_have_count(1)
    assert links.first.get_attribute("data-link") == "call_wx_paris_01"
    assert (links.first.get_attribute("data-from"), links.first.get_attribute("data-to")) == ("2", "3")
    assert links.first.get_attribute("d").startswith("M")
    ghosts = tl.locator("[data-ghost-for]")
    expect(ghosts).to_have_count(2)
    assert {ghosts.nth(i).get_attribute("data-ghost-for") for i in range(2)} == {"call_wx_tokyo_02", "call_book_03"}
    expect(tl.locator('[data-msg-index="2"] [data-finding="TC001"]')).to_have_count(2)
    expect(tl.locator('[data-msg-index="4"] [data-finding="TC019"]')).to_have_count(1)
    assert tl.locator('[data-msg-index="2"]').get_attribute("data-role") == "assistant"


def test_clicking_a_card_shows_the_whole_message(app_page):
    """A click selects the card and the detail pane shows that message with all its fields."""
    page = app_page
    open_sample(page, "parallel_half_answered")
    page.locator(f'{TL} [data-msg-index="3"]').click()
    detail = page.locator(".st-key-detail")
    expect(detail).to_contain_text("#3")
    expect(detail).to_contain_text("call_wx_paris_01")
    expect(page.locator(f'{TL} [data-msg-index="3"].selected')).to_have_count(1)
    page.keyboard.press("ArrowDown")  # the timeline has focus after the click
    expect(detail).to_contain_text("#4")
    expect(page.locator(f'{TL} [data-msg-index="4"].selected')).to_have_count(1)


def test_orphan_and_duplicate_marked_on_their_cards(app_page):
    page = app_page
    open_sample(page, "duplicate_tool_reply")
    expect(page.locator(f"{TL} [data-finding=TC005]")).not_to_have_count(0)
    open_sample(page, "orphan_tool_reply")
    expect(page.locator(f"{TL} [data-finding=TC002]")).not_to_have_count(0)


def big_transcript(n_rounds: int, orphan_at: int) -> list:
    items = [{"role": "user", "content": "start"}]
    for k in range(n_rounds):
        items.append({"role": "assistant", "content": None, "tool_calls": [call(f"c{k}")]})
        items.append({"role": "tool", "tool_call_id": f"c{k}", "content": f"r{k}"})
    items.insert(orphan_at, {"role": "tool", "tool_call_id": "call_nowhere", "content": "stray"})
    return items


def test_pasted_error_jumps_to_a_message_on_another_page(app_page):
    """The provider's text names message 650 (page 3): the timeline opens there and selects it."""
    page = app_page
    items = big_transcript(400, 650)
    upload(page, name="big.json", data=json.dumps(items).encode())
    expect(page.locator(f'{TL} [data-msg-index="650"]')).to_have_count(0)
    box = page.get_by_role("textbox", name="Paste the error you got")
    box.fill("Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
             "with 'tool_calls'. param: messages.[650].role")
    with rerun(page):
        box.press("Control+Enter")
    card = page.locator(f'{TL} [data-msg-index="650"]')
    expect(card).to_have_class("card role-tool sev-error orphan selected")  # orphan: no "answered" stripe
    expect(card).to_be_in_viewport()
    expect(page.locator(".st-key-detail")).to_contain_text("#650")


def test_a_line_leaving_the_page_ends_in_a_stub_that_jumps(app_page):
    page = app_page
    items = [{"role": "user", "content": "go"}, {"role": "assistant", "content": None, "tool_calls": [call("far")]}]
    items += [{"role": "user", "content": f"filler {k}"} for k in range(400)]
    items.append({"role": "tool", "tool_call_id": "far", "content": "finally"})  # index 402, page 2
    upload(page, name="far.json", data=json.dumps(items).encode())
    stub = page.locator(f"{TL} [data-stub-to='402']")
    expect(stub).to_have_text("↓ #402, page 2")
    expect(page.locator(f'{TL} path[data-link="far"][data-stub]')).to_have_count(1)
    stub.click()
    expect(page.locator(f'{TL} [data-msg-index="402"].selected')).to_have_count(1)
    expect(page.locator(f"{TL} [data-stub-to='1']")).to_have_text("↑ #1, page 1")


HOSTILE = [
    "<script>window.__pwned=1;alert('script')</script>",
    "<img src=x onerror=\"window.__pwned=2;alert('img')\">",
    "[click](javascript:alert('link'))",
    "![beacon](http://203.0.113.9/beacon.png)",
    "<style>body{display:none !important}</style>",
    "<a href=\"javascript:alert('a')\">a</a><iframe src=\"http://203.0.113.9/\"></iframe>",
]


class Requests:
    """Every request the browser context makes (all pages and frames, the component's included),
    from before the first navigation on; ``settle`` waits until none is in flight for a while."""

    QUIET_FRAMES = 30  # drawn frames in a row with no request in flight

    def __init__(self, context, origin: str):
        self.origin = origin
        self.outside: list[str] = []
        self.in_flight: set = set()
        context.on("request", self._start)
        context.on("requestfinished", lambda r: self.in_flight.discard(r))
        context.on("requestfailed", lambda r: self.in_flight.discard(r))

    def _start(self, request) -> None:
        url = urlparse(request.url)
        if url.scheme not in ("data", "blob", "about") and url.netloc != self.origin:
            self.outside.append(request.url)
        self.in_flight.add(request)

    def settle(self, page) -> None:
        """Wait until no request has been in flight while the page drew QUIET_FRAMES frames (a
        wait for the browser's own frames, not for a time; Playwright reports requests meanwhile)."""
        quiet = 0
        while quiet < self.QUIET_FRAMES:
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            quiet = 0 if self.in_flight else quiet + 1


def test_hostile_transcript_shows_as_text_runs_nothing_fetches_nothing(own_page, app_server):
    """Page load, an upload, every card, every tab and a share request nothing from another host.
    In a fresh context of its own (``own_page``): every request from the first, none from cache."""
    page = own_page
    origin = urlparse(app_server).netloc
    net = Requests(page.context, origin)  # listening before the first request of the page
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.set_viewport_size({"width": 1440, "height": 1000})
    load(page, app_server + "/")
    net.settle(page)
    # The favicon is served by the app (a :material: icon points the browser at fonts.gstatic.com).
    icon = page.evaluate("() => [...document.querySelectorAll('link[rel~=icon]')].map(l => l.href)")
    assert icon and all(urlparse(h).netloc == origin for h in icon), icon
    text = "\n".join(HOSTILE)
    items = [
        {"role": "system", "content": text},
        {"role": "user", "content": text, "name": HOSTILE[1]},
        {"role": "assistant", "content": text, "tool_calls": [call(HOSTILE[1], HOSTILE[0])]},
        {"role": "tool", "tool_call_id": HOSTILE[1], "content": text},
        {"role": HOSTILE[0], "content": text},
    ]
    upload(page, name="<img src=x onerror=alert(9)>.json", data=json.dumps(items).encode())
    net.settle(page)
    tl = page.locator(TL)
    expect(tl.locator("[data-msg-index]")).to_have_count(5)
    for i in range(5):
        with rerun(page):
            tl.locator(f'[data-msg-index="{i}"]').click()
    for tab in TABS[1:] + TABS[:1]:  # Findings, open at first, last: each click opens another tab
        open_tab(page, tab)
        net.settle(page)
    page.get_by_role("textbox", name="Paste the error you got").fill(text)
    with rerun(page):
        page.get_by_role("textbox", name="Paste the error you got").press("Control+Enter")
    open_share(page)
    with rerun(page):
        page.get_by_role("button", name="Create link").click()
    expect(page.locator(".st-key-share_url code")).to_be_visible()
    net.settle(page)
    expect(tl.locator('[data-msg-index="0"] .card-text')).to_contain_text("<script>")
    assert page.evaluate("() => window.__pwned") is None
    assert dialogs == []
    assert net.outside == []
    # Nothing from the transcript became an element, in the page or in the component's shadow root.
    for sel in ("img[src=x]", "iframe[src*='203.0.113.9']", "a[href^='javascript']", "img[src*='beacon']"):
        expect(page.locator(sel)).to_have_count(0)
    # The transcript's <style> did not apply anywhere: the app is still displayed.
    assert page.evaluate("() => getComputedStyle(document.body).display") != "none"
    expect(page.get_by_test_id("stApp")).to_be_visible()


def test_overview_shows_where_the_problems_are_and_jumps_there(app_page):
    """The strip over the cards marks the slice holding the orphan at 650; clicking it opens that page."""
    page = app_page
    upload(page, name="overview.json", data=json.dumps(big_transcript(400, 650)).encode())
    bad = page.locator(f"{TL} [data-overview] .ob.sev-error")
    expect(bad).to_have_count(1)
    bad.click()
    expect(page.locator(f'{TL} [data-msg-index="650"].selected')).to_have_count(1)
    expect(page.locator(".st-key-detail")).to_contain_text("#650")
