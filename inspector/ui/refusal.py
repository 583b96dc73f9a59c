"""Input the app cannot read: said in the main panel, in the app's own words, with what was there.

A refusal replaces the view of the previous file (the main panel shows the file that was just
given, never the one before it). When the reader names a line and column, a short excerpt of
that line is shown with a caret under the position, as text only (the input is hostile).
"""

from __future__ import annotations

import re
from pathlib import PurePath

import streamlit as st

from ..errors import InputError
from ..recognition import CHOOSE

READ = (".json", ".jsonl", ".har")
EXCERPT = 60  # characters shown each side of the position
APP_CHOOSE = "choose the file's format in the Dialect box"
_WHERE = re.compile(r"line (\d+) column (\d+)")


def app_words(message: str) -> str:
    """The reader's message as the app says it (the CLI's --from is the app's Dialect box)."""
    return message.replace(CHOOSE, APP_CHOOSE)


def excerpt(data: bytes, where: str | None) -> str | None:
    """The text around ``line L column C`` of ``data``, with a caret line under the position."""
    m = _WHERE.search(where or "")
    if m is None or not data:
        return None
    line_no, col = int(m.group(1)), int(m.group(2))
    lines = data.decode("utf-8", "replace").split("\n")
    if not 1 <= line_no <= len(lines):
        return None
    line = lines[line_no - 1].rstrip("\r")
    at = max(0, min(col - 1, len(line)))
    a, z = max(0, at - EXCERPT), min(len(line), at + EXCERPT)
    shown = ("…" if a else "") + line[a:z] + ("…" if z < len(line) else "")
    # Control characters would shift the caret: shown as a visible mark of one column.
    shown = "".join(ch if ch >= " " or ch == "\t" else "·" for ch in shown).replace("\t", " ")
    caret = " " * (at - a + (1 if a else 0)) + "^"
    return f"line {line_no}:\n{shown}\n{caret}"


def not_read_kind(name: str) -> str | None:
    """A sentence for a file whose name says it is not JSON (a .yaml upload), else None."""
    suffix = PurePath(name or "").suffix.lower()
    if not suffix or suffix in READ or name == "pasted.json":
        return None
    return (f"A {suffix} file: the inspector reads JSON, JSON Lines and HAR captures "
            "(a messages array, a request body, a log or trajectory saved as JSON).")


def show_input_error(exc: BaseException, loaded=None) -> None:
    """One readable message: what is wrong and where (line and column, or a JSON path), the file's
    name, and an excerpt around the position when there is one."""
    with st.container(key="input_error", border=True):
        name = getattr(loaded, "name", None)
        st.text(f"Could not read {name}" if name else "Could not read this input")
        kind = not_read_kind(name) if name else None
        if kind:
            st.text(kind)
        st.text(app_words(str(exc)) if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}")
        shown = excerpt(loaded.data, getattr(exc, "where", None)) if loaded is not None else None
        if shown:
            st.code(shown, language=None)
