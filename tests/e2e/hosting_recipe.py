"""``docs/hosting.md`` as the tests run it: its marked blocks, with ports, paths and secrets swapped.

``steps()`` reads every ``<!-- step: NAME -->`` block of the document. ``Deployment`` runs the
recipe on 127.0.0.1: the environment file (one sign-in block), the htpasswd users, the two
replicas started with the document's command line, and the nginx site (checked with ``nginx -t``,
then served by a real nginx in the foreground with a private prefix). Only what must differ on a
test machine is replaced: ports 8501/8502/8080, the htpasswd path, every ``CHANGE-ME...`` value
(the same placeholder gets the same random value everywhere) and the database URL.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "hosting.md"
sys.path.insert(0, str(ROOT / "scripts"))
import appserver
from pgcluster import free_port

_STEP = re.compile(r"<!-- step: ([a-z0-9-]+) -->\n```[a-z]*\n(.*?)```", re.DOTALL)
PROXY_ONLY = "# proxy sign-in only"


def steps() -> dict[str, str]:
    return {name: body for name, body in _STEP.findall(DOC.read_text(encoding="utf-8"))}


def env_lines(block: str) -> dict[str, str]:
    out = {}
    for line in block.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key] = value
    return out


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)


@dataclass
class Deployment:
    mode: str  # "proxy" or "oidc"
    store_url: str
    workdir: Path
    extra_env: dict[str, str] = field(default_factory=dict)
    users: dict[str, str] = field(default_factory=dict)  # htpasswd users (proxy mode)
    apps: list = field(default_factory=list)
    nginx: subprocess.Popen | None = None

    def __post_init__(self) -> None:
        self.ports = {"8501": str(free_port()), "8502": str(free_port()), "8080": str(free_port())}
        self.secrets: dict[str, str] = {}
        self.doc = steps()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.ports['8080']}"

    def replica_url(self, i: int) -> str:
        return self.apps[i].url

    def _fill(self, text: str) -> str:
        for placeholder in sorted(set(re.findall(r"CHANGE-ME[A-Za-z0-9-]*", text)), key=len, reverse=True):
            value = self.secrets.setdefault(placeholder, "s" + secrets.token_urlsafe(24))  # never "-…": an option to a command
            text = text.replace(placeholder, value)
        for doc_port, port in self.ports.items():
            text = text.replace(f"127.0.0.1:{doc_port}", f"127.0.0.1:{port}")
        return text.replace("/etc/nginx/inspector.htpasswd", str(self.workdir / "inspector.htpasswd"))

    def environment(self) -> dict[str, str]:
        """The replicas' environment: the file the document writes, read the way step 3 reads it
        (``set -a; . /etc/inspector.env``), so a value the shell would misread fails here."""
        env_file = self.workdir / "inspector.env"
        env_file.write_text(self._fill(self.doc["replica-env"]) + self._fill(self.doc[f"{self.mode}-env"]))
        names = list(env_lines(env_file.read_text()))
        done = subprocess.run(["bash", "-c", 'set -a; . "$1"; set +a; env -0', "_", str(env_file)],
                              env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, capture_output=True, check=True)
        assert not done.stderr, done.stderr.decode()
        sourced = dict(item.split("=", 1) for item in done.stdout.decode().split("\0") if "=" in item)
        env = {name: sourced[name] for name in names}
        env["INSPECTOR_STORE_URL"] = self.store_url
        env.update(self.extra_env)
        return env

    def write_users(self) -> None:
        line = self._fill(self.doc["htpasswd"]).strip()
        for user, password in self.users.items():
            cmd = line.replace("ana@example.com", user).replace(self.secrets.get("CHANGE-ME-ana", "\0"), password)
            subprocess.run(["bash", "-c", cmd], check=True)
        # `$(openssl passwd …)` failing leaves an empty hash and bash still exits 0: say so here, not as a
        # page that never loads two minutes later.
        written = (self.workdir / "inspector.htpasswd").read_text().splitlines()
        empty = [ln.split(":", 1)[0] for ln in written if not ln.split(":", 1)[-1].strip()]
        assert not empty, f"htpasswd line without a hash for {empty}"

    def start_replicas(self) -> None:
        commands = [ln.strip().rstrip("&").strip() for ln in self.doc["replicas"].splitlines() if "streamlit run" in ln]
        env = self.environment()
        for command in commands:
            argv = shlex.split(command)
            assert argv[:3] == ["streamlit", "run", "server.py"], command
            flags = dict(zip(argv[3::2], argv[4::2]))
            assert flags["--server.address"] == "127.0.0.1", command
            port = int(self.ports[flags["--server.port"]])
            self.apps.append(appserver.start(env, script="server.py", port=port))

    def nginx_site(self) -> str:
        site = self._fill(self.doc["nginx-site"])
        if self.mode != "proxy":
            site = "\n".join(line for line in site.splitlines() if PROXY_ONLY not in line)
        return site

    def start_nginx(self) -> None:
        binary = nginx_binary()
        prefix = self.workdir / "nginx"
        for sub in ("logs", "tmp"):
            (prefix / sub).mkdir(parents=True, exist_ok=True)
        (prefix / "inspector.conf").write_text(self.nginx_site())
        main = prefix / "nginx.conf"
        tmp = prefix / "tmp"
        main.write_text(
            f"pid {prefix}/nginx.pid;\nerror_log {prefix}/logs/error.log;\nerror_log stderr notice;\n"
            + ("user root;\n" if os.geteuid() == 0 else "")
            + "events { worker_connections 256; }\n"
            f"http {{\n  access_log {prefix}/logs/access.log;\n"
            f"  client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy; fastcgi_temp_path {tmp}/fcgi;\n"
            f"  uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;\n"
            f"  include {prefix}/inspector.conf;\n}}\n"
        )
        checked = subprocess.run([binary, "-t", "-p", str(prefix), "-c", str(main)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        self.nginx = subprocess.Popen([binary, "-p", str(prefix), "-c", str(main), "-g", "daemon off;"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        # nginx opens its listening sockets before its master starts the workers, and says so
        # ("start worker processes", a notice on stderr): up, with no polling. Its end of file
        # before that line means it has stopped.
        assert self.nginx.stderr is not None
        for line in self.nginx.stderr:
            if "start worker process" in line:
                return
        self.nginx.wait(timeout=15)
        raise RuntimeError((prefix / "logs" / "error.log").read_text(errors="replace"))

    def start(self) -> Deployment:
        if self.mode == "proxy":
            self.write_users()
        self.start_replicas()
        self.start_nginx()
        return self

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()
            self.nginx.wait(timeout=15)
        for app in self.apps:
            app.stop()


@pytest.fixture(name="browser")
def closing_browser(browser):
    """pytest-playwright's ``browser``, each test's contexts closed after it: idle sessions left open
    slow the next test. A test module imports it to use it."""
    before = set(browser.contexts)
    yield browser
    for context in set(browser.contexts) - before:
        context.close()
