"""Tables whose rows open something (a finding's message, a dataset's transcript), shared by both,
and tables whose selected row is shown whole below them (the Repair tab's change log, the Share
panel's masking preview): the grid is a canvas that cuts long text.

A dataframe renders cells as text, so transcript text is safe in them. A row selection is
detected by comparing with the last selection handled (not a callback), so it works the same in
the browser and under AppTest; a selection left over from other filters is not a click.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st


def selectable_table(df: pd.DataFrame, key: str, max_height: int, column_config: dict, *,
                     default: dict | None = None, row_height: int | None = None, column_order: list | None = None):
    """A sortable table whose rows open something: a click on any cell (or the row's box) selects
    it, as tall as its rows up to ``max_height``; ``default`` highlights a row when it is drawn anew."""
    rh = row_height or 35
    return st.dataframe(df, key=key, on_select="rerun", selection_mode=["single-row", "single-cell"], hide_index=True,
                        width="stretch", height=min(max_height, 38 + rh * max(1, len(df))),
                        column_config=column_config, selection_default=default, row_height=row_height,
                        column_order=column_order)


def _picked(event) -> tuple[tuple, tuple]:
    if event is None:
        return (), ()
    sel = event.selection
    return tuple(sel.rows), tuple(tuple(c) for c in sel.cells)


def clicked_row(event, filters: tuple, seen_key: str, n_rows: int, first_column: str | None = None) -> int | None:
    """The row the user just clicked (a cell or the row's box), or None (no new selection, or the
    filters changed: a selection left over from other filters is not a click).

    ``first_column``: the table's first column, whose cells do not open a row. A click on any
    header sorts the grid and also selects the first shown row's cell in that column (Streamlit
    1.67's grid with cell selection), which must not open the top row."""
    rows, cells = _picked(event)
    if first_column is not None:
        cells = tuple(c for c in cells if c[1] != first_column)
    seen = ((rows, cells), *filters)
    last = st.session_state.get(seen_key)
    st.session_state[seen_key] = seen
    if last is not None and last[1:] != seen[1:]:
        return None
    was_rows, was_cells = last[0] if last is not None and len(last[0]) == 2 else ((), ())
    row = None
    if cells and cells != was_cells:
        row = cells[0][0]
    elif rows and rows != was_rows:
        row = rows[0]
    return row if row is not None and 0 <= row < n_rows else None


def whole_row_table(df: pd.DataFrame, key: str, column_config: dict[str, Any], *, whole: list[str],
                    head: Callable[[pd.Series], str], max_height: int = 420) -> int:
    """A table whose long text columns the grid cuts (a canvas: no wrapping, no way to read the
    rest), with the selected row (the first until one is clicked) shown whole below it: ``head``
    names the row, then each column of ``whole`` as wrapped text (transcript text stays text).
    Returns the row shown."""
    event = st.dataframe(df, key=key, on_select="rerun", selection_mode=["single-row", "single-cell"],
                         hide_index=True, width="stretch", height=min(max_height, 38 + 35 * max(1, len(df))),
                         column_config=column_config)
    rows, cells = _picked(event)
    k = rows[0] if rows else cells[0][0] if cells else 0
    if not 0 <= k < len(df):
        k = 0
    if len(df):
        row = df.iloc[k]
        with st.container(key=f"{key}_whole", border=True):
            st.text(head(row))
            for col in whole:
                st.text(f"{col}: {row[col]}")
        st.caption("Click a row to read it whole in the box above.")
    return k
