"""The team inbox: every request the guard recorded (``INSPECTOR_RECORD=1`` or ``inspector proxy
--record``), newest first, from the share store.

``?inbox=all`` lists them (time, source, provider and model, verdict, the provider's error text,
the first finding), filterable by provider, rule and source, refreshed every second. ``?inbox=<id>``
(an entry's link, the same one ``inspector inbox`` prints) opens the recorded request in the
timeline: it is a one-entry HAR, so the provider's error is applied as for any HAR capture (a
request the guard only predicted a refusal for gets the words the provider would use), on the
culprit message. Everything from a record reaches the page as text only.
"""

from __future__ import annotations

import re

import streamlit as st

from . import state

PARAM = "inbox"
_SEEN = "_inbox_seen"
_ID = re.compile(r"[0-9a-f]{32}")
VERDICT_WORDS = {"would_reject": "would be rejected", "rejected": "rejected by the provider",
                 "repaired": "repaired", "unreadable": "unreadable"}


def route() -> bool:
    """Handle ``?inbox``: True when the inbox list was drawn (the page is done)."""
    value = st.query_params.get(PARAM)
    if not value:
        return False
    if _ID.fullmatch(value):
        _open(value)
        return False
    inbox_page()
    return True


def _store():
    from .share import _settings_and_store

    return _settings_and_store()


def _open(rid: str) -> None:
    """Load a record into the page once per id (later reruns keep what the user did with it)."""
    if st.session_state.get(_SEEN) == rid:
        return
    st.session_state[_SEEN] = rid
    got = _store()
    if got is None:
        return
    _, store = got
    found = store.record(rid)
    if found is None:
        state.set_error("this inbox entry does not exist any more (records expire like shares)")
        return
    meta, data = found
    from .url import view_from_url

    view = {"target": meta["provider"], "dialect": meta["dialect"], "selected": meta["culprit"],
            **view_from_url()}
    when = meta["created_at"]
    state.set_loaded(data, f"inbox-{meta['source']}-{when}.har", "inbox", view)
    if meta["verdict"] != "rejected" and meta["provider_error"]:
        # No refusal came back (observe mode sent it, or the guard refused it first): apply the
        # words the provider would use, as if pasted.
        st.session_state["pasted_error"] = meta["provider_error"]


def open_button() -> None:
    """The sidebar's way in."""
    st.button("Team inbox", key="open_inbox", icon=":material/inbox:", width="stretch",
              on_click=lambda: st.query_params.update({PARAM: "all"}),
              help="Requests the guard (inspector proxy --record, INSPECTOR_RECORD=1) saw refused, "
                   "would refuse, or repaired.")


def _link(base: str, r: dict) -> str:
    from ..sharing.store import inbox_link

    return inbox_link(base, r["id"], r["culprit"])


def _show(rid: str, culprit) -> None:
    st.query_params.from_dict({PARAM: rid, **({"m": str(culprit)} if culprit is not None else {})})


def inbox_page() -> None:
    from ..targets import TARGETS
    from .share import _base_url

    st.title("Team inbox", anchor=False)
    st.session_state.pop(_SEEN, None)  # opening an entry again loads it again
    st.button("Back to the inspector", key="inbox_back", icon=":material/arrow_back:",
              on_click=lambda: st.query_params.pop(PARAM, None))
    got = _store()
    if got is None:
        return
    settings, store = got
    c1, c2, c3 = st.columns(3)
    with c1:
        provider = st.selectbox("Provider", ["all", *TARGETS], key="inbox_provider")
    with c2:
        rule = st.text_input("Rule", key="inbox_rule", placeholder="TC001")
    with c3:
        source = st.selectbox("Source", ["all", "proxy", "sdk", "litellm", "langchain", "test"], key="inbox_source")
    base = _base_url(settings)

    @st.fragment(run_every=1.0)
    def listing() -> None:
        rows = store.records(provider=None if provider == "all" else provider,
                             rule=rule.strip().upper() or None, source=None if source == "all" else source,
                             limit=200)
        if not rows:
            st.text("No recorded requests" + (" match these filters." if provider != "all" or rule or source != "all"
                                              else " yet. Start the proxy with --record, or set INSPECTOR_RECORD=1."))
            return
        import time

        for r in rows:
            with st.container(key=f"inbox_row_{r['id']}", border=True):
                a, b = st.columns([5, 1], vertical_alignment="center")
                with a:
                    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(r["created_at"]))
                    who = (r["provider"] or "?") + (f" / {r['model']}" if r["model"] else "")
                    st.text(f"{when} · {r['source']} · {who} · {VERDICT_WORDS.get(r['verdict'], r['verdict'])}"
                            + (f" (HTTP {r['status']})" if r["status"] else ""))
                    if r["provider_error"]:
                        st.text(f"Provider: {r['provider_error'][:400]}")
                    if r["first_finding"]:
                        st.text(f"First finding: {r['first_finding'][:400]}")
                    st.text(f"Link: {_link(base, r)}")
                with b:
                    if st.button("Open", key=f"inbox_open_{r['id']}", icon=":material/open_in_new:"):
                        _show(r["id"], r["culprit"])
                        st.rerun(scope="app")  # the button is in the fragment; the page must change

    listing()
