"""Bytes to Python values, fast, with an exact location when the bytes are not JSON.

orjson does the parsing (several times faster than ``json``). When it fails, the stdlib parser
is run on the same text only to produce the ``line L column C: reason`` users need. JSON Lines is
recognised when the whole text is not one JSON value but every non-empty line is.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from .errors import InputError, PythonReprInput

BOM = b"\xef\xbb\xbf"


def decode_text(data: bytes | str) -> bytes:
    """Return UTF-8 bytes without a BOM; refuse binary input with a clear message."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if data.startswith(BOM):
        data = data[len(BOM):]
    if b"\x00" in data[:4096]:
        raise InputError("this looks like a binary file, not JSON text (it contains NUL bytes)")
    return data


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line} column {col}"


def _explain(data: bytes, line_offset: int = 0) -> InputError:
    """Re-parse with the stdlib to find where and why the text is not JSON."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = _where(data[: exc.start].decode("utf-8", "replace"), exc.start)
        return InputError("the text is not valid UTF-8", where)
    if not text.strip():
        return InputError("the input is empty")
    try:
        json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        return InputError(exc.msg, f"line {exc.lineno + line_offset} column {exc.colno}")
    except RecursionError:
        return InputError("the JSON is nested too deeply to be a transcript", "line 1 column 1")
    except ValueError as exc:  # NaN / Infinity
        return InputError(str(exc))
    # The stdlib accepted what orjson refused: nesting deeper than orjson's limit, or
    # numbers orjson cannot hold.
    return InputError("the JSON is nested too deeply or holds numbers out of range")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON (found a bare {name} value)")


def loads(data: bytes) -> Any:
    """Parse one JSON value from BOM-free UTF-8 bytes, or raise ``InputError`` with a location."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        raise _explain(data) from None


def parse(data: bytes | str) -> tuple[Any, str]:
    """Parse JSON or JSON Lines. Returns ``(value, "json"|"jsonl")``; JSONL gives a list of values."""
    data = decode_text(data)
    try:
        return orjson.loads(data), "json"
    except orjson.JSONDecodeError:
        pass
    lines = data.split(b"\n")
    nonempty = [ln for ln in lines if ln.strip()]
    if not nonempty:
        raise InputError("the input is empty")
    if len(nonempty) > 1:
        values = []
        first_error: tuple[int, bytes] | None = None
        for no, ln in enumerate(lines, 1):
            if not ln.strip():
                continue
            try:
                values.append(orjson.loads(ln))
            except orjson.JSONDecodeError:
                first_error = (no, ln)
                break
        if first_error is None:
            return values, "jsonl"
        # Lines parsed before the bad one: report it as a JSON Lines error on its own line.
        if values:
            no, ln = first_error
            raise _explain(ln, line_offset=no - 1)
    raise _not_json(data)


def _not_json(data: bytes) -> InputError:
    """The error for text that is not JSON: a Python repr is named as such, else line and column."""
    from .pyrepr import looks_like_repr, repr_value

    if looks_like_repr(data):
        return PythonReprInput(repr_value(data) is not None)
    return _explain(data)


def repr_to_json(data: bytes) -> bytes | None:
    """A Python repr read as JSON bytes, or None when it cannot be read safely as a plain literal."""
    from .pyrepr import repr_value

    value = repr_value(data)
    return None if value is None else dumps(value)


def dumps(value: Any, *, indent: bool = True) -> bytes:
    """Serialise like the stdlib would (key order kept, non-ASCII kept), ending in a newline."""
    opt = orjson.OPT_INDENT_2 if indent else 0
    try:
        return orjson.dumps(value, option=opt) + b"\n"
    except TypeError:
        # Integers beyond 64 bits and other values orjson refuses: the stdlib can still write them.
        text = json.dumps(value, ensure_ascii=False, indent=2 if indent else None)
        return text.encode("utf-8") + b"\n"

