"""Who is using the page, when the operator turned sign-in on (``INSPECTOR_AUTH``; issue 27).

``gate()`` runs first on every page run. With sign-in off it returns the anonymous user and the
page is what it always was. With ``oidc`` a signed-out visitor gets only the sign-in page
(Streamlit's ``st.login``); with ``proxy`` the identity is the header the reverse proxy set
(``server.trustedUserHeaders`` fills ``st.user``), believed only on a connection that also carries
the proxy's ``X-Inspector-Proxy-Secret``: a request that reaches the app without the proxy cannot
name a user. Anything else sees a "not signed in" page and nothing of the app.

**Groups in proxy mode** (issue 33) are a claim that carries the secret itself:
``X-Inspector-Proxy-Groups: <secret> <group>,<group>``, which only the proxy can write. A groups
header mapped into ``st.user`` is never read in proxy mode: a proxy that forwards the client's own
``X-Auth-Request-Groups`` (nginx passes on every header it does not set) would otherwise let any
signed-in user name himself admin. With OIDC the provider's ``groups`` claim is read as before.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

import streamlit as st

from ..hosting import events
from ..sharing.config import PROXY_GROUPS_HEADER, PROXY_SECRET_HEADER, ConfigError, Hosting
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


def _user(h: Hosting, info, groups: set[str] | None = None) -> User | None:
    """The user ``info`` names; ``groups`` when given (proxy mode) replaces ``info``'s own claim."""
    name = info.get("email") or info.get("preferred_username") or info.get("sub")
    if not name:
        return None
    name = str(name).strip().lower()
    if groups is None:
        groups = _groups(info.get("groups"))
    admin = name in h.admins or bool(h.admin_group and h.admin_group in groups)
    return User(name, True, admin)


def _same(sent: str, secret: str) -> bool:
    return hmac.compare_digest(sent.encode(), secret.encode())


def proxy_groups(h: Hosting, headers) -> set[str]:
    """The groups the proxy vouches for: ``X-Inspector-Proxy-Groups`` whose first word is the
    proxy's secret. Anything else (no header, a wrong or missing secret) is no group at all."""
    secret, _, groups = (headers.get(PROXY_GROUPS_HEADER) or "").strip().partition(" ")
    return _groups(groups) if _same(secret, h.proxy_secret) else set()


def _from_proxy(h: Hosting) -> User | None:
    headers = st.context.headers
    if not _same(headers.get(PROXY_SECRET_HEADER) or "", h.proxy_secret):
        return None
    return _user(h, st.user, proxy_groups(h, headers))


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
