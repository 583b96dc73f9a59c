"""The Dask engine (``--engine dask``): the same scan on a ``distributed`` cluster.

Without ``--scheduler`` a ``LocalCluster`` of ``jobs`` single-threaded worker processes is
started; with one, the client connects to it. Workers read their own partitions of the input
(byte ranges of JSON Lines, Parquet row groups, whole files), so the paths must be readable on
every worker (a shared file system). A first cheap pass counts each range's newlines so that
each worker numbers its lines as the file does. Each partition's rows are written by the worker
that scanned them, as ``part-NNNNN.parquet`` (or ``.jsonl``) under ``OUT`` and ``OUT.findings``;
only a ``Summary`` per partition comes back.

``dask`` and ``distributed`` come with the ``scale`` extra and are imported only here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..errors import InputError
from .sources import Part
from .summary import Summary


def _count(part: Part) -> int:
    from .lines import newlines

    return newlines(part.path, part.start, part.end) if part.kind == "lines" else 0


def _scan_partition(part: Part, index: int, newlines_before: int, opts: Any, out: str | None,
                    want_rows: bool) -> tuple[Summary, list[dict[str, Any]] | None]:
    from .lines import first_line
    from .work import scan_part

    base = first_line(part.path, part.start, newlines_before) - 1 if part.kind == "lines" else 0
    rows, _ = scan_part(part, opts, base)
    if out:
        from .outputs import findings_path, write_part

        write_part(rows, out, findings_path(out), index)
    s = Summary()
    for r in rows:
        s.add(r)
    return s, (rows if want_rows else None)


def connect(jobs: int, scheduler: str | None) -> tuple[Any, Any]:
    """A ``Client``, and the ``LocalCluster`` started for it (None when joining ``scheduler``)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ModuleNotFoundError:
        raise InputError("--engine dask needs dask and distributed: pip install 'tool-call-inspector[scale]'") from None
    if scheduler:
        try:
            return Client(scheduler, timeout="30s"), None
        except OSError as exc:
            raise InputError(f"cannot reach the Dask scheduler ({exc})", scheduler) from None
    cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster), cluster


def scan(parts: list[Part], opts: Any, jobs: int, scheduler: str | None, out: str | None,
         on_done: Callable[[Part, Summary, list[dict[str, Any]] | None], None], want_rows: bool = False) -> None:
    """Scan every part on the cluster; ``on_done`` gets each partition's summary as it finishes."""
    from dask.distributed import as_completed

    if out:
        for d in (out, _findings_dir(out)):
            try:
                os.makedirs(d, exist_ok=True)
            except OSError as exc:
                raise InputError(f"cannot create the output directory ({exc.strerror or exc})", d) from None
    client, cluster = connect(jobs, scheduler)
    try:
        counts = client.gather(client.map(_count, parts, pure=False))
        before: list[int] = []
        seen: dict[str, int] = {}
        for p, n in zip(parts, counts):
            before.append(seen.get(p.path, 0))
            seen[p.path] = seen.get(p.path, 0) + n
        futures = client.map(_scan_partition, parts, range(len(parts)), before,
                             [opts] * len(parts), [out] * len(parts), [want_rows] * len(parts), pure=False)
        index = {f.key: p for f, p in zip(futures, parts)}
        for fut in as_completed(futures):
            s, rows = fut.result()
            on_done(index[fut.key], s, rows)
            fut.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _findings_dir(out: str) -> str:
    from .outputs import findings_path

    return findings_path(out)
