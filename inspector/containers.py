"""Find the conversation(s) inside whatever file a user has.

A *container* is the wrapper around a message list: a bare array, a request body, JSON Lines, an
eval log with several samples, a benchmark trajectory. ``find_transcripts`` returns one
``Transcript`` per message list, each with the JSON path it was found at so that repair can write
the list back in place and leave everything around it untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from .declared_tools import declared_tools
from .errors import InputError
from .model import Deferred

Path = tuple[Any, ...]


class Transcript(msgspec.Struct):
    """One message list found in a document (a struct: a dataclass costs every start-up a millisecond)."""

    items: list[Any]  # the raw list, as parsed (never modified by checking)
    path: Path  # where the list sits in the document root
    container: str  # a few words saying what wrapped it ("request body", "tau-bench record", ...)
    dialect: str = ""  # filled in by detection (or the user's override)
    extra: dict[str, Any] = msgspec.field(default_factory=dict)  # dialect-specific context (a separate system prompt, ...)
    name: str = ""  # the container's own name for it (a batch line's custom_id), when it has one

    @property
    def label(self) -> str:
        """What the picker and the report call it: the recogniser's own name for it (a HAR entry's
        method, URL and status; an OTLP span's name and id), else its name and JSON path."""
        label: str = self.extra.get("label") or ""
        if label:
            return label
        where = path_text(self.path)
        return f"{self.name} ({where})" if self.name else where


class Document(msgspec.Struct):
    """A parsed input: the root value, its text format, and the transcripts found in it."""

    root: Any
    format: str  # "json" or "jsonl"
    transcripts: list[Transcript]
    source: str = "<input>"
    # JSON Lines only: the 1-based line of the file each root entry came from (blank lines are
    # skipped), so that findings can name ``path:LINE`` as CI annotations need.
    lines: list[int] | None = None
    # Object keys the file repeats: ``{"path", "key", "values": [first, ..., last]}`` each; the
    # parsed value keeps the last (as every JSON parser does), the report shows them all.
    duplicate_keys: list[dict[str, Any]] = msgspec.field(default_factory=list)

    def value(self) -> Any:
        """``root`` as plain JSON values: a message list read as typed structs (``reading.typed_document``)
        made whole as the list of dicts the dict reading has, anything else as it is."""
        root = self.root
        return root.whole() if isinstance(root, Deferred) else root


class Embedded:
    """A path step into a JSON document held as a string (a HAR entry's request body, an OTLP
    span attribute): reading parses the string, repair writes the new value back as JSON text."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "EMBEDDED"


EMBEDDED = Embedded()


def path_text(path: Path) -> str:
    """``("samples", 0, "messages")`` → ``$.samples[0].messages``; a step into a JSON string is ``(json)``."""
    out = "$"
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else "(json)" if p is EMBEDDED else f".{p}"
    return out


def embedded_json(text: Any) -> Any:
    """The value a JSON string holds, or None when it holds none (not a string, not JSON)."""
    if type(text) is not str or text[:1] not in ("{", "["):
        return None
    import orjson

    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return None


def get_path(root: Any, path: Path) -> Any:
    for p in path:
        root = embedded_json(root) if p is EMBEDDED else root[p]
    return root


# --- recognising message-like values -----------------------------------------------------------

# What a message is, the dialects say (``Dialect.is_message``, added by ``dialects.register``):
# no key list here, so the whole-document reader, the streamed dataset reader (``scan``) and the
# app decide "message or record" by the same tests as detection does. A tool declaration
# (``{"type": "function", ...}``) is no dialect's message, so a body that lists ``tools`` before
# ``messages`` is still read at its messages.
_MESSAGE_TESTS: list[Callable[[Any], bool]] = []


def register_message_test(fn: Callable[[Any], bool]) -> None:
    """Add a dialect's test of one item (``Dialect.is_message``)."""
    if fn not in _MESSAGE_TESTS:
        _MESSAGE_TESTS.append(fn)


def unregister_message_test(fn: Callable[[Any], bool]) -> None:
    if fn in _MESSAGE_TESTS:
        _MESSAGE_TESTS.remove(fn)


def _is_message(x: Any) -> bool:
    return type(x) is dict and any(test(x) for test in _MESSAGE_TESTS)


def _are_messages(x: Any) -> bool:
    if type(x) is not list or not x:
        return False
    head = x[:5]
    return sum(1 for m in head if _is_message(m)) >= max(1, (len(head) + 1) // 2)


def looks_like_message(x: Any) -> bool:
    """True when some dialect reads ``x`` as one of its messages (or log entries)."""
    _ready()
    return _is_message(x)


def looks_like_messages(x: Any) -> bool:
    """A non-empty list whose first few entries are message-like dicts."""
    _ready()
    return _are_messages(x)


# --- container recognisers, most specific first --------------------------------------------------
# Each takes the root and returns [(path, container description)] or [] when it does not apply.
# The description may be a pair (description, extra): ``extra`` goes to ``Transcript.extra``
# ("label": what to call the transcript, "target": the provider the file names, "dialect": the
# dialect its container says it is, "view": the indices of the entries of the list at path that
# make the transcript, see ``_transcript``, ...).
# Dialect packages may add recognisers with ``register`` (Claude Code logs, Letta files, ...).

Recogniser = Callable[[Any, str], list[tuple[Path, str]]]
_RECOGNISERS: list[Recogniser] = []


_BEFORE: list[Callable[[], Any]] = []  # run before each search (``dialects`` loads its formats, once)


def register(fn: Recogniser) -> Recogniser:
    """Add a container recogniser; later registrations are tried first."""
    _RECOGNISERS.insert(0, fn)
    return fn


def unregister(fn: Recogniser) -> None:
    """Stop trying ``fn``."""
    if fn in _RECOGNISERS:
        _RECOGNISERS.remove(fn)


def _ready() -> None:
    """Run the ``before_finding`` hooks: every dialect is loaded, so every one is asked."""
    for fn in _BEFORE:
        fn()


def before_finding(fn: Callable[[], Any]) -> None:
    """Call ``fn`` before each search for transcripts (the dialects' package imports the dialects,
    which register their recognisers, when a file is first read; later calls cost nothing)."""
    _BEFORE.append(fn)


_API_FORMAT: list[Callable[[str], str]] = []  # the dialects' registry answers (``dialects.of_target``)


def api_format_from(fn: Callable[[str], str]) -> None:
    """Set how ``api_format`` is answered (the dialects' package does, on import)."""
    _API_FORMAT[:] = [fn]


def api_format(target: str) -> str:
    """The name of the format a request to ``target``'s own API is written in, for a container
    that knows where a body was sent (a HAR entry's URL) but not what its items are."""
    _ready()
    return _API_FORMAT[0](target)


def _bare_list(root: Any, fmt: str) -> list[tuple[Path, str]]:
    if _are_messages(root):
        return [((), "JSON Lines messages" if fmt == "jsonl" else "message array")]
    return []


LIST_KEYS = ("messages", "input", "contents", "traj", "history")


def _request_body(root: Any, fmt: str) -> list[tuple[Path, str]]:
    if type(root) is not dict:
        return []
    for key in LIST_KEYS:
        v = root.get(key)
        if type(v) is list and (not v or _are_messages(v)):
            what = {
                "messages": "request body" if "model" in root else "object with messages",
                "input": "Responses request body",
                "contents": "Gemini request body",
                "traj": "tau-bench record",
                "history": "SWE-agent trajectory",
            }[key]
            return [((key,), what)]
    return []


def _inspect_log(root: Any, fmt: str) -> list[tuple[Path, str]]:
    if type(root) is not dict or type(root.get("samples")) is not list or "eval" not in root:
        return []
    out = []
    for i, s in enumerate(root["samples"]):
        if type(s) is dict and type(s.get("messages")) is list:
            out.append((("samples", i, "messages"), "Inspect AI eval log sample"))
    return out


def _toolbench(root: Any, fmt: str) -> list[tuple[Path, str]]:
    ag = root.get("answer_generation") if type(root) is dict else None
    chains = ag.get("train_messages") if type(ag) is dict else None
    if type(chains) is not list or not chains:
        return []
    # Each chain repeats the one before it and grows; the last one is the whole conversation.
    last = len(chains) - 1
    if _are_messages(chains[last]):
        return [(("answer_generation", "train_messages", last), "ToolBench answer (last chain)")]
    return []


def _list_of_records(root: Any, fmt: str) -> list[tuple[Path, str]]:
    """A list of records each holding a message list (tau-bench results, JSONL of requests)."""
    if type(root) is not list or not root:
        return []
    if all(type(r) is list for r in root):  # JSON Lines with one conversation per line
        if all(_are_messages(r) for r in root):
            what = "conversation per line" if fmt == "jsonl" else "conversation in a list"
            return [((i,), what) for i in range(len(root))]
        return []
    out = []
    for i, rec in enumerate(root):
        for path, what in _request_body(rec, fmt):
            out.append(((i, *path), what))
    return out if len(out) == sum(1 for r in root if type(r) is dict) and out else []


# Batch request files: OpenAI Batch JSON Lines (``{"custom_id", "method", "url", "body"}``) and
# Anthropic Message Batches (``{"requests": [{"custom_id", "params"}]}``). Every line is a request
# of its own, named by its custom_id; reading only the first would let a broken line 3 pass.
_BATCH_BODY = ("body", "params")


def _batch_entry(rec: Any) -> tuple[str, dict[str, Any]] | None:
    if type(rec) is not dict or "custom_id" not in rec:
        return None
    for key in _BATCH_BODY:
        if type(rec.get(key)) is dict:
            return key, rec[key]
    return None


def _batch(root: Any, fmt: str) -> list[tuple[Path, str]]:
    entry = _batch_entry(root)
    if entry is not None:  # one batch line on its own (``scan`` and dataset ``repair`` read a line at a time)
        key, body = entry
        return [((key, *path), f"batch request ({what})") for path, what in _request_body(body, fmt)]
    prefix: Path = ()
    if type(root) is dict and type(root.get("requests")) is list:
        prefix, root = ("requests",), root["requests"]
    if type(root) is not list or not root or _batch_entry(root[0]) is None:
        return []
    out = []
    for i, rec in enumerate(root):
        entry = _batch_entry(rec)
        if entry is None:
            continue
        key, body = entry
        for path, what in _request_body(body, fmt):
            out.append(((*prefix, i, key, *path), f"batch request ({what})"))
    return out


def batch_name(root: Any, path: Path) -> str:
    """The custom_id of the batch line holding ``path``, or ""."""
    if path[:1] and path[0] in _BATCH_BODY:  # a batch line that is the whole document
        k = -1
    else:
        k = 1 if path[:1] == ("requests",) else 0
    if len(path) > k + 1 and path[k + 1] in _BATCH_BODY:
        rec = get_path(root, path[: k + 1])
        cid = rec.get("custom_id") if type(rec) is dict else None
        if cid is not None:
            return str(cid)
    return ""


for _fn in (_list_of_records, _bare_list, _request_body, _toolbench, _inspect_log, _batch):
    register(_fn)


# No search of the whole document for "a list that looks like messages": a recogniser descends
# only into the keys its format names. A file of records no reader claims is refused, saying what
# its records are (``describe_records``), never read at some nested list it happens to hold (a
# Codex rollout's ``compacted.replacement_history`` read as the whole session, 2026-11-27).

_TYPE_KEYS = ("type", "kind", "event", "source")  # the field that names what a record is, when it has one


def describe_records(root: list[Any], fmt: str) -> str:
    """One sentence saying what a list of records no reader claims holds: the keys most records
    have and the values of the field that names their kind (``type``, ...)."""
    head = [x for x in root[:500] if type(x) is dict]
    count: dict[str, int] = {}
    for rec in head:
        for k in rec:
            count[k] = count.get(k, 0) + 1
    keys = [k for k, n in count.items() if 2 * n >= len(head)][:6]
    kind_key = next((k for k in _TYPE_KEYS if k in keys), None)
    kinds: list[str] = []
    more = False
    if kind_key is not None:
        for rec in root:
            v = rec.get(kind_key) if type(rec) is dict else None
            if type(v) is str and v not in kinds:
                if len(kinds) == 5:
                    more = True
                    break
                kinds.append(v)
    what = "JSON Lines" if fmt == "jsonl" else "a JSON array"
    shape = "{" + ", ".join(str(k) for k in keys) + (", ..." if len(count) > len(keys) else "") + "}"
    out = f"{what} of `{shape}` records"
    if kinds:
        out += f", {kind_key}s " + ", ".join(kinds) + (", ..." if more else "")
    return out + ": not a format the inspector reads (no reader claims these records)"


def _transcript(root: Any, p: Path, what: Any) -> Transcript:
    """The transcript a recogniser found; ``what`` may be a pair (description, extra).

    ``extra["view"]``, a list of indices, makes the transcript a *view*: some entries of the list
    at ``p`` (a Claude Code sub-agent or abandoned branch). Its items are a new list of those
    entries, and the indices stay in ``extra`` so that nothing writes the view back over the list.
    ``extra["tail"]``, a path, appends the list there to the items (``extra["head"]`` says how
    many came from ``p``); ``writing.put_back`` writes each part back to its own place."""
    extra: dict[str, Any] = {}
    if type(what) is tuple:  # (description, extra): a recogniser that names or targets its transcript
        what, extra = what
    extra = dict(extra)
    items = get_path(root, p)
    if "view" in extra:
        items = [items[k] for k in extra["view"]]
    if "tail" in extra:  # a second list that continues the first (an OTLP span's output messages)
        extra["head"] = len(items)
        items = [*items, *get_path(root, extra["tail"])]
    return Transcript(items=items, path=p, container=what, name=batch_name(root, p),
                      dialect=extra.pop("dialect", ""), extra=extra)


def find_transcripts(root: Any, fmt: str = "json") -> list[Transcript]:
    """Every message list in the document, or ``InputError`` saying what was looked for."""
    _ready()
    for fn in _RECOGNISERS:
        found = fn(root, fmt)
        if found:
            break
    else:
        found = []
    if not found and type(root) is list and root and all(type(x) is dict for x in root[:5]):
        if not any(_is_message(x) for x in root[:50]):  # records of a shape no reader claims
            raise InputError(describe_records(root, fmt))
        # A list of objects some of which a dialect reads: taken as the message array it was meant
        # to be, so that the reader says what it saw instead ("not recognised as openai-chat: ...").
        found = [((), "message array")]
    if not found:
        if type(root) is list and not root:
            return [Transcript(items=root, path=(), container="empty message array")]
        kinds: dict[type, str] = {dict: "an object", list: "an array"}
        kind = kinds.get(type(root), f"a {type(root).__name__}")
        if type(root) is dict and root:
            keys = list(root)
            kind += " with the keys " + ", ".join(map(str, keys[:8])) + (", ..." if len(keys) > 8 else "")
        raise InputError(
            f"no conversation found: the input is {kind}, and no message list was found in it "
            "(looked for an array of messages, a request body with 'messages', 'input' or 'contents', "
            "JSON Lines of messages, eval logs and agent trajectories)"
        )
    out = [_transcript(root, p, what) for p, what in found]
    for t in out:
        holder = get_path(root, t.path[:-1]) if t.path else None
        tools = declared_tools(holder) if "declared_tools" not in t.extra else None  # a recogniser's own (Letta)
        if tools is not None:  # TC026: calls are checked against the tools the request declares
            t.extra["declared_tools"] = tools
        if type(holder) is dict:  # the request body around the list: its settings are the dialect's to read
            t.extra["request"] = holder
    return out
