"""Share links in the app: open a shared transcript (``?t=<token>``) and the Share panel.

``load_shared(token)`` returns ``(bytes, file name, view)`` for a link, or shows "not found or
expired" and returns None. ``share_panel(data, name, view)`` offers to mask secrets (with a
preview of what will be masked), stores the transcript with its view and shows the link in the
container keyed ``share_url``; whoever holds a link (its maker, or a colleague who opened it) can
delete the share from the same panel.

The store is opened once per process (``st.cache_resource``): replicas share it only through the
database, so a link made on one replica opens on any other. Transcript text reaches the page only
through ``st.dataframe``/``st.code``/``st.text``.
"""

from __future__ import annotations

import hashlib
import os
import time
from typing import Any

import streamlit as st

from ..config import ConfigError, Settings
from ..redact import MaskingError, PatternError, Redactor, check_masked, context
from ..store import ShareTooLarge, Store, error_line, looks_like_token, share_link

NOT_FOUND = (
    "This shared link was not found or has expired (shares expire, and whoever holds a link can delete it). "
    "Ask for a new link, or open the file itself."
)
_LINKS = "_share_links"  # session_state: transcript digest -> the share this session holds
_SCANS = "_share_scans"  # session_state: (digest, patterns) -> secrets found


@st.cache_resource(show_spinner=False)
def _open_store(url: str, max_bytes: int, ttl_days: float) -> Store:
    return Store(url, max_bytes=max_bytes, ttl_days=ttl_days)


# store URL -> (when, one line): a store that failed to open is not tried again on every page
# (a locked SQLite file made each run wait for its busy timeout) until this many seconds pass.
_FAILED: dict[str, tuple[float, str]] = {}
RETRY_AFTER_SECONDS = 60.0


def _settings_and_store() -> tuple[Settings, Store] | None:
    """The configured store, or None after telling the user why it cannot be used."""
    try:
        s = Settings.from_env()
    except ConfigError as exc:
        st.error("Sharing is not configured correctly:")
        st.code(str(exc), language=None)
        return None
    failed = _FAILED.get(s.store_url)
    if failed is not None and time.monotonic() - failed[0] < RETRY_AFTER_SECONDS:
        st.error("The share store cannot be reached right now; try again later.")
        st.code(failed[1], language=None)
        return None
    try:
        store = _open_store(s.store_url, s.share_max_bytes, s.share_ttl_days)
    except Exception as exc:  # noqa: BLE001 - a driver error must not take the page down
        _FAILED[s.store_url] = (time.monotonic(), error_line(exc))
        st.error("The share store cannot be reached right now; try again later.")
        st.code(error_line(exc), language=None)
        return None
    _FAILED.pop(s.store_url, None)
    return s, store


def _base_url(settings: Settings) -> str:
    """``INSPECTOR_BASE_URL`` when set, else the address in the user's browser (the proxy's)."""
    if os.environ.get("INSPECTOR_BASE_URL", "").strip():
        return settings.base_url
    return (st.context.url or settings.base_url).rstrip("/")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _held() -> dict[str, dict[str, Any]]:
    return st.session_state.setdefault(_LINKS, {})


def load_shared(token: str) -> tuple[bytes, str, dict] | None:
    """The shared file, its name and its view; None (after saying so) when the link is dead."""
    if not looks_like_token(token):
        st.warning(NOT_FOUND)
        return None
    opened = st.session_state.setdefault("_share_opened", {})
    if token in opened:  # reruns of this session do not fetch and inflate the blob again
        return opened[token]
    got = _settings_and_store()
    if got is None:
        return None
    settings, store = got
    try:
        shared = store.get(token)
    except Exception as exc:  # noqa: BLE001
        st.error("The share store cannot be reached right now; try again later.")
        st.code(error_line(exc), language=None)
        return None
    if shared is None:
        st.warning(NOT_FOUND)
        return None
    result = (shared.data, shared.name, dict(shared.view))
    opened[token] = result
    _held()[_digest(shared.data)] = {
        "token": token,
        "url": share_link(_base_url(settings), token, shared.view.get("selected")),
        "view": dict(shared.view),
        "expires_at": shared.expires_at,
        "masked": None,
    }
    return result


def _scan(redactor: Redactor, data: bytes, digest: str, extra: tuple[str, ...]):
    cache = st.session_state.setdefault(_SCANS, {})
    key = (digest, extra)
    if key not in cache:
        cache.clear()  # one transcript at a time per session; keep memory flat
        cache[key] = redactor.scan(data)
    return cache[key]


def _preview_table(data: bytes, found) -> None:
    import pandas as pd

    text = data.decode("utf-8", "surrogateescape")
    rows = [
        {"kind": s.kind, "line": s.line, "column": s.column, "secret": s.preview, "after masking": context(text, s)}
        for s in found
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="share_secrets")


def share_panel(data: bytes, name: str, view: dict) -> None:
    """Share button, redaction preview, link (container ``share_url``) and delete.

    Not a fragment on purpose: pressing Share must rerun the page so that ``view`` holds the
    message selected a moment ago (a fragment would rerun with the arguments of the last full run).
    """
    got = _settings_and_store()
    if got is None:
        return
    settings, store = got
    digest = _digest(data)
    held = _held()

    with st.expander("More patterns to mask"):
        extra_text = st.text_area(
            "Regular expressions, one a line",
            key="share_patterns",
            help="Added to the built-in ones (API keys such as sk-…, AKIA…, bearer tokens, private keys) "
            "and to INSPECTOR_REDACT_PATTERNS. A group named 'secret' masks only that group.",
            height=68,
        )
    extra = tuple(p.strip() for p in extra_text.splitlines() if p.strip())
    try:
        redactor = Redactor.build((*settings.redact_patterns, *extra))
    except PatternError as exc:
        st.error("A pattern is not a valid regular expression, or needs look-around or back-references, which linear-time matching rules out:")
        st.code(str(exc), language=None)
        return
    found = _scan(redactor, data, digest, extra)
    if found:
        st.warning(f"{len(found)} possible secret(s) found in this transcript.")
        mask = st.checkbox(f"Mask the {len(found)} secret(s) before sharing", value=True, key="share_redact")
        _preview_table(data, found)
    else:
        mask = False
        st.text("No secrets found (API keys, tokens, private keys, configured patterns).")

    ttl = st.number_input(
        "Link expires after (days)",
        min_value=min(0.01, float(settings.share_ttl_days)),
        max_value=float(settings.share_ttl_days),
        value=float(settings.share_ttl_days),
        step=1.0,
        format="%g",
        key="share_ttl",
    )
    if len(data) > settings.share_max_bytes:
        st.error(
            f"This transcript is {len(data):,} bytes; shares are limited to {settings.share_max_bytes:,} bytes."
        )
        return

    if st.button("Share", key="share_button", type="primary", icon=":material/link:"):
        payload = redactor.mask(data, found) if mask else data
        try:
            if mask:
                check_masked(data, payload)
            token = store.put(payload, name, view, ttl_days=ttl)
        except (ShareTooLarge, MaskingError) as exc:
            st.error(f"Not shared: {exc}")
            return
        except Exception as exc:  # noqa: BLE001
            st.error("The transcript could not be stored; try again later.")
            st.code(error_line(exc), language=None)
            return
        held[digest] = {
            "token": token,
            "url": share_link(_base_url(settings), token, view.get("selected")),
            "view": dict(view),
            "expires_at": int(time.time() + ttl * 86400),
            "masked": len(found) if mask else 0,
        }
        st.session_state.pop("_share_deleted", None)

    failure = st.session_state.pop("_share_delete_error", None)
    if failure:
        st.error("The share could not be deleted; try again later.")
        st.code(failure, language=None)
    link = held.get(digest)
    if link is None:
        if st.session_state.get("_share_deleted") == digest:
            st.success("The share was deleted; its link no longer opens.")
        return
    with st.container(key="share_url"):
        expires = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(link["expires_at"]))
        masked = f", {link['masked']} secret(s) masked" if link["masked"] else ""
        st.text(f"Link (expires {expires}{masked}):")
        st.code(link["url"], language=None)
    if link["view"] != view:
        st.text("The view has changed since this link was made; press Share again to include it.")
    st.button("Delete this share", key="share_delete", icon=":material/delete:", on_click=_delete, args=(store, digest))


def _delete(store: Store, digest: str) -> None:
    """Button callback: runs before the rerun, so the dead link is never drawn again."""
    link = _held().get(digest)
    if link is None:
        return
    try:
        store.delete(link["token"])
    except Exception as exc:  # noqa: BLE001
        st.session_state["_share_delete_error"] = error_line(exc)
        return
    # The transcript stays open in this session (``_share_opened``); only the link dies.
    _held().pop(digest, None)
    st.session_state["_share_deleted"] = digest
