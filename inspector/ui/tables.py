"""Tables whose rows open something (a finding's message, a dataset's transcript), shared by both.

A dataframe renders cells as text, so transcript text is safe in them. A row selection is
detected by comparing with the last selection handled (not a callback), so it works the same in
the browser and under AppTest; a selection left over from other filters is not a click.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st


def selectable_table(df: pd.DataFrame, key: str, max_height: int, column_config: dict):
    """A sortable single-row-select table, as tall as its rows up to ``max_height``."""
    return st.dataframe(df, key=key, on_select="rerun", selection_mode="single-row", hide_index=True,
                        width="stretch", height=min(max_height, 38 + 35 * max(1, len(df))),
                        column_config=column_config)


def clicked_row(event, filters: tuple, seen_key: str, n_rows: int) -> int | None:
    """The row the user just selected, or None (no new selection, or the filters changed)."""
    rows = list(event.selection.rows) if event is not None else []
    seen = (tuple(rows), *filters)
    last = st.session_state.get(seen_key)
    st.session_state[seen_key] = seen
    if rows and (last is None or last[1:] == seen[1:]) and (last is None or last[0] != seen[0]):
        if 0 <= rows[0] < n_rows:
            return rows[0]
    return None
