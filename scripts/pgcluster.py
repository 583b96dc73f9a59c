#!/usr/bin/env python3
"""A throwaway PostgreSQL server on a free loopback port, for tests and benchmarks.

``start()`` runs ``initdb`` into a fresh temporary directory (password authentication, a random
password), starts the server with ``pg_ctl`` listening on 127.0.0.1 only, creates a database and
returns a ``Cluster`` whose ``url`` is a SQLAlchemy URL. ``Cluster.stop()`` stops the server and
removes the directory. PostgreSQL refuses to run as root, so as root every server command runs as
the ``postgres`` system user (``runuser``). Durability settings are off: the data is thrown away.

Standalone use, for poking at the store by hand::

    .venv/bin/python scripts/pgcluster.py   # prints INSPECTOR_STORE_URL=..., stops on Ctrl-C
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server binaries are not installed (``scripts/system-deps.sh`` installs them)."""


def find_bindir() -> Path:
    """The directory holding ``initdb``/``pg_ctl``: ``$PG_BIN``, Debian's newest, or ``$PATH``."""
    if os.environ.get("PG_BIN"):
        bindir = Path(os.environ["PG_BIN"])
        if not (bindir / "initdb").exists():
            raise PostgresUnavailable(f"PG_BIN={bindir} holds no initdb")
        return bindir
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if debian:
        return Path(debian[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise PostgresUnavailable("PostgreSQL server binaries (initdb, pg_ctl) not found; run scripts/system-deps.sh")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    url: str
    port: int
    datadir: Path
    _run: list[str]
    _bindir: Path
    _root: Path
    _options: str = ""

    def halt(self) -> None:
        """Stop the server but keep its files: ``resume()`` starts it again with the same data."""
        subprocess.run(self._run + [str(self._bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "fast", "-w", "stop"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def resume(self) -> None:
        """Start a halted server again on the same port."""
        subprocess.run(self._run + [str(self._bindir / "pg_ctl"), "-D", str(self.datadir), "-o", self._options,
                                    "-l", str(self._root / "server.log"), "-w", "-t", "60", "start"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its files."""
        subprocess.run(
            self._run + [str(self._bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "fast", "-w", "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(self._root, ignore_errors=True)

    def create_database(self, name: str) -> str:
        """Create another database on this server and return its URL (for per-test isolation)."""
        import psycopg

        with psycopg.connect(self.url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name


def start(database: str = "inspector") -> Cluster:
    """Start a fresh server; raises ``PostgresUnavailable`` without binaries, RuntimeError on failure."""
    bindir = find_bindir()
    run: list[str] = []
    root = Path(tempfile.mkdtemp(prefix="inspector-pg-"))
    if os.geteuid() == 0:
        pg = pwd.getpwnam("postgres")
        os.chown(root, pg.pw_uid, pg.pw_gid)
        run = ["runuser", "-u", "postgres", "--"]
    datadir, pwfile, log = root / "data", root / "pw", root / "server.log"
    password = secrets.token_hex(16)
    pwfile.write_text(password + "\n")
    if run:
        os.chown(pwfile, pg.pw_uid, pg.pw_gid)
    port = free_port()

    def sh(*args: str) -> None:
        done = subprocess.run(run + list(args), capture_output=True, text=True)
        if done.returncode:
            detail = (done.stderr or done.stdout).strip()
            if log.exists():
                detail += "\n" + log.read_text(errors="replace")[-2000:]
            shutil.rmtree(root, ignore_errors=True)
            raise RuntimeError(f"{Path(args[0]).name} failed ({done.returncode}): {detail}")

    sh(str(bindir / "initdb"), "-D", str(datadir), "-U", "inspector", "--auth=scram-sha-256",
       f"--pwfile={pwfile}", "-E", "UTF8", "--no-locale", "--no-sync")
    options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
    sh(str(bindir / "pg_ctl"), "-D", str(datadir), "-o", options, "-l", str(log), "-w", "-t", "60", "start")
    base = f"postgresql+psycopg://inspector:{password}@127.0.0.1:{port}"
    cluster = Cluster(f"{base}/postgres", port, datadir, run, bindir, root, options)
    try:
        cluster.url = cluster.create_database(database)
    except Exception:
        cluster.stop()
        raise
    return cluster


if __name__ == "__main__":
    import signal

    c = start()
    print(f"INSPECTOR_STORE_URL={c.url}", flush=True)
    try:
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        c.stop()
