"""Small value types shared by the repair plan and its families of fixes."""

from __future__ import annotations

from typing import Any

import orjson


class Slot:
    """One item of the output list: the raw item and the input index it came from (None if new)."""

    __slots__ = ("origin", "pos", "raw")

    def __init__(self, raw: Any, origin: int | None):
        self.raw = raw
        self.origin = origin
        self.pos: int | None = None  # index in the output, once emitted


class Rec:
    """A change before output positions are known (``slot`` resolves the index after)."""

    __slots__ = ("action", "before", "call_id", "code", "new_id", "slot", "text")

    def __init__(self, action: str, code: str, call_id: Any, before: int | None, slot: Slot | None, text: str,
                 new_id: Any = None):
        self.action, self.code, self.call_id, self.before = action, code, call_id, before
        self.slot, self.text, self.new_id = slot, text, new_id


def same_json(a: Any, b: Any) -> bool:
    """True when two JSON values serialise to the same bytes (key order counts)."""
    try:
        return orjson.dumps(a) == orjson.dumps(b)
    except TypeError:
        return bool(a == b)


def tool_label(name: Any) -> str:
    """A tool name as the change log quotes it."""
    return f"'{name}'" if isinstance(name, str) and name else "(unnamed tool)"
