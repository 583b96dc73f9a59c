"""The public report: the JSON contract of ``inspector check --format json`` as pydantic types.

Imports nothing of the package: every other module may import it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Severity = Literal["error", "warning", "info"]


class Evidence(BaseModel):
    """Where a provider behaviour was seen (a section of the evidence document, an issue), and when."""

    source: str
    date: str | None = None


class Finding(BaseModel):
    """One rule break, located in the transcript and explained for a person."""

    code: str = Field(description="stable rule code, e.g. TC002")
    rule: str = Field(description="rule name, e.g. orphan_tool_result")
    severity: Severity = Field(description="per target: error = the target rejects the request")
    message_index: int = Field(description="0-based index in the dialect's own message list")
    tool_call_id: str | None = Field(default=None, description="the call id involved, when there is one")
    other_index: int | None = Field(default=None, description="index of the other end (call or result)")
    text: str = Field(description="a plain sentence naming the tool and the messages")
    provider_index: str | None = Field(default=None, description=(
        "where the target's own errors place this finding when it differs from message_index: a target "
        "that combines consecutive messages of one role into one turn (Anthropic) counts turns, e.g. "
        "messages.0.content.1"))
    provider_error: str | None = Field(default=None, description="the target's own error text (errors only)")
    hint: str | None = Field(default=None, description="a likely cause, when one is known")
    evidence: Evidence | None = Field(default=None, description=(
        "where the provider behaviour this finding rests on was seen, and when (errors and warnings on "
        "provider behaviour)"))
    transcript: int = Field(default=0, description="which transcript of the file (0-based)")


class InputFinding(BaseModel):
    """Something about the file itself rather than its messages: a key an object repeats."""

    kind: Literal["duplicate_key"] = "duplicate_key"
    path: str = Field(description="JSON path of the repeated key, e.g. $[3].content")
    key: str
    values: list[Any] = Field(description="every value the key was given, first to last; readers keep the last")
    text: str = Field(description="a plain sentence")


class LoopCall(BaseModel):
    """One call of a loop, and what became of it."""

    message_index: int = Field(description="the message holding the call")
    tool_call_id: str | None = None
    result_index: int | None = Field(default=None, description="the message holding its result, or the user "
                                     "message its result was sent as (TC020); None when it has none")
    result: Literal["ok", "error", "missing", "user_text", "pending"]


class LoopFinding(BaseModel):
    """A repeated call (LP001) or a stuck loop (LP002): never a reason the provider rejects a request."""

    code: Literal["LP001", "LP002"]
    rule: Literal["repeated_call", "stuck_loop"]
    severity: Literal["warning", "info"]
    message_index: int = Field(description="the message of the first call of the loop")
    last_index: int = Field(description="the message of its last call")
    tool: str
    arguments: str = Field(description="the arguments every call had, as canonical JSON (sorted keys)")
    count: int = Field(description="how many calls")
    in_a_row: bool = Field(description="no other call between them (else each within the window of the one before)")
    result: str = Field(description="what the results were: same result, an error every time, no result, ...")
    causes: list[str] = Field(description="likely causes seen in the transcript: TC020, TC001, error, same_result")
    calls: list[LoopCall]
    tokens: int = Field(description="tokens of the messages holding the calls and their results, each once")
    counter: str = Field(description="the token counter (as fit counts)")
    text: str
    transcript: int = 0


class Report(BaseModel):
    """The result of ``check``: what was read and every finding, in message order."""

    dialect: str
    target: str
    transcripts: int
    message_count: int = Field(description="the messages the transcripts hold as the provider receives them (a "
                               "session log's: those its harness builds from its lines, not the lines)")
    findings: list[Finding]
    transcript_messages: list[int] = Field(default_factory=list, description="each transcript's messages, "
                                           "counted as ``message_count`` counts them")
    transcript_labels: list[str] = Field(default_factory=list, description="where each transcript was found")
    transcript_dialects: list[str] = Field(default_factory=list, description="the dialect each transcript "
                                           "was read as (``dialect`` is the first one's)")
    target_reason: str | None = Field(default=None, description="why this target, when it was not chosen "
                                      "explicitly: the model the request names, or the format's default")
    transcript_targets: list[str] = Field(default_factory=list, description="the target each transcript was "
                                          "checked for (``target`` is the first one's): each takes the one its "
                                          "own request names (a HAR capture of two APIs)")
    transcript_target_reasons: list[str | None] = Field(default_factory=list, description="why, for each "
                                                        "transcript (None: the target named explicitly)")
    input_findings: list[InputFinding] = Field(default_factory=list, description="about the file itself, "
                                               "not its messages: object keys it repeats")
    loops: list[LoopFinding] = Field(default_factory=list, description="repeated calls and stuck loops "
                                     "(inspector.loops): a family apart from the rules, never a reason to reject")
    judged_as: Literal["request", "log"] = Field(default="log", description=(
        "request: about to be sent (names a model, came through the guard, captured HTTP, --as-request); "
        "log: a history that simply ended (the first transcript's)"))
    judged_reason: str = Field(default="", description="why it was judged so")
    model: str | None = Field(default=None, description="the model the (first) request names, if any")

    @property
    def ok(self) -> bool:
        """True when no finding has error severity (the target would accept the request)."""
        return not any(f.severity == "error" for f in self.findings)
