"""A request or a log (rules.md, "Changes of 2026-11-27"): the same list is judged differently when
it is a request about to be sent (it names a model, came through the guard, was captured as an HTTP
request, or the user said ``--as-request``) and when it is a log that simply ended.

- A request that ends on unanswered calls is refused by Mistral and DeepSeek (TC022 ``request_end``:
  an error there, a warning elsewhere).
- A log's records that an agent harness writes after the run ends (mini-swe-agent's ``exit``) are
  notes (TC024 ``harness_record``), and the call the run ended on is TC022 naming the exit status,
  not TC001: the run ended as it should.
"""

from __future__ import annotations

from ..model import Issue, Judged, Msg, TypedMsgs

# Roles agent harnesses give records of their own, which no provider has (mini-swe-agent's ``exit``).
HARNESS_ROLES = frozenset({"exit"})


def _tool(name: object) -> str:
    return f"'{name}'" if isinstance(name, str) and name else "(unnamed tool)"


def exit_status(raw: object) -> str | None:
    """The exit status a harness record states (mini-swe-agent: ``extra.exit_status``)."""
    if type(raw) is not dict:
        return None
    extra = raw.get("extra")
    for d in (extra if type(extra) is dict else {}, raw):
        st = d.get("exit_status")
        if type(st) is str and st:
            return st
    return None


def judge(issues: list[Issue], msgs: list[Msg], judged: Judged) -> None:
    """Refine ``issues`` for a request (``judged.as_request``) or a log."""
    if judged.as_request:
        for iss in issues:
            if iss.code == "TC022" and iss.data.get("kind") is None:
                iss.data["kind"] = "request_end"
                iss.say = (f"calls tool {_tool(iss.data.get('name'))} (id {iss.call_id or '(no id)'}) and this "
                           "request ends before its result: a request about to be sent must answer every call first "
                           "(Mistral and DeepSeek refuse one that ends on an assistant message with calls).")
        return
    if type(msgs) is TypedMsgs:
        return  # (a typed reading has no such role: no walk)
    harness = [m for m in msgs if m.role in HARNESS_ROLES]
    if not harness:
        return
    status = next((s for s in map(exit_status, (m.raw for m in harness)) if s), None)
    for iss in issues:
        if iss.code == "TC024" and iss.data.get("role") in HARNESS_ROLES:
            iss.data["kind"] = "harness_record"
            what = f" (exit status {status!r})" if status else ""
            iss.say = (f"has role {iss.data.get('role')!r}: a harness record{what} the agent wrote after its run, "
                       "not a message; remove it before sending this history again.")
    # The call the run ended on: its message is followed by harness records only.
    trailing = len(msgs)
    while trailing and msgs[trailing - 1].role in HARNESS_ROLES:
        trailing -= 1
    if trailing == len(msgs) or not trailing or not msgs[trailing - 1].calls:
        return
    last = trailing - 1
    for iss in issues:
        if iss.code == "TC001" and iss.index == last:
            iss.code = "TC022"
            iss.data["kind"] = "run_ended"
            ended = f"with exit status {status!r}" if status else "there"
            iss.say = (f"calls tool {_tool(iss.data.get('name'))} (id {iss.call_id or '(no id)'}), and the run ended "
                       f"{ended} before a result was written: the run ended on this call, as a finished run does.")
