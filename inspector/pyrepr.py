"""A transcript pasted as Python's ``print(messages)`` instead of JSON.

Developers often copy what their agent printed: ``[{'role': 'user', 'content': 'hi'}, ...]``,
with single quotes, ``None``, ``True`` and tuples. That is not JSON, and the JSON parser's
``line 1 column 3: Expecting property name`` does not help. ``looks_like_repr`` recognises the
shape so the error can say what it is; ``repr_value`` reads it with ``ast.literal_eval`` (which
evaluates literals only, never code) and gives the value back, or None when that is not safe
or not possible (too big, not a literal, values JSON cannot hold). Reading it is always the
user's choice: the CLI's ``--python-repr`` and the app's "Read it as a Python literal".
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

# ast.literal_eval builds a full syntax tree (roughly 20x the text in memory): keep it bounded.
MAX_REPR_BYTES = 20_000_000

# An opening bracket and a single-quoted key, or the Python constants JSON does not have.
_START = re.compile(rb"^\s*[\[\(]?\s*\{\s*'[^'\n]{1,80}'\s*:")
_PY_WORDS = re.compile(rb"[:,\[]\s*(?:None|True|False)\s*[,}\]]")


def looks_like_repr(data: bytes) -> bool:
    """True when the text reads like a Python dict/list repr rather than JSON."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf")
    return bool(_START.match(head)) or (head.lstrip()[:1] in (b"[", b"{") and bool(_PY_WORDS.search(head)))


def _jsonable(x: Any, depth: int = 0) -> Any:
    if depth > 200:
        raise ValueError("nested too deeply")
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError("NaN or infinity")
        return x
    if isinstance(x, (list, tuple)):
        return [_jsonable(v, depth + 1) for v in x]
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            if not isinstance(k, str):
                raise TypeError("a non-string key")
            out[k] = _jsonable(v, depth + 1)
        return out
    raise TypeError(f"a {type(x).__name__} value")


# A string (quotes and escapes), a bracket or a comma: where a list's top-level elements end.
_TOKEN = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|[\[\](){},]""")


def _elements(text: str) -> list[str] | None:
    """The top-level elements of the list literal ``text``, as text, or None when it is not one
    (or not one this splitter is sure of)."""
    if not (text.startswith("[") and text.endswith("]")):
        return None
    depth, start, out = 0, 1, []
    for m in _TOKEN.finditer(text, 1, len(text) - 1):
        c = m.group()
        if c in "[({":
            depth += 1
        elif c in "])}":
            depth -= 1
            if depth < 0:
                return None
        elif c == "," and not depth:
            out.append(text[start:m.start()])
            start = m.end()
    if depth:
        return None
    last = text[start:len(text) - 1]
    if last.strip():
        out.append(last)
    return out


def _literal(text: str) -> Any:
    """``ast.literal_eval``, a list one element at a time: the syntax tree of the whole (roughly
    175x the text: 1.7 GB for 9.9 MB) is never built at once (issue 22)."""
    parts = _elements(text)
    if parts is not None:
        try:
            return [_jsonable(ast.literal_eval(p.strip())) for p in parts]
        except (ValueError, SyntaxError, TypeError, RecursionError):
            pass  # the whole literal decides
    return _jsonable(ast.literal_eval(text))


def repr_value(data: bytes) -> list[Any] | dict[str, Any] | None:
    """The repr read as a JSON value, or None when it cannot be read safely as a plain literal.
    (``jsonio.repr_to_json`` writes it as JSON; this module imports nothing of the package.)"""
    if len(data) > MAX_REPR_BYTES:
        return None
    try:
        text = data.decode("utf-8").lstrip("\ufeff")
        value = _literal(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, UnicodeDecodeError):
        return None
    if not isinstance(value, (list, dict)):
        return None
    return value
