"""Parquet input (pyarrow, from the ``scale`` extra): one record per row, read a row group at a time.

A ``messages`` column may be a list of structs (as Hugging Face datasets store it) or JSON text.
pyarrow gives every struct every field of the column's type, so a message read from a struct
carries ``null`` for the fields it never had; those nulls are dropped to get the message back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

from ..containers import LIST_KEYS
from ..errors import InputError

JSON_COLUMNS = (*LIST_KEYS, "tools", "system")


def _pq() -> Any:
    try:
        import pyarrow.parquet as pq
    except ModuleNotFoundError:
        raise InputError("reading Parquet needs pyarrow: pip install 'tool-call-inspector[scale]'") from None
    return pq


def row_groups(path: str) -> list[tuple[int, int]]:
    """``[(rows, bytes)]`` per row group."""
    try:
        meta = _pq().ParquetFile(path).metadata
    except (OSError, ValueError) as exc:
        raise InputError(f"not a readable Parquet file ({exc})", path) from None
    return [(meta.row_group(i).num_rows, meta.row_group(i).total_byte_size) for i in range(meta.num_row_groups)]


def _strip_nulls(v: Any) -> Any:
    if type(v) is list:
        return [_strip_nulls(x) for x in v]
    if type(v) is dict:
        return {k: _strip_nulls(x) for k, x in v.items() if x is not None}
    return v


def _record(row: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in row.items():
        if k in JSON_COLUMNS:
            if isinstance(v, (str, bytes)) and v[:1] in ("[", "{", b"[", b"{"):
                try:
                    v = orjson.loads(v)
                except orjson.JSONDecodeError:
                    raise InputError(f"column {k!r} holds text that is not JSON") from None
            elif type(v) in (list, dict):
                v = _strip_nulls(v)
        out[k] = v
    return out


def read_group(path: str, group: int, batch: int = 2048) -> Iterator[tuple[int, Any]]:
    """Yield ``(k, record)`` for the rows of one row group (``k`` counts from 0 in the group)."""
    pf = _pq().ParquetFile(path)
    k = 0
    for rb in pf.iter_batches(batch_size=batch, row_groups=[group]):
        for row in rb.to_pylist():
            try:
                yield k, _record(row)
            except InputError as exc:
                yield k, exc
            k += 1
