"""Writing a changed transcript back into its file: same wrapper, same format, same key order.

Repair and fit both change the message lists of a document and nothing else. ``replace`` puts a
new list at its path, copying only the containers along the path (the caller's data stays as it
was), and ``serialise`` writes the root the way it came: JSON or JSON Lines, indented or on one
line.
"""

from __future__ import annotations

from typing import Any

from .containers import EMBEDDED, embedded_json
from .jsonio import dumps


def source_bytes(source: Any) -> bytes | None:
    """The input's bytes when it came as bytes or JSON text (to give back an unchanged file)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, str) and (source.lstrip("\ufeff \t\r\n")[:1] in ("[", "{") or "\n" in source):
        return source.encode("utf-8", "surrogatepass")
    return None


def replace(root: Any, path: tuple, value: Any) -> Any:
    """``root`` with ``value`` at ``path``, copying only the containers along the path."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if head is EMBEDDED:  # a JSON document held as a string (HAR body, OTLP attribute): back as compact JSON text
        return dumps(replace(embedded_json(root), rest, value), indent=False).decode().rstrip("\n")
    copy = dict(root) if type(root) is dict else list(root)
    copy[head] = replace(root[head], rest, value)
    return copy


def serialise(root: Any, fmt: str, pretty: bool) -> bytes:
    """``root`` as file bytes: one line per value for JSON Lines, else one JSON value."""
    if fmt == "jsonl" and type(root) is list:
        return b"".join(dumps(v, indent=False) for v in root)
    return dumps(root, indent=pretty)


def pretty_like(original: bytes | None) -> bool:
    """Indented in, indented out; a one-line file stays one line."""
    return original is None or b"\n" in original[:65536].rstrip()
