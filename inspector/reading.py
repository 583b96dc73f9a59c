"""``load``: whatever the user has (a path, ``-``, bytes, text, a list or a dict) to a ``Document``."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from . import dialects  # the formats' container recognisers (they load before a file is searched), and read_folder
from .containers import Document, Transcript, find_transcripts, looks_like_message
from .errors import InputError, PythonReprInput
from .gc_pause import gc_paused
from .jsonio import PIECES_FROM, loads_stream, parse_document, repr_to_json
from .sqlite_sessions import database_of_path, is_database

MAX_BYTES = 1 << 31  # 2 GiB: beyond this, reading into memory is not a sensible plan
# A Chat Completions message array at least this big is read as typed structs (``typed_document``);
# below it the dict reading reads it. The typed reading's own passes (the decode into structs, the
# write-back, the exactness proof) and its imports (msgspec's decoders, ``openai_typed``) cost more
# than the dicts they save on a small file: read, checked and written as JSON, 10-110% slower at
# 100 to 1,000 messages (34-340 kB), about even at 3,000 (1 MB), 20-25% faster at 10,000 (3.4 MB)
# (issue 37; the guard's bodies measure alike, ``guard.inspect.TYPED_BODY_BYTES``). The verdict is
# the same either way: tests/test_typed_reading.py sets this to 0 and holds every door to the dict
# reading's answer.
TYPED_FROM_BYTES = 1 << 20
CHUNK = 1 << 20
TIMEOUT_VARIABLE = "INSPECTOR_READ_TIMEOUT"


def read_source(source: str | os.PathLike[str], *, timeout: float | None = None) -> tuple[bytes, str]:
    """Bytes of a file, or of stdin for ``-``, with a one-line error when it cannot be read.

    Regular files are sized before reading; stdin, devices and FIFOs are read in chunks under the
    same 2 GiB cap, and a first chunk of binary (``/dev/zero``) stops the read at once. A pipe
    that stays silent is waited for, unless ``timeout`` (or ``INSPECTOR_READ_TIMEOUT``, seconds)
    says how long to wait for it.
    """
    name = os.fspath(source)
    if timeout is None:
        timeout = _timeout_from_env()
    if name == "":
        raise InputError("the path is empty: name a transcript file, or - for stdin")
    if name == "-":
        return _with_timeout(lambda: _read_stream(sys.stdin.buffer, "<stdin>"), "<stdin>", timeout), "<stdin>"
    p = Path(name)
    try:
        if p.is_dir():
            folder = read_folder(name)
            if folder is None:
                raise InputError("is a directory, not a transcript file", name)
            return folder, name
        info = p.stat()
        if stat.S_ISREG(info.st_mode):
            if info.st_size > MAX_BYTES:
                raise InputError(f"the file is {info.st_size / 1e9:.1f} GB, more than the 2 GB this tool reads", name)
            with open(p, "rb") as f:  # one read (no second copy); at most the cap even if the file grew
                data = f.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                raise InputError("more than the 2 GB this tool reads", name)
            return data, name
        return _with_timeout(lambda: _read_special(p, name), name, timeout), name
    except FileNotFoundError:
        raise InputError("no such file", name) from None
    except PermissionError:
        raise InputError("permission denied", name) from None
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), name) from None


def read_folder(name: str) -> bytes | None:
    """A folder a format keeps one conversation in (``Dialect.read_folder``), as one document."""
    for d in dialects.all_dialects():
        data = d.read_folder(name)
        if data is not None:
            return data
    return None


def _read_special(p: Path, name: str) -> bytes:
    with open(p, "rb", buffering=0) as f:  # opening a FIFO waits for its writer
        return _read_stream(f, name)


def _read_stream(f: BinaryIO, name: str) -> bytes:
    """Everything ``f`` gives, in chunks, refusing binary at the first chunk and more than the cap."""
    from .jsonio import sniff_encoding

    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = f.read(min(CHUNK, MAX_BYTES + 1 - total))
        if not chunk:
            break
        if not chunks:
            try:
                sniff_encoding(chunk)
            except InputError as exc:
                raise InputError(exc.what, name) from None
        total += len(chunk)
        if total > MAX_BYTES:
            raise InputError("more than the 2 GB this tool reads", name)
        chunks.append(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _timeout_from_env() -> float | None:
    raw = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not (value > 0 and value != float("inf")):
        raise InputError(f"{TIMEOUT_VARIABLE}={raw!r} must be a number of seconds greater than zero")
    return value


def _with_timeout(read: Callable[[], bytes], name: str, timeout: float | None) -> bytes:
    """``read()``, or ``InputError`` when it has not finished within ``timeout`` seconds."""
    if timeout is None:
        return read()
    import threading

    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["data"] = read()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True, name="inspector-read")
    worker.start()
    worker.join(timeout)
    if worker.is_alive():  # the daemon thread stays blocked on the pipe; the process can still exit
        raise InputError(f"no end of input after {timeout:g} s ({TIMEOUT_VARIABLE}); is anything writing to it?", name)
    if "error" in box:
        raise box["error"]
    data: bytes = box["data"]
    return data


def load(source: Any, *, name: str | None = None, typed: bool = False) -> Document:
    """Read a transcript from a path, ``-`` (stdin), bytes, JSON text, or already-parsed data.

    A ``str`` is taken as JSON text when it starts like JSON (``[``, ``{``, a BOM) or holds a
    newline; otherwise as a path. ``typed``: a Chat Completions message array is read as typed
    structs (``typed_document``), as every door of the engine reads it; without it (the library's
    ``inspector.load``) the document's root is plain JSON values.
    """
    if isinstance(source, Document):
        return source
    if isinstance(source, (list, dict)):
        return Document(root=source, format="json", transcripts=find_transcripts(source, "json"),
                        source=name or "<data>")
    if isinstance(source, (bytes, bytearray, memoryview)):
        return load_bytes(bytes(source), name or "<bytes>", typed=typed)
    if isinstance(source, str) and (source.lstrip("\ufeff \t\r\n")[:1] in ("[", "{") or "\n" in source):
        return load_bytes(source.encode("utf-8", "surrogatepass"), name or "<text>", typed=typed)
    if isinstance(source, (str, os.PathLike)):
        return load_path(source, name=name, typed=typed)
    raise InputError(f"cannot read a transcript from a {type(source).__name__}")


def load_path(path: str | os.PathLike[str], *, name: str | None = None, typed: bool = True) -> Document:
    """``load`` of a file, or of stdin for ``-`` (never taken as JSON text).

    A Chat Completions message array of ``TYPED_FROM_BYTES`` or more is read as typed structs
    (``typed_document``); with ``typed=False`` (or when it is smaller, or not that shape) the dict
    reading reads it. A big JSON array in
    a regular file is then parsed while it is read (``jsonio.loads_stream``), so that its text is
    never held whole beside its parsed value; anything else is read whole first.
    """
    if path_is_database(path):  # a SQLite session store, opened read-only where it is
        label = name or os.fspath(path)
        return database_document(database_of_path(os.fspath(path)), label)
    if typed:
        data, label = read_source(path)
        label = name or label
        doc = typed_document(data, label) if len(data) >= TYPED_FROM_BYTES else None
        if doc is not None:
            return doc
        if not _streamable(path):
            return load_bytes(data, label, typed=False)
        del data  # a big regular file: read again a few MB at a time rather than held twice
    root = _streamed(path)
    if root is not None:
        label = name or os.fspath(path)
        return Document(root=root, format="json", transcripts=find_transcripts(root, "json"), source=label)
    data, label = read_source(path)
    return load_bytes(data, name or label, typed=False)


def _streamable(path: str | os.PathLike[str]) -> bool:
    """True for a regular file of a size ``_streamed`` parses while it reads it."""
    name = os.fspath(path)
    if name in ("", "-"):
        return False
    try:
        info = os.stat(name)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and PIECES_FROM <= info.st_size <= MAX_BYTES


def _streamed(path: str | os.PathLike[str]) -> list[Any] | None:
    """The parsed array of a big regular file read a few MB at a time, or None: not such a file,
    or something the streamed parse cannot vouch for (``read_source`` and ``parse`` then give the
    file's error or its exact reading)."""
    if not _streamable(path):
        return None
    try:
        with open(os.fspath(path), "rb") as f, gc_paused():
            return loads_stream(f.read, MAX_BYTES)
    except (OSError, InputError):
        return None


def path_is_database(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is a regular file that starts as a SQLite database does."""
    name = os.fspath(path)
    if name in ("", "-"):
        return False
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):
            return False
        with open(name, "rb") as f:
            return is_database(f.read(16))
    except OSError:
        return False


def database_document(data: bytes, label: str) -> Document:
    """A SQLite session store's bytes as a document of one transcript per session (``sqlite_sessions``)."""
    from .sqlite_sessions import read_database

    root = read_database(data, label)
    return Document(root=root, format="sqlite", transcripts=find_transcripts(root, "sqlite"), source=label)


def load_bytes(data: bytes, label: str, *, typed: bool = True) -> Document:
    """``load`` of a file's bytes (JSON or JSON Lines; UTF-16 and UTF-32 are transcoded; a SQLite
    session store, see ``sqlite_sessions``). A Chat Completions message array of
    ``TYPED_FROM_BYTES`` or more is read as typed structs (``typed_document``), the engine's one
    reading of that shape at every door; with ``typed=False``, or for anything else, the dict
    reading reads the bytes."""
    if typed and len(data) >= TYPED_FROM_BYTES:
        doc = typed_document(data, label)
        if doc is not None:
            return doc
    if is_database(data[:16]):
        return database_document(data, label)
    with gc_paused():
        root, fmt, dups, lines = parse_document(data)
    if fmt == "json" and type(root) is dict and looks_like_message(root):
        # One message or log entry on its own is a JSON Lines file of one line (a Claude Code
        # log that repair or fit cut down to one entry): read it as the format it was written in.
        root, fmt, lines = [root], "jsonl", [1]
        dups = [{**d, "path": (0, *d["path"])} for d in dups]
    return Document(root=root, format=fmt, transcripts=find_transcripts(root, fmt), source=label, lines=lines,
                    duplicate_keys=dups)


def typed_document(data: bytes, label: str) -> Document | None:
    """``data`` read as typed structs (``dialects.openai_typed``: a Chat Completions message
    array, no dict per message), or None when it is not that shape (the dict reading's then)."""
    from .clean_proof import Proof
    from .dialects.openai_typed import document

    # The clean proof of the list as the check asks it (no tools list, the default loop options),
    # made while the list is read, a slice at a time (so that its structs need not all be held).
    proof = Proof(None, set(), texts=True)
    with gc_paused():  # (structs, lists and the arguments' values: no cycle)
        items = document(data, proof.feed)
        if items is None:
            return None
        if proof.failed:
            items.clean = False
        elif not items.structs_held:  # read in pieces, every one fed to the proof
            items.clean = proof.done(items.take_structs)
    # the container the dict reading finds for the list (its recognisers look at its head)
    found = find_transcripts(items.head(50), "json")
    if len(found) != 1 or found[0].path != () or found[0].dialect or found[0].extra or found[0].name:
        return None
    return Document(root=items, format="json", source=label,
                    transcripts=[Transcript(items=items, path=(),  # type: ignore[arg-type]  # a list to every reader
                                                container=found[0].container)])


def typed_request(data: bytes, label: str) -> Document | None:
    """A Chat Completions request body read as the dict reading reads it, its message list as
    typed structs (``openai_typed.request_parts``: the rest of the body is parsed here, as
    ``load_bytes`` parses it), or None when the typed reading cannot vouch for the same reading:
    a repeated key, another container (the recognisers see the body with its list's first items;
    a Gemini CLI session, ``sessionId``, looks at more of them), a body that is itself a message."""
    from .dialects.openai_typed import request_parts

    with gc_paused():
        parts = request_parts(data)
        if parts is None:
            return None
        rest, items = parts
        try:
            root, fmt, dups, lines = parse_document(rest)
        except InputError:
            return None
    if fmt != "json" or dups or type(root) is not dict or root.get("messages") != [] or "sessionId" in root:
        return None
    root["messages"] = items.head(5)  # what the recognisers look at (``containers._are_messages``)
    try:
        if looks_like_message(root):
            return None
        found = find_transcripts(root, fmt)
    except InputError:
        return None
    t = found[0] if len(found) == 1 else None
    if t is None or t.path != ("messages",) or t.dialect or t.name or set(t.extra) - {"declared_tools", "request"}:
        return None
    root["messages"] = t.items = items  # type: ignore[assignment]  # a list to every reader
    return Document(root=root, format=fmt, transcripts=[t], source=label, lines=lines)


def read_document(path: str | os.PathLike[str], python_repr: bool = False) -> Document:
    """``load`` a path or ``-``, as every command reads its input (a Chat Completions message
    array as typed structs, ``typed_document``); with ``python_repr``, a Python repr (what
    ``print(messages)`` shows) is read as a literal."""
    data, label = read_source(path) if path == "-" else (None, str(path))
    try:
        return load_bytes(data, label) if data is not None else load_path(path)
    except PythonReprInput as exc:
        if not python_repr:
            raise PythonReprInput(exc.readable, label) from None
        if data is None:
            data, label = read_source(path)
        converted = repr_to_json(data) if exc.readable else None
        if converted is None:
            raise InputError(str(exc), label) from None
        return load_bytes(converted, label)
