"""What the guard knows about one outgoing request: which API it is for, the target whose rules
apply, and the check's verdict (the same ``check_plain`` the CLI runs, so that ``inspector check``
on the body says the same thing).

Pure: no httpx, no server. The transports (``inspector.guard.transport``), the proxy, the
framework hooks and the pytest plugin all call ``inspect_request`` and act on the answer.

A request is recognised by its URL's path and its body, as an SDK sends it:

=====================================  ======================  =========================
path ends with                          API                     dialect read
=====================================  ======================  =========================
``/chat/completions``                   Chat Completions        ``openai-chat``
``/responses``                          Responses               ``openai-responses``
``/messages``                           Anthropic Messages      ``anthropic``
``:generateContent`` / ``:streamGenerateContent``  Gemini       ``gemini``
=====================================  ======================  =========================

The target is the URL's host when it names a provider (``api.anthropic.com``, ``api.deepseek.com``,
...; ``/responses`` on OpenAI is the Responses API), else whatever ``check`` chooses from the body's
``model`` (a DeepSeek model behind a gateway is judged by DeepSeek's rules), else the dialect's own.
A path that is none of these (embeddings, model lists) is not a chat request: it is not inspected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..errors import InputError
from ..gc_pause import without_settling
from ..model import Deferred
from ..targets import PROVIDER_NAME, target_from_url


@dataclass(frozen=True)
class Endpoint:
    """A chat API the guard reads: its name, whose API it is (its body is in that API's format),
    the body's list key and whose error shape a refusal takes."""

    api: str  # "chat", "responses", "messages", "gemini"
    target: str  # the API's own target: its body is in the format a request to that target's API has
    key: str
    provider: str  # whose error JSON shape a refusal is written in: "openai", "anthropic", "gemini"
    framework: str | None = None  # a framework's own message format instead (LangChain's, handed to a hook)

    @property
    def dialect(self) -> str:
        """The dialect the body is read as (``dialects.of_target``, or the framework's format)."""
        from ..dialects import of_target

        return self.framework or of_target(self.target).name


CHAT = Endpoint("chat", "openai", "messages", "openai")
RESPONSES = Endpoint("responses", "responses", "input", "openai")
MESSAGES = Endpoint("messages", "anthropic", "messages", "anthropic")
GEMINI = Endpoint("gemini", "gemini", "contents", "gemini")
# A framework's message list handed to a hook (no URL): LangChain messages are a dialect of their own.
LANGCHAIN = Endpoint("langchain", "openai", "messages", "openai", framework="langchain")
_GEMINI_PATH = re.compile(r"/models/([^/:]+):(?:generateContent|streamGenerateContent)$")


def endpoint_of(url: str) -> Endpoint | None:
    """The chat API a request URL is for, or None (not a request the guard reads)."""
    path = urlsplit(url).path.rstrip("/")
    if path.endswith("/chat/completions"):
        return CHAT
    if path.endswith("/responses"):
        return RESPONSES
    if path.endswith("/messages"):
        return MESSAGES
    if _GEMINI_PATH.search(path):
        return GEMINI
    return None


def public_url(url: str) -> str:
    """The URL without its query (Gemini's ``?key=`` is an API key) and without user info."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}" if parts.scheme else parts.path


def is_streaming(endpoint: Endpoint, url: str, body: Any) -> bool:
    if endpoint is GEMINI:
        return ":streamGenerateContent" in url
    return type(body) is dict and body.get("stream") is True


@dataclass
class Inspection:
    """The guard's reading of one request.

    ``url`` is the request's URL without its query or user info (``public_url``): an API key
    there never reaches a log line, a record or an exception. ``report`` is ``check --format
    json``'s report for the body (None when it cannot be read, and then ``unreadable`` says why). ``repaired`` is the repaired body when repair was asked for and
    changed something, ``repair_report`` its report (``RepairReport.to_json`` as a dict).
    """

    url: str
    endpoint: Endpoint
    body: bytes
    model: str | None = None
    report: dict[str, Any] | None = None
    unreadable: str | None = None
    repaired: bytes | None = None
    repair_report: dict[str, Any] | None = None
    streaming: bool = False
    culprits: list[int] = field(default_factory=list)

    @property
    def target(self) -> str | None:
        return self.report["target"] if self.report else None

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.report["findings"] if f["severity"] == "error"] if self.report else []

    @property
    def would_reject(self) -> bool:
        return bool(self.errors)

    @property
    def first_error(self) -> dict[str, Any] | None:
        errs = self.errors
        return errs[0] if errs else None

    def summary(self) -> str:
        """One line: the verdict and the first reason, as ``inspector check`` prints it."""
        if self.report is None:
            return f"the guard cannot read this request: {self.unreadable}"
        from ..checking import verdict

        return verdict(self.report)


def inspect_request(url: str, body: bytes, *, repair: bool = False, endpoint: Endpoint | None = None) -> Inspection | None:
    """Check (and with ``repair``, repair) the body of a request to ``url``.

    None when the URL is not one of the chat APIs (the request is none of the guard's business).
    Otherwise an ``Inspection``; a body that cannot be read as that API's request gives one with
    ``unreadable`` set, never an exception.
    """
    ep = endpoint or endpoint_of(url)
    if ep is None:
        return None
    with without_settling():  # the caller's process lives on: its young objects stay young
        return _inspect(ep, url, body, repair)


def inspect_messages(messages: list[Any], endpoint: Endpoint = CHAT, *, model: str | None = None, repair: bool = False,
                     where: str | None = None) -> Inspection:
    """``inspect_request`` for a message list a framework hook holds (no URL): the body is
    ``{"model": model, KEY: messages}`` as the endpoint's API would send it, so ``inspector
    check`` on that body says the same thing; ``where`` labels it (``litellm:acompletion``)."""
    from ..jsonio import dumps

    body: dict[str, Any] = {"model": model} if model else {}
    body[endpoint.key] = messages
    with without_settling():
        return _inspect(endpoint, where or f"{endpoint.api}:", dumps(body, indent=False), repair)


def _inspect(ep: Endpoint, url: str, body: bytes, repair: bool) -> Inspection:
    if "://" in url:  # what is kept, logged or raised never carries the query (Gemini's ?key=) or user info
        url = public_url(url)
    out = Inspection(url=url, endpoint=ep, body=body)
    try:
        _check(out, ep, url, body)
    except InputError as exc:
        out.unreadable = str(exc)
        return out
    except (RecursionError, MemoryError):
        out.unreadable = "the body is nested too deeply or too large to read"
        return out
    if repair and out.report is not None and (out.errors or _warnings(out.report)):
        _repair(out, ep)
    return out


def _warnings(report: dict[str, Any]) -> bool:
    return any(f["severity"] == "warning" for f in report["findings"])


_ENGINE: list[Any] = []  # (checking, reading): imported on the first check, then held (an import a call cost time)


def _check(out: Inspection, ep: Endpoint, url: str, body: bytes) -> None:
    if not _ENGINE:  # (``import inspector.guard`` stays light)
        from .. import checking, reading

        _ENGINE[:] = [checking, reading]
    checking, reading = _ENGINE
    label = url if "://" in url else public_url(url)  # (``_inspect`` made a URL public)
    # A Chat Completions body's messages read as typed structs (the same reading, no dict per message)
    typed = ep is CHAT and reads_typed(body)
    doc = (reading.typed_request(body, label) if typed else None) or reading.load_bytes(body, label)
    root = doc.root
    if type(root) is not dict:
        raise InputError(f"the body is not a JSON object (a {ep.api} request is one)")
    items = root.get(ep.key)
    if type(items) is not list and not isinstance(items, Deferred):
        raise InputError(f"the body has no {ep.key!r} list, so it is not a {_API_NAME[ep.api]} request the guard reads")
    if not doc.transcripts:
        raise InputError(f"the body's {ep.key!r} list is not a list of messages")
    model = root.get("model")
    if ep is GEMINI:
        m = _GEMINI_PATH.search(urlsplit(url).path.rstrip("/"))
        model = m.group(1) if m else model
    out.model = model if type(model) is str else None
    out.streaming = is_streaming(ep, url, root)
    dialect = ep.dialect
    target = guard_target(url, ep, dialect)
    out.report, _ = checking.check_plain(doc, target, dialect, as_request=True)  # about to be sent (rules.md 2026-11-27)
    out.culprits = sorted({f["message_index"] for f in out.errors})


# A Chat Completions body at least this big has its messages read typed (``reading.typed_request``).
# A clean list is then proved clean (``clean_proof``) with no dict per message, 15-35% faster than
# the dict reading from 100 messages up; a broken one goes the typed general path, 10-30% slower
# below 100 kB (10-300 messages), even from about 128 kB (measured in-process, best of 300, issue 37:
# 300 messages 100 kB: clean 0.54 against 0.72 ms, broken 0.77 against 0.70; 1,000 messages 348 kB:
# clean 1.59 against 2.28 ms, broken 2.46 against 2.43). Either way the verdict is the same
# (tests/test_typed_reading.py).
TYPED_BODY_BYTES = 128 * 1024
# Smaller bodies from this size on are read typed too unless their text ends on a call block
# (``ends_on_calls``): a request about to be sent ends on its results or a user message, which the
# proof serves (CPU time, best of 15 x 200 calls, in-process, issue 37: 30 messages 10 kB 0.151
# against 0.161 ms; 99 messages 35 kB 0.255 against 0.295; 300 messages 103 kB 0.58 against 0.81),
# while one that ends on calls the proof cannot serve (TC022), and the dict reading reads it faster
# (100 messages 35 kB: 0.325 against 0.358 ms typed).
TYPED_CLEAN_BYTES = 8 * 1024


def reads_typed(body: bytes) -> bool:
    """Whether a Chat Completions body is read typed (``TYPED_BODY_BYTES``, ``TYPED_CLEAN_BYTES``):
    a choice of speed only, both readings say the same thing (tests/test_typed_reading.py)."""
    n = len(body)
    return n >= TYPED_BODY_BYTES or (n >= TYPED_CLEAN_BYTES and not ends_on_calls(body))


_ROLE = b'"role":'
_CALLS = (b'"tool_calls":[{', b'"tool_calls": [{')


def ends_on_calls(body: bytes) -> bool:
    """A guess from the text, without a parse: the last ``"role":`` in it is an assistant's, and
    ``"tool_calls":[{`` follows (compact JSON or ``json.dumps``'s spacing, role before calls as the
    SDKs write a message). Only ``reads_typed`` asks, and a wrong guess costs only time."""
    at = body.rfind(_ROLE)
    if at < 0:
        return False
    at += len(_ROLE)
    if body[at:at + 1] == b" ":
        at += 1
    return body.startswith(b'"assistant"', at) and any(body.find(c, at) >= 0 for c in _CALLS)


_API_NAME = {"chat": "Chat Completions", "responses": "Responses", "messages": "Anthropic Messages",
             "gemini": "Gemini generateContent"}


def guard_target(url: str, ep: Endpoint, dialect: str | None = None) -> str | None:
    """The target the URL's host names when it fits the endpoint's dialect (``dialect``: its name,
    when the caller has it); else None (the body's ``model`` or the dialect's default decides, as
    in ``inspector check``)."""
    named = target_from_url(url)
    if named is None:
        return None
    from ..dialects import get

    if named == "openai" and ep is RESPONSES:
        named = "responses"
    return named if named in get(dialect or ep.dialect).targets else None


def _repair(out: Inspection, ep: Endpoint) -> None:
    import json

    from ..repairing import repair

    try:
        fixed = repair(out.body, out.target, dialect=ep.dialect)
    except InputError as exc:
        out.repair_report = {"ok": False, "unfixed": [f"repair cannot change this request: {exc}"], "changes": []}
        return
    out.repair_report = json.loads(fixed.report.to_json(indent=False))
    if not fixed.unchanged and fixed.report.changes:
        out.repaired = fixed.output


def who(target: str | None) -> str:
    return PROVIDER_NAME.get(target or "", target or "the provider")
