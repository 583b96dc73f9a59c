"""Where rows go: JSON Lines or Parquet files (one row per transcript, one per finding), stdout.

``-o OUT.jsonl`` writes ``OUT.jsonl`` (transcripts) and ``OUT.findings.jsonl`` (findings); the same
for ``.parquet`` (pyarrow, from the ``scale`` extra). A finding row repeats its transcript's
``source``, ``line`` and ``key`` so that the two tables join on them.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

import orjson

from ..errors import InputError

TRANSCRIPT_FIELDS = ("source", "line", "key", "dialect", "target", "messages", "errors", "warnings", "notes",
                     "codes", "rejected", "problem", "loops", "loop_calls", "loop_tokens")


def findings_path(out: str) -> str:
    """``scan.parquet`` → ``scan.findings.parquet``."""
    p = Path(out)
    return str(p.with_name(p.stem + ".findings" + p.suffix))


def split(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Transcript rows without their findings, and one row per finding located by its transcript."""
    ts, fs = [], []
    for r in rows:
        ts.append({k: r[k] for k in TRANSCRIPT_FIELDS})
        for f in r["findings"]:
            fs.append({"source": r["source"], "line": r["line"], "key": r["key"], **f})
    return ts, fs


def schemas() -> tuple[Any, Any]:
    import pyarrow as pa

    s, i, b = pa.string(), pa.int64(), pa.bool_()
    transcripts = pa.schema([("source", s), ("line", i), ("key", s), ("dialect", s), ("target", s),
                             ("messages", i), ("errors", i), ("warnings", i), ("notes", i),
                             ("codes", pa.list_(s)), ("rejected", b), ("problem", s),
                             ("loops", i), ("loop_calls", i), ("loop_tokens", i)])
    findings = pa.schema([("source", s), ("line", i), ("key", s), ("code", s), ("rule", s), ("severity", s),
                          ("message_index", i), ("tool_call_id", s), ("other_index", i), ("text", s),
                          ("provider_error", s), ("hint", s)])
    return transcripts, findings


def _tool_call_ids_as_text(fs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for f in fs:
        if f["tool_call_id"] is not None and not isinstance(f["tool_call_id"], str):
            f["tool_call_id"] = str(f["tool_call_id"])
    return fs


def write_part(rows: list[dict[str, Any]], out_dir: str, findings_dir: str, index: int) -> None:
    """One partition's two tables as ``part-NNNNN`` files under two directories (the Dask engine).

    The directories take the suffix of ``-o`` (``.parquet`` or ``.jsonl``), and so do the files.
    """
    suffix = ".parquet" if out_dir.endswith(".parquet") else ".jsonl"
    name = f"part-{index:05d}{suffix}"
    ts, fs = split(rows)
    if suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        ts_schema, fs_schema = schemas()
        pq.write_table(pa.Table.from_pylist(ts, schema=ts_schema), f"{out_dir}/{name}")
        pq.write_table(pa.Table.from_pylist(_tool_call_ids_as_text(fs), schema=fs_schema), f"{findings_dir}/{name}")
    else:
        for d, part in ((out_dir, ts), (findings_dir, fs)):
            with open(f"{d}/{name}", "wb") as f:
                _jsonl(f, part)


class RowWriter:
    """Append rows part by part to ``OUT`` and ``OUT.findings`` (JSON Lines or Parquet by suffix)."""

    def __init__(self, out: str) -> None:
        self.out = out
        self.parquet = out.endswith(".parquet")
        if not (self.parquet or out.endswith((".jsonl", ".ndjson"))):
            raise InputError("the output must end in .parquet or .jsonl", out)
        try:
            if self.parquet:
                import pyarrow.parquet as pq

                ts_schema, fs_schema = schemas()
                self._ts = pq.ParquetWriter(out, ts_schema)
                self._fs = pq.ParquetWriter(findings_path(out), fs_schema)
                self._schemas = (ts_schema, fs_schema)
            else:
                self._ts = open(out, "wb")  # noqa: SIM115  (open until close(): the writer's life)
                self._fs = open(findings_path(out), "wb")  # noqa: SIM115
        except ModuleNotFoundError:
            raise InputError("writing Parquet needs pyarrow: pip install 'tool-call-inspector[scale]'") from None
        except OSError as exc:
            raise InputError(f"cannot write the file ({exc.strerror or exc})", out) from None

    def write(self, rows: list[dict[str, Any]]) -> None:
        ts, fs = split(rows)
        if self.parquet:
            import pyarrow as pa

            if ts:
                self._ts.write_table(pa.Table.from_pylist(ts, schema=self._schemas[0]))
            if fs:
                self._fs.write_table(pa.Table.from_pylist(_tool_call_ids_as_text(fs), schema=self._schemas[1]))
        else:
            _jsonl(self._ts, ts)
            _jsonl(self._fs, fs)

    def close(self) -> None:
        self._ts.close()
        self._fs.close()


def _jsonl(f: IO[bytes], rows: list[dict[str, Any]]) -> None:
    if rows:
        f.write(b"".join(orjson.dumps(r, default=str) + b"\n" for r in rows))
