"""What one browser session remembers, behind small named accessors.

The loaded file is kept as its raw bytes, name and sha256 (so that sharing stores exactly what
was loaded); everything derived from it lives in ``st.cache_resource`` keyed by the sha256.
Selection, page and focus drive the timeline: ``jump`` is the one way any part of the app
(findings table, pasted error, detail pane links, stubs) shows a message.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from ..render import PAGE_SIZE

FILE, SEL, MARK, PAGE, FOCUS, ERROR = "file", "sel", "mark", "page", "focus", "input_error"
DIALECT, TARGET, TRANSCRIPT = "dialect_choice", "target", "transcript"
DS_OPEN, DS_PENDING = "ds_open", "ds_pending"  # a transcript of a dataset is open; one is to be opened
TARGET_START = "_target_start"  # the target the file names: asked as None, as check asks it
LINK_DIALECT, DIALECT_MISFIT = "_link_dialect", "_dialect_misfit"  # a link's dialect; (it, why) when it did not fit
LINK_TARGET = "_link_target"  # the target a link asks for, restored when its dialect did not fit
AUTO = "auto-detect"
UPLOADER = "upload_gen"  # bumped when a file comes from elsewhere: the uploader is drawn anew, empty

# Everything that belongs to a file starts fresh with the next one. A widget is given its
# default back (set, not deleted: a deleted key leaves the browser's widget showing, and
# sending back, the old value); other keys are dropped. Modules add their own keys at import
# (``file_widgets``), so that the list lives beside the widgets it resets.
FILE_WIDGETS: dict[str, object] = {}
KEPT = "_widgets_kept"  # the last value of each file widget, for runs that do not draw it
FILE_KEYS: set[str] = {KEPT, "_pasted_seen", "_fsel_seen", "_recorded_seen", DS_PENDING, "_ds_seen",
                       "repair_options", "repair_options_restore"}
FILE_PREFIXES = ("ro:",)  # the repair option widgets: each sets its default again when absent
NO_SELECTION = {"selection": {"rows": [], "columns": [], "cells": []}}


def file_widgets(defaults: dict[str, object], *, keys: tuple[str, ...] = ()) -> None:
    """Register widgets (key: default) and plain keys that belong to the file shown."""
    FILE_WIDGETS.update(defaults)
    FILE_KEYS.update(keys)


def widget_value(key: str) -> None:
    """Before drawing a file widget: give it its value back when Streamlit forgot it.

    Streamlit drops a widget's state in a run that does not draw it (the dataset view while a
    transcript is open, the findings while a tab is closed); the value last seen, else the
    default, is set again, so filters survive going there and back."""
    import copy

    if key not in st.session_state:
        kept = st.session_state.get(KEPT) or {}
        st.session_state[key] = copy.deepcopy(kept[key] if key in kept else FILE_WIDGETS.get(key))


def keep_widget(key: str) -> None:
    """After drawing a file widget: remember its value (see ``widget_value``)."""
    st.session_state.setdefault(KEPT, {})[key] = st.session_state.get(key)


def _fresh_file_state() -> None:
    import copy

    for key in [k for k in st.session_state if isinstance(k, str) and k.startswith(FILE_PREFIXES)]:
        del st.session_state[key]
    for key in FILE_KEYS:
        st.session_state.pop(key, None)
    for key, default in FILE_WIDGETS.items():
        st.session_state[key] = copy.deepcopy(default)


@dataclass(frozen=True)
class Loaded:
    """The file in hand: its bytes, the name shown to the user, and its sha256."""

    data: bytes
    name: str
    sha: str
    origin: str  # upload, paste, sample or share


def loaded() -> Loaded | None:
    return st.session_state.get(FILE)


def set_loaded(data: bytes, name: str, origin: str, view: dict | None = None) -> None:
    """Make ``data`` the current file and reset every view of the previous one."""
    st.session_state[FILE] = Loaded(data, name, hashlib.sha256(data).hexdigest(), origin)
    if origin != "upload":  # the uploader must not go on showing the previous file
        st.session_state[UPLOADER] = st.session_state.get(UPLOADER, 0) + 1
    _fresh_file_state()
    st.session_state[ERROR] = None
    st.session_state[SEL] = None
    st.session_state[MARK] = None
    st.session_state[PAGE] = 0
    st.session_state[FOCUS] = st.session_state.get(FOCUS, 0) + 1
    for key in (TARGET, TRANSCRIPT):
        st.session_state.pop(key, None)
    # A file with several transcripts opens as the dataset view; a shared link says which view
    # it was made from (links made before the dataset view existed opened the transcript).
    st.session_state[DS_OPEN] = bool(view) and view.get("dataset", "transcript") == "transcript"
    st.session_state[DIALECT] = AUTO
    st.session_state.pop(DIALECT_MISFIT, None)
    view = view or {}
    st.session_state[LINK_DIALECT] = view.get("dialect")
    st.session_state[LINK_TARGET] = view.get("target")
    if view.get("dialect"):
        st.session_state[DIALECT] = view["dialect"]
    if view.get("target"):
        st.session_state[TARGET] = view["target"]
    if isinstance(view.get("transcript"), int):
        st.session_state[TRANSCRIPT] = view["transcript"]
    if isinstance(view.get("options"), dict):
        from ..repairing import usable_options  # a link's options are checked before any use

        options = usable_options(view["options"])
        st.session_state["repair_options_restore"] = options
        st.session_state["repair_options"] = dict(options)
    if isinstance(view.get("selected"), int):
        jump(view["selected"])


def dataset_open() -> bool:
    """True when a transcript of a several-transcript file is open (False: the dataset view)."""
    return bool(st.session_state.get(DS_OPEN))


def open_pending() -> None:
    """Open the transcript the dataset view asked for in the previous run (before the picker is drawn)."""
    n = st.session_state.pop(DS_PENDING, None)
    if n is not None:
        st.session_state[TRANSCRIPT] = n
        st.session_state[DS_OPEN] = True
        st.session_state[SEL] = None
        _show(0)


def open_picked() -> None:
    """The toolbar's Transcript picker changed: open that transcript."""
    st.session_state[DS_OPEN] = True
    st.session_state[SEL] = None
    _show(0)


def close_transcript() -> None:
    """Back to the dataset view, with no row selected in its table."""
    st.session_state[DS_OPEN] = False
    st.session_state.pop("ds_table", None)
    st.session_state.pop("_ds_seen", None)


def set_error(message: str) -> None:
    st.session_state[ERROR] = message


def take_error() -> str | None:
    """The message of input that could not be loaded, shown once."""
    return st.session_state.pop(ERROR, None)


def selected() -> int | None:
    return st.session_state.get(SEL)


def page() -> int:
    return st.session_state.get(PAGE, 0)


def focus() -> int:
    return st.session_state.get(FOCUS, 0)


def mark() -> int | None:
    """The selection the timeline was last told about (see ``select``)."""
    return st.session_state.get(MARK)


def select(index: int | None) -> None:
    """Select a message the user clicked in the timeline.

    The component has already highlighted it, so the data sent to it stays the same (``MARK``
    is not touched): an unchanged component is not redrawn, and the click costs only the
    detail pane.
    """
    st.session_state[SEL] = index


def _show(page_no: int) -> None:
    st.session_state[PAGE] = max(0, int(page_no))
    st.session_state[MARK] = st.session_state.get(SEL)
    st.session_state[FOCUS] = st.session_state.get(FOCUS, 0) + 1


def jump(index: int, page_size: int = PAGE_SIZE) -> None:
    """Select message ``index``, open its page and scroll the timeline to it."""
    index = max(0, int(index))
    st.session_state[SEL] = index
    _show(index // page_size)


def set_page(p: int) -> None:
    _show(p)
