"""Settings for hosting and sharing, read from the environment.

One place reads ``INSPECTOR_*`` variables so the app, the CLI and the tests agree on defaults.
A bad value is a ``ConfigError`` whose message names the variable and says what is wrong; it
is never silently replaced by a default.

==============================  =====================================================  ===========
variable                        meaning                                                 default
==============================  =====================================================  ===========
``INSPECTOR_STORE_URL``         any SQLAlchemy URL (``postgresql://user:pw@host/db``)   SQLite file
``INSPECTOR_STORE_PATH``        the SQLite file used when no URL is set                  see below
``INSPECTOR_BASE_URL``          where users reach the app; share links start with it    ``http://127.0.0.1:8501``
``INSPECTOR_SHARE_TTL_DAYS``    how long a share lives                                  30
``INSPECTOR_SHARE_MAX_BYTES``   the largest transcript that can be shared               50 MB
``INSPECTOR_REDACT_PATTERNS``   extra secret patterns: a JSON list, or one per line      none
``INSPECTOR_REDACT_PATTERNS_FILE``  a file with one extra pattern per line (``#`` comments)  none
==============================  =====================================================  ===========

Hosting for a team (``Hosting.from_env()``, read by the app and its server only):

====================================  =================================================  =========
variable                              meaning                                            default
====================================  =================================================  =========
``INSPECTOR_AUTH``                    ``off``, ``oidc`` (``st.login``) or ``proxy``      ``off``
                                      (identity from ``server.trustedUserHeaders``)
``INSPECTOR_PROXY_SECRET``            ``proxy`` mode: the value the proxy sends in       required
                                      ``X-Inspector-Proxy-Secret``; identity headers on
                                      a request without it are ignored
``INSPECTOR_ADMINS``                  users (emails, comma-separated) who may delete      none
                                      any share
``INSPECTOR_ADMIN_GROUP``             a group (in the user's ``groups``) whose members    none
                                      may delete any share; in ``proxy`` mode the groups
                                      come only from ``X-Inspector-Proxy-Groups:
                                      <secret> <group>,...``
``INSPECTOR_TEAM_SHARES``             ``1``: list everyone's shares to everyone           off
``INSPECTOR_PURGE_INTERVAL_SECONDS``  how often expired shares are deleted               600
``INSPECTOR_LOG_FORMAT``              ``json``: one JSON object a line on stderr          ``text``
====================================  =================================================  =========

Share links start with ``INSPECTOR_BASE_URL``; when it is unset the app uses the address in the
user's browser instead (so links follow the proxy), and the CLI uses the default above.

The SQLite file defaults to ``$XDG_DATA_HOME/tool-call-inspector/shares.sqlite3``
(``~/.local/share/...`` when ``XDG_DATA_HOME`` is unset).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_BASE_URL = "http://127.0.0.1:8501"
DEFAULT_TTL_DAYS = 30.0
DEFAULT_MAX_BYTES = 50_000_000
MIN_TTL_DAYS = 0.01  # about a quarter of an hour: a shorter link is dead before anyone opens it
MAX_TTL_DAYS = 36_500.0  # a hundred years; beyond it expiry times stop being meaningful


class ConfigError(ValueError):
    """A setting in the environment that cannot be used; the message names the variable."""


def default_store_path(env: Mapping[str, str] = os.environ) -> Path:
    """Where the SQLite store lives when nothing is configured (XDG data directory)."""
    base = env.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "tool-call-inspector" / "shares.sqlite3"


def _number(env: Mapping[str, str], name: str, default: float, kind: Callable[[str], float] = float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise ConfigError(f"{name}={raw!r} must be a finite number greater than zero")
    return value


def check_ttl_days(value: float, name: str = "INSPECTOR_SHARE_TTL_DAYS") -> float:
    """``value`` when it is a usable lifetime for a link, else ``ConfigError`` naming ``name``.

    NaN, infinity, zero and lifetimes so short that the link is dead on arrival are settings
    mistakes, not store failures.
    """
    if not math.isfinite(value) or not MIN_TTL_DAYS <= value <= MAX_TTL_DAYS:
        raise ConfigError(
            f"{name}={value!r} must be a number of days from {MIN_TTL_DAYS:g} (a quarter of an hour) "
            f"to {MAX_TTL_DAYS:g}"
        )
    return value


def check_store_url(url: str) -> str:
    """Refuse an in-memory SQLite store: every link made there dies with the process (or thread)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        u = make_url(url)
    except ArgumentError:
        return url  # the store says what is wrong with it when it is opened
    if u.get_backend_name() == "sqlite" and (not u.database or u.database == ":memory:" or "mode=memory" in url):
        raise ConfigError(
            f"INSPECTOR_STORE_URL={url!r} is an in-memory SQLite database: its links would die with this "
            "process; use a file (sqlite:////path/shares.sqlite3) or PostgreSQL"
        )
    return url


def _patterns(env: Mapping[str, str]) -> tuple[str, ...]:
    """Extra redaction patterns from ``INSPECTOR_REDACT_PATTERNS`` and ``..._FILE``."""
    found: list[str] = []
    raw = env.get("INSPECTOR_REDACT_PATTERNS", "").strip()
    if raw.startswith("["):
        try:
            items = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"INSPECTOR_REDACT_PATTERNS is not a valid JSON list: {exc.msg}") from None
        if not all(isinstance(p, str) for p in items):
            raise ConfigError("INSPECTOR_REDACT_PATTERNS must be a JSON list of strings")
        found += items
    elif raw:
        found += [line.strip() for line in raw.splitlines() if line.strip()]
    path = env.get("INSPECTOR_REDACT_PATTERNS_FILE", "").strip()
    if path:
        try:
            text = Path(path).expanduser().read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"INSPECTOR_REDACT_PATTERNS_FILE={path}: {exc.strerror or exc}") from None
        found += [s for line in text.splitlines() if (s := line.strip()) and not s.startswith("#")]
    return tuple(found)


@dataclass(frozen=True)
class Settings:
    """Everything sharing needs to know; build it with ``Settings.from_env()``."""

    store_url: str
    base_url: str = DEFAULT_BASE_URL
    share_ttl_days: float = DEFAULT_TTL_DAYS
    share_max_bytes: int = DEFAULT_MAX_BYTES
    redact_patterns: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        url = env.get("INSPECTOR_STORE_URL", "").strip()
        if not url:
            path = env.get("INSPECTOR_STORE_PATH", "").strip()
            url = "sqlite:///" + str(Path(path).expanduser() if path else default_store_path(env))
        base = (env.get("INSPECTOR_BASE_URL", "").strip() or DEFAULT_BASE_URL).rstrip("/")
        if not base.startswith(("http://", "https://")):
            raise ConfigError(f"INSPECTOR_BASE_URL={base!r} must start with http:// or https://")
        return cls(
            store_url=check_store_url(url),
            base_url=base,
            share_ttl_days=check_ttl_days(_number(env, "INSPECTOR_SHARE_TTL_DAYS", DEFAULT_TTL_DAYS)),
            share_max_bytes=int(_number(env, "INSPECTOR_SHARE_MAX_BYTES", DEFAULT_MAX_BYTES, int)),
            redact_patterns=_patterns(env),
        )


AUTH_MODES = ("off", "oidc", "proxy")
PROXY_SECRET_HEADER = "X-Inspector-Proxy-Secret"
PROXY_GROUPS_HEADER = "X-Inspector-Proxy-Groups"  # "<secret> <group>,<group>": groups only the proxy can claim
DEFAULT_PURGE_INTERVAL = 600.0


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ConfigError(f"{name}={raw!r} must be 1 or 0")


@dataclass(frozen=True)
class Hosting:
    """How the app is hosted for a team: sign-in, who may delete, retention schedule, logs."""

    auth: str = "off"
    proxy_secret: str = ""
    admins: tuple[str, ...] = ()
    admin_group: str = ""
    team_shares: bool = False
    purge_interval: float = DEFAULT_PURGE_INTERVAL
    log_json: bool = False

    @property
    def sign_in(self) -> bool:
        return self.auth != "off"

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Hosting:
        auth = env.get("INSPECTOR_AUTH", "").strip().lower() or "off"
        if auth not in AUTH_MODES:
            raise ConfigError(f"INSPECTOR_AUTH={auth!r} must be one of {', '.join(AUTH_MODES)}")
        secret = env.get("INSPECTOR_PROXY_SECRET", "").strip()
        if auth == "proxy" and len(secret) < 16:
            raise ConfigError(
                "INSPECTOR_AUTH=proxy needs INSPECTOR_PROXY_SECRET (at least 16 characters), the value the proxy "
                f"sends in {PROXY_SECRET_HEADER}: without it anyone who reaches the app directly could name any user"
            )
        log_format = env.get("INSPECTOR_LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in ("text", "json"):
            raise ConfigError(f"INSPECTOR_LOG_FORMAT={log_format!r} must be text or json")
        admins = tuple(a.strip().lower() for a in env.get("INSPECTOR_ADMINS", "").replace(";", ",").split(",") if a.strip())
        return cls(
            auth=auth,
            proxy_secret=secret,
            admins=admins,
            admin_group=env.get("INSPECTOR_ADMIN_GROUP", "").strip(),
            team_shares=_flag(env, "INSPECTOR_TEAM_SHARES"),
            purge_interval=_number(env, "INSPECTOR_PURGE_INTERVAL_SECONDS", DEFAULT_PURGE_INTERVAL),
            log_json=log_format == "json",
        )


OIDC_VARIABLES = {
    "INSPECTOR_OIDC_METADATA_URL": "server_metadata_url",
    "INSPECTOR_OIDC_CLIENT_ID": "client_id",
    "INSPECTOR_OIDC_CLIENT_SECRET": "client_secret",
    "INSPECTOR_OIDC_REDIRECT_URI": "redirect_uri",
    "INSPECTOR_OIDC_COOKIE_SECRET": "cookie_secret",
}


def oidc_secrets(env: Mapping[str, str] = os.environ) -> dict[str, str] | None:
    """Streamlit's ``[auth]`` section built from ``INSPECTOR_OIDC_*`` (None when none is set).

    The other way is ``[auth]`` in ``.streamlit/secrets.toml``, as Streamlit documents it. All five
    are needed: a partial set is a ``ConfigError`` naming the missing ones.
    """
    given: dict[str, Any] = {key: env.get(name, "").strip() for name, key in OIDC_VARIABLES.items()}
    if not any(given.values()):
        return None
    missing = [name for name, key in OIDC_VARIABLES.items() if not given[key]]
    if missing:
        raise ConfigError(f"OIDC sign-in needs {', '.join(missing)} too")
    if not given["redirect_uri"].endswith("/oauth2callback"):
        raise ConfigError("INSPECTOR_OIDC_REDIRECT_URI must end with /oauth2callback (Streamlit's callback path)")
    return {**given, "client_kwargs": {"scope": "openid profile email"}}
