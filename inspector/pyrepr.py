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


def repr_value(data: bytes) -> list | dict | None:
    """The repr read as a JSON value, or None when it cannot be read safely as a plain literal.
    (``jsonio.repr_to_json`` writes it as JSON; this module imports nothing of the package.)"""
    if len(data) > MAX_REPR_BYTES:
        return None
    try:
        text = data.decode("utf-8").lstrip("\ufeff")
        value = _jsonable(ast.literal_eval(text.strip()))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, UnicodeDecodeError):
        return None
    if not isinstance(value, (list, dict)):
        return None
    return value
