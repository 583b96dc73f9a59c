"""Browser benchmark: is the timeline as quick for 20,000 messages as for 10?

Runs the real app (``streamlit run app.py``) and Debian's Chromium, and prints in one run:

- upload-to-timeline time for a 20,000-message transcript divided by the same for a 10-message
  one (goal: at most 2). Measured from handing the file to the uploader until the timeline shows
  the new file's first card and the script is idle, in a fresh session each time, with a file
  never seen before (so the server's cache does not help);
- the number of cards in the page at 20,000 messages (goal: at most 1,000);
- click-to-detail time at 20,000 messages: from a click on a card until the detail pane names
  that message (goal: under 1 s);
- held-down ``j`` at 20,000 messages: 20 key presses 33 ms apart (a keyboard's auto-repeat),
  once inside a page and once across the page boundary at #300. Reported: the time from the
  first press until the 20th card is selected in the timeline (goal: under 2 s) and the time
  from the last press until the detail pane names that card (goal: within 1 s);
- chip-to-result: a click on a call chip until the detail pane names its result.

Run: ``make bench-all`` (after the engine benchmarks, with ``bench_load``), or alone after ``make install
system-deps``: ``.venv/bin/python benchmarks/bench_browser.py [--runs 3] [--only-interaction]``.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "benchmarks"))
import appserver
from gen import build_transcript, drop_results
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/lib/chromium/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
IDLE = "() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'"
TL = '[data-testid="timeline"]'


def transcript_file(n: int, tmp: Path) -> Path:
    """A fresh file of ``n`` messages (2 % of results dropped, so there are ghosts and markers)."""
    msgs = drop_results(build_transcript(n + n // 40 + 2), 0.02)[:n]
    msgs[0] = {"role": "system", "content": f"run {uuid.uuid4().hex}"}  # unique bytes: no cache hit
    p = tmp / f"t{n}_{uuid.uuid4().hex[:6]}.json"
    p.write_bytes(json.dumps(msgs).encode())
    return p


DRAWN = """() => {
  const root = document.querySelector('[data-testid=stBidiComponentIsolated]')?.shadowRoot;
  const card = root?.querySelector('[data-msg-index="0"]');
  const line = root?.querySelector('path[data-link]');
  return !!card && !!line && (line.getAttribute('d') || '').startsWith('M');
}"""


def upload_to_timeline(browser, url: str, path: Path) -> tuple[float, float]:
    """Seconds from upload until the new timeline is drawn (cards and connectors), and until idle."""
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    try:
        page.goto(url)
        page.wait_for_function(IDLE)
        t0 = time.perf_counter()
        page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
        page.locator(".st-key-filename", has_text=path.name).wait_for(timeout=120_000)
        page.wait_for_function(DRAWN, timeout=120_000, polling=20)
        drawn = time.perf_counter() - t0
        page.wait_for_timeout(100)
        page.wait_for_function(IDLE, timeout=120_000)
        return drawn, time.perf_counter() - t0
    finally:
        page.close()


SELECTED = """(i) => {
  const root = document.querySelector('[data-testid=stBidiComponentIsolated]')?.shadowRoot;
  return !!root?.querySelector(`.card.selected[data-msg-index="${i}"]`);
}"""


def held_key(page, start: int, presses: int = 20, gap_ms: int = 33) -> tuple[float, float]:
    """Select ``start``, then press j ``presses`` times; (first press to card selected, last press to detail)."""
    card = page.locator(f'{TL} [data-msg-index="{start}"] .card-head')
    card.scroll_into_view_if_needed()
    card.click()
    page.locator(".st-key-detail h3", has_text=f"Message #{start}").wait_for(timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    goal = start + presses
    t0 = time.perf_counter()
    for k in range(presses):
        page.keyboard.press("j")
        if k < presses - 1:
            page.wait_for_timeout(gap_ms)
    t_last = time.perf_counter()
    page.wait_for_function(SELECTED, arg=goal, timeout=60_000, polling=10)
    moved = time.perf_counter() - t0
    page.locator(".st-key-detail h3", has_text=f"Message #{goal}").wait_for(timeout=60_000)
    settled = time.perf_counter() - t_last
    return moved, settled


def big_page_figures(browser, url: str, path: Path, clicks: int) -> dict:
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    try:
        page.goto(url)
        page.wait_for_function(IDLE)
        page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
        page.locator(f'{TL} [data-msg-index="0"]').wait_for(timeout=120_000)
        page.wait_for_function(IDLE, timeout=120_000)
        cards = page.locator(f"{TL} .card").count()
        times = []
        for k in range(clicks):
            i = 20 + 37 * k
            card = page.locator(f'{TL} [data-msg-index="{i}"] .card-head')  # not a chip: those follow links
            card.scroll_into_view_if_needed()
            t0 = time.perf_counter()
            card.click()
            page.locator(".st-key-detail h3", has_text=f"Message #{i}").wait_for(timeout=60_000)
            times.append(time.perf_counter() - t0)
        inside = [held_key(page, 40 + 60 * k) for k in range(3)]
        across = [held_key(page, 290)]
        # Chip to result: the first call chip of a card with a call leads to its result.
        chips = []
        for k in range(3):
            chip = page.locator(f"{TL} .chip.call[data-goto]").nth(5 + 7 * k)
            chip.scroll_into_view_if_needed()
            dest = chip.get_attribute("data-goto")
            t0 = time.perf_counter()
            chip.click()
            page.locator(".st-key-detail h3", has_text=f"Message #{dest}").wait_for(timeout=60_000)
            chips.append(time.perf_counter() - t0)
        return {"cards": cards, "clicks": times, "inside": inside, "across": across, "chips": chips}
    finally:
        page.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="uploads per size (median is reported)")
    ap.add_argument("--clicks", type=int, default=5)
    ap.add_argument("--only-interaction", action="store_true",
                    help="skip the upload ratio; measure clicks and keys on one 20,000-message upload")
    args = ap.parse_args()
    app = appserver.start()
    small, big, small_idle, big_idle = [], [], [], []
    try:
        with tempfile.TemporaryDirectory() as d, sync_playwright() as pw:
            tmp = Path(d)
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            upload_to_timeline(browser, app.url, transcript_file(10, tmp))  # warm-up: imports, first paint
            for _ in range(0 if args.only_interaction else args.runs):
                for n, drawn, idle in ((10, small, small_idle), (20_000, big, big_idle)):
                    d_, i_ = upload_to_timeline(browser, app.url, transcript_file(n, tmp))
                    drawn.append(d_)
                    idle.append(i_)
            fig = big_page_figures(browser, app.url, transcript_file(20_000, tmp), args.clicks)
            browser.close()
    finally:
        app.stop()
    if small:
        s, b = statistics.median(small), statistics.median(big)
        print(f"upload-to-timeline, 10 messages:      {s:.2f} s (median of {len(small)}: {', '.join(f'{x:.2f}' for x in small)})")
        print(f"upload-to-timeline, 20,000 messages:  {b:.2f} s (median of {len(big)}: {', '.join(f'{x:.2f}' for x in big)})")
        print(f"ratio 20,000 / 10:                    {b / s:.2f}   (goal <= 2)")
        si, bi = statistics.median(small_idle), statistics.median(big_idle)
        print(f"  (until the script is first idle: {si:.2f} s and {bi:.2f} s, ratio {bi / si:.2f})")
    clicks = fig["clicks"]
    c = statistics.median(clicks)
    print(f"cards in the page at 20,000 messages: {fig['cards']}   (goal <= 1000)")
    print(f"click-to-detail at 20,000 messages:   {c:.2f} s (median of {len(clicks)}; max {max(clicks):.2f})   (goal < 1 s)")
    chips = fig["chips"]
    print(f"chip-to-result detail at 20,000:      {statistics.median(chips):.2f} s (median of {len(chips)}; max {max(chips):.2f})")
    for label, runs in (("inside a page", fig["inside"]), ("across #300", fig["across"])):
        moved = [m for m, _ in runs]
        settled = [x for _, x in runs]
        print(f"held j, 20 cards, {label:13}:   moved in {statistics.median(moved):.2f} s (max {max(moved):.2f}; goal < 2 s), "
              f"detail settled {statistics.median(settled):.2f} s after the last key (max {max(settled):.2f}; goal < 1 s)")


if __name__ == "__main__":
    main()
