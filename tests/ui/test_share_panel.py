"""The app's share hooks (``inspector.ui.share``) driven headless with Streamlit's AppTest.

The browser-level checks (a link opening in another browser, on another replica) are in
``tests/e2e/test_share*.py``; here the wiring is checked quickly against a real SQLite store.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from inspector.sharing.store import Store

KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
DATA = json.dumps({"messages": [{"role": "user", "content": f"call with {KEY}"},
                                {"role": "assistant", "content": "ok"}]}).encode()
VIEW = {"target": "openai", "dialect": None, "options": {"orphan": "quarantine"}, "selected": 1, "transcript": 0}


def harness():
    """A minimal page: open ?t= links, otherwise offer to share the transcript in session_state."""
    import streamlit as st

    from inspector.ui.share import load_shared, share_panel

    token = st.query_params.get("t")
    if token:
        got = load_shared(token)
        if got:
            data, name, view = got
            st.text(f"opened {name} selected={view['selected']} bytes={len(data)}")
            share_panel(data, name, view)
    else:
        share_panel(st.session_state["data"], "broken.json", st.session_state["view"])


@pytest.fixture
def store_env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'ui.sqlite3'}"
    monkeypatch.setenv("INSPECTOR_STORE_URL", url)
    monkeypatch.setenv("INSPECTOR_BASE_URL", "https://inspector.example.internal")
    monkeypatch.delenv("INSPECTOR_SHARE_TTL_DAYS", raising=False)
    monkeypatch.delenv("INSPECTOR_SHARE_MAX_BYTES", raising=False)
    return url


def started(data=DATA, view=VIEW, **query) -> AppTest:
    at = AppTest.from_function(harness, default_timeout=30)
    at.session_state["data"] = data
    at.session_state["view"] = view
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def link_of(at: AppTest) -> str:
    codes = [c.value for c in at.code if c.value.startswith("https://")]
    assert codes, "no link shown"
    return codes[-1]


def test_secrets_are_previewed_and_masked_by_default(store_env):
    at = started()
    assert not at.exception
    assert any("1 possible secret" in w.value for w in at.warning)
    table = at.dataframe[0].value
    assert list(table["kind"]) == ["API key (sk-)"]
    assert KEY not in table.to_csv()
    assert at.checkbox(key="share_redact").value is True

    at.button(key="share_button").click().run()
    link = link_of(at)
    assert link.startswith("https://inspector.example.internal/?t=") and link.endswith("&m=1")
    store = Store(store_env)
    shared = store.get(parse_qs(urlsplit(link).query)["t"][0])
    store.close()
    assert KEY.encode() not in shared.data and b"[REDACTED API key (sk-)]" in shared.data
    assert shared.view == VIEW


def test_unmasked_share_when_the_user_says_so(store_env):
    at = started()
    at.checkbox(key="share_redact").uncheck().run()
    at.button(key="share_button").click().run()
    store = Store(store_env)
    assert store.get(parse_qs(urlsplit(link_of(at)).query)["t"][0]).data == DATA
    store.close()


def test_link_opens_the_same_transcript_and_view_in_a_new_session(store_env):
    at = started()
    at.button(key="share_button").click().run()
    token = parse_qs(urlsplit(link_of(at)).query)["t"][0]
    other = started(t=token)  # another user's session
    assert not other.exception
    assert [t.value for t in other.text if t.value.startswith("opened")] == [
        f"opened broken.json selected=1 bytes={len(DATA) - len(KEY) + len('[REDACTED API key (sk-)]')}"
    ]


@pytest.mark.parametrize("token", ["made-up-token-that-is-long-enough-x", "x", "'; drop table shares"])
def test_dead_links_say_not_found_or_expired(store_env, token):
    at = started(t=token)
    assert not at.exception
    assert any("not found or has expired" in w.value for w in at.warning)


def test_holder_of_the_link_can_delete_it(store_env):
    at = started()
    at.button(key="share_button").click().run()
    token = parse_qs(urlsplit(link_of(at)).query)["t"][0]
    colleague = started(t=token)
    colleague.button(key="share_delete").click().run()
    # Asked first: the link still opens until the colleague says yes.
    assert any("cannot be undone" in t.value for t in colleague.text)
    assert not any("not found or has expired" in w.value for w in started(t=token).warning)
    colleague.button(key="share_delete_yes").click().run()
    assert any("deleted" in s.value for s in colleague.success)
    again = started(t=token)
    assert any("not found or has expired" in w.value for w in again.warning)
    # The maker's panel, on its next run, no longer offers the dead link.
    at.run()
    assert not any(link in c.value for c in at.code for link in [token])
    assert any("deleted" in s.value for s in at.success)


def test_keep_it_leaves_the_share_alone(store_env):
    at = started()
    at.button(key="share_button").click().run()
    at.button(key="share_delete").click().run()
    at.button(key="share_delete_no").click().run()
    assert link_of(at)  # still offered
    token = parse_qs(urlsplit(link_of(at)).query)["t"][0]
    assert not any("not found or has expired" in w.value for w in started(t=token).warning)


def test_extra_patterns_typed_in_the_panel(store_env):
    data = json.dumps([{"role": "user", "content": "ticket ACME-4242"}]).encode()
    at = started(data=data)
    assert not at.warning
    at.text_area(key="share_patterns").input(r"ACME-\d+").run()
    assert any("1 possible secret" in w.value for w in at.warning)
    at.text_area(key="share_patterns").input("(broken").run()
    assert any("not a valid regular expression" in e.value for e in at.error)


def test_too_large_to_share_is_explained(store_env, monkeypatch):
    monkeypatch.setenv("INSPECTOR_SHARE_MAX_BYTES", "10")
    at = started()
    assert any("limited to 10 bytes" in e.value for e in at.error)
    assert not at.button  # no Share button to press


def test_hosting_config_is_set_for_internal_use():
    """.streamlit/config.toml: headless, no usage statistics, XSRF on, an upload limit, no watcher."""
    import tomllib
    from pathlib import Path

    cfg = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    server = cfg["server"]
    assert server["headless"] is True and server["enableXsrfProtection"] is True
    assert server["fileWatcherType"] == "none" and server["runOnSave"] is False
    assert 0 < server["maxUploadSize"] <= 1000
    assert cfg["browser"]["gatherUsageStats"] is False
    assert "cookieSecret" not in server  # per deployment, from the environment, never committed


def test_expiry_chosen_in_the_panel_is_stored(store_env, monkeypatch):
    monkeypatch.setenv("INSPECTOR_SHARE_TTL_DAYS", "14")
    at = started()
    ttl = at.number_input(key="share_ttl")
    assert ttl.value == 14 and ttl.max == 14  # the configured time is the default and the longest
    ttl.set_value(2.0).run()
    at.button(key="share_button").click().run()
    store = Store(store_env)
    shared = store.get(parse_qs(urlsplit(link_of(at)).query)["t"][0])
    store.close()
    assert shared.expires_at - shared.created_at == 2 * 86400


def _counting_scans(monkeypatch) -> list:
    from inspector.sharing.redact import Redactor
    from inspector.ui import bytecache

    bytecache.clear()
    scans = []
    real = Redactor.scan

    def counting(self, data):
        scans.append(len(data))
        return real(self, data)

    monkeypatch.setattr(Redactor, "scan", counting)
    return scans


def test_a_file_opened_by_several_sessions_is_scanned_for_secrets_once(store_env, monkeypatch):
    # issue 22: a share link opened by ten colleagues is checked once, the secret scan included
    monkeypatch.setenv("INSPECTOR_WORKERS", "0")  # count the scans in this process only
    scans = _counting_scans(monkeypatch)
    sessions = [started() for _ in range(3)]
    for at in sessions:
        assert not at.exception
        assert any("1 possible secret" in w.value for w in at.warning)
    assert scans == [len(DATA)]
    sessions[0].button(key="share_button").click().run()  # sharing masks with the scan already made
    assert KEY not in link_of(sessions[0]) and scans == [len(DATA)]


def test_patterns_that_ran_out_of_time_are_not_run_again_on_each_click(store_env, monkeypatch):
    monkeypatch.setenv("INSPECTOR_WORKERS", "0")
    monkeypatch.setenv("INSPECTOR_REDACT_SECONDS", "0.000000001")
    monkeypatch.setenv("INSPECTOR_REDACT_PATTERNS", json.dumps(["[^\\n]{100}X"]))
    scans = _counting_scans(monkeypatch)
    at = started(data=json.dumps([{"role": "user", "content": "hello " * 1_000}]).encode())
    said = [e.value for e in at.error if e.value.startswith("Not shared: the masking patterns took more than")]
    assert len(said) == 1 and not at.button  # no Share button: not scanned, not shared
    at.run()
    at.run()
    assert len(scans) == 1


def test_the_panel_says_what_it_checked_and_the_teammate_sees_how_many_were_masked(store_env):
    """Issue 33: "Checked N kinds of secret: ..." instead of "No secrets found"; the colleague who
    opens the link reads "shared · 1 masked · expires ..."."""
    from inspector.sharing.redact import Redactor

    n = len(Redactor.build().kinds)
    clean = started(data=json.dumps([{"role": "user", "content": "nothing here"}]).encode())
    assert f"Checked {n} kinds of secret: none found." in [t.value for t in clean.text]
    at = started()
    assert f"Checked {n} kinds of secret: 1 found (1 API key (sk-))." in [t.value for t in at.text]
    at.button(key="share_button").click().run()
    assert any(t.value.startswith("Link (shared · 1 masked · expires ") for t in at.text)
    token = parse_qs(urlsplit(link_of(at)).query)["t"][0]
    teammate = started(t=token)
    assert any(t.value.startswith("Link (shared · 1 masked · expires ") for t in teammate.text)
