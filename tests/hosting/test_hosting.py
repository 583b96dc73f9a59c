"""Hosting for a team (issue 27): the server's health and metrics endpoints, retention that runs by
itself, sign-in settings, JSON-lines logs without transcript text.

The server tests start the hosted entry (``streamlit run server.py``) as a real process on
127.0.0.1 with a SQLite store and talk to it over HTTP; the log test drives the real page with
AppTest and reads what the ``inspector`` logger wrote.
"""

from __future__ import annotations

import io
import json
import logging
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy as sa

from inspector.sharing.config import ConfigError, Hosting, oidc_secrets
from inspector.sharing.store import Store, hash_token

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import appserver

MARKER = "zebra-quartz-7731"
KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
TRANSCRIPT = json.dumps([
    {"role": "user", "content": f"{MARKER} deploy with {KEY}"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "deploy", "arguments": "{}"}}]},
]).encode()


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def metric(app_url: str, name: str) -> float:
    status, body = get(app_url + "/inspector/metrics")
    assert status == 200
    for line in body.decode().splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in the metrics:\n{body.decode()}")


@pytest.fixture(scope="module")
def hosted(tmp_path_factory):
    db = tmp_path_factory.mktemp("hosted") / "shares.sqlite3"
    app = appserver.start({"INSPECTOR_STORE_PATH": str(db), "INSPECTOR_PURGE_INTERVAL_SECONDS": "1",
                           "INSPECTOR_LOG_FORMAT": "json"}, script="server.py")
    yield app, f"sqlite:///{db}"
    app.stop()


def test_health_answers_for_the_store_too(hosted):
    app, _ = hosted
    status, body = get(app.url + "/inspector/health")
    assert status == 200 and json.loads(body) == {"status": "ok", "store": "ok"}
    assert get(app.url + "/_stcore/health") == (200, b"ok")  # Streamlit's own is still there


def test_metrics_are_prometheus_text_with_every_counter(hosted):
    app, _ = hosted
    status, body = get(app.url + "/inspector/metrics")
    text = body.decode()
    assert status == 200
    for name in ("checks", "unreadable_inputs", "shares_created", "shares_opened", "shares_expired",
                 "store_errors"):
        assert f"# TYPE inspector_{name}_total counter" in text and f"inspector_{name}_total " in text
    assert "inspector_store_up " in text


def test_a_one_second_share_is_purged_by_the_server_on_its_own_and_counted(hosted):
    app, url = hosted
    before = metric(app.url, "inspector_shares_expired_total")
    store = Store(url)
    token = store.put(TRANSCRIPT, "short.json", {}, ttl_seconds=1, owner="ana@example.com")
    share_id = hash_token(token)
    # Nothing else happens: no page, no other share; only the server's schedule can delete it.
    deadline = time.monotonic() + 120
    with store.engine.connect() as conn:
        while conn.execute(sa.text("SELECT count(*) FROM shares WHERE token_hash = :h"), {"h": share_id}).scalar():
            assert time.monotonic() < deadline, "the expired share is still in the store"
            time.sleep(0.5)
            conn.rollback()
    assert [(e.action, e.actor) for e in store.audit_log(share_id)] == [("expire", "retention"), ("create", "ana@example.com")]
    assert metric(app.url, "inspector_shares_expired_total") >= before + 1
    store.close()
    log = app.output()
    assert '"event": "shares_expired"' in log
    assert MARKER not in log and KEY not in log


def test_retention_starts_with_the_server_not_with_a_visitor(hosted):
    app, _ = hosted
    lines = [json.loads(line) for line in app.output().splitlines() if line.startswith("{")]
    assert any(d.get("event") == "retention_started" and d.get("interval") == 1.0 for d in lines)


def test_logs_are_json_lines_without_transcript_text_or_secrets(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from inspector.hosting import events

    monkeypatch.setenv("INSPECTOR_STORE_URL", f"sqlite:///{tmp_path / 'log.sqlite3'}")
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(events.JsonLines())
    events.log.addHandler(handler)
    events.log.setLevel(logging.INFO)
    before = events.REGISTRY.get_sample_value("inspector_checks_total")
    try:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.run()
        at.file_uploader(key="upload").set_value((f"{MARKER}.json", TRANSCRIPT, "application/json")).run()
        at.run()  # the share panel prepares in a second run
        at.checkbox(key="share_redact").uncheck().run()  # share the key as it is: the log still must not show it
        at.button(key="share_button").click().run()
        assert not at.exception
        assert any("/?t=" in c.value for c in at.code)  # shared
        assert any(c.value.startswith("Retention: shares are deleted automatically when they expire, after 30 days at most")
                   for c in at.caption)  # the operator's maximum, shown in the Share panel
        at.file_uploader(key="upload").set_value(("bad.json", b"{not json", "application/json")).run()
    finally:
        events.log.removeHandler(handler)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    names = [d["event"] for d in lines]
    assert "checks" in names and "shares_created" in names and "unreadable_inputs" in names
    created = next(d for d in lines if d["event"] == "shares_created")
    assert created["user"] == "anonymous" and len(created["share"]) == 12 and created["bytes"] == len(TRANSCRIPT)
    assert all(isinstance(d["ts"], float) and d["level"] == "info" for d in lines)
    text = out.getvalue()
    assert MARKER not in text and KEY not in text and "deploy" not in text
    assert events.REGISTRY.get_sample_value("inspector_checks_total") >= before + 1


def test_sign_in_is_off_unless_the_operator_turns_it_on():
    assert Hosting.from_env({}) == Hosting()
    assert not Hosting.from_env({}).sign_in
    with pytest.raises(ConfigError, match="INSPECTOR_PROXY_SECRET"):
        Hosting.from_env({"INSPECTOR_AUTH": "proxy"})
    h = Hosting.from_env({"INSPECTOR_AUTH": "proxy", "INSPECTOR_PROXY_SECRET": "s" * 32,
                          "INSPECTOR_ADMINS": "Ops@Example.com, root@example.com", "INSPECTOR_TEAM_SHARES": "1"})
    assert h.sign_in and h.admins == ("ops@example.com", "root@example.com") and h.team_shares
    with pytest.raises(ConfigError, match="INSPECTOR_AUTH"):
        Hosting.from_env({"INSPECTOR_AUTH": "ldap"})
    with pytest.raises(ConfigError, match="INSPECTOR_LOG_FORMAT"):
        Hosting.from_env({"INSPECTOR_LOG_FORMAT": "xml"})


def test_oidc_settings_from_the_environment_need_all_five():
    assert oidc_secrets({}) is None
    with pytest.raises(ConfigError, match="INSPECTOR_OIDC_CLIENT_SECRET"):
        oidc_secrets({"INSPECTOR_OIDC_CLIENT_ID": "x"})
    full = {"INSPECTOR_OIDC_METADATA_URL": "http://127.0.0.1:9/.well-known/openid-configuration",
            "INSPECTOR_OIDC_CLIENT_ID": "inspector", "INSPECTOR_OIDC_CLIENT_SECRET": "s",
            "INSPECTOR_OIDC_REDIRECT_URI": "http://127.0.0.1:8501/oauth2callback",
            "INSPECTOR_OIDC_COOKIE_SECRET": "c" * 32}
    assert oidc_secrets(full)["client_id"] == "inspector"
    with pytest.raises(ConfigError, match="oauth2callback"):
        oidc_secrets({**full, "INSPECTOR_OIDC_REDIRECT_URI": "http://127.0.0.1:8501/"})


def test_sign_in_returns_to_the_share_link_it_started_from():
    """Streamlit's OIDC callback always redirects to ``/``; the middleware puts the link's query back."""
    from inspector.hosting.routes import ReturnAfterSignIn

    def asgi(status, location):
        async def app(scope, receive, send):
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"location", location.encode())] if location else []})
            await send({"type": "http.response.body", "body": b""})
        return app

    def call(app, path, headers):
        sent = []

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "path": path, "headers": [(k.encode(), v.encode()) for k, v in headers.items()]}
        # Nothing here waits, so one step runs the coroutine to its end (asyncio.run would refuse
        # to start when the browser tests' event loop runs in this thread).
        with pytest.raises(StopIteration):
            ReturnAfterSignIn(app)(scope, None, send).send(None)
        return {k.decode(): v.decode() for k, v in sent[0]["headers"]} | {"status": sent[0]["status"]}, sent

    login, _ = call(asgi(302, "http://idp/authorize"), "/auth/login",
                    {"host": "inspector.internal", "referer": "https://inspector.internal/?t=abc_DEF-123&m=3"})
    cookie = login["set-cookie"].split(";")[0]
    assert cookie.startswith("inspector_return=") and "HttpOnly" in login["set-cookie"]
    back, _ = call(asgi(302, "/"), "/oauth2callback", {"host": "inspector.internal", "cookie": cookie})
    assert back["location"] == "/?t=abc_DEF-123&m=3"
    assert "Max-Age=0" in back["set-cookie"]  # used once
    # Another site's page is not a place to return to; a page without a query needs nothing.
    other, _ = call(asgi(302, "http://idp/authorize"), "/auth/login",
                    {"host": "inspector.internal", "referer": "https://evil.example/?t=x"})
    assert "set-cookie" not in other
    plain, _ = call(asgi(302, "/"), "/oauth2callback", {"host": "inspector.internal"})
    assert plain["location"] == "/"


def test_the_team_list_shows_everyones_live_shares_only_when_turned_on(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    url = f"sqlite:///{tmp_path / 'team.sqlite3'}"
    monkeypatch.setenv("INSPECTOR_STORE_URL", url)
    store = Store(url)
    store.put(TRANSCRIPT, "bobs-findings.json", {}, owner="bob@example.com")
    store.close()

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert "bobs-findings.json" not in [t.value for t in at.text]  # off by default: links are capabilities
    monkeypatch.setenv("INSPECTOR_TEAM_SHARES", "1")
    at.run()
    assert not at.exception
    assert "bobs-findings.json" in [t.value for t in at.text]
    assert any(c.value.startswith("by bob@example.com, made ") and "expires" in c.value for c in at.caption)
    at.button(key=next(b.key for b in at.button if b.key and b.key.startswith("open:Team shares:"))).click().run()
    assert not at.exception
    assert "bobs-findings.json" in [t.value for t in at.text if t.value == "bobs-findings.json"]
    assert any(m.label == "Messages" for m in at.metric)  # the shared transcript is open


def test_admins_are_named_users_or_members_of_the_named_group():
    from inspector.ui.signin import _user

    h = Hosting(auth="proxy", proxy_secret="s" * 32, admins=("ops@example.com",), admin_group="inspector-admins")
    assert _user(h, {"email": "Ops@Example.com"}).admin  # emails compare without case
    assert _user(h, {"email": "ana@example.com", "groups": "dev, inspector-admins"}).admin  # a proxy header
    assert _user(h, {"email": "ana@example.com", "groups": ["inspector-admins"]}).admin  # an OIDC claim
    assert not _user(h, {"email": "bob@example.com", "groups": "dev"}).admin
    assert _user(h, {"sub": "u-123"}).name == "u-123"  # no email: the subject
    # Proxy mode passes the groups the proxy vouched for; the header's own claim is then ignored.
    assert not _user(h, {"email": "bob@example.com", "groups": "inspector-admins"}, set()).admin
    assert _user(h, {"email": "bob@example.com"}, {"inspector-admins"}).admin
    assert _user(h, {"email": None}) is None  # no identity at all: not signed in


def test_a_group_claim_counts_only_with_the_proxy_secret_in_it():
    """Issue 33: ``X-Inspector-Proxy-Groups`` is "<secret> <groups>"; any other value is no group."""
    from inspector.ui.signin import proxy_groups

    secret = "s" * 32
    h = Hosting(auth="proxy", proxy_secret=secret, admin_group="inspector-admins")
    assert proxy_groups(h, {"X-Inspector-Proxy-Groups": f"{secret} dev, inspector-admins"}) == {"dev", "inspector-admins"}
    assert proxy_groups(h, {"X-Inspector-Proxy-Groups": f"{secret} "}) == set()  # the proxy knows no group
    for forged in ("inspector-admins", f"{'t' * 32} inspector-admins", f"{secret}inspector-admins", f" {secret[:-1]} x", ""):
        assert proxy_groups(h, {"X-Inspector-Proxy-Groups": forged}) == set(), forged
    assert proxy_groups(h, {"X-Auth-Request-Groups": "inspector-admins"}) == set()
