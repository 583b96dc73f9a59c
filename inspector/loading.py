"""``load``: whatever the user has (a path, ``-``, bytes, text, a list or a dict) to a ``Document``."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from .containers import Document, find_transcripts
from .errors import InputError
from .jsonio import parse

MAX_BYTES = 1 << 31  # 2 GiB: beyond this, reading into memory is not a sensible plan


def read_source(source: str | os.PathLike) -> tuple[bytes, str]:
    """Bytes of a file, or of stdin for ``-``, with a one-line error when it cannot be read."""
    name = os.fspath(source)
    if name == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    p = Path(name)
    try:
        if p.is_dir():
            raise InputError("is a directory, not a transcript file", name)
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise InputError(f"the file is {size / 1e9:.1f} GB, more than the 2 GB this tool reads", name)
        return p.read_bytes(), name
    except FileNotFoundError:
        raise InputError("no such file", name) from None
    except PermissionError:
        raise InputError("permission denied", name) from None
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), name) from None


def load(source: Any, *, name: str | None = None) -> Document:
    """Read a transcript from a path, ``-`` (stdin), bytes, JSON text, or already-parsed data.

    A ``str`` is taken as JSON text when it starts like JSON (``[``, ``{``, a BOM) or holds a
    newline; otherwise as a path.
    """
    if isinstance(source, Document):
        return source
    if isinstance(source, (list, dict)):
        root, fmt, label = source, "json", name or "<data>"
    else:
        if isinstance(source, (bytes, bytearray, memoryview)):
            data, label = bytes(source), name or "<bytes>"
        elif isinstance(source, str) and (source.lstrip("\ufeff \t\r\n")[:1] in ("[", "{") or "\n" in source):
            data, label = source.encode("utf-8", "surrogatepass"), name or "<text>"
        elif isinstance(source, (str, os.PathLike)):
            data, label = read_source(source)
        else:
            raise InputError(f"cannot read a transcript from a {type(source).__name__}")
        from .check import gc_paused

        with gc_paused():
            root, fmt = parse(data)
        if fmt == "jsonl":
            lines = [no for no, ln in enumerate(data.split(b"\n"), 1) if ln.strip()]
            return Document(root=root, format=fmt, transcripts=find_transcripts(root, fmt), source=label, lines=lines)
    return Document(root=root, format=fmt, transcripts=find_transcripts(root, fmt), source=label)
