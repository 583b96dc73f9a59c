"""The page: load a transcript, see it as a timeline, find the problems, repair and download.

Layout: the sidebar opens files (upload, paste, samples); the main area shows a toolbar (file,
badges and the Share button, then dialect override, Target, Transcript), the summary, the verdict with
the "paste the error you got" box beside it (the first thing a developer with a 400 needs), the
timeline with the detail pane beside it, and below them tabs for the findings table and the
repair. The pasted error and the tabs are filled before the timeline in script order (the
timeline sits in a container created earlier), so that a pasted error or a row picked in the
findings table moves the timeline in the same run.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from .. import dialects
from ..checking import not_offered
from ..errors import InputError, PythonReprInput
from ..hosting import events
from . import analysis, inbox, loading, signin, state, style, url
from .changes import change_note
from .compare import compare_panel
from .context import context_view, fit_section, timeline_overlay
from .dataset import back_button, dataset_view, record_name
from .findings import findings_table
from .loops import loops_table
from .loops import options as loop_options
from .loops import settings as loop_settings
from .pasted_error import pasted_error_panel, recorded_error
from .refusal import app_words, show_input_error
from .repair_panel import OPTIONS_KEY, repair_panel
from .summary import summary
from .timeline import timeline_panel

TABS = ["Findings", "Repair", "Fit", "Compare"]  # Fit has a tab of its own: at the foot of Repair nobody found it
DIALECT_BACK = "_dialect_back"  # the dialect to show again after a chosen one could not read the file
DIALECT_REFUSED = "_dialect_refused"  # (the dialect shown again, the refused one, the reader's message)
DIALECT_GOOD = "_dialect_good"  # the last dialect choice that read the file
state.file_widgets({}, keys=(DIALECT_BACK, DIALECT_REFUSED, DIALECT_GOOD))


def read_python_repr(loaded: state.Loaded) -> None:
    """The user chose to read a Python repr: load it as the JSON it stands for."""
    from ..jsonio import repr_to_json

    data = repr_to_json(loaded.data)
    if data is None:
        state.set_error("this Python repr cannot be read safely as a plain literal")
        return
    state.set_loaded(data, loaded.name.rsplit(".", 1)[0] + ".json", loaded.origin)


def welcome() -> None:
    st.subheader("Why did the provider reject my agent's request?")
    st.markdown(  # our own words only: no transcript text is ever passed to Markdown
        "Open a transcript (a messages array, a request body, JSON Lines, an eval log or an agent "
        "trajectory) and see every tool call linked to its result, the broken links highlighted in "
        "place with the provider's own error text, and a repaired file to download."
    )
    found = loading.samples()
    if found:
        st.markdown("**Start with a sample:**")
        with st.container(horizontal=True, key="welcome_samples"):
            for p in found:
                st.button(loading.sample_label(p), key=f"wsample:{p.name}", on_click=loading.load_sample,
                          args=(str(p),), icon=":material/description:")


def toolbar(doc, loaded: state.Loaded) -> tuple[str | None, str, int, DeltaGenerator]:
    """File name, dialect badge and override, Target and Transcript pickers; returns the choices
    and the place beside the file's name where the Share button goes."""
    read_as = analysis.detected_dialects(loaded.sha, doc)
    detected, read_in = read_as[0], " + ".join(read_as)  # a mixed file: every one in the badge
    names = dialects.names()
    if DIALECT_BACK in st.session_state:  # the dialect chosen last could not read the file
        st.session_state[state.DIALECT] = st.session_state.pop(DIALECT_BACK)
    if st.session_state.get(state.DIALECT) not in [state.AUTO, *names]:
        st.session_state[state.DIALECT] = state.AUTO
    # The file's name and badges get a row of their own: beside the pickers a long name wrapped
    # onto two or three lines at 1280 px.
    c0 = st.container(horizontal=True, vertical_alignment="center", gap="small", key="file_row")
    c1, c2, c3 = st.columns(3, vertical_alignment="bottom")
    with c1:
        choice = st.selectbox(
            "Dialect",
            [state.AUTO, *names],
            key=state.DIALECT,
            format_func=lambda d: f"auto-detect ({read_in})" if d == state.AUTO else d,
            help="How the file is read. Detection picks one; override it when it guessed wrong.",
        )
    not_read = st.session_state.get(DIALECT_REFUSED)
    dialect = None if choice == state.AUTO else choice
    effective = dialect or detected
    fits = analysis.targets_for(effective)
    start, why = analysis.target_default(effective, doc)
    st.session_state[state.TARGET_START] = start
    if st.session_state.get(state.TARGET) not in fits:
        st.session_state[state.TARGET] = start
    with c2:
        target = st.selectbox("Target", list(fits), key=state.TARGET,
                              format_func=lambda t: f"{t} (through a gateway)" if analysis.through_gateway(effective, t)
                              else t,
                              help="The provider whose rules apply: severities and error texts follow it. "
                                   "\"Through a gateway\": an OpenAI-format history that LiteLLM or OpenRouter "
                                   "translates for Claude, Gemini or Bedrock. Every rule, with its evidence: "
                                   "`inspector rules`.")
    transcript = 0
    # Why the Target box lacks a provider (our words and names only): beside it when there is room.
    gap = not_offered(effective)
    with c3:
        n = len(doc.transcripts)
        if gap and n <= 1:
            with st.container(key="target_not_offered"):
                st.caption(gap)
        if n > 1 and state.TRANSCRIPT not in st.session_state:
            # A capture that recorded the provider's error opens on the request that got it.
            refused = next((k for k, t in enumerate(doc.transcripts) if t.extra.get("response_error")), None)
            st.session_state[state.TRANSCRIPT] = refused or 0
            if refused is not None:  # straight to it, not the dataset view
                st.session_state[state.DS_OPEN] = True
        if n > 1:
            if st.session_state.get(state.TRANSCRIPT, 0) >= n:
                st.session_state[state.TRANSCRIPT] = 0
            transcript = st.selectbox(
                "Transcript", list(range(n)), key=state.TRANSCRIPT, on_change=state.open_picked,
                format_func=lambda i: f"#{i + 1} of {n}: {record_name(doc, doc.transcripts[i])} "
                                      f"({len(doc.transcripts[i].items)} msgs)",
            )
    with c0:
        with st.container(key="filename", width="content"):
            st.text(loaded.name)
        with st.container(horizontal=True, gap="small", width="content"):
            st.badge(dialect or read_in, icon=":material/translate:", color="violet" if dialect else "blue",
                     help="dialect (overridden)" if dialect else "detected dialect")
            agent = analysis.agent_badge(effective, doc, transcript)
            if agent is not None:  # the coding agent and version the log names (a checked version string)
                st.badge(agent, icon=":material/smart_toy:", color="violet", help="the agent whose session log this is")
            # A HAR capture is JSON, but the user knows it as HAR (an inbox entry is one too).
            st.badge("HAR" if loaded.name.lower().endswith(".har") else f"{doc.format.upper()}", color="gray")
            if analysis.through_gateway(effective, st.session_state.get(state.TARGET) or ""):
                st.badge("through a gateway", icon=":material/alt_route:", color="orange",
                         help="the destination's rules on the gateway's translation of this history")
            if why and st.session_state.get(state.TARGET) == start:
                # Our words only in the badge; the model name (transcript text) goes out as text below.
                st.badge("target from the request's model" if why.startswith("the request's model")
                         else "target from the model the file names" if " model" in why
                         else "target named by the file", icon=":material/target:", color="green")
            size = len(loaded.data)
            st.badge(f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB", color="gray")
        share_slot = st.container(width="content", key="share_slot")
    if not_read and not_read[0] == choice:
        # Beside the Dialect box, in the app's words; the view below is the last good one.
        with st.container(key="dialect_refused", border=True):
            st.text(f"Not read as {not_read[1]}: {not_read[2]} The view stays as it was.")
    if gap and len(doc.transcripts) > 1:  # the Transcript box took the place beside Target: under the boxes
        with st.container(key="target_not_offered"):
            st.caption(gap)
    if why:
        with st.container(key="target_reason"):
            # The line about where the target came from stays when the user picks another one.
            st.text(f"Target {target}: {why}." if target == start
                    else f"Target {target}: chosen here, overriding {start} ({why}).")
    if doc.duplicate_keys:
        with st.container(key="duplicate_keys"):
            st.warning("This file repeats object keys. A JSON reader (the provider's too) keeps only the last "
                       "value of each; the earlier values are listed here and in the report, and repair writes the last.",
                       icon=":material/content_copy:")
            from ..checking import input_findings, value_line

            for f in input_findings(doc)[:20]:  # transcript text: only ever as text
                st.text(f"{f['path']}: " + " | ".join(value_line(v, 120) for v in f["values"]))
    return dialect, target, transcript, share_slot


def share_button(slot: DeltaGenerator, loaded: state.Loaded, dialect: str | None, target: str, transcript: int) -> None:
    """The Share button beside the file's name; the panel (masking, expiry, the link) opens under it."""
    mod = loading.share_module()
    if mod is None:
        return
    if loaded.origin == "share":
        with slot:
            mod.shared_status(loaded.data)
    # Opening it reruns the page, so the panel says what holds now (a link deleted elsewhere is gone).
    with slot, st.popover("Share", icon=":material/share:", key="share_popover", on_change="rerun"), \
            st.container(key="share_panel"):
        _share_panel(mod, loaded, dialect, target, transcript)


def _share_panel(mod, loaded: state.Loaded, dialect: str | None, target: str, transcript: int) -> None:
    if st.session_state.get("_share_seen") != loaded.sha:
        # The share panel scans a new file for secrets, seconds of regex work for a big file
        # that would hold the timeline back. Show the transcript first; prepare sharing in a
        # second run, which finds everything else in the cache.
        st.session_state["_share_seen"] = loaded.sha
        st.text("Preparing the share panel…")
        st.rerun()
    view = {
        "target": target,
        "dialect": dialect,  # None keeps auto-detect for whoever opens the link
        "options": dict(st.session_state.get(OPTIONS_KEY) or {}),
        "selected": state.selected(),
        "transcript": transcript,
        "dataset": "transcript" if state.dataset_open() else "table",
    }
    mod.share_panel(loaded.data, loaded.name, view)


def unreadable(loaded: state.Loaded | None, exc: BaseException) -> None:
    """Count an input the app could not read, once per file per session (reruns show it again)."""
    key = loaded.sha if loaded is not None else None
    if key is None or st.session_state.get("_unreadable_seen") != key:
        st.session_state["_unreadable_seen"] = key
        events.record("unreadable_inputs", error=type(exc).__name__)


def main() -> None:
    style.inject()
    hosting, _user = signin.gate()  # with sign-in on, a signed-out visitor gets the sign-in page only
    loading.load_from_link()
    if inbox.route():  # ?inbox=all is the team inbox; ?inbox=<id> opens a recorded request below
        return
    with st.sidebar:
        inbox.open_button()  # first: below the samples it was under the sidebar's fold
        loading.loading_panel()
        loop_settings()
        lists = st.container()
    page()
    sharing = loading.share_module()
    if sharing is not None:  # filled last: a share made in this run is already listed
        with lists:
            sharing.share_lists(hosting.team_shares)


def page() -> None:
    """Everything below the sign-in gate and the loading panel."""
    loaded = state.loaded()
    # With a file open the title is one small line: at 1280x720 the first screen must show the
    # verdict and the first cards of the timeline.
    with st.container(key="app_title" if loaded is not None else "app_title_welcome"):
        st.title("Tool-call transcript inspector", anchor=False)
    err = state.take_error()
    if err:
        unreadable(None, InputError(err))
        show_input_error(InputError(err))
    if loaded is None:
        welcome()
        return
    try:
        doc = analysis.parsed(loaded.sha, loaded.data, loaded.name)
    except Exception as exc:  # noqa: BLE001 - any unreadable input is a message, not a trace
        unreadable(loaded, exc)
        show_input_error(exc, loaded)
        if isinstance(exc, PythonReprInput) and exc.readable:
            st.button("Read it as a Python literal", key="read_repr", on_click=read_python_repr, args=(loaded,),
                      icon=":material/data_object:",
                      help="Reads the text with ast.literal_eval: literals only (strings, numbers, lists, "
                           "dicts, None, True, False), never code.")
        return
    url.follow(loaded)  # back/forward and edited addresses
    state.open_pending()
    misfit = st.session_state.get(state.DIALECT_MISFIT)
    if misfit and st.session_state.get(state.DIALECT) == misfit[0]:
        st.session_state[state.DIALECT] = state.AUTO  # before the Dialect box is drawn
        if st.session_state.get(state.LINK_TARGET):  # the link's target, not the refused dialect's default
            st.session_state[state.TARGET] = st.session_state[state.LINK_TARGET]
    dialect, target, transcript, share_slot = toolbar(doc, loaded)
    if misfit and dialect is None:
        with st.container(key="dialect_misfit"):  # the reader's words quote the file: text only
            st.text(f"The link asks for the {misfit[0]} dialect, which does not fit this file ({misfit[1]}); "
                    f"it is read as detected ({' + '.join(analysis.detected_dialects(loaded.sha, doc))}).")
    progress = st.empty()

    def checking(done: int, total: int) -> None:
        if total >= 1000:  # a dataset big enough to take a moment
            progress.progress(done / total, text=f"Checking transcripts: {done:,} of {total:,}")

    # The target the file names (the Target box's start) is asked as check asks it: each transcript
    # then takes the one its own request names, as on the command line.
    asked = None if target == st.session_state.get(state.TARGET_START) else target
    try:
        checked = analysis.checked(loaded.sha, loaded.data, loaded.name, dialect, asked, checking, loop_options())
    except Exception as exc:  # noqa: BLE001
        good = st.session_state.get(DIALECT_GOOD, state.AUTO)
        if isinstance(exc, InputError) and dialect is not None and dialect == st.session_state.get(state.LINK_DIALECT):
            # A shared link's dialect that does not fit the file: the view as detected, with a note.
            st.session_state.pop(state.LINK_DIALECT, None)
            st.session_state[state.DIALECT_MISFIT] = (dialect, str(exc))
            st.rerun()
        if dialect is not None and isinstance(exc, InputError) and good != dialect:
            # A dialect the file is not in: keep the last good view, say why beside the box.
            st.session_state[DIALECT_BACK] = good
            st.session_state[DIALECT_REFUSED] = (good, dialect, app_words(str(exc)))
            st.rerun()
        unreadable(loaded, exc)
        show_input_error(exc, loaded)
        return
    finally:
        progress.empty()
    st.session_state[DIALECT_GOOD] = dialect or state.AUTO
    transcript = min(transcript, len(checked.analyses) - 1)
    if transcript < 0:
        st.text("No conversation in this file.")
        return
    many = len(checked.analyses) > 1
    if many and not state.dataset_open():
        dataset_view(checked, (loaded.sha, dialect, target))
        url.record(loaded, dialect, target, 0, message=False)  # the previous file's m= and tr= go
        share_button(share_slot, loaded, dialect, target, transcript)
        analysis.settle_heap()
        return
    if loaded.origin == "inbox":
        inbox.back_button()
    if many:
        back_button(len(checked.analyses), transcript)
    recorded_error(checked, transcript, loaded.sha)
    change_note(checked, loaded.sha, dialect, target, transcript)
    # Pasting the provider's error is the headline job: its box sits beside the verdict.
    summary(checked, transcript, beside=lambda: pasted_error_panel(checked, transcript))
    loops_table(checked.loops(transcript))
    timeline_box = st.container()
    below = st.container()
    with below:
        tabs = st.tabs(TABS, key="tabs", on_change="rerun")
        with tabs[0]:
            findings_table(checked.findings(transcript), checked.report.target)
        with tabs[1]:
            if tabs[1].open:
                repair_panel(checked, loaded, dialect, target, transcript)
        with tabs[2]:
            if tabs[2].open:
                fit_section(checked, loaded, dialect, target, transcript)
        with tabs[3]:
            if tabs[3].open:
                compare_panel(checked.doc, loaded.name, transcript)
    with timeline_box:
        timeline_panel(checked, (loaded.sha, dialect, target), transcript, loaded,
                       timeline_overlay(loaded, dialect, target, transcript, checked))
        # Below the timeline: above it, its closed expander pushed the cards off a 720 px screen.
        context_view(checked, loaded, dialect, target, transcript)
    share_button(share_slot, loaded, dialect, target, transcript)
    analysis.settle_heap()
