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

Who did what (issue 27): each share records its owner (the signed-in user who made it, or
``anonymous``), and the ``audit`` table records every create, open, delete, refused delete and
expiry with who and when, never the transcript or its name. ``purge_expired`` is what the
server's retention schedule calls; ``ping`` is the health check's ``SELECT 1``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, make_url

from .config import DEFAULT_MAX_BYTES, DEFAULT_TTL_DAYS, ConfigError, Settings, check_ttl_days

TOKEN_BYTES = 32  # 256 bits of randomness; the issue asks for at least 128
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,128}")
_MIGRATION_LOCK = 0x696E7370  # PostgreSQL advisory lock id ("insp")
DAY = 86400
SQLITE_BUSY_SECONDS = 5
PG_CONNECT_SECONDS = 10


class ShareTooLarge(ValueError):
    """The transcript is bigger than the store accepts (``INSPECTOR_SHARE_MAX_BYTES``)."""


class StoreError(RuntimeError):
    """The store accepted a share but does not give the same bytes back; no link is handed out."""


class ReadOnlyStore(StoreError):
    """The SQLite store is read-only here: existing links open, nothing can be written."""


READ_ONLY = ("the share store is read-only (its file or directory cannot be written): existing links "
             "still open, but new shares cannot be made or deleted until the operator makes it writable")
UNAVAILABLE = "the share store is unavailable; try again later"
log = logging.getLogger("inspector.store")
log.addHandler(logging.NullHandler())  # a CLI run prints no details unless it sets up logging


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer version of the inspector than this one."""


class NotOwner(PermissionError):
    """Sign-in is on and someone other than the share's owner (or an admin) tried to delete it."""


ANONYMOUS = "anonymous"
SYSTEM = "retention"  # the actor of the audit rows written when expired shares are purged


@dataclass(frozen=True)
class Shared:
    """One stored share as the app and the CLI read it back."""

    name: str
    data: bytes
    view: dict[str, Any]
    created_at: int
    expires_at: int
    owner: str = ANONYMOUS


@dataclass(frozen=True)
class ShareInfo:
    """A share as the "My shares" and team lists show it: never its bytes, never its token."""

    id: str  # the SHA-256 of the link token: names the share, cannot open it through a link
    name: str
    owner: str
    size: int
    created_at: int
    expires_at: int


@dataclass(frozen=True)
class AuditEntry:
    at: int
    action: str  # create, open, delete, delete-refused, expire
    actor: str
    share: str  # the share's id (SHA-256 of its token)


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
    sa.Column("owner", sa.String(320), nullable=False, server_default=ANONYMOUS),  # migration 3
)
sa.Index("ix_shares_expires_at", shares.c.expires_at)  # made by migration 2
sa.Index("ix_shares_owner", shares.c.owner, shares.c.expires_at)  # made by migration 3


def _audit_table(meta: sa.MetaData) -> sa.Table:
    return sa.Table(
        "audit",
        meta,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.BigInteger, nullable=False, index=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("actor", sa.String(320), nullable=False),
        sa.Column("share", sa.String(64), nullable=False, index=True),
    )


audit = _audit_table(metadata)


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


def _v3_owner_and_audit(conn: Connection) -> None:
    # Existing shares had no known maker: they become anonymous (only an admin may delete them
    # once sign-in is on). The audit table is made from a frozen copy, like migration 1.
    conn.execute(sa.text(f"ALTER TABLE shares ADD COLUMN owner VARCHAR(320) NOT NULL DEFAULT '{ANONYMOUS}'"))
    conn.execute(sa.text("CREATE INDEX ix_shares_owner ON shares (owner, expires_at)"))
    _audit_table(sa.MetaData()).create(conn)


# The guard's records (issue 26): every request it saw refused, would refuse, or repaired, kept
# (redacted) for the team inbox under the shares' retention. ``rules`` holds the error codes as
# `` TC001 TC003 `` so that a filter is one LIKE; ``data`` is the request as a one-entry HAR.
def _guard_records_table(meta: sa.MetaData) -> sa.Table:
    return sa.Table(
        "guard_records",
        meta,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.BigInteger, nullable=False, index=True),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),  # proxy, sdk, litellm, langchain, test
        sa.Column("provider", sa.String(32)),  # the target whose rules applied
        sa.Column("model", sa.String(255)),
        sa.Column("dialect", sa.String(32)),
        sa.Column("verdict", sa.String(16), nullable=False),  # would_reject, rejected, repaired, unreadable
        sa.Column("status", sa.Integer),  # the provider's HTTP status, when it answered
        sa.Column("url", sa.String(2048)),  # without its query
        sa.Column("rules", sa.String(255)),
        sa.Column("culprit", sa.Integer),
        sa.Column("provider_error", sa.Text),
        sa.Column("first_finding", sa.Text),
        sa.Column("findings", sa.Text, nullable=False),  # JSON list, as check --format json gives them
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("encoding", sa.String(16), nullable=False),
        sa.Column("size", sa.BigInteger, nullable=False),
    )


guard_records = _guard_records_table(metadata)
sa.Index("ix_guard_records_expires_at", guard_records.c.expires_at)  # made by migration 5


def _v4_create_guard_records(conn: Connection) -> None:
    # Made from a frozen copy, like the audit table of migration 3.
    _guard_records_table(sa.MetaData()).create(conn)


def _v5_index_record_expiry(conn: Connection) -> None:
    # Issue 33: the purge of expired guard records read the whole table on every record.
    conn.execute(sa.text("CREATE INDEX ix_guard_records_expires_at ON guard_records (expires_at)"))


MIGRATIONS: list[Callable[[Connection], None]] = [_v1_create_shares, _v2_index_expiry, _v3_owner_and_audit,
                                                  _v4_create_guard_records, _v5_index_record_expiry]
RECORD_PURGE_SECONDS = 60  # expired guard records are deleted by add_record at most this often


def _read_only_sqlite(url: str) -> str | None:
    """The URI to open a SQLite store read-only with, when its file exists but cannot be written.

    ``mode=ro`` reads a WAL file when its directory lets SQLite make the shared-memory file (or
    it exists); in a read-only directory ``immutable=1`` tells SQLite nobody writes the file.
    """
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    path = Path(u.database).expanduser()
    if not path.is_file() or (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return None
    shm = path.with_name(path.name + "-shm")
    mode = "mode=ro" if os.access(path.parent, os.W_OK) or shm.exists() else "immutable=1"
    return f"file:{path.resolve().as_posix()}?{mode}"


def _engine(url: str) -> Engine:
    """An engine for ``url``; ``postgresql://`` means psycopg 3, SQLite gets WAL and real transactions."""
    u = make_url(url)
    read_only = _read_only_sqlite(url)
    if read_only is not None:
        import sqlite3

        return sa.create_engine("sqlite://", creator=lambda: sqlite3.connect(
            read_only, uri=True, timeout=SQLITE_BUSY_SECONDS, check_same_thread=False))
    if u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+psycopg")
    if u.get_backend_name() != "sqlite":
        # connect_timeout: a database that does not answer (a dropped network) fails the health check
        # in seconds instead of holding it for the TCP timeout
        return sa.create_engine(u, pool_pre_ping=True, pool_size=5, max_overflow=10,
                                connect_args={"connect_timeout": PG_CONNECT_SECONDS})
    if u.database and u.database != ":memory:":
        Path(u.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    # How long a statement waits for another writer's lock before failing; reads never wait in WAL.
    engine = sa.create_engine(u, connect_args={"timeout": SQLITE_BUSY_SECONDS})

    # pysqlite opens transactions lazily and never around DDL; take control so a migration and
    # its version row commit together, and so migrating replicas queue up (BEGIN IMMEDIATE).
    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        if u.database and u.database != ":memory:":
            _use_wal(dbapi_conn)

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("immediate") else "BEGIN")

    return engine


def _use_wal(dbapi_conn: Any) -> None:
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
    ) -> None:
        self.url = url
        self.max_bytes = max_bytes
        self.ttl_days = ttl_days
        self.clock = clock
        self.on_expired: Callable[[int], None] | None = None  # told how many shares each purge removed
        self.read_only = _read_only_sqlite(url) is not None
        self.engine = _engine(url)
        if migrate:
            self.migrate()

    @classmethod
    def from_env(cls, settings: Settings | None = None) -> Store:
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
        if self.read_only:
            raise ReadOnlyStore(f"{READ_ONLY}; its schema is behind this inspector's and cannot be upgraded")
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

    def put(self, data: bytes, name: str, view: dict[str, Any] | None = None, *, ttl_days: float | None = None,
            owner: str = ANONYMOUS, ttl_seconds: float | None = None) -> str:
        """Store a transcript and its view for ``owner``; return the token for its link.

        The lifetime is ``ttl_days`` (default: the store's), never more than the store's
        ``ttl_days``, the operator's maximum. ``ttl_seconds`` gives it in seconds instead, without
        the quarter-hour minimum that guards the settings (the retention tests use one second).
        """
        if self.read_only:
            raise ReadOnlyStore(READ_ONLY)
        data = bytes(data)
        if len(data) > self.max_bytes:
            raise ShareTooLarge(
                f"the transcript is {len(data):,} bytes; shares are limited to {self.max_bytes:,} bytes"
            )
        if ttl_seconds is not None:
            if not 0 < ttl_seconds <= self.ttl_days * DAY:
                raise ConfigError(f"ttl_seconds={ttl_seconds!r} must be above 0 and at most the store's maximum")
            ttl = ttl_seconds / DAY
        else:
            ttl = check_ttl_days(self.ttl_days if ttl_days is None else ttl_days, "ttl_days")
        if ttl > self.ttl_days:
            raise ConfigError(
                f"a link may live at most {self.ttl_days:g} days here (INSPECTOR_SHARE_TTL_DAYS); {ttl:g} asked"
            )
        packed = zlib.compress(data, 6)
        encoding = "zlib" if len(packed) < len(data) else "identity"
        now = int(self.clock())
        token = secrets.token_urlsafe(TOKEN_BYTES)
        row = {
            "token_hash": hash_token(token),
            "name": (name or "transcript.json")[:255],
            "data": packed if encoding == "zlib" else data,
            "encoding": encoding,
            "size": len(data),
            "view": json.dumps(view or {}, sort_keys=True, default=str),
            "created_at": now,
            "expires_at": now + max(1, round(ttl * DAY)),
            "owner": (owner or ANONYMOUS)[:320],
        }
        self.purge_expired()  # keep the table small even where no server runs the schedule (the CLI)
        # One transaction: the row, its read-back and its audit row commit together just before
        # the link is handed out, so a process killed while sharing (kill -9 in the middle of a
        # 32 MB write) leaves no row that no link points to.
        with self.engine.begin() as conn:
            conn.execute(shares.insert().values(**row))
            # A link is shown only for a share that reads back as the very bytes given.
            back = conn.execute(sa.select(shares).where(shares.c.token_hash == row["token_hash"])).first()
            if back is None or _shared(back).data != data:
                raise StoreError("the stored transcript did not read back unchanged; no link was made")
            conn.execute(audit.insert().values(at=now, action="create", actor=row["owner"], share=row["token_hash"]))
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
        return None if row is None else _shared(row)

    def alive(self, token: str) -> bool:
        """Whether ``token``'s share still opens (not deleted, not expired), without reading its blob."""
        if not looks_like_token(token):
            return False
        with self.engine.connect() as conn:
            return conn.execute(sa.select(shares.c.token_hash).where(
                shares.c.token_hash == hash_token(token), shares.c.expires_at > int(self.clock()))).first() is not None

    def open(self, token: str, actor: str = ANONYMOUS) -> Shared | None:
        """``get``, recorded in the audit log as an open by ``actor`` when the share exists."""
        shared = self.get(token)
        if shared is not None:
            self._audit("open", actor, hash_token(token))
        return shared

    def open_id(self, share_id: str, actor: str = ANONYMOUS) -> Shared | None:
        """The live share with this id (from a list), recorded as an open by ``actor``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(shares).where(shares.c.token_hash == share_id, shares.c.expires_at > int(self.clock()))
            ).first()
        if row is None:
            return None
        self._audit("open", actor, share_id)
        return _shared(row)

    def delete(self, token: str, *, actor: str = ANONYMOUS, owner_only: bool = False, admin: bool = False) -> bool:
        """Delete the share behind ``token``; True when there was one.

        With ``owner_only`` (sign-in is on) only its owner or an ``admin`` may: anyone else gets
        ``NotOwner``, and the refusal is audited.
        """
        if not looks_like_token(token):
            return False
        return self.delete_id(hash_token(token), actor=actor, owner_only=owner_only, admin=admin)

    def delete_id(self, share_id: str, *, actor: str = ANONYMOUS, owner_only: bool = False, admin: bool = False) -> bool:
        """``delete`` by the share's id, as the lists name it."""
        if self.read_only:
            raise ReadOnlyStore(READ_ONLY)
        with self.engine.begin() as conn:
            owner = conn.execute(sa.select(shares.c.owner).where(shares.c.token_hash == share_id)).scalar()
            if owner is None:
                return False
            if owner_only and not admin and owner != actor:
                refused = True
            else:
                refused = False
                conn.execute(shares.delete().where(shares.c.token_hash == share_id))
            conn.execute(audit.insert().values(at=int(self.clock()), action="delete-refused" if refused else "delete",
                                               actor=actor[:320], share=share_id))
        if refused:
            raise NotOwner(f"only {owner} (who shared it) or an administrator may delete this share")
        return True

    def list_shares(self, owner: str | None = None, limit: int = 200) -> list[ShareInfo]:
        """Live shares, newest first: ``owner``'s, or everyone's when None (the team list)."""
        q = sa.select(shares.c.token_hash, shares.c.name, shares.c.owner, shares.c.size, shares.c.created_at,
                      shares.c.expires_at).where(shares.c.expires_at > int(self.clock()))
        if owner is not None:
            q = q.where(shares.c.owner == owner)
        q = q.order_by(shares.c.created_at.desc(), shares.c.token_hash).limit(limit)
        with self.engine.connect() as conn:
            return [ShareInfo(*row) for row in conn.execute(q)]

    def purge_expired(self) -> int:
        """Delete every expired share, each recorded in the audit log, and every expired guard
        record (the team inbox keeps the shares' retention); returns how many shares went."""
        if self.read_only:  # nothing can be deleted; expired shares still never open (``get``)
            return 0
        now = int(self.clock())
        with self.engine.begin() as conn:
            gone = conn.execute(shares.delete().where(shares.c.expires_at <= now).returning(shares.c.token_hash))
            ids = [r[0] for r in gone]
            conn.execute(guard_records.delete().where(guard_records.c.expires_at <= now))
            if ids:
                conn.execute(audit.insert(), [{"at": now, "action": "expire", "actor": SYSTEM, "share": i} for i in ids])
        if ids and self.on_expired is not None:
            self.on_expired(len(ids))
        return len(ids)

    def audit_log(self, share_id: str | None = None, limit: int = 1000) -> list[AuditEntry]:
        """The newest audit rows (of one share when ``share_id`` is given), newest first."""
        q = sa.select(audit.c.at, audit.c.action, audit.c.actor, audit.c.share)
        if share_id is not None:
            q = q.where(audit.c.share == share_id)
        with self.engine.connect() as conn:
            return [AuditEntry(*r) for r in conn.execute(q.order_by(audit.c.id.desc()).limit(limit))]

    def ping(self) -> None:
        """``SELECT 1`` on a fresh pooled connection: raises when the database cannot answer."""
        with self.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1")).scalar()

    def _audit(self, action: str, actor: str, share_id: str) -> None:
        if self.read_only:  # the audit table cannot be written: the server log keeps the record
            log.info("audit %s by %s of %s (store read-only)", action, actor, share_id[:12])
            return
        with self.engine.begin() as conn:
            conn.execute(audit.insert().values(at=int(self.clock()), action=action, actor=(actor or ANONYMOUS)[:320],
                                               share=share_id))

    # -- guard records (the team inbox) ---------------------------------------------------

    def add_record(self, fields: dict[str, Any], data: bytes) -> str:
        """Keep one guard record (``fields``: the ``guard_records`` columns but id, times and
        data) with ``data`` (the redacted request); returns its id. Expired records are deleted
        first, at most every ``RECORD_PURGE_SECONDS`` (an index on their expiry finds them)."""
        now = int(self.clock())
        packed = zlib.compress(data, 6)
        encoding = "zlib" if len(packed) < len(data) else "identity"
        rid = secrets.token_hex(16)
        row = dict(fields, id=rid, created_at=now, expires_at=now + int(check_ttl_days(self.ttl_days, "ttl_days") * DAY),
                   data=packed if encoding == "zlib" else data, encoding=encoding, size=len(data))
        for key, limit in (("model", 255), ("url", 2048), ("rules", 255), ("source", 16), ("provider", 32)):
            if isinstance(row.get(key), str):
                row[key] = row[key][:limit]
        with self.engine.begin() as conn:
            # On a schedule, not per record (issue 33); the app's retention purge runs too.
            if now - getattr(self, "_records_purged_at", -RECORD_PURGE_SECONDS) >= RECORD_PURGE_SECONDS:
                conn.execute(guard_records.delete().where(guard_records.c.expires_at <= now))
                self._records_purged_at = now
            conn.execute(guard_records.insert().values(**row))
        return rid

    def records(self, *, since: int | None = None, provider: str | None = None, rule: str | None = None,
                source: str | None = None, limit: int = 500) -> list[dict[str, Any]]:
        """Guard records newest first (without their data), optionally from ``since`` (Unix
        seconds) on and of one provider, rule code or source."""
        cols = [c for c in guard_records.c if c.name not in ("data", "encoding")]
        q = sa.select(*cols).where(guard_records.c.expires_at > int(self.clock()))
        if since is not None:
            q = q.where(guard_records.c.created_at >= since)
        if provider:
            q = q.where(guard_records.c.provider == provider)
        if source:
            q = q.where(guard_records.c.source == source)
        if rule:
            q = q.where(guard_records.c.rules.like(f"% {rule} %"))
        q = q.order_by(guard_records.c.created_at.desc(), guard_records.c.id).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(q).mappings().all()
        out = []
        for r in rows:
            d = dict(r)
            d["findings"] = json.loads(d["findings"])
            out.append(d)
        return out

    def record(self, rid: str) -> tuple[dict[str, Any], bytes] | None:
        """One guard record and its data (the redacted request as a one-entry HAR), or None."""
        if not isinstance(rid, str) or not re.fullmatch(r"[0-9a-f]{32}", rid):
            return None
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(guard_records).where(
                guard_records.c.id == rid, guard_records.c.expires_at > int(self.clock()))).mappings().first()
        if row is None:
            return None
        d = dict(row)
        raw = d.pop("data")
        data = zlib.decompress(raw) if d.pop("encoding") == "zlib" else bytes(raw)
        d["findings"] = json.loads(d["findings"])
        return d, data

    def close(self) -> None:
        self.engine.dispose()


def _shared(row: Any) -> Shared:
    data = zlib.decompress(row.data) if row.encoding == "zlib" else bytes(row.data)
    return Shared(row.name, data, json.loads(row.view), row.created_at, row.expires_at, row.owner)


def error_detail(exc: BaseException) -> str:
    """The driver's own first line for a store error, without SQL or traceback: for the server log."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def error_line(exc: BaseException, where: str = "") -> str:
    """What a user is told about a store error; the details (a database's host and port, its
    file's path, the driver's words) go to the server log, never to the page or the CLI.
    A read-only store and a schema newer than this code are said as they are."""
    log.warning("share store error%s: %s: %s", f" ({where})" if where else "", type(exc).__name__,
                error_detail(exc))
    if isinstance(exc, ReadOnlyStore):
        return str(exc)
    if isinstance(exc, SchemaTooNew):
        return "the share store was upgraded by a newer inspector; this one cannot use it (details in the server log)"
    return UNAVAILABLE


def share_link(base_url: str, token: str, message: int | None = None) -> str:
    """The link a colleague opens: ``<base>/?t=<token>`` plus ``&m=<index>`` for a message."""
    link = f"{base_url.rstrip('/')}/?t={token}"
    return link if message is None else f"{link}&m={int(message)}"


def inbox_link(base_url: str, rid: str, culprit: int | None) -> str:
    """The link to a guard record in the app's team inbox, plus ``&m=<index>`` for the culprit."""
    link = f"{base_url.rstrip('/')}/?inbox={rid}"
    return link if culprit is None else f"{link}&m={int(culprit)}"


def token_from_link(link: str) -> str:
    """The token in a share link (or the token itself), for deleting by link."""
    from urllib.parse import parse_qs, urlsplit

    if "?" in link:
        values = parse_qs(urlsplit(link).query).get("t")
        return values[0] if values else ""
    return link.strip()
