"""Anthropic Messages ``messages``: ``tool_use`` blocks in assistant messages, ``tool_result``
blocks in the next user message.

The system prompt lives outside the list (a request body's ``system``), so a ``system`` role inside
it is TC024. A call block is the assistant message and the *next* message only (``BLOCK = "next"``):
results spread over later user messages are TC015 and text before a ``tool_result`` is TC016.
The Messages API combines consecutive messages of one role into a single turn before it checks
them (``merges``; docs/provider-evidence.md), so for the ``anthropic`` target pairing and these
order rules run on the combined turns (``inspector.turns``): two user messages in a row are a note
(TC019 info), an orphan inside a combined turn is named as the API names it
(``messages.0.content.1``), and text in an earlier message of the turn that holds the results is
TC016. Thinking blocks are checked for what the API needs sent back (TC021). One pass reads the
list, as in ``openai_chat``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..containers import path_text
from ..errors import InputError
from ..model import Call, Issue, Msg, Note, Result
from ..model_families import CAPABILITIES, accepts
from ..turns import MERGED_ROLES, Turns
from .base import (
    Block,
    Dialect,
    Samples,
    block_call,
    block_failed,
    block_result,
    blocks_after_calls,
    objects,
    parts_text,
    unknown_role,
    user_as_result,
    word,
)
from .base import type_name as _type
from .editing import BlockEditor, Raw

if TYPE_CHECKING:
    from ..pairing import Pairing

ROLES = ("user", "assistant")
# A plain list Anthropic reads as well as openai-chat does: mid-conversation system messages
# (2026-05-28) are a role of some models.
PLAIN_ROLES = ("user", "assistant", "system")
THINKING = ("thinking", "redacted_thinking")
# Block types only this dialect has (openai-chat content parts are text / image_url / input_audio / file).
OWN_BLOCKS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use",
                        "web_search_tool_result", "document", "search_result", "mcp_tool_use", "mcp_tool_result",
                        "container_upload"})
# Tools the API runs itself; their results (``*_tool_result``) follow in the same message.
SERVER_CALLS = frozenset({"server_tool_use", "mcp_tool_use"})


def detect(items: list[Any]) -> int:
    """3 on blocks only Anthropic has; 1 for a plain list of user and assistant messages that it
    reads as well as openai-chat does (that tie goes to openai-chat unless the user names an
    Anthropic target)."""
    plain = bool(items)
    for m in items[:50]:
        if type(m) is not dict:
            plain = False
            continue
        if type(m.get("content")) is list and "tool_calls" not in m:
            for b in m["content"]:
                if type(b) is dict:
                    t = b.get("type")
                    if type(t) is str and (t in OWN_BLOCKS or (t == "image" and "source" in b)
                                           or t[-12:] == "_tool_result"):
                        return 3
        if plain and (word(m.get("role")) not in PLAIN_ROLES or type(m.get("content")) not in (str, list) or "tool_calls" in m):
            plain = False
    return 1 if plain else 0


def normalize(items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
    """The neutral view of ``items``; shape issues are appended to ``issues``."""
    out: list[Msg] = []
    add = out.append
    note = issues.append
    last = len(items) - 1
    # Whether the turn before the current one (a run of messages of one role) made calls: a text
    # block before tool results matters only in a turn that answers calls (TC016); results with no
    # call before them are orphans (TC002), whatever stands beside them.
    run_role, run_calls, after_calls = None, False, False
    for i, m in objects(items, where):
        role = m.get("role")
        content = m.get("content")
        if role != run_role:
            after_calls, run_role, run_calls = run_role == "assistant" and run_calls, role, False
        if role not in ROLES:
            add(unknown_role(i, role, m, note))
            continue
        if type(content) is str:
            # An empty final assistant message is a prefill the API accepts; any other is not.
            if not content and not (role == "assistant" and i == last):
                note(Issue("TC018", i, None, role=role, say="has an empty content string; the API needs non-empty content."))
            add(Msg(i, role, (), (), m))
            continue
        if type(content) is not list:
            if content is None:
                note(Issue("TC018", i, None, role=role))
                add(Msg(i, role, (), (), m))
                continue
            raise InputError(f"'content' must be a string or an array, got {_type(content)}", f"{path_text(where)}[{i}].content")
        calls, results, other = read_blocks(content, i, role, where, note, after_calls)
        run_calls = run_calls or bool(calls)
        if not content and not (role == "assistant" and i == last):
            note(Issue("TC018", i, None, role=role, say="has an empty content array; the API needs non-empty content."))
        add(Msg(i, role, calls, results, m, other))
    return out


def read_blocks(content: list[Any], i: int, role: str, where: tuple[Any, ...], note: Note, after_calls: bool = True) -> tuple[list[Any], list[Any], bool]:
    """Calls, results and whether anything else is there, for one message's content blocks
    (``after_calls``: the turn before made calls, so text before the results is TC016)."""
    calls: list[Call] = []
    results: list[Result] = []
    other = misplaced = empty_text = False
    server: set[Any] | None = None  # ids of the server tool calls seen so far in this message
    for j, b in enumerate(content):
        if type(b) is not dict:
            raise InputError(f"expected a content block object, got {_type(b)}", f"{path_text(where)}[{i}].content[{j}]")
        t = b.get("type")
        if t == "tool_use" and role == "assistant":
            calls.append(block_call(i, j, b.get("id"), b.get("name"), b.get("input"), note))
        elif t == "tool_result":
            r = block_result(i, j, b.get("tool_use_id"), note)
            if role == "assistant" and not misplaced:
                misplaced = True
                note(result_in_assistant(i, r.id, j))
            elif other and not misplaced and after_calls:
                misplaced = True  # one TC016 per message
                note(Issue("TC016", i, r.id, pos=j))
            results.append(r)
        else:
            other = True
            if t == "text" and not b.get("text"):
                empty_text = True
            elif type(t) is not str:
                continue
            elif t in SERVER_CALLS:
                server = server or set()
                if type(b.get("id")) is str:
                    server.add(b["id"])
            elif t[-12:] == "_tool_result":
                server_result(b, t, i, j, server, note)
    if empty_text:
        note(Issue("TC018", i, None, role=role, kind="empty_text",
                    say="has an empty text block; the API rejects empty text blocks."))
    # Calls that fill the message's last blocks (the usual assistant message) leave nothing after
    # them: blocks_after_calls, whose scan costs more than reading the blocks, is skipped then.
    if calls and role == "assistant" and len(content) - calls[0].pos != len(calls):
        blocks_after_calls(i, content, is_tool_use, lambda iss: note(_after_kind(iss, content)))
    return calls, results, other


# Recorded refusal (tghamm/Anthropic.SDK#128: a tool's output kept in the assistant message that
# called it; the index-prefixed form is how the API words it): a tool_result block belongs in a
# user message.
RESULT_IN_ASSISTANT = "messages.{i}: `tool_result` blocks can only be in `user` messages"


def result_in_assistant(i: int, rid: str | None, j: int) -> Issue:
    """TC019 for a ``tool_result`` block inside an assistant message (one per message)."""
    iss = Issue("TC019", i, rid, pos=j, kind="result_in_assistant", role="assistant",
                say=f"(assistant) holds a tool_result block (content {j}); tool results can only be sent in a "
                    "user message, right after the assistant message with the calls.")
    iss.provider = RESULT_IN_ASSISTANT
    return iss


def _is_server_block(b: Any) -> bool:
    t = b.get("type") if type(b) is dict else None
    return type(t) is str and (t in SERVER_CALLS or t[-12:] == "_tool_result")


def _after_kind(iss: Issue, content: list[Any]) -> Issue:
    """TC025 for text or other client blocks after ``tool_use`` is ``text_after`` (a warning: five
    Claude models took ``[tool_use, tool_use, text]`` in a live test of 2026-09-20,
    gotgenes/pi-anthropic-auth#66); server-tool blocks after a client ``tool_use`` stay refused
    (vercel/ai#13013, 2026-03)."""
    first = iss.data.get("first_call", 0)
    if not any(_is_server_block(b) for b in content[first + 1:]):
        iss.data["kind"] = "text_after"
    return iss


def is_tool_use(b: Any) -> bool:
    return type(b) is dict and b.get("type") == "tool_use"


# A server tool's result (web_search_tool_result, code_execution_tool_result, mcp_tool_result, ...)
# answers a server_tool_use / mcp_tool_use block before it in the same assistant message; the API
# refuses one without it, with this text (anthropics/claude-code#92611, #95406, for
# advisor_tool_result). Such pairs never wait for the next message: they are no TC001.
SERVER_RESULT_TEXT = ("messages.{i}.content.{j}: unexpected `tool_use_id` found in `%s` blocks: {id}. "
                      "Each `%s` block must have a corresponding `server_tool_use` block before it.")


def server_result(b: dict[str, Any], kind: str, i: int, j: int, server: set[Any] | None, note: Note) -> None:
    """TC002 for a server tool result with no server tool call before it in its message."""
    tid = b.get("tool_use_id")
    if server is not None and type(tid) is str and tid in server:
        return
    iss = Issue("TC002", i, tid if type(tid) is str else None, pos=j, kind=kind,
                say=f"has a {kind} block (content {j}) for server tool call {tid or '(no id)'}, but no "
                    "server_tool_use block with that id comes before it in the message.")
    if kind.replace("_", "").isalpha():
        iss.provider = SERVER_RESULT_TEXT % (kind, kind)
    note(iss)


def first_block_type(raw: dict[str, Any]) -> str | None:
    """The type of a message's first content block (a string content is one text block)."""
    c = raw.get("content")
    if type(c) is str:
        return "text"
    if type(c) is list and c and type(c[0]) is dict:
        return c[0].get("type")
    return None


def text(raw: Any) -> str:
    """The text of a message: its text blocks and the text of its ``tool_result`` blocks, in order."""
    if type(raw) is not dict:
        return ""
    content = raw.get("content")
    if type(content) is not list:
        return content if type(content) is str else ""
    out = []
    for b in content:
        if type(b) is dict:
            t = b.get("type")
            if t == "text" and type(b.get("text")) is str:
                out.append(b["text"])
            elif t == "tool_result" or (type(t) is str and t.endswith("_tool_result")):
                out.append(parts_text(b.get("content")))
    return "\n".join(x for x in out if x)


def same_role(msgs: list[Msg], note: Note, turns: Turns | None = None) -> None:
    """Two messages of one role in a row: Bedrock's Converse API refuses them; the Messages API
    combines them into one turn (``turns``: how it sees the list), which is worth a note."""
    prev = None
    for m in msgs:
        if m.role in ROLES:
            if m.role == prev:
                iss = Issue("TC019", m.index, None, m.index - 1, role=m.role, prev=prev)
                if turns is not None:
                    at = turns.where(m.index)
                    iss.say = (f"({m.role}) directly follows a {prev} message; the API combines messages "
                               f"{turns.span(m.index)} into one {m.role} turn" + (f" ({at})." if at else "."))
                note(iss)
            prev = m.role
        else:
            prev = None


def _at(turns: Turns, i: int) -> str:
    at = turns.where(i)
    return f" ({at})" if at else ""


def _ends_with_other(raw: Any) -> bool:
    """True when a block other than ``tool_use`` follows the first ``tool_use`` of the message (its
    own TC025, found while reading: the combined turn adds nothing to say)."""
    c = raw.get("content") if type(raw) is dict else None
    if type(c) is not list:
        return False
    first = next((j for j, b in enumerate(c) if is_tool_use(b)), None)
    return first is not None and any(not is_tool_use(b) for b in c[first + 1:])


def merged_turn_order(msgs: list[Msg], turns: Turns, note: Note) -> None:
    """The order rules on a turn combined from several messages, as the API sees it: tool_use
    blocks followed by other blocks of a later message of the turn (TC025), and tool results after
    text of an earlier message of the turn that answers a call turn (TC016). The rules inside one
    message were checked while reading it."""
    for t in range(len(turns.starts)):
        r = turns.members(t)
        if len(r) < 2:
            continue
        role = turns.roles[t]
        if role == "assistant":
            calls_at = None
            for i in r:
                m = msgs[i]
                if calls_at is not None and m.has_other and not _ends_with_other(msgs[calls_at].raw):
                    ids = [c.id for k in r for c in msgs[k].calls if c.id]
                    later = [b for k in r if k > calls_at for b in (msgs[k].raw.get("content") or [])
                             if type(msgs[k].raw) is dict and type(msgs[k].raw.get("content")) is list]
                    iss = Issue("TC025", calls_at, None, i, ids=ids, merged=True,
                                say=f"has tool calls, and message #{i} after it has other blocks; the API "
                                    f"combines messages {turns.span(i)} into one assistant turn{_at(turns, i)}, "
                                    "where the tool calls must come last.")
                    if not any(_is_server_block(b) for b in later):
                        iss.data["kind"] = "text_after"
                    note(iss)
                    break
                if m.calls and calls_at is None:
                    calls_at = i
        elif role == "user" and t > 0 and any(msgs[k].calls for k in turns.members(t - 1)):
            text_at = None
            for i in r:
                m = msgs[i]
                if m.results and text_at is not None:
                    res = m.results[0]
                    note(Issue("TC016", i, res.id, text_at, pos=res.pos, merged=True,
                               say=f"has tool results after the text of message #{text_at}; the API combines "
                                   f"messages {turns.span(i)} into one user turn{_at(turns, i)}, where tool "
                                   "results must come first."))
                    break
                if m.has_other and text_at is None:
                    text_at = i


def thinking(msgs: list[Msg], note: Note) -> None:
    """Thinking blocks sent back: signed, first in their message, and present in the open tool loop."""
    used = False
    for m in msgs:
        if m.role != "assistant" or type(m.raw.get("content")) is not list:
            continue
        blocks = m.raw["content"]
        seen = False  # a thinking block came before (interleaved thinking: more after the first are fine)
        for j, b in enumerate(blocks):
            if type(b) is dict and b.get("type") in THINKING:
                used = True
                if b.get("type") == "thinking" and not b.get("signature"):
                    # Refused: "thinking.signature: Field required" (WordPress/ai-provider-for-anthropic#27,
                    # 2026-07-21), "Invalid `signature` in `thinking` block" (oh-my-openagent#2775, 2026-03-23).
                    note(Issue("TC021", m.index, None, pos=j, kind="thinking_signature",
                               say=f"has a thinking block (content {j}) without its 'signature'; the API takes "
                                   "thinking blocks back only with the signature it gave them (refused in reports "
                                   "to 2026-07)."))
                    break
                if j and not seen:
                    first = blocks[0].get("type") if type(blocks[0]) is dict else None
                    iss = Issue("TC021", m.index, None, pos=j, kind="thinking_order",
                                say=f"has its thinking block at content {j}; an assistant message with thinking "
                                    "blocks must start with one (refused in reports to 2026-01).")
                    iss.provider = ("messages.{i}.content.0: If an assistant message contains any thinking blocks, "
                                    f"the first block must be thinking or redacted_thinking. Found {first}.")
                    note(iss)
                    break
                seen = True
    if not used:
        return
    loop = open_loop_without_thinking(msgs, first_block_type)
    if loop is not None:
        note(Issue("TC021", loop[0].index, None, kind="thinking_missing",
                   say="is the last assistant turn of an open tool loop and does not start with a thinking "
                       "block, which the API requires when thinking is on (\"Expected `thinking` or "
                       "`redacted_thinking`, but found …\", reports to 2026-01); a warning, since the "
                       "transcript does not say whether the request turns thinking on."))


def open_loop_without_thinking(msgs: list[Msg], block_type: Callable[[dict[str, Any]], str | None]) -> tuple[Msg, Msg] | None:
    """The last assistant message and the first message of its turn, when it makes calls that only
    tool results follow (the open tool loop) and its turn does not start with a thinking block; else
    None. Consecutive assistant messages are one turn to the API, which looks at the first block of
    the first of them (``block_type``: the Messages API type of a raw message's first block)."""
    for k in range(len(msgs) - 1, -1, -1):
        m = msgs[k]
        if m.role != "assistant":
            continue
        if not m.calls or not all(x.results and not x.has_other for x in msgs[k + 1 :]):
            return None
        start = k
        while start and msgs[start - 1].role == "assistant":
            start -= 1
        return None if block_type(msgs[start].raw) in THINKING else (m, msgs[start])
    return None


# Anthropic's words (HTTP 400), the same through Vertex and Bedrock (docs/provider-evidence.md):
# mastra-ai/mastra#7799 (2025-09-12), anomalyco/opencode#3077 (Bedrock and Vertex, 2025),
# znlsl/Antigravity2Api#11 (Vertex, 2026-01-06), Kilo-Org/kilocode#5219 (Vertex, 2026-01-20).
THINKING_REQUIRED = (
    "messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` "
    "is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of "
    "`tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid "
    "this requirement, disable `thinking`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking")


def thinking_enabled(setting: Any) -> bool:
    """The body turns thinking on with a budget: ``{"type": "enabled", ...}``. Not ``"adaptive"``:
    there the model may answer without thinking, so a turn without a thinking block is no proof of
    a dropped one (no refusal of it found; docs/provider-evidence.md)."""
    return type(setting) is dict and setting.get("type") == "enabled"


def thinking_required(msgs: list[Msg], setting: Any, issues: list[Issue], block_type: Callable[[dict[str, Any]], str | None],
                      where: str = '"thinking"', says: str = "") -> None:
    """When the body turns thinking on (``setting``, read at ``where``), the open tool loop's last
    assistant turn without a thinking block is refused: the warning ``thinking`` gave (or would have
    given) becomes an error, in the API's words (after ``says``, what a gateway puts before them)."""
    if not thinking_enabled(setting):
        return
    loop = open_loop_without_thinking(msgs, block_type)
    if loop is None or loop[0] is msgs[-1]:  # no tool results after it: a pending call (TC022), not this refusal
        return
    m, first = loop
    issues[:] = [x for x in issues if not (x.code == "TC021" and x.data.get("kind") == "thinking_missing")]
    found = block_type(first.raw)
    iss = Issue("TC021", m.index, None, kind="thinking_required",
                say=f"is the last assistant turn of an open tool loop and does not start with a thinking block, "
                    f"while this request turns thinking on ({where}: {{\"type\": \"enabled\"}}); the API "
                    "refuses that (reports 2025-09 to 2026-01).")
    # Words only for a first block whose type the API would name (an unknown kind: no words).
    iss.provider = says + THINKING_REQUIRED.replace("{found}", found) if type(found) is str and found.isidentifier() else None
    issues.append(iss)


# The thinking-binding error's third sentence (rules.md, "Changes of 2026-11-27": 2026-09), and the
# body setting that asks the API to drop the block instead (beta thinking-binding-controls-2026-08-01).
THINKING_BINDING = "The `thinking` block that preceded this one when it was created is missing from this request."


def _drops_block(setting: Any) -> bool:
    """``thinking.block_binding.prefix_mismatch_behavior: "drop_block"``: the opt-out."""
    binding = setting.get("block_binding") if type(setting) is dict else None
    return type(binding) is dict and binding.get("prefix_mismatch_behavior") == "drop_block"


def thinking_binding(msgs: list[Msg], setting: Any, issues: list[Issue]) -> None:
    """A signed thinking block in the current tool-use turn (after the last user message that is not
    tool results) whose turn had an earlier assistant step without a thinking block: the model
    thought before that step when it made this block, and the block is bound to what preceded it,
    so the API refuses it (``THINKING_BINDING``). With thinking ``"enabled"`` (a budget) every step
    starts with thinking, so the earlier one's was dropped: an error (``thinking_binding``); with
    ``drop_block`` asked for, the API drops the block instead: a warning that the model loses it
    (``thinking_binding_dropped``); with adaptive thinking (or no setting) the model may have skipped
    thinking there: a warning naming both (``thinking_binding_unsure``)."""
    start = max((k + 1 for k, m in enumerate(msgs) if m.role == "user" and not m.results), default=0)
    bare: Msg | None = None  # an earlier step of the turn that does not start with thinking
    prev_role = None
    for m in msgs[start:]:
        if m.role != "assistant" or prev_role == "assistant":  # consecutive assistant messages: one step
            prev_role = m.role
            continue
        prev_role = m.role
        blocks = m.raw.get("content")
        first = blocks[0] if type(blocks) is list and blocks and type(blocks[0]) is dict else None
        if first is not None and first.get("type") == "thinking" and first.get("signature"):
            if bare is not None:
                kind = ("thinking_binding_dropped" if _drops_block(setting) else
                        "thinking_binding" if thinking_enabled(setting) else "thinking_binding_unsure")
                said = {
                    "thinking_binding": "the API refuses it",
                    "thinking_binding_dropped": "the API drops this block (drop_block was asked for), and the "
                                                "model answers without that reasoning",
                    "thinking_binding_unsure": "if that step's thinking block was dropped (thinking is not set to "
                                               "\"enabled\" here, and adaptive thinking may skip it), the API "
                                               "refuses it",
                }[kind]
                iss = Issue("TC021", m.index, None, bare.index, pos=0, kind=kind,
                            say=f"starts with a signed thinking block made after the step of message #{bare.index}, "
                                f"which has no thinking block in this request: {said}.")
                iss.provider = None if kind == "thinking_binding_dropped" else THINKING_BINDING
                issues.append(iss)
            continue
        if m.calls and (first is None or first.get("type") not in THINKING):
            bare = m


# --- mid-conversation system messages (rules.md, "Changes of 2026-11-27") -------------------------

SYSTEM_REFUSED = "role 'system' is not supported on this model"
SYSTEM_REFUSED_DEEPSEEK = "messages[{i}].role: unknown variant `system`, expected `user` or `assistant`"
SYSTEM_FIRST = "messages.0: use the top-level 'system' parameter for the initial system prompt"


def _text_only(raw: Any) -> bool:
    c = raw.get("content") if type(raw) is dict else None
    return type(c) is str or (type(c) is list and all(type(b) is dict and b.get("type") == "text" for b in c))


def _ends_in_server_tool_use(raw: Any) -> bool:
    c = raw.get("content") if type(raw) is dict else None
    return type(c) is list and bool(c) and type(c[-1]) is dict and c[-1].get("type") in SERVER_CALLS


def system_misplacement(msgs: list[Msg], i: int) -> str | None:
    """Why the system message at ``i`` stands where the API refuses it (None: well placed): not
    first, right after a user message (or an assistant message ending in server-tool use), last or
    followed by an assistant message, never between a ``tool_use`` and its ``tool_result``, text only."""
    if i == 0:
        return "is the first message; the initial system prompt goes in the top-level 'system' parameter"
    prev = msgs[i - 1]
    if prev.role == "assistant" and prev.calls:
        return (f"stands between the tool_use block(s) of message #{i - 1} and their tool_result blocks; "
                "nothing may come between a call and its result")
    if prev.role == "assistant" and not _ends_in_server_tool_use(prev.raw):
        return f"follows the assistant's answer in message #{i - 1}; it must come right after a user message"
    if prev.role not in ("user", "assistant"):
        return f"follows a {prev.role} message; it must come right after a user message"
    if i + 1 < len(msgs) and msgs[i + 1].role != "assistant":
        return (f"is followed by a {msgs[i + 1].role} message (#{i + 1}); it must be the last message or be "
                "followed by an assistant message")
    if not _text_only(msgs[i].raw):
        return "has content other than text; a system message may hold text only"
    return None


def system_messages(msgs: list[Msg], issues: list[Issue], model: str | None) -> None:
    """``role: "system"`` inside ``messages`` (read as TC024): on a model that accepts it
    (``model_families``), a role subject to placement (TC019 where misplaced); on one that does not,
    TC024 in its words; with no model placed, TC024 as a warning naming both sides."""
    found = [iss for iss in issues if iss.code == "TC024" and iss.data.get("role") == "system"]
    if not found:
        return
    cap = CAPABILITIES["system_messages"]
    ok = accepts("system_messages", model)
    for iss in found:
        i = iss.index
        if ok is None:
            iss.data["kind"] = "system_model_unknown"
            named = f"names model {model!r}, which" if model else "names no model, so"
            iss.say = (f"is a system message inside 'messages'. {cap.accepting} take one there (subject to its "
                       f"place); {cap.refusing} refuse it. The request {named} the answer depends on the model.")
        elif ok is False:
            iss.data["kind"] = "system_refused"
            deepseek = "deepseek" in (model or "").lower()
            iss.provider = SYSTEM_REFUSED_DEEPSEEK if deepseek else SYSTEM_REFUSED
            iss.say = (f"is a system message inside 'messages', which model {model!r} refuses; only "
                       f"{cap.accepting} take one there. Move it into the top-level 'system' parameter.")
        else:
            issues.remove(iss)
            why = system_misplacement(msgs, i) if 0 <= i < len(msgs) else None
            if why is not None:
                prev = msgs[i - 1].role if i > 0 else ""
                placed = Issue("TC019", i, None, i - 1 if i > 0 else None, kind="system_misplaced", role="system",
                               prev=prev, say=f"(system) {why} (model {model!r} takes mid-conversation system "
                                              "messages only in such places).")
                placed.provider = SYSTEM_FIRST if i == 0 else None
                issues.append(placed)


# --- repair --------------------------------------------------------------------------------------


def top_level_system(request: Mapping[str, Any] | None) -> bool:
    """True when ``request`` carries the Messages API's top-level ``system`` prompt: a non-empty
    string, or a list of text blocks."""
    v = request.get("system") if request is not None else None
    if type(v) is str:
        return bool(v)
    return type(v) is list and bool(v) and all(type(b) is dict and b.get("type") == "text" for b in v)


def invoke_model_version(request: Mapping[str, Any] | None) -> str | None:
    """The ``anthropic_version`` of a body for Bedrock's InvokeModel (``bedrock-2023-05-31``), else None."""
    v = request.get("anthropic_version") if request is not None else None
    return v if type(v) is str and v.startswith("bedrock") else None


def invoke_model_note(issues: list[Issue], version: str) -> None:
    """TC019 on an Anthropic body for Bedrock's InvokeModel is a warning, not a note: that route
    refused two messages of one role in a row in reports up to 2025 (docs/provider-evidence.md)."""
    for iss in issues:
        if iss.code == "TC019" and iss.data.get("kind") is None:
            iss.data["kind"] = "bedrock_invoke"
            iss.say = (f"({iss.data.get('role')}) directly follows a {iss.data.get('prev')} message. The Messages API "
                       f"combines them into one turn, but this body is for Bedrock's InvokeModel (anthropic_version "
                       f"{version!r}), which refused two messages of one role in a row in reports up to 2025.")


class AnthropicEditor(BlockEditor):
    """Raw edits on Messages API messages; results are ``tool_result`` blocks of the next user message."""

    RESULTS_TO_USER = True

    def is_result(self, block: Any) -> bool:
        return type(block) is dict and block.get("type") == "tool_result"

    def result_block(self, call: Call, call_id: str | None, text: str, error: bool) -> Raw:
        b: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": text}
        if error:
            b["is_error"] = True
        return b

    def with_call_id(self, block: Raw, new_id: str) -> Raw:
        return {**block, "id": new_id}

    def is_call(self, block: Any) -> bool:
        return is_tool_use(block)

    def with_result_id(self, block: Raw, new_id: str) -> Raw:
        return {**block, "tool_use_id": new_id}

    def fold_system(self, request: Mapping[str, Any], raws: list[Any]) -> tuple[str, Any] | None:
        """``system`` with the messages' text after what it held: a string joined to a string by a
        blank line, else text blocks (the messages' own, as they were) after the blocks it held."""
        if not raws or not all(_text_only(r) for r in raws):
            return None
        value: Any = request.get("system")
        if value is not None and type(value) is not str and not (
                type(value) is list and all(type(b) is dict for b in value)):
            return None  # a system field of a shape the API does not have: not ours to rewrite
        for r in raws:
            c = r["content"]
            if type(value) is str or value is None:
                if type(c) is str:
                    value = c if not value else f"{value}\n\n{c}"
                    continue
                value = [{"type": "text", "text": value}] if value else []
            value = [*value, *([{"type": "text", "text": c}] if type(c) is str else c)]
        return "system", value


class Anthropic(Dialect):
    """Anthropic Messages ``messages``."""

    name = "anthropic"
    targets = ("anthropic",)
    block = Block.NEXT
    model_roles = frozenset({"system"})
    tool_fields = frozenset({"tool_use_id"})
    merges: ClassVar[Mapping[str, frozenset[str]]] = {"anthropic": MERGED_ROLES}  # "Consecutive user or assistant turns ... will be combined into a single turn"
    editor_class: ClassVar[type | None] = AnthropicEditor
    samples = Samples(
        clean=[{"role": "user", "content": "Weather in Paris?"},
               {"role": "assistant", "content": [
                   {"type": "text", "text": "Let me look."},
                   {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "18C"}]},
               {"role": "assistant", "content": "It is 18C in Paris."}],
        broken=[{"role": "user", "content": "Weather in Paris?"},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}]},
                {"role": "user", "content": [{"type": "text", "text": "Never mind."}]},
                {"role": "assistant", "content": "OK."}],
    )

    detect = staticmethod(detect)
    read = staticmethod(normalize)

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        """Role alternation (TC019), the order rules on combined turns (TC016, TC025), tool output
        sent as user text (TC020) and thinking blocks (TC021)."""
        issues: list[Issue] = []
        note = issues.append
        turns = pairing.turns
        same_role(msgs, note, turns)
        if turns is not None:
            merged_turn_order(msgs, turns, note)
        user_as_result(msgs, pairing, note, self.text)
        thinking(msgs, note)
        thinking_binding(msgs, None, issues)  # the body's thinking setting refines it (request_rules)
        return issues

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """The ``tool_result`` block of this id has ``is_error: true``."""
        return block_failed(raw.get("content") if type(raw) is dict else None, result_id, "tool_use_id")

    text = staticmethod(text)

    def names_list(self, key: str | None, request: Mapping[str, Any] | None, target: str | None) -> bool:
        """An Anthropic body for Bedrock's InvokeModel (``anthropic_version: bedrock-…``), or a body
        with a top-level ``system`` prompt (a string or text blocks: Chat Completions has no such
        field, its system prompt is a message) beside its ``messages``, is Anthropic's, even with
        plain role messages only (unless the user named a target it does not fit)."""
        if target is not None and target not in self.targets:
            return False
        return invoke_model_version(request) is not None or (key == "messages" and top_level_system(request))

    def request_rules(self, msgs: list[Msg], request: Mapping[str, Any], issues: list[Issue]) -> None:
        """TC021 ``thinking_required``: the body's ``"thinking"`` setting turns thinking on. A body
        for Bedrock's InvokeModel (``anthropic_version: bedrock-…``) gets the words after Bedrock's
        own, as Bedrock passes them on (anomalyco/opencode#3077, 2025), and TC019 as a warning."""
        version = invoke_model_version(request)
        thinking_required(msgs, request.get("thinking"), issues, first_block_type,
                          says="The model returned the following errors: " if version is not None else "")
        issues[:] = [x for x in issues if not (x.code == "TC021" and str(x.data.get("kind")).startswith("thinking_binding"))]
        thinking_binding(msgs, request.get("thinking"), issues)
        if version is not None:
            invoke_model_note(issues, version)

    def model_rules(self, msgs: list[Msg], issues: list[Issue], target: str, model: str | None) -> None:
        """Mid-conversation system messages: accepted by some Claude models only (``system_messages``)."""
        system_messages(msgs, issues, model)

    @staticmethod
    def block_count(raw: Any) -> int:
        """Content blocks the API counts in one message (a string content is one text block)."""
        c = raw.get("content") if type(raw) is dict else None
        return len(c) if type(c) is list else 1


DIALECT = Anthropic()
