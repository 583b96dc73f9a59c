"""Turn an ``Issue`` into the sentence a person reads, and a hint where a likely cause is known."""

from __future__ import annotations

from .model import Issue, Msg


def _tool(name) -> str:
    return f"'{name}'" if isinstance(name, str) and name else "(unnamed tool)"


def _cid(cid) -> str:
    return cid if cid else "(no id)"


def sentence(issue: Issue, msgs: list[Msg]) -> str:
    i, cid, o, d = issue.index, issue.call_id, issue.other, issue.data
    if issue.say:  # a dialect's own sentence (thinking blocks, reasoning items, ...)
        return f"Message #{i} {issue.say}"
    name = _tool(d.get("name"))
    code = issue.code
    if code == "TC001":
        return f"Message #{i} calls tool {name} (id {_cid(cid)}), but no result for that call follows it anywhere."
    if code == "TC002":
        return f"Message #{i} is a result for tool call {_cid(cid)}, but no message has a call with that id."
    if code == "TC003":
        return (f"Message #{i} answers tool call {cid} ({name}) from message #{o}, but other messages stand between "
                f"them; the result must come right after the call.")
    if code == "TC004":
        return f"Message #{i} answers tool call {cid} ({name}) before it is made in message #{o}."
    if code == "TC005":
        return f"Message #{i} is a second result for tool call {cid} ({name}); message #{d.get('first')} already answered it."
    if code == "TC006":
        return f"Message #{i} has two calls with the same id {cid} (the second is {name})."
    if code == "TC007":
        return f"Message #{i} has an empty 'tool_calls' array."
    if code == "TC008":
        if d.get("side") == "call":
            return f"Message #{i} calls tool {name} (call {d.get('pos', 0)}) without an id."
        return f"Message #{i} is a tool result without a tool call id."
    if code == "TC009":
        return f"Message #{i}: tool call id {cid} ({d.get('length')} characters) does not fit the target's id format."
    if code == "TC010":
        return f"Message #{i}: the arguments of tool {name} (call {_cid(cid)}) are {d.get('got')}, not a JSON string."
    if code == "TC011":
        return (f"Message #{i}: the arguments of tool {name} (call {_cid(cid)}) are not valid JSON (a stream cut "
                "short?). Self-hosted OpenAI-compatible servers (vLLM, SGLang), Alibaba's DashScope and strict "
                "gateways refuse such a history; no refusal by the targets' own hosted APIs was found (evidence to "
                "2026-09).")
    if code == "TC012":
        if d.get("missing"):
            return f"Message #{i}: tool call {d.get('pos', 0)} has no function name."
        return f"Message #{i}: the tool name {d.get('name')!r} is empty or uses characters outside a-z, A-Z, 0-9, _ and -."
    if code == "TC013":
        return (f"Message #{i} answers call {_cid(cid)} of tool {name} from message #{o}, "
                f"but names itself {_tool(d.get('result_name'))}.")
    if code == "TC014":
        return f"The results after message #{o} come in another order than its calls (first out of order: message #{i})."
    if code == "TC015":
        return f"Message #{i} holds results for the calls of message #{o}, which belong in a single message right after it."
    if code == "TC016":
        return f"Message #{i} has text or images before its tool results; tool results must come first."
    if code == "TC017":
        if d.get("name") is None:
            return f"Message #{i} is a legacy 'function' result without a 'name'."
        return f"Message #{i} is a legacy 'function' result for {name}, but no unanswered function_call of that name precedes it."
    if code == "TC018":
        return f"Message #{i} ({d.get('role')}) has no content (null or missing)."
    if code == "TC019":
        return f"Message #{i} ({d.get('role')}) directly follows a {d.get('prev')} message, an order some targets refuse."
    if code == "TC020":
        return (f"Message #{i} is a user message that looks like the output of tool {name} (call {_cid(cid)}) "
                f"from message #{o}, which has no tool result.")
    if code == "TC021":
        if d.get("kind") == "missing_reasoning":
            return (f"Message #{i} made tool calls without the 'reasoning_content' that thinking mode wants sent "
                    "back; DeepSeek's thinking mode (on by default since V4) refuses it (reports to 2026-05).")
        return (f"Message #{i} carries 'reasoning_content' ({d.get('count', 1)} assistant messages do); DeepSeek "
                "ignores it outside tool-call turns (thinking-mode guide, 2026), other targets drop it.")
    if code == "TC022":
        return f"Message #{i} calls tool {name} (id {_cid(cid)}) and the transcript ends before its result: a pending call."
    if code == "TC023":
        return f"Message #{i} reuses tool call id {cid}, already used by a call in message #{o}."
    if code == "TC024":
        return f"Message #{i} has role {d.get('role')!r}, which this format does not have."
    if code == "TC025":
        return (f"Message #{i} has {d.get('count', 1)} text or other block(s) after its tool_use block(s) "
                f"(first at content[{d.get('pos', 0)}]); the tool_use blocks must end the message.")
    if code == "TC026":
        near = f" (did you mean {d['near']!r}?)" if d.get("near") else ""
        return (f"Message #{i} calls tool {name} (id {_cid(cid)}), which the request's tools do not declare{near}; "
                f"declared: {', '.join(d.get('declared') or []) or 'none'}.")
    return f"Message #{i}: {code}."


class Neighbours:
    """Where each message's call block starts and ends, found once per transcript: a hint walks
    to the other end of its block, and a run of 100,000 orphan results would walk it once per
    finding (quadratic) if each hint walked on its own."""

    __slots__ = ("_after", "_back", "_fwd", "_pairs", "msgs")

    def __init__(self, msgs: list[Msg]):
        self.msgs = msgs
        self._back: list[int] | None = None
        self._fwd: list[int] | None = None
        self._pairs: dict[int, object] = {}
        self._after: dict[int, int] = {}

    def back(self, i: int) -> int:
        """The last message before ``i`` that is not results only (-1: none)."""
        if self._back is None:
            back, prev = [], -1
            for j, m in enumerate(self.msgs):
                back.append(prev)
                if not (m.results and not m.calls):
                    prev = j
            self._back = back
        return self._back[i]

    def run_end(self, k: int) -> int:
        """The first message after ``k`` that is not results only (``len(msgs)``: none)."""
        if self._fwd is None:
            n = len(self.msgs)
            fwd, nxt = [n] * n, n
            for j in range(n - 1, -1, -1):
                fwd[j] = nxt
                m = self.msgs[j]
                if not (m.results and not m.calls):
                    nxt = j
            self._fwd = fwd
        return self._fwd[k]

    def after_results(self, i: int) -> int:
        """The first message after ``i`` that has no results."""
        if i not in self._after:
            nxt = i + 1
            while nxt < len(self.msgs) and self.msgs[nxt].results:
                if nxt in self._after:  # a run walked before
                    nxt = self._after[nxt]
                    break
                nxt += 1
            self._after[i] = nxt
        return self._after[i]

    def relink_pair(self, k: int):
        """(the one unanswered call, the one stray result) of the call block at message ``k``,
        when repair's ``relink`` would match them; else None."""
        if k not in self._pairs:
            self._pairs[k] = self._relink_pair(k)
        return self._pairs[k]

    def _relink_pair(self, k: int):
        msgs = self.msgs
        if not (0 <= k < len(msgs)) or not msgs[k].calls:
            return None
        results = [r for m in msgs[k + 1:self.run_end(k)] for r in m.results]
        ids = {c.id for c in msgs[k].calls}
        answered = {r.id for r in results}
        free = [c for c in msgs[k].calls if c.id is not None and c.id not in answered]
        stray = [r for r in results if r.id is not None and r.id not in ids]
        if len(free) != 1 or len(stray) != 1:
            return None  # repair would not re-link either: the match is not unambiguous
        c, r = free[0], stray[0]
        if r.name is not None and r.name != c.name:
            return None
        return c, r


def _relink_hint(issue: Issue, near: Neighbours) -> str | None:
    """TC002 / TC001 where repair's ``relink`` applies: name the other end."""
    i = issue.index
    if issue.call_id is None or not (0 <= i < len(near.msgs)):
        return None
    if issue.code == "TC001":
        pair = near.relink_pair(i)
        if pair is None or pair[0].id != issue.call_id:
            return None
        return (f"Message #{pair[1].msg}, in this call's block, holds a result for {pair[1].id}, an id no call has: "
                "was its id rewritten? Repair gives it this call's id (option relink).")
    k = near.back(i)
    pair = near.relink_pair(k)
    if pair is None or pair[1].id != issue.call_id or pair[1].msg != i:
        return None
    c = pair[0]
    return (f"It stands among the results of message #{k}, whose only unanswered call is {c.id} ({_tool(c.name)}): "
            "was the result's id rewritten? Repair gives it that call's id (option relink).")


def hint(issue: Issue, msgs: list[Msg], near: Neighbours | None = None) -> str | None:
    """The likely cause of ``issue``; pass one ``Neighbours`` for all of a transcript's issues."""
    code, i = issue.code, issue.index
    near = near if near is not None and near.msgs is msgs else Neighbours(msgs)
    if code == "TC002":
        relink = _relink_hint(issue, near)
        if relink:
            return relink
        prev = msgs[i - 1] if i > 0 else None
        if prev is not None and prev.role == "assistant" and not prev.calls:
            return "The assistant message before it has no 'tool_calls': was 'tool_calls' dropped when the assistant message was saved?"
        if prev is None or prev.role in ("user", "system"):
            return "Was the assistant message with the call cut off when the history was trimmed?"
        return "Was the call's id rewritten, or was the call trimmed from the history?"
    if code == "TC003":
        between = [m.role for m in msgs[issue.other + 1 : i] if not m.results] if issue.other is not None else []
        if "system" in between:
            return "A system message was inserted between the call and its result: an agent framework's notice?"
        return "Did the agent loop add messages before the tool returned?"
    if code == "TC004":
        return "Were messages reordered, or was the history sorted by time with the tool's timestamp earlier?"
    if code == "TC021" and issue.data.get("kind") == "thinking_required":
        return ("Was the thinking block of this turn dropped when the reply was saved? Send it back as the API "
                "returned it, first in the message (repair cannot make up its signature), or turn thinking off.")
    if code == "TC025":
        return "Was streamed text appended after the tool calls when the message was saved? Repair moves it before them."
    if code == "TC026":
        return "Was the tool renamed or removed from the request's tools while old calls stayed in the history?"
    if code == "TC005":
        return "A retry may have written a second reply for the same call."
    if code == "TC001":
        relink = _relink_hint(issue, near)
        if relink:
            return relink
        nxt = near.after_results(i)
        if nxt < len(msgs) and msgs[nxt].role == "user":
            return "A user message follows the call: was the tool's result sent as user text, or did the run stop before the tool returned?"
        return "Was the result trimmed from the history, or did the tool fail without a reply being written?"
    if code == "TC007":
        return "Some SDKs return 'tool_calls: []' when the model made no call; drop the field."
    if code == "TC010":
        return "Serialise the arguments with json.dumps before sending them back."
    if code == "TC011":
        return "A streamed response may have been cut off mid-arguments."
    if code == "TC022":
        if issue.data.get("kind") == "never_sent":
            return "Nothing to do: this part of the log is history, and the session went on without it."
        if issue.data.get("kind") == "approval_pending":
            return "generateText / streamText runs the approved call (or writes the denial) before it calls the model."
        return "The log ended while the tool was running; a request must answer it before it is sent."
    if code == "TC023":
        return "Some models restart ids every round; pairing here is per call block, so this is only a problem for strict targets."
    return None
