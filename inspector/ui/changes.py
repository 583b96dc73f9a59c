"""After a change of target or dialect, one sentence saying what changed in the findings and why.

Switching openai -> mistral can take a file from 3 errors to 8; without a word the new errors
look like a different file. The sentence names the count before and after and each rule whose
findings appeared, went, or changed severity (a note that became an error), with the rule's
name. It is our own words plus rule codes and names: no transcript text.
"""

from __future__ import annotations

import streamlit as st

from ..rules import RULES
from ..targets import PROVIDER_NAME
from . import state
from .analysis import Checked

LAST, NOTE = "_view_last", "_view_note"
state.file_widgets({}, keys=(LAST, NOTE))
SEV_RANK = {"error": 0, "warning": 1, "info": 2}
SEV_WORD = {"error": "error", "warning": "warning", "info": "note"}


def _by_code(findings) -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    for f in findings:
        sev, n = out.get(f.code, (f.severity, 0))
        out[f.code] = (min(sev, f.severity, key=SEV_RANK.__getitem__), n + 1)
    return out


def _rule(code: str) -> str:
    return str(RULES.get(code, code)).replace("_", " ")


def change_sentence(before: dict, after: dict, what: str, target: str) -> str:
    """``before``/``after``: code -> (worst severity, count). ``what``: "target openai → mistral"."""
    def errors(d: dict) -> int:
        return sum(n for sev, n in d.values() if sev == "error")

    e0, e1 = errors(before), errors(after)
    delta = e1 - e0
    who = PROVIDER_NAME.get(target, target)
    head = f"After {what}: for {who[:1].upper() + who[1:]}, {e0} → {e1} error{'s' if e1 != 1 else ''}"
    head += f" ({delta:+d})" if delta else " (no change in errors)"
    parts = []
    for code in sorted(set(before) | set(after), key=lambda c: (SEV_RANK[(after.get(c) or before[c])[0]], c)):
        b, a = before.get(code), after.get(code)
        if b == a:
            continue
        if b is None:
            parts.append(f"new {code} ×{a[1]} ({SEV_WORD[a[0]]}): {_rule(code)}")
        elif a is None:
            parts.append(f"no more {code} ({_rule(code)})")
        elif a[0] != b[0]:
            parts.append(f"{code} {SEV_WORD[b[0]]} → {SEV_WORD[a[0]]}: {_rule(code)} is "
                         + ("refused" if a[0] == "error" else "accepted") + f" by {who}")
        else:
            parts.append(f"{code} ×{b[1]} → ×{a[1]}: {_rule(code)}")
    return head + (" — " + "; ".join(parts) if parts else "") + "."


def change_note(checked: Checked, sha: str, dialect: str | None, target: str, transcript: int) -> None:
    """Say what the last target or dialect change did, until the view changes again."""
    now = _by_code(checked.findings(transcript))
    view = (sha, transcript, dialect, target)
    last = st.session_state.get(LAST)
    st.session_state[LAST] = (view, now)
    if last is not None and last[0] != view and last[0][:2] == view[:2]:
        (_, _, d0, t0), before = last
        what = []
        if d0 != dialect:
            what.append(f"dialect {d0 or 'auto-detect'} → {dialect or 'auto-detect'}")
        if t0 != target:
            what.append(f"target {t0} → {target}")
        st.session_state[NOTE] = (view, change_sentence(before, now, " and ".join(what), target))
    note = st.session_state.get(NOTE)
    if note is not None and note[0] == view:
        with st.container(key="view_change"):
            st.text(note[1])
