"""Who is using the page, when the operator turned sign-in on (``INSPECTOR_AUTH``; issue 27).

``gate()`` runs first on every page run. With sign-in off it returns the anonymous user and the
page is what it always was. With ``oidc`` a signed-out visitor gets only the sign-in page
(Streamlit's ``st.login``); with ``proxy`` the identity is the header the reverse proxy set
(``server.trustedUserHeaders`` fills ``st.user``), believed only on a connection that also carries
the proxy's ``X-Inspector-Proxy-Secret``: a request that reaches the app without the proxy cannot
name a user. Anything else sees a "not signed in" page and nothing of the app.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

import streamlit as st

from ..hosting import events
from ..sharing.config import PROXY_SECRET_HEADER, ConfigError, Hosting
from ..sharing.store import ANONYMOUS

USER = "_inspector_user"  # session_state: the User of this run, for the share panel and lists


@dataclass(frozen=True)
class User:
    name: str  # the email (or the subject when the provider gives no email); "anonymous" when off
    signed_in: bool
    admin: bool = False


def hosting() -> Hosting | None:
    try:
        return Hosting.from_env()
    except ConfigError as exc:
        st.error("The inspector's hosting settings are wrong:")
        st.code(str(exc), language=None)
        return None


def _groups(raw) -> set[str]:
    if isinstance(raw, str):
        return {g.strip() for g in raw.split(",") if g.strip()}
    if isinstance(raw, (list, tuple)):
        return {str(g) for g in raw}
    return set()


def _user(h: Hosting, info) -> User | None:
    name = info.get("email") or info.get("preferred_username") or info.get("sub")
    if not name:
        return None
    name = str(name).strip().lower()
    admin = name in h.admins or bool(h.admin_group and h.admin_group in _groups(info.get("groups")))
    return User(name, True, admin)


def _from_proxy(h: Hosting) -> User | None:
    sent = st.context.headers.get(PROXY_SECRET_HEADER) or ""
    if not hmac.compare_digest(sent.encode(), h.proxy_secret.encode()):
        return None
    return _user(h, st.user)


def _from_oidc(h: Hosting) -> User | None:
    if not st.user.is_logged_in:
        return None
    return _user(h, st.user)


def gate() -> tuple[Hosting, User]:
    """The settings and the user; stops the page (after the sign-in page) when nobody is signed in."""
    h = hosting()
    if h is None:
        st.stop()
    events.configure(h.log_json)  # ``streamlit run app.py`` has no server start-up to do it
    if not h.sign_in:
        st.session_state[USER] = User(ANONYMOUS, False)
        return h, st.session_state[USER]
    user = _from_oidc(h) if h.auth == "oidc" else _from_proxy(h)
    if user is None:
        st.title("Tool-call transcript inspector", anchor=False)
        with st.container(key="sign_in"):
            if h.auth == "oidc":
                st.text("Sign in to use the inspector. A shared link opens once you are signed in.")
                st.button("Sign in", key="sign_in_button", type="primary", on_click=st.login,
                          icon=":material/login:")
            else:
                st.text("Not signed in. Open the inspector through your company's sign-in address; "
                        "this address does not accept requests that bypass it.")
        st.stop()
    st.session_state[USER] = user
    with st.sidebar, st.container(key="signed_in_as", horizontal=True, vertical_alignment="center"):
        st.text(f"Signed in as {user.name}" + (" (admin)" if user.admin else ""))
        if h.auth == "oidc":
            st.button("Sign out", key="sign_out", on_click=st.logout, type="tertiary")
    return h, user
