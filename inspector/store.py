"""Shared transcripts: a small table behind unguessable links, in SQLite or PostgreSQL.

A share is the transcript's bytes, its file name and the view it was shared with (target, repair
options, selected message). Its link carries a random token (256 bits from ``secrets``); the
database keeps only the token's SHA-256, so a copy of the database does not hand out working
links, and whoever holds the link can open or delete the share and nobody else can.

Any SQLAlchemy URL works (``INSPECTOR_STORE_URL``); SQLite is the no-setup default and
PostgreSQL is what several replicas share. Times are integer Unix seconds so both behave alike.

The schema is created on start by a tiny migration list: ``MIGRATIONS[i]`` takes the schema from
version ``i`` to ``i + 1`` and the ``schema_version`` table records each step in the same
transaction as its DDL (both databases have transactional DDL). Replicas starting together are
serialised by an advisory lock (PostgreSQL) or ``BEGIN IMMEDIATE`` (SQLite), and a database newer
than this code is refused rather than guessed at.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, make_url

from .config import DEFAULT_MAX_BYTES, DEFAULT_TTL_DAYS, Settings, check_ttl_days

TOKEN_BYTES = 32  # 256 bits of randomness; the issue asks for at least 128
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,128}")
_MIGRATION_LOCK = 0x696E7370  # PostgreSQL advisory lock id ("insp")
DAY = 86400
SQLITE_BUSY_SECONDS = 5


class ShareTooLarge(ValueError):
    """The transcript is bigger than the store accepts (``INSPECTOR_SHARE_MAX_BYTES``)."""


class StoreError(RuntimeError):
    """The store accepted a share but does not give the same bytes back; no link is handed out."""


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer version of the inspector than this one."""


@dataclass(frozen=True)
class Shared:
    """One stored share as the app and the CLI read it back."""

    name: str
    data: bytes
    view: dict[str, Any]
    created_at: int
    expires_at: int


metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version",
    metadata,
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("applied_at", sa.BigInteger, nullable=False),
)

shares = sa.Table(
    "shares",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),  # sha256 hex of the link token
    sa.Column("name", sa.String(255), nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("encoding", sa.String(16), nullable=False),  # "zlib" or "identity"
    sa.Column("size", sa.BigInteger, nullable=False),  # bytes before compression
    sa.Column("view", sa.Text, nullable=False),  # JSON object
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.BigInteger, nullable=False),
)
sa.Index("ix_shares_expires_at", shares.c.expires_at)  # made by migration 2


def _v1_create_shares(conn: Connection) -> None:
    # Frozen as first released: a migration never follows later edits of ``shares`` above.
    sa.Table(
        "shares",
        sa.MetaData(),
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("encoding", sa.String(16), nullable=False),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("view", sa.Text, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    ).create(conn)


def _v2_index_expiry(conn: Connection) -> None:
    # Purging expired shares filters on expiry; without the index it reads every row.
    conn.execute(sa.text("CREATE INDEX ix_shares_expires_at ON shares (expires_at)"))


MIGRATIONS: list[Callable[[Connection], None]] = [_v1_create_shares, _v2_index_expiry]


def _engine(url: str) -> Engine:
    """An engine for ``url``; ``postgresql://`` means psycopg 3, SQLite gets WAL and real transactions."""
    u = make_url(url)
    if u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+psycopg")
    if u.get_backend_name() != "sqlite":
        return sa.create_engine(u, pool_pre_ping=True, pool_size=5, max_overflow=10)
    if u.database and u.database != ":memory:":
        Path(u.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    # How long a statement waits for another writer's lock before failing; reads never wait in WAL.
    engine = sa.create_engine(u, connect_args={"timeout": SQLITE_BUSY_SECONDS})

    # pysqlite opens transactions lazily and never around DDL; take control so a migration and
    # its version row commit together, and so migrating replicas queue up (BEGIN IMMEDIATE).
    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None
        if u.database and u.database != ":memory:":
            _use_wal(dbapi_conn)

    @sa.event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("immediate") else "BEGIN")

    return engine


def _use_wal(dbapi_conn) -> None:
    """Switch a SQLite file to WAL (readers never wait for a writer); the mode sticks to the file.

    Switching needs the file to itself and SQLite reports "locked" without waiting, so
    connections opened together (replicas starting at once) retry for a while.
    """
    import sqlite3

    if dbapi_conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    for _ in range(200):
        try:
            dbapi_conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
            time.sleep(0.05)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def looks_like_token(token: str) -> bool:
    """True when ``token`` could have been made by ``put`` (so junk never reaches the database)."""
    return isinstance(token, str) and bool(_TOKEN_SHAPE.fullmatch(token))


class Store:
    """Shares in one database. Safe to use from many threads (the engine pools connections)."""

    def __init__(
        self,
        url: str,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        ttl_days: float = DEFAULT_TTL_DAYS,
        clock: Callable[[], float] = time.time,
        migrate: bool = True,
    ):
        self.url = url
        self.max_bytes = max_bytes
        self.ttl_days = ttl_days
        self.clock = clock
        self.engine = _engine(url)
        if migrate:
            self.migrate()

    @classmethod
    def from_env(cls, settings: Settings | None = None) -> "Store":
        s = settings or Settings.from_env()
        return cls(s.store_url, max_bytes=s.share_max_bytes, ttl_days=s.share_ttl_days)

    # -- schema ---------------------------------------------------------------------------

    def schema_version(self) -> int:
        with self.engine.connect() as conn:
            return self._version(conn)

    def _version(self, conn: Connection) -> int:
        if not sa.inspect(conn).has_table("schema_version"):
            return 0
        return conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar() or 0

    def migrate(self, to: int | None = None) -> int:
        """Bring the schema to version ``to`` (default: the newest); returns the version reached."""
        target = len(MIGRATIONS) if to is None else to
        # A reader's look first: an up-to-date schema (every open but the first) needs no write
        # lock, so a store that another process holds locked still serves links.
        with self.engine.connect() as conn:
            current = self._version(conn)
        if current > len(MIGRATIONS):
            raise SchemaTooNew(
                f"the share database is at schema version {current}, newer than this inspector "
                f"knows ({len(MIGRATIONS)}); upgrade the inspector"
            )
        if current >= target:
            return current
        conn = self.engine.connect().execution_options(immediate=True)
        try:
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
                schema_version.create(conn, checkfirst=True)
                current = self._version(conn)
                if current > len(MIGRATIONS):
                    raise SchemaTooNew(
                        f"the share database is at schema version {current}, newer than this inspector "
                        f"knows ({len(MIGRATIONS)}); upgrade the inspector"
                    )
                for version in range(current + 1, target + 1):
                    MIGRATIONS[version - 1](conn)
                    conn.execute(schema_version.insert().values(version=version, applied_at=int(self.clock())))
                return max(current, target)
        finally:
            conn.close()

    # -- shares ---------------------------------------------------------------------------

    def put(self, data: bytes, name: str, view: dict[str, Any] | None = None, *, ttl_days: float | None = None) -> str:
        """Store a transcript and its view; return the token for its link."""
        data = bytes(data)
        if len(data) > self.max_bytes:
            raise ShareTooLarge(
                f"the transcript is {len(data):,} bytes; shares are limited to {self.max_bytes:,} bytes"
            )
        ttl = check_ttl_days(self.ttl_days if ttl_days is None else ttl_days, "ttl_days")
        packed = zlib.compress(data, 6)
        encoding = "zlib" if len(packed) < len(data) else "identity"
        now = int(self.clock())
        token = secrets.token_urlsafe(TOKEN_BYTES)
        row = dict(
            token_hash=hash_token(token),
            name=(name or "transcript.json")[:255],
            data=packed if encoding == "zlib" else data,
            encoding=encoding,
            size=len(data),
            view=json.dumps(view or {}, sort_keys=True, default=str),
            created_at=now,
            expires_at=now + int(ttl * DAY),
        )
        with self.engine.begin() as conn:
            conn.execute(shares.delete().where(shares.c.expires_at <= now))  # keep the table small
            conn.execute(shares.insert().values(**row))
        # A link is shown only for a share that reads back as the very bytes given.
        back = self.get(token)
        if back is None or back.data != data:
            self.delete(token)
            raise StoreError("the stored transcript did not read back unchanged; no link was made")
        return token

    def get(self, token: str) -> Shared | None:
        """The share behind ``token``, or None when it never existed, expired or was deleted."""
        if not looks_like_token(token):
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(shares).where(
                    shares.c.token_hash == hash_token(token), shares.c.expires_at > int(self.clock())
                )
            ).first()
        if row is None:
            return None
        data = zlib.decompress(row.data) if row.encoding == "zlib" else bytes(row.data)
        return Shared(row.name, data, json.loads(row.view), row.created_at, row.expires_at)

    def delete(self, token: str) -> bool:
        """Delete the share behind ``token``; True when there was one."""
        if not looks_like_token(token):
            return False
        with self.engine.begin() as conn:
            return conn.execute(shares.delete().where(shares.c.token_hash == hash_token(token))).rowcount > 0

    def purge_expired(self) -> int:
        """Delete every expired share; returns how many went."""
        with self.engine.begin() as conn:
            return conn.execute(shares.delete().where(shares.c.expires_at <= int(self.clock()))).rowcount

    def close(self) -> None:
        self.engine.dispose()


def error_line(exc: BaseException) -> str:
    """One line for a store error: the driver's own first line, without SQL or traceback."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def share_link(base_url: str, token: str, message: int | None = None) -> str:
    """The link a colleague opens: ``<base>/?t=<token>`` plus ``&m=<index>`` for a message."""
    link = f"{base_url.rstrip('/')}/?t={token}"
    return link if message is None else f"{link}&m={int(message)}"


def token_from_link(link: str) -> str:
    """The token in a share link (or the token itself), for deleting by link."""
    from urllib.parse import parse_qs, urlsplit

    if "?" in link:
        values = parse_qs(urlsplit(link).query).get("t")
        return values[0] if values else ""
    return link.strip()
