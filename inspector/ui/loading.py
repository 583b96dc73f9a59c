"""Getting a transcript in: upload, paste, one-click samples, and shared links.

Whatever the source, the result is the same: raw bytes and a name handed to
``state.set_loaded``. Nothing here parses; a file that is not JSON is reported by the main page
with its line and column, so one bad paste never loses the previous state of the widgets.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import streamlit as st

from . import state

PASTE_KEY = "paste_text"
PASTE_HINT_BYTES = 2_000_000


def samples_dir() -> Path:
    """``sample_logs/`` beside ``app.py`` (override with ``INSPECTOR_SAMPLES``)."""
    env = os.environ.get("INSPECTOR_SAMPLES")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "sample_logs"


def samples() -> list[Path]:
    """The sample transcripts, listed afresh each run (clean first, then the breaks)."""
    d = samples_dir()
    if not d.is_dir():
        return []
    files = [p for p in d.iterdir() if p.suffix in (".json", ".jsonl", ".har") and p.is_file()]
    return sorted(files, key=lambda p: (not p.stem.startswith("clean"), p.stem))


def sample_label(p: Path) -> str:
    return p.stem.replace("_", " ").replace("-", " ")


def load_sample(path: str) -> None:
    p = Path(path)
    state.set_loaded(p.read_bytes(), p.name, "sample")


def _load_paste() -> None:
    text = st.session_state.get(PASTE_KEY) or ""
    if not text.strip():
        state.set_error("the pasted text is empty")
        return
    state.set_loaded(text.encode("utf-8", "surrogatepass"), "pasted.json", "paste")


def upload_limit_mb() -> int:
    try:
        return int(st.get_option("server.maxUploadSize"))
    except Exception:  # noqa: BLE001  pragma: no cover - option always exists in 1.67
        return 200


def loading_panel() -> None:
    """Sidebar: upload, paste and samples. Loads the new file into the session when one arrives."""
    st.subheader("Open a transcript")
    gen = st.session_state.get(state.UPLOADER, 0)
    up = st.file_uploader(
        "Upload a transcript",
        # No type filter: a .yaml file refused by the browser was said only in a tooltip; the app
        # reads whatever comes and says in the main panel why it cannot.
        key="upload" if not gen else f"upload:{gen}",  # a new key: a sample or a paste empties it
        help=f"JSON or JSON Lines, up to {upload_limit_mb()} MB: a messages array, a request body, "
        "an eval log, an agent trajectory, a trace export or a HAR capture.",
    )
    if up is not None and st.session_state.get("_upload_seen") != up.file_id:
        st.session_state["_upload_seen"] = up.file_id
        state.set_loaded(up.getvalue(), up.name, "upload")
    with st.expander("Paste JSON", expanded=False):
        st.text_area(
            "Transcript JSON",
            key=PASTE_KEY,
            height=160,
            placeholder='[{"role": "user", "content": "..."}, ...]',
            help="For a few megabytes at most: big files should be uploaded instead.",
        )
        st.caption("Pasting suits small snippets. Upload big files (anything over a few MB).")
        st.button("Inspect pasted JSON", on_click=_load_paste, key="paste_go", width="stretch")
    found = samples()
    if found:
        st.subheader("Or try a sample")
        with st.container(key="samples", gap=None):
            for p in found:
                st.button(sample_label(p), key=f"sample:{p.name}", on_click=load_sample, args=(str(p),),
                          width="stretch", type="tertiary", icon=":material/description:")


def share_module():
    """``inspector.ui.share`` when the store helper's module exists, else None."""
    if importlib.util.find_spec("inspector.ui.share") is None:
        return None
    from . import share

    return share


def load_from_link() -> None:
    """``?t=<token>``: load the shared file and its view once per token (``m`` picks the message)."""
    token = st.query_params.get("t")
    if not token:
        return
    mod = share_module()
    if st.session_state.get("_link_seen") == token:
        # A dead link keeps saying so on later reruns, until something else is opened.
        if mod is not None and st.session_state.get("_link_dead") == token and state.loaded() is None:
            st.warning(mod.NOT_FOUND)
        return
    st.session_state["_link_seen"] = token
    if mod is None:
        return
    got = mod.load_shared(token)
    if not got:
        st.session_state["_link_dead"] = token
        return
    data, name, view = got
    from .url import view_from_url

    # The link's own parameters (a copied address of a shared view) win over the stored view.
    view = {**dict(view or {}), **view_from_url()}
    state.set_loaded(data, name, "share", view)
