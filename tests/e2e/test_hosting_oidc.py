"""docs/hosting.md with OpenID Connect sign-in (Streamlit's ``st.login``), end to end in Chromium.

A real OIDC provider (``oidc-provider-mock``: discovery, authorization form, token and userinfo
endpoints, signed ID tokens) runs on 127.0.0.1; the recipe's two replicas sit behind a real nginx
that only balances. Ana signs in and shares; Bob opens the link while signed out, signs in, lands
on the shared view, and may not delete it; Ana deletes it.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from playwright.sync_api import expect

from . import hosting_recipe
from .hosting_recipe import closing_browser  # noqa: F401 - the `browser` fixture: closes each test's contexts
from .share_pages import SLOW, open_share, share, upload

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
loaddriver = pytest.importorskip("loaddriver")
oidc_provider_mock = pytest.importorskip("oidc_provider_mock")

USERS = {"ana": "ana@example.com", "bob": "bob@example.com"}


@pytest.fixture(scope="module")
def provider():
    """The OIDC provider on a free loopback port, serving plain http (it is on 127.0.0.1)."""
    import werkzeug.serving

    mp = pytest.MonkeyPatch()
    mp.setenv("AUTHLIB_INSECURE_TRANSPORT", "1")  # the provider's own check: http on loopback
    app = oidc_provider_mock.app(user_claims=[oidc_provider_mock.User(sub=sub, claims={"email": email})
                                              for sub, email in USERS.items()])
    server = werkzeug.serving.make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        mp.undo()


@pytest.fixture(scope="module")
def deployment(pg_cluster, provider, tmp_path_factory):
    if hosting_recipe.nginx_binary() is None:
        pytest.skip("nginx is not installed (scripts/system-deps.sh installs it)")
    d = hosting_recipe.Deployment(
        "oidc", pg_cluster.create_database("oidc_" + uuid.uuid4().hex[:8]), tmp_path_factory.mktemp("nginx-oidc"),
        extra_env={"INSPECTOR_OIDC_METADATA_URL": provider + "/.well-known/openid-configuration"},
    )
    try:
        yield d.start()
    finally:
        d.stop()


# The sign-in page is drawn, not just idle (issue 33): right after goto the app may be idle before
# its first run, and the sign-in run stops before the run counter (run_marker.py), so wait for it.
SIGN_IN_DRAWN = ("() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'"
                 " && !!document.querySelector('.st-key-sign_in')")


def signed_in(browser, url: str, who: str):
    """A new browser (context) that opens ``url``, gets the sign-in page, and signs in as ``who``."""
    page = browser.new_context(viewport={"width": 1400, "height": 1100}).new_page()
    page.set_default_timeout(SLOW)
    page.goto(url)
    page.wait_for_function(SIGN_IN_DRAWN, timeout=SLOW)
    gate = page.locator(".st-key-sign_in")
    expect(gate).to_contain_text("Sign in to use the inspector")
    expect(page.get_by_test_id("stFileUploaderDropzoneInput")).to_have_count(0)  # nothing but sign-in
    gate.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name=who, exact=True).click()  # the provider's own authorization form
    expect(page.get_by_text(f"Signed in as {USERS[who]}", exact=True)).to_be_visible()
    page.wait_for_function(loaddriver.IDLE)
    return page


def test_sign_in_share_open_as_another_user_and_only_the_owner_deletes(browser, deployment):
    ana = signed_in(browser, deployment.url, "ana")
    data, marker, _ = loaddriver.make_transcript(7)
    upload(ana, data)
    link = share(ana, select=3)
    assert link.startswith(deployment.url + "/?t=") and link.endswith("&m=3")

    bob = signed_in(browser, link, "bob")  # opened while signed out: sign-in first, then the view
    assert "t=" in bob.url
    timeline = bob.locator(loaddriver.TIMELINE)
    expect(timeline.get_by_text(f"{marker} question 0", exact=True)).to_be_visible()
    expect(timeline.locator('.card.selected[data-msg-index="3"]')).to_be_visible()
    open_share(bob)
    bob.get_by_role("button", name="Delete this share").click()
    bob.get_by_role("button", name="Yes, delete it").click()
    expect(bob.locator(".st-key-share_delete_refused")).to_contain_text("only ana@example.com")

    open_share(ana)
    ana.get_by_role("button", name="Delete this share").click()
    ana.get_by_role("button", name="Yes, delete it").click()
    expect(ana.get_by_text("The share was deleted")).to_be_visible()
    again = browser.new_context().new_page()
    again.goto(link)
    again.wait_for_function(SIGN_IN_DRAWN, timeout=SLOW)
    expect(again.locator(".st-key-sign_in")).to_be_visible()  # a new browser: signed out again
