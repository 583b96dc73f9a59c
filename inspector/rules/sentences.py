"""What each rule says to a person: the sentence for a finding and, where a likely cause is known,
a hint. ``catalogue.RULES`` gives each rule its own pair; ``Neighbours`` is the call-block map the
hints share within one transcript."""

from __future__ import annotations

from ..model import Call, Issue, Msg, Result


def _tool(name: object) -> str:
    return f"'{name}'" if isinstance(name, str) and name else "(unnamed tool)"


def _cid(cid: str | None) -> str:
    return cid if cid else "(no id)"


# --- sentences: "Message #i ..." ------------------------------------------------------------------

def sentence_tc001(s: Issue) -> str:
    return (f"Message #{s.index} calls tool {_tool(s.data.get('name'))} (id {_cid(s.call_id)}), but no result for "
            "that call follows it anywhere.")


def sentence_tc002(s: Issue) -> str:
    return f"Message #{s.index} is a result for tool call {_cid(s.call_id)}, but no message has a call with that id."


def sentence_tc003(s: Issue) -> str:
    return (f"Message #{s.index} answers tool call {s.call_id} ({_tool(s.data.get('name'))}) from message #{s.other}, "
            "but other messages stand between them; the result must come right after the call.")


def sentence_tc004(s: Issue) -> str:
    return (f"Message #{s.index} answers tool call {s.call_id} ({_tool(s.data.get('name'))}) before it is made in "
            f"message #{s.other}.")


def sentence_tc005(s: Issue) -> str:
    first = s.data.get("first")
    where = "an earlier result in the same message" if first == s.index else f"message #{first}"
    return (f"Message #{s.index} is a second result for tool call {s.call_id} ({_tool(s.data.get('name'))}); "
            f"{where} already answered it.")


def sentence_tc006(s: Issue) -> str:
    return f"Message #{s.index} has two calls with the same id {s.call_id} (the second is {_tool(s.data.get('name'))})."


def sentence_tc007(s: Issue) -> str:
    return f"Message #{s.index} has an empty 'tool_calls' array."


def sentence_tc008(s: Issue) -> str:
    if s.data.get("side") == "call":
        return f"Message #{s.index} calls tool {_tool(s.data.get('name'))} (call {s.data.get('pos', 0)}) without an id."
    return f"Message #{s.index} is a tool result without a tool call id."


def sentence_tc009(s: Issue) -> str:
    return (f"Message #{s.index}: tool call id {s.call_id} ({s.data.get('length')} characters) does not fit the "
            "target's id format.")



def sentence_tc010(s: Issue) -> str:
    return (f"Message #{s.index}: the arguments of tool {_tool(s.data.get('name'))} (call {_cid(s.call_id)}) are "
            f"{s.data.get('got')}, not a JSON string.")


def sentence_tc011(s: Issue) -> str:
    return (f"Message #{s.index}: the arguments of tool {_tool(s.data.get('name'))} (call {_cid(s.call_id)}) are not "
            "valid JSON (a stream cut short?). Self-hosted OpenAI-compatible servers (vLLM, SGLang), Alibaba's "
            "DashScope and strict gateways refuse such a history; no refusal by the targets' own hosted APIs was "
            "found (evidence to 2026-09).")


def sentence_tc012(s: Issue) -> str:
    if s.data.get("kind") == "missing_name":
        return (f"Message #{s.index}: tool call {s.data.get('pos', 0)} has no function name at all (the name is missing "
                "or null): every target requires one.")
    return (f"Message #{s.index}: the tool name {s.data.get('name')!r} is empty or uses characters outside a-z, A-Z, "
            "0-9, _ and -.")


def sentence_tc013(s: Issue) -> str:
    return (f"Message #{s.index} answers call {_cid(s.call_id)} of tool {_tool(s.data.get('name'))} from message "
            f"#{s.other}, but names itself {_tool(s.data.get('result_name'))}.")


def sentence_tc014(s: Issue) -> str:
    return (f"The results after message #{s.other} come in another order than its calls (first out of order: "
            f"message #{s.index}).")


def sentence_tc015(s: Issue) -> str:
    return (f"Message #{s.index} holds results for the calls of message #{s.other}, which belong in a single message "
            "right after it.")


def sentence_tc016(s: Issue) -> str:
    return f"Message #{s.index} has text or images before its tool results; tool results must come first."


def sentence_tc017(s: Issue) -> str:
    if s.data.get("name") is None:
        return f"Message #{s.index} is a legacy 'function' result without a 'name'."
    return (f"Message #{s.index} is a legacy 'function' result for {_tool(s.data.get('name'))}, but no unanswered "
            "function_call of that name precedes it.")


def sentence_tc018(s: Issue) -> str:
    return f"Message #{s.index} ({s.data.get('role')}) has no content (null or missing)."


def sentence_tc019(s: Issue) -> str:
    return (f"Message #{s.index} ({s.data.get('role')}) directly follows a {s.data.get('prev')} message, an order "
            "some targets refuse.")


def sentence_tc020(s: Issue) -> str:
    return (f"Message #{s.index} is a user message that looks like the output of tool {_tool(s.data.get('name'))} "
            f"(call {_cid(s.call_id)}) from message #{s.other}, which has no tool result.")


def sentence_tc021(s: Issue) -> str:
    if s.data.get("kind") == "missing_reasoning":
        return (f"Message #{s.index} made tool calls without the 'reasoning_content' that thinking mode wants sent "
                "back; DeepSeek's thinking mode (on by default since V4) refuses it (reports to 2026-05).")
    return (f"Message #{s.index} carries 'reasoning_content' ({s.data.get('count', 1)} assistant messages do); "
            "DeepSeek ignores it outside tool-call turns (thinking-mode guide, 2026), other targets drop it.")


def sentence_tc022(s: Issue) -> str:
    return (f"Message #{s.index} calls tool {_tool(s.data.get('name'))} (id {_cid(s.call_id)}) and the transcript "
            "ends before its result: a pending call.")


def sentence_tc023(s: Issue) -> str:
    return f"Message #{s.index} reuses tool call id {s.call_id}, already used by a call in message #{s.other}."


def sentence_tc024(s: Issue) -> str:
    return f"Message #{s.index} has role {s.data.get('role')!r}, which this format does not have."


def sentence_tc025(s: Issue) -> str:
    return (f"Message #{s.index} has {s.data.get('count', 1)} text or other block(s) after its tool_use block(s) "
            f"(first at content[{s.data.get('pos', 0)}]); the tool_use blocks must end the message.")


def sentence_tc026(s: Issue) -> str:
    near = f" (did you mean {s.data['near']!r}?)" if s.data.get("near") else ""
    return (f"Message #{s.index} calls tool {_tool(s.data.get('name'))} (id {_cid(s.call_id)}), which the request's "
            f"tools do not declare{near}; declared: {', '.join(s.data.get('declared') or []) or 'none'}.")


# --- hints: the likely cause ----------------------------------------------------------------------

class Neighbours:
    """Where each message's call block starts and ends, found once per transcript: a hint walks
    to the other end of its block, and a run of 100,000 orphan results would walk it once per
    finding (quadratic) if each hint walked on its own."""

    __slots__ = ("_after", "_back", "_fwd", "_pairs", "msgs")

    def __init__(self, msgs: list[Msg]):
        self.msgs = msgs
        self._back: dict[int, int] = {}
        self._fwd: dict[int, int] = {}
        self._pairs: dict[int, tuple[Call, Result] | None] = {}
        self._after: dict[int, int] = {}

    def back(self, i: int) -> int:
        """The last message before ``i`` that is not results only (-1: none)."""
        return self._past_results(i, -1, self._back)

    def run_end(self, k: int) -> int:
        """The first message after ``k`` that is not results only (``len(msgs)``: none)."""
        return self._past_results(k, 1, self._fwd)

    def _past_results(self, i: int, step: int, seen: dict[int, int]) -> int:
        """The first message from ``i`` on in direction ``step`` that is not results only. Each
        message walked over is remembered with the answer (which is its own too), so that the hints
        of a long run of results walk it once, not once each: only the few messages a finding is on
        are walked, not the whole transcript."""
        found = seen.get(i)
        if found is not None:
            return found
        msgs, walked = self.msgs, [i]
        j = i + step
        while 0 <= j < len(msgs) and msgs[j].results and not msgs[j].calls:
            found = seen.get(j)
            if found is not None:
                break
            walked.append(j)
            j += step
        else:
            found = j
        for w in walked:
            seen[w] = found
        return found

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

    def relink_pair(self, k: int) -> tuple[Call, Result] | None:
        """(the one unanswered call, the one stray result) of the call block at message ``k``,
        when repair's ``relink`` would match them; else None."""
        if k not in self._pairs:
            self._pairs[k] = self._relink_pair(k)
        return self._pairs[k]

    def _relink_pair(self, k: int) -> tuple[Call, Result] | None:
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


def hint_tc001(issue: Issue, near: Neighbours) -> str | None:
    relink = _relink_hint(issue, near)
    if relink:
        return relink
    msgs = near.msgs
    nxt = near.after_results(issue.index)
    if nxt < len(msgs) and msgs[nxt].role == "user":
        return ("A user message follows the call: was the tool's result sent as user text, or did the run stop before "
                "the tool returned?")
    return "Was the result trimmed from the history, or did the tool fail without a reply being written?"


# The text context editing leaves in place of a cleared tool result: Claude Code's microcompact
# (``[Old tool result content cleared]``, also Qwen Code's and OpenClaw's hard clear). Anthropic's
# own ``clear_tool_uses_20250919`` edits only the server's copy of the prompt (the client keeps its
# full history) and keeps the call: docs/provider-evidence.md, issue 32.
CLEARED_PLACEHOLDER = "[Old tool result content cleared"


def cleared_placeholder(raw: object, depth: int = 0) -> bool:
    """True when a message (as written) holds a tool result's content cleared by context editing."""
    if isinstance(raw, str):
        return raw.lstrip().startswith(CLEARED_PLACEHOLDER)
    if depth > 8:
        return False
    if isinstance(raw, dict):
        return any(cleared_placeholder(v, depth + 1) for k, v in raw.items() if k not in ("id", "tool_use_id", "type"))
    if isinstance(raw, list):
        return any(cleared_placeholder(v, depth + 1) for v in raw[:64])
    return False


_RESULT_IDS = ("tool_use_id", "tool_call_id", "call_id", "toolCallId", "id")


def _result_block(raw: object, call_id: str | None, depth: int = 0) -> object:
    """The part of a message that is the result for ``call_id`` (the message when none is named)."""
    if call_id is not None and depth <= 6:
        if isinstance(raw, dict):
            if any(raw.get(k) == call_id for k in _RESULT_IDS):
                return raw
            for v in raw.values():
                if isinstance(v, (dict, list)):
                    found = _result_block(v, call_id, depth + 1)
                    if found is not None:
                        return found
        elif isinstance(raw, list):
            for v in raw[:256]:
                found = _result_block(v, call_id, depth + 1)
                if found is not None:
                    return found
    return raw if depth == 0 else None


def hint_tc002(issue: Issue, near: Neighbours) -> str | None:
    relink = _relink_hint(issue, near)
    if relink:
        return relink
    if 0 <= issue.index < len(near.msgs) and cleared_placeholder(
            _result_block(near.msgs[issue.index].raw, issue.call_id)):
        return ("Its content is the placeholder context editing leaves ('[Old tool result content cleared]', "
                "a harness's microcompact): the result was cleared on purpose, but its call was taken out by "
                "something else (a compaction, a trimmed history). The provider's own clearing "
                "(Anthropic's clear_tool_uses_20250919) keeps the call and edits only its own copy, so the "
                "request is refused as it stands: drop the cleared result with its call, or keep both.")
    i, msgs = issue.index, near.msgs
    prev = msgs[i - 1] if i > 0 else None
    if prev is not None and prev.role == "assistant" and not prev.calls:
        return ("The assistant message before it has no 'tool_calls': was 'tool_calls' dropped when the assistant "
                "message was saved?")
    if prev is None or prev.role in ("user", "system"):
        return "Was the assistant message with the call cut off when the history was trimmed?"
    return "Was the call's id rewritten, or was the call trimmed from the history?"


def hint_tc003(issue: Issue, near: Neighbours) -> str | None:
    between = ([m.role for m in near.msgs[issue.other + 1 : issue.index] if not m.results]
               if issue.other is not None else [])
    if "system" in between:
        return "A system message was inserted between the call and its result: an agent framework's notice?"
    return "Did the agent loop add messages before the tool returned?"


def hint_tc004(issue: Issue, near: Neighbours) -> str | None:
    return "Were messages reordered, or was the history sorted by time with the tool's timestamp earlier?"


def hint_tc005(issue: Issue, near: Neighbours) -> str | None:
    return "A retry may have written a second reply for the same call."


def hint_tc007(issue: Issue, near: Neighbours) -> str | None:
    return "Some SDKs return 'tool_calls: []' when the model made no call; drop the field."


def hint_tc010(issue: Issue, near: Neighbours) -> str | None:
    return "Serialise the arguments with json.dumps before sending them back."


def hint_tc011(issue: Issue, near: Neighbours) -> str | None:
    return "A streamed response may have been cut off mid-arguments."


def hint_tc021(issue: Issue, near: Neighbours) -> str | None:
    if issue.data.get("kind") == "thinking_required":
        return ("Was the thinking block of this turn dropped when the reply was saved? Send it back as the API "
                "returned it, first in the message (repair cannot make up its signature), or turn thinking off.")
    if issue.data.get("kind") in ("reasoning_only", "reasoning_only_unsure"):
        return ("Did a step return only (redacted) reasoning? Leave that turn out of the history before sending it "
                "to a model that refuses it; repair does not drop reasoning on its own.")
    return None


def hint_tc022(issue: Issue, near: Neighbours) -> str | None:
    if issue.data.get("kind") == "never_sent":
        return "Nothing to do: this part of the log is history, and the session went on without it."
    if issue.data.get("kind") == "approval_pending":
        return "generateText / streamText runs the approved call (or writes the denial) before it calls the model."
    return "The log ended while the tool was running; a request must answer it before it is sent."


def hint_tc023(issue: Issue, near: Neighbours) -> str | None:
    return ("Some models restart ids every round; pairing here is per call block, so this is only a problem for "
            "strict targets.")


def hint_tc024(issue: Issue, near: Neighbours) -> str | None:
    kind = issue.data.get("kind")
    if kind == "harness_record":
        return "The run is finished; this is its log. Judged as a request (--as-request), the record is an error."
    if kind == "function_role_refused":
        return "Send each function_call as tool_calls (with an id) and its result as a 'tool' message with that id."
    if kind in ("system_model_unknown", "function_model_unknown"):
        return "Name the model (the request's 'model', or --model) to get the verdict for it."
    return None


def hint_tc025(issue: Issue, near: Neighbours) -> str | None:
    return "Was streamed text appended after the tool calls when the message was saved? Repair moves it before them."


def hint_tc026(issue: Issue, near: Neighbours) -> str | None:
    return "Was the tool renamed or removed from the request's tools while old calls stayed in the history?"
