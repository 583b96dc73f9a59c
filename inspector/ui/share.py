"""Share links in the app: open a shared transcript (``?t=<token>``) and the Share panel.

``load_shared(token)`` returns ``(bytes, file name, view)`` for a link, or shows "not found or
expired" and returns None. ``share_panel(data, name, view)`` offers to mask secrets (with a
preview of what will be masked), stores the transcript with its view and shows the whole link in
the container keyed ``share_url`` with a Copy button; whoever holds a link (its maker, or a
colleague who opened it) can delete the share from the same panel, after a confirmation. A link
deleted elsewhere is no longer offered.

The store is opened once per process (``st.cache_resource``): replicas share it only through the
database, so a link made on one replica opens on any other. Transcript text reaches the page only
through ``st.dataframe``/``st.code``/``st.text``.

With sign-in on (``inspector.ui.signin``) a share records who made it, only that user or an admin
may delete it, and ``share_lists`` shows "My shares" (and everyone's, with
``INSPECTOR_TEAM_SHARES=1``). Every create, open and delete is counted and logged
(``inspector.hosting.events``) and written to the store's audit table.
"""

from __future__ import annotations

import hashlib
import os
import time
from typing import Any

import streamlit as st

from ..errors import InputError
from ..hosting import events, retention
from ..render import asset
from ..sharing import store as _store
from ..sharing.config import ConfigError, Settings
from ..sharing.redact import MaskingError, PatternError, Redactor, Secret, check_masked, context, masked_in
from ..sharing.store import NotOwner, ShareTooLarge, Store, error_line, hash_token, looks_like_token, share_link
from .bytecache import byte_cached
from .signin import USER
from .workers import WorkCrash, limits

NOT_FOUND = (
    "This shared link was not found or has expired (shares expire, and whoever holds a link can delete it). "
    "Ask for a new link, or open the file itself."
)
UNAVAILABLE = "Share store unavailable: it cannot be reached right now; try again later."
_LINKS = "_share_links"  # session_state: transcript digest -> the share this session holds
_CONFIRM = "_share_confirm"  # session_state: the digest whose share the user asked to delete, awaiting yes


@st.cache_resource(show_spinner=False)
def _open_store(url: str, max_bytes: int, ttl_days: float) -> Store:
    store = Store(url, max_bytes=max_bytes, ttl_days=ttl_days)
    store.on_expired = lambda n: events.record("shares_expired", count=n)
    retention.start()  # ``streamlit run app.py`` has no server start-up: the schedule starts here
    return store


def _user():
    """The signed-in user of this run (``signin.User``), or None when the gate did not run (tests)."""
    return st.session_state.get(USER)


def _actor() -> str:
    u = _user()
    return u.name if u is not None else "anonymous"


def _said(exc: BaseException, where: str) -> str:
    """The sentence a user sees for a store error (generic; the details go to the server log)."""
    line = error_line(exc, where)
    return UNAVAILABLE if line == _store.UNAVAILABLE else line[:1].upper() + line[1:] + "."


def _unavailable(exc: BaseException, where: str) -> None:
    events.record("store_errors", where=where, error=events.error_kind(exc))
    st.error(_said(exc, where))


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
        st.error(failed[1])
        return None
    try:
        store = _open_store(s.store_url, s.share_max_bytes, s.share_ttl_days)
    except Exception as exc:  # noqa: BLE001 - a driver error must not take the page down
        events.record("store_errors", where="open", error=events.error_kind(exc))
        _FAILED[s.store_url] = (time.monotonic(), _said(exc, "open"))
        st.error(_FAILED[s.store_url][1])
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
        shared = store.open(token, actor=_actor())
    except Exception as exc:  # noqa: BLE001
        _unavailable(exc, "open_link")
        return None
    if shared is None:
        st.warning(NOT_FOUND)
        return None
    events.record("shares_opened", share=hash_token(token)[:12], user=_actor())
    result = (shared.data, shared.name, dict(shared.view))
    opened[token] = result
    _held()[_digest(shared.data)] = {
        "token": token,
        "url": share_link(_base_url(settings), token, shared.view.get("selected")),
        "view": dict(shared.view),
        "expires_at": shared.expires_at,
        "masked": masked_in(shared.data),
        "owner": shared.owner,
    }
    return result


def checked_line(redactor: Redactor, found: list[Secret]) -> str:
    """What the scan looked for and what it found: "Checked 34 kinds of secret: 3 found (2 API
    key (sk-), 1 credential assignment)." The kinds are listed in docs/sharing-secrets.md."""
    kinds = redactor.kinds
    if not found:
        return f"Checked {len(kinds)} kinds of secret: none found."
    counts: dict[str, int] = {}
    for f in found:
        counts[f.kind] = counts.get(f.kind, 0) + 1
    what = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    return f"Checked {len(kinds)} kinds of secret: {len(found)} found ({what})."


def shared_line(link: dict[str, Any]) -> str:
    """"shared · 3 masked · expires 2026-12-27 16:00 UTC", for the maker and for whoever opens the link."""
    expires = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(link["expires_at"]))
    return f"shared · {link.get('masked') or 0} masked · expires {expires}"


def shared_status(data: bytes) -> None:
    """Under the file's name, for a transcript opened from a link: "shared · N masked · expires …"."""
    link = _held().get(_digest(data))
    if link is not None:
        with st.container(key="shared_status"):
            st.caption(shared_line(link))


# A scan's result keeps the file's bytes (to mask them) and a row per secret: about the file's size.
SCANNED_PER_BYTE = 1


@byte_cached(lambda digest, _data, *a: SCANNED_PER_BYTE * len(_data) + 10_000)
def scanned(digest: str, _data: bytes, patterns: tuple[str, ...], budget: float,
            limits: tuple[int, float, int]) -> list[Secret] | str:
    """The secrets in the file for these patterns (the built-in ones and ``patterns``, together
    given ``budget`` seconds), or the sentence saying why it was not scanned: over a worker's
    ``limits``, or the patterns ran past their time budget. The scan runs in a worker process
    (``workers.run_remembered``; in this one only when the operator turned workers off) and once
    per file and settings for every session of this process: a share link opened by ten
    colleagues is scanned once, and a pattern that ran out of time is not run again on each click
    (issue 22)."""
    from .workers import run_remembered

    try:
        found: list[Secret] = run_remembered("secrets", digest, _data, patterns, budget, key=(patterns, budget))
        return found
    except WorkCrash:
        raise  # not cached: the next run tries again (``share_panel`` says it)
    except (PatternError, InputError) as exc:
        return str(exc)


def _preview_table(data: bytes, found) -> None:
    import pandas as pd

    text = data.decode("utf-8", "surrogateescape")
    rows = [
        {"kind": s.kind, "line": s.line, "column": s.column, "secret": s.preview, "after masking": context(text, s)}
        for s in found
    ]
    from .tables import whole_row_table

    # The popover is narrow and the grid cuts the masked line: the clicked row is read whole below.
    whole_row_table(pd.DataFrame(rows, columns=["kind", "line", "column", "secret", "after masking"]), "share_secrets", {
        "kind": st.column_config.TextColumn("kind", width="small"),
        "line": st.column_config.NumberColumn("line", width=60),
        "column": st.column_config.NumberColumn("column", width=70),
    }, whole=["secret", "after masking"], head=lambda r: f"{r['kind']}, line {r['line']}, column {r['column']}")


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
    try:
        found = scanned(digest, data, (*settings.redact_patterns, *extra), redactor.budget, limits())
    except WorkCrash as exc:
        found = str(exc)
    if isinstance(found, str):  # past the patterns' time budget, or a worker's limit: not scanned, not shared
        st.error(f"Not shared: {found}")
        return
    with st.container(key="share_checked"):
        st.text(checked_line(redactor, found))
    if found:
        st.warning(f"{len(found)} possible secret(s) found in this transcript.")
        mask = st.checkbox(f"Mask the {len(found)} secret(s) before sharing", value=True, key="share_redact")
        _preview_table(data, found)
    else:
        mask = False

    ttl = st.number_input(
        "Link expires after (days)",
        min_value=min(0.01, float(settings.share_ttl_days)),
        max_value=float(settings.share_ttl_days),
        value=float(settings.share_ttl_days),
        step=1.0,
        format="%g",
        key="share_ttl",
    )
    st.caption(f"Retention: shares are deleted automatically when they expire, after {settings.share_ttl_days:g} "
               "days at most (set by the operator); expired ones are purged on a schedule.")
    if len(data) > settings.share_max_bytes:
        st.error(
            f"This transcript is {len(data):,} bytes; shares are limited to {settings.share_max_bytes:,} bytes."
        )
        return

    if st.button("Create link", key="share_button", type="primary", icon=":material/link:"):
        payload = redactor.mask(data, found) if mask else data
        try:
            if mask:
                check_masked(data, payload)
            token = store.put(payload, name, view, ttl_days=ttl, owner=_actor())
        except (ShareTooLarge, MaskingError, ConfigError) as exc:
            st.error(f"Not shared: {exc}")
            return
        except Exception as exc:  # noqa: BLE001
            _unavailable(exc, "share")
            st.text("The transcript was not shared.")
            return
        events.record("shares_created", share=hash_token(token)[:12], user=_actor(),
                      bytes=len(payload))
        held[digest] = {
            "token": token,
            "url": share_link(_base_url(settings), token, view.get("selected")),
            "view": dict(view),
            "expires_at": int(time.time() + ttl * 86400),
            "masked": len(found) if mask else 0,
            "owner": _actor(),
        }
        st.session_state.pop("_share_deleted", None)

    failure = st.session_state.pop("_share_delete_error", None)
    if failure:
        st.error(f"The share could not be deleted. {failure}")
    refused = st.session_state.pop("_share_delete_refused", None)
    if refused:
        with st.container(key="share_delete_refused"):
            st.error(f"Not deleted: {refused}")
    link = held.get(digest)
    if link is not None and not _still_live(store, link):
        # Deleted by whoever else holds the link (or expired): this panel must not offer it.
        held.pop(digest, None)
        link = None
        st.session_state["_share_deleted"] = digest
    if link is None:
        if st.session_state.get("_share_deleted") == digest:
            with st.container(key="share_gone"):
                st.success("The share was deleted; its link no longer opens.")
        return
    with st.container(key="share_url"):
        st.text(f"Link ({shared_line(link)}):")
        st.code(link["url"], language=None, wrap_lines=True)  # the whole link, wrapped
        _copy_button(link["url"])
        if _user() is not None and _user().signed_in:
            st.caption(f"Shared by {link.get('owner') or 'anonymous'}")
    if link["view"] != view:
        st.text("The view has changed since this link was made; press Create link again to include it.")
    if st.session_state.get(_CONFIRM) != digest:
        st.button("Delete this share", key="share_delete", icon=":material/delete:",
                  on_click=lambda: st.session_state.__setitem__(_CONFIRM, digest))
        return
    with st.container(key="share_confirm", border=True):
        st.text("Delete this share? The link stops opening for everyone who has it; this cannot be undone.")
        with st.container(horizontal=True, gap="small"):
            st.button("Yes, delete it", key="share_delete_yes", type="primary", icon=":material/delete:",
                      on_click=_delete, args=(store, digest))
            st.button("Keep it", key="share_delete_no", on_click=lambda: st.session_state.pop(_CONFIRM, None))


def _still_live(store: Store, link: dict[str, Any]) -> bool:
    """Whether the link still opens (a colleague may have deleted it); a store error says yes:
    the link is not taken away on a guess."""
    try:
        return store.alive(link["token"])
    except Exception:  # noqa: BLE001 - the store's trouble shows where the store is used
        return True


_copy = st.components.v2.component("inspector_copy_link", html="", css=asset("copy.css"), js=asset("copy.js"))


def _copy_button(url: str) -> None:
    """A visible "Copy link" button (st.code's own copy icon shows only on hover)."""
    _copy(key="share_copy", data={"url": url}, height="content")


def _delete(store: Store, digest: str) -> None:
    """Button callback: runs before the rerun, so the dead link is never drawn again."""
    link = _held().get(digest)
    if link is None:
        return
    user = _user()
    sid = hash_token(link["token"])[:12]
    try:
        store.delete(link["token"], actor=_actor(), owner_only=bool(user and user.signed_in),
                     admin=bool(user and user.admin))
    except NotOwner as exc:
        events.record("shares_delete_refused", share=sid, user=_actor())
        st.session_state["_share_delete_refused"] = str(exc)
        return
    except Exception as exc:  # noqa: BLE001
        events.record("store_errors", where="delete", error=events.error_kind(exc))
        st.session_state["_share_delete_error"] = _said(exc, "delete")
        return
    events.record("shares_deleted", share=sid, user=_actor())
    st.session_state.pop(_CONFIRM, None)
    # The transcript stays open in this session (``_share_opened``); only the link dies.
    _held().pop(digest, None)
    st.session_state["_share_deleted"] = digest


def _when(t: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))


def share_lists(team: bool) -> None:
    """"My shares" (signed in) and, with ``INSPECTOR_TEAM_SHARES=1``, everyone's: name, maker and
    expiry, with Open and (for the owner or an admin) Delete. A listed share opens by its id, so
    the list never shows link tokens."""
    user = _user()
    mine = user is not None and user.signed_in
    if not mine and not team:
        return
    got = _settings_and_store()
    if got is None:
        return
    _, store = got
    failure = st.session_state.pop("_list_error", None)
    if failure:
        st.error(failure)
    sections = ([("My shares", user.name)] if mine else []) + ([("Team shares", None)] if team else [])
    for title, owner in sections:
        with st.expander(title, expanded=False), st.container(key=f"list_{'mine' if owner else 'team'}"):
            try:
                rows = store.list_shares(owner, limit=50)
            except Exception as exc:  # noqa: BLE001
                _unavailable(exc, "list")
                continue
            if not rows:
                st.text("No shares." if owner else "Nobody has shared anything that is still live.")
            for info in rows:
                with st.container(border=True):
                    st.text(info.name)  # a file name is the user's text: only ever as text
                    by = "" if owner else f"by {info.owner}, "
                    st.caption(f"{by}made {_when(info.created_at)}, expires {_when(info.expires_at)}")
                    with st.container(horizontal=True):
                        st.button("Open", key=f"open:{title}:{info.id}", on_click=_open_listed,
                                  args=(store, info.id), type="tertiary", icon=":material/open_in_new:")
                        if not mine or info.owner == user.name or user.admin:
                            st.button("Delete", key=f"del:{title}:{info.id}", on_click=_delete_listed,
                                      args=(store, info.id), type="tertiary", icon=":material/delete:")


def _open_listed(store: Store, share_id: str) -> None:
    from . import state

    try:
        shared = store.open_id(share_id, actor=_actor())
    except Exception as exc:  # noqa: BLE001
        events.record("store_errors", where="open_listed", error=events.error_kind(exc))
        st.session_state["_list_error"] = _said(exc, "list")
        return
    if shared is None:
        st.session_state["_list_error"] = NOT_FOUND
        return
    events.record("shares_opened", share=share_id[:12], user=_actor())
    state.set_loaded(shared.data, shared.name, "share", dict(shared.view))


def _delete_listed(store: Store, share_id: str) -> None:
    user = _user()
    try:
        store.delete_id(share_id, actor=_actor(), owner_only=bool(user and user.signed_in),
                        admin=bool(user and user.admin))
    except NotOwner as exc:
        events.record("shares_delete_refused", share=share_id[:12], user=_actor())
        st.session_state["_list_error"] = f"Not deleted: {exc}"
        return
    except Exception as exc:  # noqa: BLE001
        events.record("store_errors", where="delete_listed", error=events.error_kind(exc))
        st.session_state["_list_error"] = _said(exc, "list")
        return
    events.record("shares_deleted", share=share_id[:12], user=_actor())
    for digest, link in list(_held().items()):  # the panel must not offer a link that is dead now
        if hash_token(link["token"]) == share_id:
            _held().pop(digest, None)
