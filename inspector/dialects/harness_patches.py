"""What a harness does to a history just before it sends it (issue 32).

Several agents patch the history they send: Codex inserts an ``aborted`` output after a call left
open and drops an output whose call is gone; others have fix-ups of their own. A log is read as
recorded, so such a break is found; where the harness version the log names is known to patch
it, the finding says so and is lowered to a note naming the version and the evidence. It is never
hidden: the break is in the log, and the patch has failed in some released versions.

``PATCHES`` is the table (harness, versions, the rule it patches, what it does, evidence); a
dialect names its harness and version (``Dialect.harness``), and ``note_patched`` lowers the
issues the table covers. A new harness is a row here and a ``harness`` method on its dialect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from ..model import Issue

Version = tuple[int, ...]


class HarnessPatch(msgspec.Struct, frozen=True):
    """One harness's fix-up of one rule's break, from ``since`` on (to ``until``, excluded, when a
    release stopped doing it)."""

    harness: str  # as the dialect names it ("codex")
    name: str  # as a person does ("Codex CLI")
    codes: frozenset[str]  # the rules whose break it repairs before sending
    since: Version
    what: str  # what it does, finishing "… {name} {version} (the log's) {what}"
    evidence: str
    date: str  # when the evidence is from
    until: Version | None = None


PATCHES: tuple[HarnessPatch, ...] = (
    HarnessPatch(
        "codex", "Codex CLI", frozenset({"TC001"}), (0, 48, 0),
        "inserts an 'aborted' output right after a call that has none before it sends the history, so the API "
        "receives the call answered",
        "openai/codex#5473 (ConversationHistory.normalize_history: ensure_call_outputs_present), merged "
        "2025-10-21; first released in 0.48.0", "2025-10-21"),
    HarnessPatch(
        "codex", "Codex CLI", frozenset({"TC002"}), (0, 48, 0),
        "drops an output whose call is not in the history before it sends it, so the API never receives it",
        "openai/codex#5473 (ConversationHistory.normalize_history: remove_orphan_outputs), merged 2025-10-21; "
        "first released in 0.48.0", "2025-10-21"),
)

# Google ADK (google-adk on PyPI): what ``_get_contents`` does to a session's events before it sends them
# (``flows/llm_flows/tools/_rearranger.py`` and ``contents.py``, read in the released wheels on 2026-11-27:
# absent from 2.6.3 and earlier; ``_drop_orphaned_function_responses`` called from 2.7.0, built 2026-08-13;
# ``drop_orphaned_function_calls`` from 2.10.0, built 2026-09-25; both still in 2.13.0). ADK's events name
# no version: a finding on an ADK session says what these versions do, and stays as it is.
PATCHES += (
    HarnessPatch(
        "adk", "Google ADK", frozenset({"TC001"}), (2, 10, 0),
        "drops a function call that no function response answers (one with an id and not a long-running tool's) "
        "before it sends the history, so the model never receives it",
        "google-adk 2.10.0 flows/llm_flows/tools/_rearranger.py drop_orphaned_function_calls, called by "
        "_get_contents (the break reported in google/adk-python#5856)", "2026-09-25"),
    HarnessPatch(
        "adk", "Google ADK", frozenset({"TC002"}), (2, 7, 0),
        "drops a function response whose call is not in the history before it sends it, so the model never "
        "receives it",
        "google-adk 2.7.0 flows/llm_flows/contents.py _drop_orphaned_function_responses, called by _get_contents "
        "(google/adk-python#6582 and its fix 73e8625)", "2026-08-13"),
)

PATCHED = "harness_patched"  # the kind a lowered issue gets (rules.catalogue rates it a note)


def parse_version(text: object) -> Version | None:
    """``"0.48.0"`` → ``(0, 48, 0)``; a pre-release or build suffix is ignored; None when unreadable."""
    if not isinstance(text, str):
        return None
    m = re.match(r"\s*v?(\d+)\.(\d+)(?:\.(\d+))?", text)
    if m is None:
        return None
    return tuple(int(x) for x in m.groups(default="0"))


def patch_for(harness: str, version: Version, code: str) -> HarnessPatch | None:
    for p in PATCHES:
        if p.harness == harness and code in p.codes and version >= p.since and (p.until is None or version < p.until):
            return p
    return None


def patches_of(harness: str, code: str) -> list[HarnessPatch]:
    """Every release range of ``harness`` that patches ``code`` (for a log that names no version)."""
    return [p for p in PATCHES if p.harness == harness and code in p.codes]


def since_text(p: HarnessPatch) -> str:
    """``"2.10.0"``: the first version that patches."""
    return ".".join(map(str, p.since))


def patched(issues: Sequence[Issue], code: str) -> set[tuple[int, str | None]]:
    """``(message, call id)`` of each ``code`` issue a harness patches: repair leaves them, as the
    harness fixes them itself before it sends."""
    return {(i.index, i.call_id) for i in issues if i.code == code and i.data.get("kind") == PATCHED}
