"""Browser tests: one ``streamlit run app.py`` per session (``scripts/appserver.py``), driven by Debian's Chromium.

Fixture names are a contract shared with other test files (``test_share*.py``): ``app_server``
(the base URL), ``base_url`` (pytest-playwright's, so ``page.goto("/")`` works) and
``browser_type_launch_args`` (system Chromium via ``executable_path``; streamlit-notes §3.3).
Every test here is marked ``e2e`` so the fast suite (``-m "not e2e"``) never starts a browser.

One browser context for the whole session (issue 33). A new context has an empty cache: it
downloads and compiles Streamlit's lazily loaded scripts again (about 5 MB), which on a busy
machine took over 20 s of a test's waits. So pytest-playwright's ``context`` is overridden to be
the session's one context, and ``page`` (hence ``app_page``) is a new page in it for each test,
closed after it; the app's state is reset by navigation (every ``page.goto`` is a new Streamlit
session, cheap once the scripts are cached), and the context's cookies and permissions are
cleared after each test. The rule, enforced by construction:

- A test that listens to the requests, responses or console messages of a page or context, or
  routes its requests, or adds scripts or bindings to it, takes ``own_page`` (or
  ``own_context``): a fresh context of its own that sees every request from the first one, and
  whose listeners end with it. Cached scripts make no request worth the name in the shared
  context, and a listener left on it would outlive the test: the shared context and its pages
  refuse these calls (``SharedContextMisuse`` says which fixture to take).
- A test marked ``@pytest.mark.browser_context_args(...)`` gets a fresh context with those
  arguments as ``context`` (and ``page`` in it).
- Another user's browser (another sign-in, no shared cookies or storage: ``test_hosting_*.py``,
  ``test_share*.py``, ``share_pages.py``, a share opened elsewhere) is ``browser.new_context(...)``
  in the test (closed after it if the test does not); those pay for their own cache on purpose.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

# The machine may be busy (several test suites at once on two cores): wait longer than 5 s.
expect.set_options(timeout=20_000)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import appserver

SAMPLES = ROOT / "sample_logs"
CHROMIUM = os.environ.get("CHROMIUM") or next(
    (p for p in ("/usr/lib/chromium/chromium", "/usr/bin/chromium") if shutil.which(p) or os.path.exists(p)), None
)
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
]
IDLE = "() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if CHROMIUM is None:
        pytest.skip("no system Chromium (set CHROMIUM=/path/to/chromium)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def app_server():
    app = appserver.start()
    try:
        yield app.url
    finally:
        app.stop()


@pytest.fixture(scope="session")
def base_url(app_server):
    return app_server


# Calls that leave something on the shared context after the test, or that would watch a context
# whose scripts come from cache (see the module docstring): refused there.
CONTEXT_REFUSED = ("on", "once", "route", "route_from_har", "route_web_socket", "add_init_script",
                   "expose_binding", "expose_function", "set_extra_http_headers", "set_offline",
                   "set_geolocation", "set_http_credentials")
PAGE_REFUSED = ("route", "route_from_har", "route_web_socket", "expect_request", "expect_response",
                "expect_request_finished", "expect_console_message")
WATCHED = {"request", "response", "requestfinished", "requestfailed", "console", "websocket"}


class SharedContextMisuse(AssertionError):
    pass


def _refuse(what: str):
    def refused(*args, **kwargs):
        raise SharedContextMisuse(
            f"{what} on the session's shared browser context: take the own_page (or own_context) "
            "fixture, a fresh context of its own (tests/e2e/conftest.py's docstring)")
    return refused


def _unwatched(page, name: str):
    """``page.on``/``page.once`` that refuse the events of the requests and the console."""
    add = getattr(page, name)

    def listen(event, handler):
        if event in WATCHED:
            _refuse(f"page.{name}({event!r})")()
        add(event, handler)
    return listen


@pytest.fixture(scope="session")
def shared_context(browser, browser_context_args):
    """The session's one browser context (module docstring); tests get it as ``context``."""
    ctx = browser.new_context(**browser_context_args)
    ctx.shared_by_the_session = True
    for name in CONTEXT_REFUSED:
        setattr(ctx, name, _refuse(f"context.{name}"))
    yield ctx
    ctx.close()


@pytest.fixture
def context(request, shared_context):
    """The shared context, reset after the test (its pages closed, cookies and permissions cleared);
    a fresh one for a test marked ``browser_context_args``."""
    if request.node.get_closest_marker("browser_context_args"):
        yield request.getfixturevalue("new_context")()
        return
    yield shared_context
    for left in shared_context.pages:
        left.close()
    shared_context.clear_cookies()
    shared_context.clear_permissions()


@pytest.fixture
def page(context, shared_context):
    """A new page for the test; in the shared context it refuses to watch or route requests."""
    page = context.new_page()
    if context is shared_context:
        for name in ("on", "once"):
            setattr(page, name, _unwatched(page, name))
        for name in PAGE_REFUSED:
            setattr(page, name, _refuse(f"page.{name}"))
    return page


@pytest.fixture(autouse=True)
def _close_the_tests_contexts(request):
    """Contexts a test opened itself (another user's browser) are closed after it: idle sessions
    left open slow the tests that follow."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for left in set(browser.contexts) - before:
        if not getattr(left, "shared_by_the_session", False):
            left.close()


@pytest.fixture
def own_context(new_context):
    """A fresh browser context of the test's own (pytest-playwright's, closed after the test):
    for a test that listens to requests or the console, or routes them."""
    return new_context()


@pytest.fixture
def own_page(own_context):
    return own_context.new_page()


@pytest.fixture
def app_page(page, app_server):
    """A fresh session of the app, its first run ended and drawn."""
    page.set_viewport_size({"width": 1440, "height": 1000})
    load(page, app_server + "/")
    return page


# The app's run counter (inspector/ui/run_marker.py): the highest count drawn on the page. Every
# run that ends normally (the page's, or the timeline fragment's alone) draws a higher one last.
RUNS = """() => Math.max(0, ...Array.from(document.querySelectorAll('[class*="st-key-run_marker_"]'),
                                      e => parseInt(e.textContent, 10) || 0))"""
# A run counted after ``n`` has ended, and nothing runs now. The state alone cannot say it: right
# after a click Streamlit's "not running" is still true before the rerun starts (issue 33).
RAN = f"""(n) => ({RUNS})() > n
  && document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'"""
RUN_MS = 120_000  # a bound, not a wait: the machine may be busy


def load(page, url: str | None = None) -> None:
    """Open ``url`` (None: reload) and wait until the new session's first run has ended and drawn
    (a new session counts its runs from 1)."""
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_function(RAN, arg=0, timeout=RUN_MS)


@contextmanager
def rerun(page) -> Iterator[None]:
    """``with rerun(page): <action>``: the action makes the app run; return when that run has
    ended and drawn. Reads the run counter before the action, waits for it to grow after."""
    page.wait_for_function(IDLE, timeout=RUN_MS)
    before = page.evaluate(RUNS)
    yield
    page.wait_for_function(RAN, arg=before, timeout=RUN_MS)


def download(page, button) -> Any:
    """Click the download ``button`` once the app is idle, and return the download. A click while
    a run is drawing can land on a button that run is replacing (the fit test's download never
    came once, in a CI run at load 4 to 7); the bound is the runs' bound, not the default 30 s."""
    expect(button).to_be_visible()
    page.wait_for_function(IDLE, timeout=RUN_MS)
    with page.expect_download(timeout=RUN_MS) as dl:
        button.click()
    return dl.value


def open_tab(page, name: str) -> None:
    """Open the tab ``name`` and wait for its run; a tab already open is left as it is (a click
    on it changes nothing, so no run would come)."""
    tab = page.get_by_role("tab", name=name)
    if tab.get_attribute("aria-selected") != "true":
        with rerun(page):
            tab.click()


# The upload's file is drawn: its name above the timeline, the reader's message when it cannot
# be read, or the dataset view.
UPLOAD_DRAWN = """(name) => {
  const shown = document.querySelector('.st-key-filename');
  return (shown && shown.textContent.trim() === name)
    || !!document.querySelector('.st-key-input_error, [class*="st-key-ds_"]');
}"""


def upload(page, path: Path | None = None, *, name: str | None = None, data: bytes | None = None) -> None:
    """Upload a file through the sidebar's uploader and wait until the app's run for it has ended
    and drawn it (issue 33: a fixed 160 ms sleep returned before the upload had drawn anything,
    leaving a test's 20 s ``expect`` to cover upload, worker trial, parse and render)."""
    inp = page.get_by_test_id("stFileUploaderDropzoneInput")
    with rerun(page):
        if path is not None:
            inp.set_input_files(str(path))
            name = Path(path).name
        else:
            inp.set_input_files(files=[{"name": name, "mimeType": "application/json", "buffer": data}])
    page.wait_for_function(UPLOAD_DRAWN, arg=name, timeout=RUN_MS)


def open_sample(page, stem: str) -> None:
    """Click a sample in the sidebar (its label is the file stem with spaces)."""
    side = page.get_by_test_id("stSidebar")
    with rerun(page):
        side.get_by_role("button", name=stem.replace("_", " "), exact=True).click()
    opener = page.locator(".st-key-ds_open_button button")
    if opener.count():  # several transcripts open as the dataset view: open the first one
        with rerun(page):
            opener.click()
    # One timeline: the run has ended, so the old page's timeline is gone. A file the app could
    # not read says why (a worker refused it): say it here rather than "count 0". The run's end
    # is known; what is left is the browser's: a new context per test fetches and compiles
    # Streamlit's lazy scripts again (about 5 MB), which on a busy machine took over 20 s (issue
    # 33's traces). So the bound is the run's, not expect's.
    expect(page.locator('[data-testid="timeline"], .st-key-input_error')).not_to_have_count(0, timeout=RUN_MS)
    refused = page.locator(".st-key-input_error")
    assert not refused.count(), refused.inner_text()
    expect(page.locator('[data-testid="timeline"]')).to_have_count(1)

