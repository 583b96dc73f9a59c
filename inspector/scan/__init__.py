"""``inspector scan``: audit whole datasets and eval runs, streamed, in parallel, summarised.

- ``sources``: paths to parts (JSON Lines ranges, whole files, Parquet row groups);
- ``lines``: the streaming JSON Lines reader (a byte range at a time);
- ``work``: one part's transcripts through ``check`` to rows;
- ``local`` / ``dask_engine``: the engines (a process pool, or a Dask cluster);
- ``summary``, ``outputs``, ``progress``: what a person and a table get.

pyarrow and dask are optional (the ``scale`` extra) and imported only when a Parquet file or
the Dask engine is used.
"""
