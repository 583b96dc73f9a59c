"""The manual (``docs/``, ``mkdocs.yml``) builds as a site with ``mkdocs build --strict``: a broken
link, a missing page, a page left out of the nav or a missing included file fails the build, and
so ``make test``. The built site is read offline: no page, stylesheet or script loads anything
from another host (Material for MkDocs loads Google Fonts unless ``theme.font`` is false), and
every page opens from the files, without a server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Attributes through which a page loads something by itself (a link a reader clicks is not a load).
LOADS = {("script", "src"), ("img", "src"), ("img", "srcset"), ("iframe", "src"), ("source", "src"),
         ("source", "srcset"), ("video", "src"), ("audio", "src"), ("embed", "src"), ("object", "data"),
         ("link", "href"), ("input", "src")}
ELSEWHERE = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)  # http://, https://, //host
CSS_URL = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])\s*((?:[a-z][a-z0-9+.-]*:)?//[^'")\s]+)""", re.IGNORECASE)
FONT_HOSTS = ("fonts.googleapis.com", "fonts.gstatic.com")


class _Loads(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and ((tag, name) in LOADS or name == "style"):
                if name == "style":
                    self.found += CSS_URL.findall(value)
                elif any(ELSEWHERE.match(v.strip().split(" ")[0]) for v in value.split(",")):
                    self.found.append(f"<{tag} {name}={value!r}>")
        self._style = tag == "style"

    def handle_data(self, data: str) -> None:
        if self._style:
            self.found += CSS_URL.findall(data)

    def handle_endtag(self, tag: str) -> None:
        self._style = False


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert p.returncode == 0, p.stderr[-4000:]
    return out


def test_the_manual_builds_strictly_with_every_page_in_the_nav(site: Path):
    pages = {p.relative_to(ROOT / "docs").with_suffix(".html").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    built = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert pages <= built
    assert "Recipe 2: a rule" in (site / "contributing.html").read_text(encoding="utf-8")  # CONTRIBUTING.md, included


def test_no_page_loads_anything_from_another_host(site: Path):
    loads: dict[str, list[str]] = {}
    for page in sorted(site.rglob("*.html")):
        parser = _Loads()
        parser.feed(page.read_text(encoding="utf-8"))
        if parser.found:
            loads[page.name] = parser.found
    for sheet in sorted(site.rglob("*.css")):
        found = CSS_URL.findall(sheet.read_text(encoding="utf-8"))
        if found:
            loads[sheet.name] = found
    assert loads == {}
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in site.rglob("*")
                     if p.suffix in (".html", ".css", ".js"))
    assert not [h for h in FONT_HOSTS if h in text]


def test_pages_open_from_the_files_without_a_server(site: Path):
    """``use_directory_urls: false``: a link between pages names the page's file."""
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="check.html"' in index
