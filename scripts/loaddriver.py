"""Drive many browser sessions against the app at once: upload, view a message, share.

Used by ``tests/e2e/test_load*.py`` (every session sees only its own transcript, none errors,
nothing shared is lost) and ``benchmarks/bench_load.py`` (upload-to-timeline time at 1 and 20
sessions). One Chromium, one browser context per session (separate cookies and websocket, as
separate users), driven concurrently with Playwright's async API.

Each transcript carries a marker (``load-marker-<i>-<nonce>``) in every user message, so a
session that ever showed another session's transcript would show a foreign marker.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import time
from dataclasses import dataclass, field

CHROMIUM = os.environ.get("CHROMIUM") or next(
    (p for p in ("/usr/lib/chromium/chromium", "/usr/bin/chromium") if os.path.exists(p)), None
)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
IDLE = "() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'"
MARKER = re.compile(r"load-marker-\d+-[0-9a-f]+")
TIMELINE = '[data-testid="timeline"]'
SELECT = 5  # the message each session opens before sharing


def make_transcript(i: int, turns: int = 12) -> tuple[bytes, str, int]:
    """A distinct OpenAI-style transcript for session ``i``: (bytes, marker, message count).

    Every turn is a user question, an assistant tool call and its result; the last call is left
    unanswered so the check has a finding to show.
    """
    marker = f"load-marker-{i}-{secrets.token_hex(4)}"
    msgs: list[dict] = [{"role": "system", "content": "You are a test agent."}]
    for t in range(turns):
        cid = f"call_{i}_{t}"
        msgs.append({"role": "user", "content": f"{marker} question {t}"})
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": "lookup", "arguments": json.dumps({"q": t})}}]})
        if t < turns - 1:
            msgs.append({"role": "tool", "tool_call_id": cid, "content": f"answer {t} for session {i}"})
    return json.dumps({"messages": msgs}, indent=1).encode(), marker, len(msgs)


@dataclass
class Outcome:
    index: int
    marker: str
    data: bytes
    upload_to_timeline: float | None = None
    link: str | None = None
    markers_seen: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)


async def one_session(browser, base_url: str, i: int, *, share: bool = True, timeout_ms: int = 300_000) -> Outcome:
    data, marker, count = make_transcript(i)
    out = Outcome(i, marker, data)
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1100})
    ctx.set_default_timeout(timeout_ms)
    page = await ctx.new_page()
    page.on("pageerror", lambda exc: out.errors.append(f"page error: {exc}"))
    try:
        await page.goto(base_url)
        await page.wait_for_function(IDLE)
        t0 = time.perf_counter()
        await page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
            files=[{"name": f"session-{i}.json", "mimeType": "application/json", "buffer": data}]
        )
        timeline = page.locator(TIMELINE)
        await timeline.locator(f'[data-msg-index="{count - 1}"]').wait_for()
        await timeline.get_by_text(f"{marker} question 0", exact=True).wait_for()
        out.upload_to_timeline = time.perf_counter() - t0

        await timeline.locator(f'[data-msg-index="{SELECT}"]').click()
        await page.locator(f'{TIMELINE} .card.selected[data-msg-index="{SELECT}"]').wait_for()
        await page.get_by_role("heading", name=f"Message #{SELECT}").wait_for()
        if share:
            await page.get_by_role("button", name="Share", exact=True).click()
            await page.get_by_role("button", name="Create link").click()
            code = page.locator(".st-key-share_url code")
            await code.wait_for()
            out.link = (await code.text_content() or "").strip()
        await page.wait_for_function(IDLE)
        # The timeline lives in a shadow root: locators pierce it, innerText of the page does not.
        texts = await page.locator(f"{TIMELINE} .card").all_inner_texts()
        texts.append(await page.locator("[data-testid=stMain]").inner_text())
        out.markers_seen = {m for t in texts for m in MARKER.findall(t)}
        if await page.get_by_test_id("stException").count():
            out.errors.append("exception: " + await page.get_by_test_id("stException").first.inner_text())
    except Exception as exc:  # noqa: BLE001 - reported per session, asserted by the caller
        out.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    finally:
        await ctx.close()
    return out


async def _run(base_url: str, indices: list[int], share: bool) -> list[Outcome]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            return list(await asyncio.gather(*(one_session(browser, base_url, i, share=share) for i in indices)))
        finally:
            await browser.close()


def run_sessions(base_url: str, n: int, *, share: bool = True, first: int = 0) -> list[Outcome]:
    """Run ``n`` sessions at once in a fresh event loop on its own thread (safe beside sync Playwright)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _run(base_url, list(range(first, first + n)), share)).result()
