"""A big top-level array's duplicate-key write-back is made a slice of elements at a time
(``jsonio._compare_list``, issue 37: no second copy of the text beside its parse). It must say
what the write-back of the whole says, for every text: orjson's own compact writing (SAME), other
spacing (AGREE), a dropped repeated key or an escaped colon (SUSPECT)."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector import jsonio
from inspector.reading import load_bytes

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)), max_leaves=12)
arrays = st.lists(values, min_size=1, max_size=40)


def whole(raw: bytes, value: Any) -> int:
    """``_compare`` with the whole array written back at once (as before issue 37)."""
    old = jsonio.WRITE_BACK_IN_PIECES
    jsonio.WRITE_BACK_IN_PIECES = 1 << 62
    try:
        return jsonio._compare(raw, value)
    finally:
        jsonio.WRITE_BACK_IN_PIECES = old


def texts(value: list[Any]) -> list[bytes]:
    """The array written as orjson writes it, with a final newline, spaced and indented."""
    compact = orjson.dumps(value)
    return [compact, compact + b"\n", json.dumps(value, ensure_ascii=False).encode(),
            json.dumps(value, indent=1).encode(), compact.replace(b"[", b"[ ", 1)]


@settings(max_examples=150, deadline=None)
@given(arrays, st.integers(1, 64))
def test_slices_say_what_the_whole_says(value: list[Any], budget: int) -> None:
    old = jsonio._WRITE_BACK_BYTES
    jsonio._WRITE_BACK_BYTES = budget  # tiny slices: many cuts, down to one element each
    try:
        for raw in texts(value):
            assert jsonio._compare_list(raw, value) == whole(raw, value), raw
    finally:
        jsonio._WRITE_BACK_BYTES = old


@pytest.mark.parametrize("raw", [
    b'[{"a":1},{"a":1,"a":2},{"b":3}]',  # a repeated key: the parse dropped one
    b'[{"a":1},{"b":"x\\u003a"},{"c":3}]',  # an escaped colon could hide a dropped key
    b'[{"a":1} ,{"b":2}]',  # spaced: the colons agree
    b'[{"a":1},{"b":2}]  \n',  # orjson's own writing and blank space
])
def test_hand_picked_texts(raw: bytes) -> None:
    value = orjson.loads(raw)
    old = jsonio._WRITE_BACK_BYTES
    jsonio._WRITE_BACK_BYTES = 1
    try:
        assert jsonio._compare_list(raw, value) == whole(raw, value)
    finally:
        jsonio._WRITE_BACK_BYTES = old


def test_a_big_array_with_a_repeated_key_is_still_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the reader: an array over the threshold, a repeated key near its end, is an input
    finding with both values, as for a small file."""
    monkeypatch.setattr(jsonio, "WRITE_BACK_IN_PIECES", 64)
    monkeypatch.setattr(jsonio, "_WRITE_BACK_BYTES", 64)
    msgs = [{"role": "user", "content": f"message {k}"} for k in range(200)]
    raw = orjson.dumps(msgs)[:-1] + b',{"role":"assistant","content":"a","content":"b"}]'
    doc = load_bytes(raw, "big.json")
    assert [(d["key"], d["values"]) for d in doc.duplicate_keys] == [("content", ["a", "b"])]
