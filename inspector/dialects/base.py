"""What a wire format is: one ``Dialect`` subclass in one file of this package.

A dialect reads its own shape into the neutral view (``Msg``, ``Call``, ``Result``), says which
targets it fits, how a call block gathers its results, which order and state rules only it has,
what the readable text of one of its messages is, where its lists hide inside log files, and how
repair edits its raw items. Everything else (pairing, the rules over ids, severities, provider
texts, repair's decisions, the UI) is dialect-neutral and asks the dialect.

Writing a dialect (see ``openai_chat.py`` for a run dialect, ``anthropic.py`` for a next one):

- class attributes ``name`` (``"openai-chat"``), ``targets`` (the targets it fits, **default
  first**), ``block`` (a ``Block``), optionally ``recognisers`` (container recognisers, see
  ``containers.register``) and ``editor_class`` (an ``editing.Editor`` subclass, instantiated as
  ``self.editor``; without one the dialect cannot be repaired);
- ``detect(items) -> int``: 0 = not this dialect (``is_message``, detection on one item, is what
  every reader asks to tell a message from a record or a tool declaration); openai-chat answers 1 for anything with
  roles, the others 2-4 on evidence only they have (ties go to the first registered);
- ``read(items, where, issues) -> list[Msg]``: the neutral view in one pass, appending shape
  ``Issue``s as it goes; a structural break raises ``InputError`` located by ``where`` (the JSON
  path of the list). This is the hot path: keep it a plain loop;
- ``rules(msgs, pairing, target) -> list[Issue]``: the dialect's own order and state rules
  (default: none); ``request_rules(msgs, request, issues)``: the ones that depend on the request
  body holding the list (its settings, such as Anthropic's ``thinking``; default: none);
- ``tool_fields``: the tool-call field names of the format (``recognition`` refuses a file whose
  items carry another format's fields when the dialect read no call from them);
- ``item_groups(items, where)``: only for a dialect that joins several raw items into one
  message (Claude Code log entries): which items each message came from (default: None);
- ``text(raw) -> str``: the readable text of one raw message (text parts, and the text of the
  results it carries), used by the timeline preview, the detail pane, the Markdown export, TC020
  and repair's notes, so that they all show the same words;
- ``result_failed(raw, result_id)``: did the tool fail, in the format's own field (default: the
  format records no failures); ``meta(raw, envelope)`` and ``envelopes(items)``: time, duration
  and tokens a log recorded beside a message (default: the keys logging tools use);
  ``names_list(key, request, target)``: the request body says the list is this format although
  its items do not (a Responses body's ``input``); ``continues_stored(request)``: the body
  continues a conversation the provider stores. Nothing outside this package names a dialect
  (``tests/test_dialect_names.py``): the engine, the app and the guard ask these;
- ``session_files``: for an agent's session log format, where the agent keeps them
  (``SessionFiles``; ``inspector sessions`` looks there);
- ``samples``: a ``Samples`` for the conformance suite (``tests/dialects/test_conformance.py``,
  and ``tests/ui/test_message_text.py`` for the app), which runs over every registered dialect.
  ``clean`` is a document (a message list, or the file value it sits in, as a user would drop
  it in) that checks without error or warning for the default target and whose message
  ``text_at`` (an index into ``read``'s messages) has text; ``broken`` is one with at least one
  error for the default target, which repair makes clean without losing a string of it.
  An entry point for the dialect (``my-format = "package.module:DIALECT"`` in the
  ``inspector.dialects`` group of ``pyproject.toml``, see ``dialects/__init__.py``) is all it
  takes for the suites to test it: detection of both samples, ``text``, check, and the repair round trip (lossless,
  idempotent, the same bytes for the clean sample: every dialect has an editor). ``jsonl``: the
  samples are log entries, written one per line.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
import orjson

from ..containers import path_text
from ..errors import InputError
from ..lazy_patterns import lazy
from ..model import Call, Issue, Msg, Note, Result

if TYPE_CHECKING:
    from ..pairing import Pairing
    from .editing import Editor


class Block(str, Enum):
    """How a call block gathers its results (``pairing.pair``)."""

    RUN = "run"  # the unbroken run of result messages after the call message (openai-chat)
    NEXT = "next"  # the next message only; later ones are TC015 (anthropic, bedrock, gemini)
    ITEMS = "items"  # a run of call items, then their outputs (Responses)


class Samples(msgspec.Struct, frozen=True):
    """A dialect's own examples for the conformance suite (see the module docstring)."""

    clean: Any
    broken: Any
    text_at: int = 0
    jsonl: bool = False  # a list of log entries, written one per line as the format's files are


class SessionFiles(msgspec.Struct, frozen=True):
    """Where a coding agent keeps its sessions in this format, under a home directory
    (``inspector sessions``): ``agent`` is the name ``--agent`` takes, ``folder`` the folder
    under the home (``env``, when set in the environment, names the folder above ``sessions``
    instead, as ``CODEX_HOME`` does), ``patterns`` the globs of the session files under it, and
    ``project_folder`` says the first folder under it is the project's. ``store`` names the key
    of a SQLite session store's document (``sqlite_sessions.read_database``) that holds this
    agent's sessions: such an agent keeps them in a database its program names, anywhere (no
    fixed folder), so ``patterns`` are file names looked for under the root, walked."""

    agent: str
    folder: str
    patterns: tuple[str, ...]
    env: str | None = None
    project_folder: bool = True
    store: str | None = None


class Dialect(ABC):
    """One wire format. Subclasses set the class attributes and implement ``detect``, ``read`` and
    ``text`` (abstract: a dialect without one of them cannot be instantiated)."""

    name: ClassVar[str] = ""
    targets: ClassVar[tuple[str, ...]] = ()
    block: ClassVar[Block] = Block.RUN
    recognisers: ClassVar[tuple[Callable[..., Any], ...]] = ()
    # The tool-call and result field names this format has itself (``recognition.TOOLISH`` names
    # them all): finding one of them in a file read as this dialect is no sign of a wrong dialect,
    # only another format's are. None: the dialect is not second-guessed that way.
    tool_fields: ClassVar[frozenset[str] | None] = None
    editor_class: ClassVar[type | None] = None
    samples: ClassVar[Samples | None] = None
    session_files: ClassVar[SessionFiles | None] = None  # an agent's session log format: where they live
    # Targets that combine consecutive messages of one role into one turn before checking them
    # (the Anthropic Messages API), each with the roles it combines: pairing and order run on the
    # turns (``inspector.turns``).
    merges: ClassVar[Mapping[str, frozenset[str]]] = {}
    # Targets a gateway (LiteLLM, OpenRouter) reaches with this format, translating it into the
    # destination's own (``through_gateway``); not the format's own targets.
    gateway_targets: ClassVar[tuple[str, ...]] = ()
    # Roles the format has on some models only (Anthropic's mid-conversation ``system``, 2026-05-28):
    # read as TC024 until ``model_rules`` places them, so no sign of a file in another format.
    model_roles: ClassVar[frozenset[str]] = frozenset()
    # The harness that writes this format's logs sends every model through a gateway (OpenHands
    # through LiteLLM): a model the log names of a ``gateway_targets`` vendor is checked there.
    sends_through_gateway: ClassVar[bool] = False

    def __init__(self) -> None:
        self.editor: Editor | None = self.editor_class(self) if self.editor_class is not None else None

    @property
    def default_target(self) -> str:
        return self.targets[0]

    @abstractmethod
    def detect(self, items: list[Any]) -> int:
        raise NotImplementedError

    @abstractmethod
    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        raise NotImplementedError

    def is_message(self, item: Any) -> bool:
        """True when ``item`` alone is one of this format's messages (or log entries). The
        container recognisers and the streamed dataset reader ask every dialect this (through
        ``containers.looks_like_message``) to tell a message from a record holding messages
        or a tool declaration; the default is detection on the item alone."""
        return self.detect([item]) > 0

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        return []

    def request_rules(self, msgs: list[Msg], request: Mapping[str, Any], issues: list[Issue]) -> None:
        """What the request body around the list says that changes a finding (Anthropic's
        ``thinking`` setting): the dialect reads ``request`` (the object holding the list) and adds
        to or refines ``issues``, after ``rules``. Default: nothing."""

    def through_gateway(self, items: list[Any], target: str, model: str | None = None,
                        issues: list[Issue] | None = None) -> tuple[Dialect, list[Any], list[list[int]]] | None:
        """For a ``gateway_targets`` target: the destination's dialect, the list as the gateway
        sends it, and for each of its messages the file's own index of each block; ``model`` is the
        one the request names (it says which gateway), and what the gateway itself refuses goes to
        ``issues`` with the file's own indexes. Default: None."""
        return None

    def gateway_for(self, model: Any) -> str | None:
        """The destination a gateway's model name (``anthropic/claude-…``) sends this format to,
        among ``gateway_targets``; None when the model names no gateway. Default: None."""
        return None

    def harness(self, items: list[Any]) -> tuple[str, str] | None:
        """The agent that wrote this log and its version (``("codex", "0.48.0")``), when the log names
        them: ``harness_patches`` says what that version fixes before it sends. Default: None."""
        return None

    def model_rules(self, msgs: list[Msg], issues: list[Issue], target: str, model: str | None) -> None:
        """What the request's ``model`` changes (``model_families``: a behaviour that differs
        between the target's models, such as Anthropic's mid-conversation system messages): the
        dialect refines ``issues`` after ``request_rules``; ``model`` None: the input names none.
        Default: nothing."""

    @abstractmethod
    def text(self, raw: Any) -> str:
        raise NotImplementedError

    def agent(self, items: list[Any]) -> tuple[str, str | None] | None:
        """The coding agent whose log this is and the version the log names (None: not named),
        for the app's badge; None when the format is no agent's log. Default: None."""
        return None

    def read_folder(self, path: str) -> bytes | None:
        """A folder this format keeps one conversation in (an OpenHands V1 conversation: one file
        per event), as the bytes of one document; None when the folder is not one. Default: None."""
        return None

    def write_folder(self, data: bytes, source: str, out: str) -> None:
        """Write ``data`` (a document ``read_folder`` made, repaired) as a new folder ``out`` in the
        format's own layout, the rest of folder ``source`` copied. Default: the format keeps no folder."""
        raise InputError(f"the {self.name} format keeps no conversation folder", out)

    def names_list(self, key: str | None, request: Mapping[str, Any] | None, target: str | None) -> bool:
        """True when the request body around a list says the list is in this format although its
        items alone do not (plain role messages read as any format): a Responses body's
        ``input``, a Gemini body's ``contents``, an Anthropic body for Bedrock's InvokeModel.
        ``key`` is the list's key in ``request`` (None: the list is not in an object), ``target``
        the one the user named (or None). Default: nothing in a body names this format."""
        return False

    def continues_stored(self, request: Mapping[str, Any] | None) -> bool:
        """True when the request body continues a conversation the provider stores (a Responses
        body's ``previous_response_id`` or ``conversation``): the list's first results may answer
        calls it does not repeat (``pairing.pair``'s ``external_calls``). Default: False."""
        return False

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """Did the tool report an error when it ran (not a pairing problem), for the result with
        id ``result_id`` that ``raw`` (one raw message) carries? The timeline's chips and the
        detail pane ask this. Default: the format records no such thing."""
        return False

    def meta(self, raw: Any, envelope: Any = None) -> dict[str, Any]:
        """What a log recorded beside one raw message: ``{"time": datetime, "seconds": float,
        "tokens_in": int, "tokens_out": int, "tokens": int}``, the keys it has; ``envelope`` is
        the log entry holding the message (``envelopes``). Default: the keys logging tools put
        beside a message of any format (``logged.logged_meta``)."""
        from .logged import logged_meta

        return logged_meta(raw, envelope)

    def envelopes(self, items: list[Any]) -> dict[int, Any]:
        """For a format whose messages sit inside log entries, each message object's entry, keyed
        by the message's ``id()`` (``meta`` reads both). Default: none."""
        return {}

    def block_count(self, raw: Any) -> int | None:
        """How many content blocks a merging target counts in one raw message (for the
        provider's ``messages.T.content.J`` index); None (the default) when the dialect's messages
        do not map one to one to the API's, so that no provider index is given."""
        return None

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        """The provider a history names itself, and why: where the format records the model or
        provider of its replies (a Pydantic AI response's ``provider_name`` or ``model_name``, a
        LangChain AI message's ``response_metadata``, ...), or ``holder``, the object holding the
        list (an AG-UI run input's ``forwardedProps``). ``(None, "")`` for formats that do not say
        (the default); ``target_from_model.model_named`` turns a model name into a target."""
        return None, ""

    def model_from(self, items: list[Any], holder: Any = None) -> str | None:
        """The model a history names itself, where ``target_from`` reads it (a LangChain AI
        message's ``response_metadata``, a Pydantic AI response's ``model_name``, a Codex
        ``turn_context``, an AG-UI run input's ``forwardedProps``): the model's rules
        (``model_families``) then apply to it. None (the default) for formats that do not say."""
        return None

    def item_groups(self, items: list[Any], where: tuple[Any, ...] = ()) -> list[list[int]] | None:
        """For each neutral message, the raw items it was read from; None when that is one item
        each (a dialect that joins several items into one message says which)."""
        return None

    def __repr__(self) -> str:
        return f"<dialect {self.name}>"


# --- helpers the readers share -------------------------------------------------------------------

# The targets of a format whose adapters send any provider its history (AG-UI, LangChain, Vercel
# AI SDK, Pydantic AI, OpenTelemetry): the most permissive reading first, the user picks another.
PERMISSIVE_TARGETS = ("openai", "deepseek", "mistral", "anthropic", "bedrock", "gemini")
NAME_RE = lazy(r"[a-zA-Z0-9_-]{1,64}")  # a tool name most providers accept
loads = orjson.loads
JSONError = orjson.JSONDecodeError


def word(x: Any) -> str | None:
    """``x`` when it is a string, else None: a field to look up in a set of names, whatever a
    file holds there (a list in a ``type`` field is no crash, and no match)."""
    return x if type(x) is str else None


def bad_id(x: Any) -> bool:
    """True when ``x`` cannot be a call id (missing, empty, not a string, the string "null")."""
    return not x or type(x) is not str or x == "null"


ERROR_STATUSES = ("error", "failed", "failure")  # a result's ``status`` when its tool failed


def reports_error(d: Mapping[str, Any]) -> bool:
    """True when a result object says its tool failed: ``is_error``/``isError`` true, a ``status``
    of ``error``/``failed``/``failure``, or a non-empty ``error`` field (the fields the formats
    use; each dialect's ``result_failed`` says where to look)."""
    if d.get("is_error") is True or d.get("isError") is True:
        return True
    st = d.get("status")
    if isinstance(st, str) and st.lower() in ERROR_STATUSES:
        return True
    return d.get("error") not in (None, "", False, {}, [])


def tool_message_failed(raw: Any) -> bool:
    """A tool (or legacy function) message that says its tool failed (an ``error`` field, as
    Inspect's and AG-UI's tool messages carry, or a failed ``status``)."""
    return type(raw) is dict and raw.get("role") in ("tool", "function") and reports_error(raw)


def block_failed(blocks: Any, result_id: Any, id_key: str, wrapper: str | None = None) -> bool:
    """One of ``blocks`` (a message's content list) is the result ``result_id`` (its ``id_key``,
    inside the ``wrapper`` key where the format nests it) and says its tool failed."""
    if result_id is None or type(blocks) is not list:
        return False
    for b in blocks:
        if wrapper is not None and type(b) is dict:
            b = b.get(wrapper)
        if type(b) is dict and b.get(id_key) == result_id and reports_error(b):
            return True
    return False


def type_name(x: Any) -> str:
    """``an object``, ``an array``, ... for an error message about a value of the wrong type."""
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(x), "a number"
    )


def objects(items: list[Any], where: tuple[Any, ...], what: str = "a message object") -> Iterator[tuple[int, dict[str, Any]]]:
    """``enumerate(items)``, with a located ``InputError`` for an entry that is not an object."""
    for i, m in enumerate(items):
        if type(m) is not dict:
            raise InputError(f"expected {what}, got {type_name(m)}", f"{path_text(where)}[{i}]")
        yield i, m


def unknown_role(i: int, role: Any, m: Any, note: Note, say: str | None = None) -> Msg:
    """TC024 for a role the dialect does not have, and the message as it stands."""
    note(Issue("TC024", i, None, say=say, role=role))
    return Msg(i, role if type(role) is str else repr(role), (), (), m)


def known(items: list[Any], where: tuple[Any, ...], out: list[Msg], note: Note, roles: tuple[Any, ...] | dict[str, Any],
          key: str = "role") -> Iterator[tuple[int, dict[str, Any], str]]:
    """The read loop's preamble: ``(i, item, role)`` for each item whose ``key`` field is one of
    ``roles`` (a tuple, or a dict from the format's word to the neutral role); any other item is
    appended to ``out`` as a TC024 message, and an item that is not an object is a located
    ``InputError`` (``objects``)."""
    mapping = roles if type(roles) is dict else None
    for i, m in objects(items, where):
        raw = m.get(key)
        if mapping is not None:
            role = mapping.get(raw) if type(raw) is str else None
        else:
            role = raw if type(raw) is str and raw in roles else None
        if role is None:
            out.append(unknown_role(i, raw, m, note))
            continue
        yield i, m, role


def block_call(i: int, j: int, cid: Any, name: Any, args: Any, note: Note) -> Call:
    """A call read from content block ``j`` of message ``i`` (anthropic ``tool_use``, bedrock
    ``toolUse``): TC008 when its id is missing, TC012 when its name is not a valid tool name."""
    if bad_id(cid):
        note(Issue("TC008", i, None, side="call", pos=j, value=cid, name=name))
        cid = None
    if type(name) is not str or not NAME_RE.fullmatch(name):
        note(no_name(Issue("TC012", i, cid, pos=j, name=name)))
    return Call(cid, name, args, j, i)


def no_name(issue: Issue) -> Issue:
    """A TC012 ``issue`` of kind ``missing_name`` when its call has no name at all (the key
    missing, or null): the providers' words for an empty name do not fit it
    (docs/provider-evidence.md, "A call with no name"); an invalid name's issue as it is."""
    if issue.data.get("name") is None:
        issue.data["kind"] = "missing_name"
    return issue


def block_result(i: int, j: int, tid: Any, note: Note) -> Result:
    """A result read from content block ``j`` of message ``i``: TC008 when its id is missing."""
    if bad_id(tid):
        note(Issue("TC008", i, None, side="result", pos=j, value=tid))
        tid = None
    return Result(tid, None, j, i)


def string_args(call: Call, note: Note) -> None:
    """TC011 when a call's arguments are a string that is not JSON (an object is left alone: the
    formats that allow one send it as it is)."""
    if type(call.args) is str and call.args:
        try:
            loads(call.args)
        except JSONError:
            note(Issue("TC011", call.msg, call.id, pos=call.pos, name=call.name))


class TaggedCall(Call):
    """A call that remembers one thing its dialect's editor needs and the neutral view has no
    slot for: the Responses item type (``custom_tool_call``, ...) or the LangChain serialization
    shape of its message. Built as ``TaggedCall(id, name, args, pos, msg, tag)``."""

    tag: str


def parts_text(content: Any) -> str:
    """The text of a content value: a string, or the ``text`` of its parts, one per line."""
    if type(content) is str:
        return content
    if type(content) is list:
        return "\n".join(p["text"] for p in content if type(p) is dict and type(p.get("text")) is str)
    return ""


def json_text(value: Any) -> str:
    """A value that is not text, shown as compact JSON (a tool output object, ...)."""
    if value is None:
        return ""
    if type(value) is str:
        return value
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return repr(value)


# --- rules the dialects share --------------------------------------------------------------------

OUTPUT_PREFIXES = ("observation:", "result:", "tool result", "tool output", "output:", "function result")


def looks_like_tool_output(text: str, ids: list[str], names: list[str]) -> bool:
    t = text.strip()
    if not t:
        return False
    if any(i and i in t for i in ids):
        return True
    low = t[:200].lower()
    if low.startswith(OUTPUT_PREFIXES):
        return True
    if t[0] in "{[":
        try:
            loads(t)
            return True
        except JSONError:
            pass
    return any(type(n) is str and len(n) > 3 and n in t[:500] for n in names)


def user_as_result(msgs: list[Msg], pairing: Pairing, note: Note, text: Callable[[Any], str]) -> None:
    """TC020: a user message right after a call block whose calls have no result, that reads
    like the output of one of them. ``text`` is the dialect's ``text``."""
    missing_by_msg: dict[int, list[Any]] = {}
    for c in pairing.missing:
        missing_by_msg.setdefault(c.msg, []).append(c)
    if not missing_by_msg:
        return  # (every call answered: no block to walk)
    for b in pairing.blocks:
        unanswered = missing_by_msg.get(b.index)
        if not unanswered:
            continue
        nxt = b.ends + 1
        if nxt < len(msgs) and msgs[nxt].role == "user" and not msgs[nxt].results:
            ids = [c.id for c in unanswered if c.id]
            names = [c.name for c in unanswered]
            if looks_like_tool_output(text(msgs[nxt].raw), ids, names):
                c = unanswered[0]
                note(Issue("TC020", nxt, c.id, b.index, name=c.name))


# Role transitions mistral_common accepts (keys: the previous role); the hosted API also refuses
# user after tool. openai-chat checks this inline while reading; dialects that read into
# openai-chat roles (langchain) use ``role_order``.
MISTRAL_NEXT = {
    "system": {"user", "assistant", "system"},
    "user": {"assistant", "system", "user"},
    "assistant": {"assistant", "user", "tool"},
    "tool": {"assistant", "tool"},
}
_BAD_PAIRS = frozenset((a, b) for a in MISTRAL_NEXT for b in MISTRAL_NEXT if b not in MISTRAL_NEXT[a])


def role_order(msgs: list[Msg], note: Note) -> None:
    """TC019 for each role transition Mistral refuses."""
    seen = [m for m in msgs if m.role != "activity"]  # AG-UI's activity messages reach no model
    for a, b in itertools.pairwise(seen):
        pair = ("tool" if a.role == "function" else a.role, "tool" if b.role == "function" else b.role)
        if pair in _BAD_PAIRS:
            note(Issue("TC019", b.index, None, a.index, role=pair[1], prev=pair[0]))


def run_rules(msgs: list[Msg], pairing: Pairing, target: str, text: Callable[[Any], str]) -> list[Issue]:
    """The rules of a format whose adapters send each provider a run of tool results after the
    call (AG-UI, Vercel AI SDK, OpenTelemetry): Mistral's role order (the other providers' adapters
    merge a tool run and the user turn after it) and tool output sent as user text (TC020)."""
    issues: list[Issue] = []
    if target == "mistral":
        role_order(msgs, issues.append)
    user_as_result(msgs, pairing, issues.append, text)
    return issues


def blocks_after_calls(i: int, content: list[Any], is_call: Callable[[Any], bool], note: Note,
                       ignore: Callable[[Any], bool] = lambda b: False) -> None:
    """TC025: blocks after the first call block of an assistant message (text, images, ...).

    Anthropic answers "`tool_use` ids were found without `tool_result` blocks immediately after"
    even when the next message holds every result (rules.md TC025): the calls must end the message.
    ``ignore`` skips markers that are not content (Bedrock's ``cachePoint``).
    """
    first = next((j for j, b in enumerate(content) if is_call(b)), None)
    if first is None:
        return
    after = [j for j in range(first + 1, len(content)) if not is_call(content[j]) and not ignore(content[j])]
    if after:
        ids = [b.get("id") for b in content if is_call(b) and type(b) is dict]
        note(Issue("TC025", i, None, None, pos=after[0], count=len(after), first_call=first,
                   ids=[x for x in ids if isinstance(x, str)]))
