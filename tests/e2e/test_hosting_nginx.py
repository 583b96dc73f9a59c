"""docs/hosting.md with sign-in from the proxy's headers: two replicas, PostgreSQL, a real nginx.

nginx (Debian's) signs users in with ``auth_basic`` (the stand-in for the company's SSO proxy) and
sets ``X-Auth-Request-Email`` plus the proxy secret; Streamlit maps the header into ``st.user``
(``server.trustedUserHeaders``). In Chromium: the page says who you are, a share records its
maker, another user opens the link but may not delete it, the maker deletes it. A client cannot
name another user through nginx (it overwrites the header), nor by going around it (no secret).
"""

from __future__ import annotations

import base64
import secrets
import urllib.error
import urllib.request
import uuid

import pytest
from playwright.sync_api import expect

from . import hosting_recipe
from .hosting_recipe import closing_browser  # noqa: F401 - the `browser` fixture: closes each test's contexts
from .share_pages import SLOW, open_share, share, upload

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
loaddriver = pytest.importorskip("loaddriver")

# A password never starts with "-": `openssl passwd -apr1 -x…` (the recipe's htpasswd line) reads it as an
# option and writes an empty hash, and that user's pages never load (the flake of stops 29 and 30).
USERS = {u: "pw" + secrets.token_urlsafe(12) for u in ("ana@example.com", "bob@example.com", "ops@example.com",
                                                  "lead@example.com")}
# An operator who also maps the groups header into st.user, as the recipe once suggested: the app
# must still not believe a groups header the client wrote (issue 33).
GROUPS_MAPPED = {"STREAMLIT_SERVER_TRUSTED_USER_HEADERS":
                 '{"X-Auth-Request-Email": "email", "X-Auth-Request-Groups": "groups"}'}
FORGED_GROUPS = {"X-Auth-Request-Groups": "inspector-admins", "X-Inspector-Proxy-Groups": "inspector-admins"}


@pytest.fixture(scope="module")
def deployment(pg_cluster, tmp_path_factory):
    if hosting_recipe.nginx_binary() is None:
        pytest.skip("nginx is not installed (scripts/system-deps.sh installs it)")
    d = hosting_recipe.Deployment("proxy", pg_cluster.create_database("hosting_" + uuid.uuid4().hex[:8]),
                                  tmp_path_factory.mktemp("nginx-proxy"), users=USERS,
                                  extra_env=GROUPS_MAPPED)
    try:
        yield d.start()
    finally:
        d.stop()


SIGNED_IN_OR_NOT = ("() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'"
                    " && !!document.querySelector('.st-key-signed_in_as, .st-key-sign_in')")


def browser_as(browser, url: str, user: str | None = None, headers: dict | None = None):
    options = {"viewport": {"width": 1400, "height": 1100}}
    if user:
        options["http_credentials"] = {"username": user, "password": USERS[user]}
    if headers:
        options["extra_http_headers"] = headers
    page = browser.new_context(**options).new_page()
    page.set_default_timeout(SLOW)
    page.goto(url)
    # Drawn, not just idle (issue 33): right after goto the app may be idle before its first run;
    # every page here shows who is signed in or the sign-in page.
    page.wait_for_function(SIGNED_IN_OR_NOT, timeout=SLOW)
    return page


def test_the_page_says_who_you_are_and_only_the_maker_deletes(browser, deployment):
    ana = browser_as(browser, deployment.url, "ana@example.com")
    expect(ana.get_by_text("Signed in as ana@example.com", exact=True)).to_be_visible()
    data, marker, _ = loaddriver.make_transcript(5)
    upload(ana, data)
    link = share(ana)
    assert link.startswith(deployment.url + "/?t=")
    expect(ana.get_by_text("Shared by ana@example.com")).to_be_visible()

    bob = browser_as(browser, link, "bob@example.com")
    expect(bob.get_by_text("Signed in as bob@example.com", exact=True)).to_be_visible()
    expect(bob.locator(loaddriver.TIMELINE).get_by_text(f"{marker} question 0", exact=True)).to_be_visible()
    open_share(bob)
    bob.get_by_role("button", name="Delete this share").click()
    bob.get_by_role("button", name="Yes, delete it").click()
    expect(bob.locator(".st-key-share_delete_refused")).to_contain_text("only ana@example.com")

    open_share(ana)
    ana.get_by_role("button", name="Delete this share").click()
    ana.get_by_role("button", name="Yes, delete it").click()
    expect(ana.get_by_text("The share was deleted")).to_be_visible()
    later = browser_as(browser, link, "bob@example.com")
    expect(later.get_by_text("not found or has expired", exact=False)).to_be_visible()


def test_an_admin_named_by_the_operator_deletes_anyones_share(browser, deployment):
    assert deployment.environment()["INSPECTOR_ADMINS"] == "ops@example.com"  # the recipe's setting
    ana = browser_as(browser, deployment.url, "ana@example.com")
    upload(ana, loaddriver.make_transcript(8)[0])
    link = share(ana)
    ops = browser_as(browser, link, "ops@example.com")
    expect(ops.get_by_text("Signed in as ops@example.com (admin)", exact=True)).to_be_visible(timeout=SLOW)
    expect(ops.locator(loaddriver.TIMELINE + " [data-msg-index]").first).to_be_visible(timeout=SLOW)
    open_share(ops)
    ops.get_by_role("button", name="Delete this share").click()
    ops.get_by_role("button", name="Yes, delete it").click()
    expect(ops.get_by_text("The share was deleted")).to_be_visible(timeout=SLOW)


def test_my_shares_lists_what_i_shared_with_its_expiry(browser, deployment):
    ana = browser_as(browser, deployment.url, "ana@example.com")
    upload(ana, loaddriver.make_transcript(6)[0], name="for-my-list.json")
    share(ana)
    ana.get_by_text("My shares").click()
    listed = ana.locator(".st-key-list_mine")
    expect(listed.get_by_text("for-my-list.json", exact=True)).to_be_visible()
    expect(listed.get_by_text("expires", exact=False).first).to_be_visible()


def test_nobody_gets_in_without_signing_in_at_nginx(deployment):
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(deployment.url + "/", timeout=20)
    assert err.value.code == 401


def test_a_header_sent_through_nginx_is_replaced_by_the_signed_in_user(browser, deployment):
    bob = browser_as(browser, deployment.url, "bob@example.com", headers={"X-Auth-Request-Email": "ana@example.com"})
    expect(bob.get_by_text("Signed in as bob@example.com", exact=True)).to_be_visible()
    expect(bob.get_by_text("ana@example.com")).to_have_count(0)


def test_a_groups_header_sent_through_nginx_makes_nobody_admin(browser, deployment):
    """Issue 33: bob adds the admin group to his own request and tries to delete ana's share."""
    assert deployment.environment()["INSPECTOR_ADMIN_GROUP"] == "inspector-admins"  # the recipe's setting
    ana = browser_as(browser, deployment.url, "ana@example.com")
    upload(ana, loaddriver.make_transcript(4)[0])
    link = share(ana)
    bob = browser_as(browser, link, "bob@example.com", headers=FORGED_GROUPS)
    expect(bob.get_by_text("Signed in as bob@example.com", exact=True)).to_be_visible(timeout=SLOW)
    expect(bob.locator(loaddriver.TIMELINE + " [data-msg-index]").first).to_be_visible(timeout=SLOW)
    # The teammate's view says it is a share, how much was masked and when it expires.
    expect(bob.locator(".st-key-shared_status")).to_contain_text("shared · 0 masked · expires ", timeout=SLOW)
    open_share(bob)
    bob.get_by_role("button", name="Delete this share").click()
    bob.get_by_role("button", name="Yes, delete it").click()
    expect(bob.locator(".st-key-share_delete_refused")).to_contain_text("only ana@example.com", timeout=SLOW)
    # The control: the group nginx gives (its map, the SSO stand-in's group list) does reach the app.
    lead = browser_as(browser, deployment.url, "lead@example.com")
    expect(lead.get_by_text("Signed in as lead@example.com (admin)", exact=True)).to_be_visible()


def test_going_around_nginx_cannot_claim_a_group(browser, deployment):
    replica = deployment.replica_url(0)
    secret = deployment.environment()["INSPECTOR_PROXY_SECRET"]
    as_ana = {"X-Auth-Request-Email": "ana@example.com", "X-Inspector-Proxy-Secret": secret}
    # The groups header Streamlit maps, beside the right secret, is not a group claim.
    mapped = browser_as(browser, replica, headers={**as_ana, "X-Auth-Request-Groups": "inspector-admins"})
    expect(mapped.get_by_text("Signed in as ana@example.com", exact=True)).to_be_visible()
    guessed = browser_as(browser, replica, headers={
        **as_ana, "X-Inspector-Proxy-Groups": f"{secrets.token_urlsafe(24)} inspector-admins"})
    expect(guessed.get_by_text("Signed in as ana@example.com", exact=True)).to_be_visible()
    vouched = browser_as(browser, replica, headers={**as_ana, "X-Inspector-Proxy-Groups": f"{secret} dev,inspector-admins"})
    expect(vouched.get_by_text("Signed in as ana@example.com (admin)", exact=True)).to_be_visible()


def test_going_around_nginx_cannot_impersonate_anyone(browser, deployment):
    replica = deployment.replica_url(0)
    forged = browser_as(browser, replica, headers={"X-Auth-Request-Email": "ana@example.com"})
    expect(forged.locator(".st-key-sign_in")).to_contain_text("Not signed in")
    expect(forged.get_by_test_id("stFileUploaderDropzoneInput")).to_have_count(0)
    expect(forged.get_by_text("ana@example.com")).to_have_count(0)
    guessed = browser_as(browser, replica, headers={"X-Auth-Request-Email": "ana@example.com",
                                                    "X-Inspector-Proxy-Secret": secrets.token_urlsafe(24)})
    expect(guessed.locator(".st-key-sign_in")).to_contain_text("Not signed in")
    # The control: with the proxy's own secret the same header does reach the app, so the two
    # refusals above are the binding's doing, not a header the browser failed to send.
    secret = deployment.environment()["INSPECTOR_PROXY_SECRET"]
    trusted = browser_as(browser, replica, headers={"X-Auth-Request-Email": "ana@example.com",
                                                    "X-Inspector-Proxy-Secret": secret})
    expect(trusted.get_by_text("Signed in as ana@example.com", exact=True)).to_be_visible()


def test_health_and_metrics_are_for_the_replicas_not_through_nginx(deployment):
    for i in (0, 1):
        with urllib.request.urlopen(deployment.replica_url(i) + "/inspector/health", timeout=20) as r:
            assert r.status == 200
    signed_in = base64.b64encode(f"ana@example.com:{USERS['ana@example.com']}".encode()).decode()
    for path in ("/inspector/metrics", "/inspector/health", "/_stcore/metrics"):
        request = urllib.request.Request(deployment.url + path, headers={"Authorization": f"Basic {signed_in}"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(request, timeout=20)
        assert err.value.code == 404
