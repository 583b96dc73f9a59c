"""Value types: the public report (pydantic) and the light internal view of a transcript.

The public types (``Finding``, ``Report``) are the JSON contract of ``inspector check --format
json``. The internal types (``Msg``, ``Call``, ``Result``) are plain slotted classes because a
100,000-message transcript builds hundreds of thousands of them; each keeps a reference to the raw
dict it came from, and nothing in the raw data is ever changed by checking.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Severity = Literal["error", "warning", "info"]


class Finding(BaseModel):
    """One rule break, located in the transcript and explained for a person."""

    code: str = Field(description="stable rule code, e.g. TC002")
    rule: str = Field(description="rule name, e.g. orphan_tool_result")
    severity: Severity = Field(description="per target: error = the target rejects the request")
    message_index: int = Field(description="0-based index in the dialect's own message list")
    tool_call_id: str | None = Field(default=None, description="the call id involved, when there is one")
    other_index: int | None = Field(default=None, description="index of the other end (call or result)")
    text: str = Field(description="a plain sentence naming the tool and the messages")
    provider_error: str | None = Field(default=None, description="the target's own error text (errors only)")
    hint: str | None = Field(default=None, description="a likely cause, when one is known")
    transcript: int = Field(default=0, description="which transcript of the file (0-based)")


class Report(BaseModel):
    """The result of ``check``: what was read and every finding, in message order."""

    dialect: str
    target: str
    transcripts: int
    message_count: int
    findings: list[Finding]
    transcript_labels: list[str] = Field(default_factory=list, description="where each transcript was found")

    def counts(self) -> dict[str, int]:
        """Number of findings per severity (all three keys always present)."""
        out = {"error": 0, "warning": 0, "info": 0}
        for f in self.findings:
            out[f.severity] += 1
        return out

    @property
    def ok(self) -> bool:
        """True when no finding has error severity (the target would accept the request)."""
        return not any(f.severity == "error" for f in self.findings)


class Call:
    """One tool call inside a message. ``id`` is None when absent (id-less dialects, or TC008)."""

    __slots__ = ("id", "name", "args", "pos", "msg")

    def __init__(self, id: str | None, name: Any, args: Any, pos: int, msg: int):
        self.id = id
        self.name = name
        self.args = args
        self.pos = pos  # position among the message's calls (tool_calls[j], content[j])
        self.msg = msg  # message index


class Result:
    """One reply to a call. ``legacy`` marks a ``role:"function"`` reply (paired by name)."""

    __slots__ = ("id", "name", "pos", "msg", "legacy")

    def __init__(self, id: str | None, name: Any, pos: int, msg: int, legacy: bool = False):
        self.id = id
        self.name = name
        self.pos = pos
        self.msg = msg
        self.legacy = legacy


class Msg:
    """A message reduced to what pairing and the rules need; ``raw`` is the untouched input."""

    __slots__ = ("index", "role", "calls", "results", "raw", "has_other")

    def __init__(self, index: int, role: str, calls: list, results: list, raw: Any, has_other: bool = True):
        self.index = index
        self.role = role  # normalised: system, user, assistant, tool, function, or the raw unknown role
        self.calls = calls
        self.results = results
        self.raw = raw
        # True when the message carries anything besides results (text, images): a message
        # with results and other content ends a call block in "run" dialects.
        self.has_other = has_other


class Issue:
    """A rule break found by a pass, before a target gives it a severity and words."""

    __slots__ = ("code", "index", "call_id", "other", "data")

    def __init__(self, code: str, index: int, call_id: str | None = None, other: int | None = None, **data: Any):
        self.code = code
        self.index = index
        self.call_id = call_id
        self.other = other
        self.data = data

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Issue({self.code}, #{self.index}, {self.call_id!r}, other={self.other}, {self.data})"
