"""Writing a changed transcript back into its file: same wrapper, same format, same key order.

Repair and fit both change the message lists of a document and nothing else. ``replace`` puts a
new list at its path, copying only the containers along the path (the caller's data stays as it
was), and ``serialise`` writes the root the way it came: JSON or JSON Lines, indented or on one
line.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from typing import Any

from .containers import EMBEDDED, embedded_json, get_path
from .errors import InputError
from .jsonio import dumps, sniff_encoding


def source_bytes(source: Any) -> bytes | None:
    """The input's bytes when it came as bytes or JSON text (to give back an unchanged file)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, str) and (source.lstrip("\ufeff \t\r\n")[:1] in ("[", "{") or "\n" in source):
        return source.encode("utf-8", "surrogatepass")
    return None


def replace(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    """``root`` with ``value`` at ``path``, copying only the containers along the path."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if head is EMBEDDED:  # a JSON document held as a string (HAR body, OTLP attribute): back as compact JSON text
        return dumps(replace(embedded_json(root), rest, value), indent=False).decode().rstrip("\n")
    copy = dict(root) if type(root) is dict else list(root)
    copy[head] = replace(root[head], rest, value)
    return copy


def replace_field(root: Any, path: tuple[Any, ...], key: str, value: Any) -> Any:
    """``root`` with the object at ``path`` holding ``value`` at ``key`` (added last if it was not
    there), copying only the containers along the path."""
    holder = get_path(root, path) if path else root
    return replace(root, path, {**holder, key: value})


def put_back(root: Any, t: Any, items: list[Any], origins: list[Any] | None = None) -> Any:
    """``root`` with transcript ``t``'s new ``items`` written where they were read from.

    A transcript continued by a second list (``extra["tail"]``: an OTLP span's output messages
    after its input messages) is split again: from the first item that came from the second
    list on (by ``origins``, the input index of each item, None for a new one; else by identity),
    the items go back to the second list, the ones before to the first."""
    tail = t.extra.get("tail")
    if tail is None:
        return replace(root, t.path, items)
    head = t.extra["head"]
    if origins is not None and len(origins) == len(items):
        split = next((k for k, o in enumerate(origins) if o is not None and o >= head), len(items))
    else:
        old = {id(x) for x in t.items[head:]}
        split = next((k for k, x in enumerate(items) if id(x) in old), len(items))
    for path, new, old in ((t.path, items[:split], t.items[:head]), (tail, items[split:], t.items[head:])):
        if len(new) != len(old) or any(a is not b for a, b in zip(new, old)):  # an unchanged part stays as it was
            root = replace(root, path, new)
    return root


def serialise(root: Any, fmt: str, pretty: bool) -> bytes:
    """``root`` as file bytes: one line per value for JSON Lines, else one JSON value (a SQLite
    session store: the database, ``sqlite_sessions.database_bytes``)."""
    if fmt == "sqlite":
        from .sqlite_sessions import database_bytes

        return database_bytes(root)
    if fmt == "jsonl" and type(root) is list:
        return b"".join(dumps(v, indent=False) for v in root)
    return dumps(root, indent=pretty)


def pretty_like(original: bytes | None) -> bool:
    """Indented in, indented out; a one-line file stays one line."""
    return original is None or b"\n" in original[:65536].rstrip()


STREAM_ITEMS = 2000  # list items written per piece when a big list is written streamed


def serialise_pieces(root: Any, fmt: str, pretty: bool) -> Iterator[bytes]:
    """``serialise``, in pieces whose concatenation is the same bytes: a long top-level list is
    written a few thousand items at a time, so the whole output is never held at once."""
    if fmt == "sqlite":
        yield serialise(root, fmt, pretty)
        return
    if fmt == "jsonl" and type(root) is list:
        for k in range(0, len(root), STREAM_ITEMS):
            yield b"".join(dumps(v, indent=False) for v in root[k:k + STREAM_ITEMS])
        return
    if type(root) is not list or len(root) <= STREAM_ITEMS:
        yield dumps(root, indent=pretty)
        return
    # dumps([a, b]) is "[\n  A,\n  B\n]\n" indented or "[A,B]\n" on one line: the inside of
    # each piece is written between one opening and one closing bracket.
    head, sep, tail, cut = (b"[\n", b",\n", b"\n]\n", (2, -3)) if pretty else (b"[", b",", b"]\n", (1, -2))
    yield head
    for k in range(0, len(root), STREAM_ITEMS):
        piece = dumps(root[k:k + STREAM_ITEMS], indent=pretty)
        yield (sep if k else b"") + piece[cut[0]:cut[1]]
    yield tail


_SEEK = 64  # how far past the last line written back to look for the next (repair drops or moves a few)


def lines_kept_pieces(root: list[Any], read: list[Any], original: Iterable[bytes]) -> Iterator[bytes]:
    """JSON Lines ``root`` in pieces, a value that is the very object ``read`` from a line of the
    ``original`` bytes (a stream of chunks) written as that line's own bytes: a repaired log
    differs only in the lines repair changed (their spacing and escapes kept elsewhere).

    Both are walked forward once, so the original is never held whole. The original must be the
    UTF-8 text the values were read from, one non-blank line per value of ``read``."""
    lines = _lines(original)
    at = -1  # index in read of the last line taken from the stream
    line: bytes | None = b""
    out: list[bytes] = []
    j = 0
    for v in root:
        k = next((x for x in range(j, min(j + _SEEK, len(read))) if read[x] is v), None)
        while k is not None and at < k:
            line = next(lines, None)
            at += 1
            if line is None:  # not the lines these values were read from: write them
                k = None
        if k is None:
            out.append(dumps(v, indent=False))
        else:
            assert line is not None  # k is None when the lines ran out
            out.append(line + b"\n")
            j = k + 1
        if len(out) >= STREAM_ITEMS:
            yield b"".join(out)
            out = []
    for _ in lines:  # read to the end: the original's own check (a file changed meanwhile) runs
        pass
    if out:
        yield b"".join(out)


def _lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The non-blank lines of a stream of chunks (without their newline)."""
    rest = b""
    for chunk in chunks:
        parts = (rest + chunk).split(b"\n")
        rest = parts.pop()
        for ln in parts:
            if ln.strip():
                yield ln
    if rest.strip():
        yield rest


class Original:
    """The bytes a document was read from, to give back unchanged when nothing needed repair.

    For a file the bytes are not kept (a copy of a 500 MB file held through a whole repair):
    its size and CRC are, and the file is read again, in chunks, when it is written back; if it
    changed meanwhile, ``InputError``.
    """

    CHUNK = 1 << 20

    def __init__(self, data: bytes, path: str | None = None):
        self.pretty = pretty_like(data)
        self.path = path
        self.data: bytes | None = data if path is None else None
        self.size, self.crc = len(data), (zlib.crc32(data) if path is not None else 0)
        self.utf8 = sniff_encoding(data[:4096]) == ("UTF-8", 0)  # its lines can be written back as they are

    def pieces(self) -> Iterator[bytes]:
        if self.data is not None:
            yield self.data
            return
        crc = size = 0
        assert self.path is not None  # a file's bytes are read again from its path
        try:
            with open(self.path, "rb") as f:
                while chunk := f.read(self.CHUNK):
                    crc, size = zlib.crc32(chunk, crc), size + len(chunk)
                    if size > self.size:
                        break
                    yield chunk
        except OSError as exc:
            raise InputError(f"cannot read the file again to write it back ({exc.strerror or exc})", self.path) from None
        if (size, crc) != (self.size, self.crc):
            raise InputError("the file changed while it was being repaired; run again", self.path)
