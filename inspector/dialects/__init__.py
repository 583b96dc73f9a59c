"""Wire formats: one ``Dialect`` (``base.py``) per file, each named by an entry point.

Dialects: openai-chat, anthropic, openai-responses, gemini, bedrock, langchain, claude-code
(Claude Code session logs: entries grouped into the API's messages), and the formats of no one
provider: ag-ui, vercel-ai, vercel-ui, pydantic-ai, otel-genai. HAR captures (``har.py``) hold
request bodies of any of them.

A dialect is found through the ``inspector.dialects`` entry-point group, the built-in ones (listed
in ``pyproject.toml``) and those of any other installed package alike (as simonw/llm finds its
plugins)::

    [project.entry-points."inspector.dialects"]
    my-format = "my_package.my_format:DIALECT"

The entry point's name is the dialect's name; its value is the ``Dialect`` instance. Installed
metadata holds the entry points: after editing them, ``make install`` (run by ``make test`` when
``pyproject.toml`` changed) or ``pip install -e .`` writes them again. Nothing is
imported until it is needed: ``names()`` reads only the entry points, ``get(name)`` imports that
one dialect's module, and detection (``all_dialects``, ``detect``) and finding transcripts in a
file (``containers.find_transcripts``) import them all (detection gives ties to the first of
``TIE_ORDER``: openai-chat, the fallback). ``register``/``unregister`` add and remove a
dialect by hand (tests). Loading a dialect adds its container recognisers and puts it under the
conformance suite.

Nothing in this package imports ``rules``, ``check`` or ``fixes``: the imports point one way,
from the engine down to the formats.
"""

from __future__ import annotations

import importlib
import os
import sys
from _thread import RLock  # threading's own RLock, without importing threading on every start-up
from typing import Any, NamedTuple

from .. import containers
from ..containers import Transcript
from ..errors import InputError
from .base import Block, Dialect

GROUP = "inspector.dialects"
DISTRIBUTION = "tool-call-inspector"  # this package's own distribution: its entry points come first


class EntryPoint(NamedTuple):
    name: str
    value: str  # "module:attribute"
    dist: str  # the distribution that declares it


# Detection gives a tie to the dialect listed first (openai-chat, the fallback, leads). Installed
# metadata lists entry points sorted by name, so the order is kept here; a dialect not listed (a
# new one, another package's) needs no edit: it comes after these, in the entry points' order.
TIE_ORDER = ("openai-chat", "anthropic", "openai-responses", "gemini", "bedrock", "langchain", "claude-code",
             "ag-ui", "vercel-ai", "vercel-ui", "pydantic-ai", "otel-genai", "codex", "gemini-cli",
             "openhands", "copilot", "adk")

_lock = RLock()
_DIALECTS: dict[str, Dialect] = {}  # the dialects imported and registered
_ORDER: list[str] = []  # every known name: the entry points' order, then those registered by hand
_EPS: dict[str, EntryPoint] | None = None  # the entry points by name (None: not read yet)


def _norm(dist: str) -> str:
    return dist.lower().replace("_", "-").replace(".", "-")


def entry_points(group: str = GROUP) -> list[EntryPoint]:
    """The entry points of ``group`` every distribution on ``sys.path`` declares, this package's
    first: the ``entry_points.txt`` files ``importlib.metadata.entry_points`` reads (a test holds
    the two to the same answer), read without importing ``importlib.metadata`` (with the
    ``email`` and ``zipfile`` packages it pulls in, 20-30 ms of CPU on every start of the CLI,
    which is 130 ms in all). The first distribution of a name on ``sys.path`` wins, as there."""
    seen: set[str] = set()
    own: list[EntryPoint] = []
    others: list[EntryPoint] = []
    for where in sys.path:
        try:
            listing = os.scandir(where or ".")
        except OSError:
            continue
        with listing:
            metas = sorted(e.name for e in listing if e.name.endswith((".dist-info", ".egg-info")))
        for meta in metas:
            dist = _norm(meta.rsplit(".", 1)[0].split("-")[0])
            if dist in seen:
                continue
            seen.add(dist)
            try:
                with open(os.path.join(where or ".", meta, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            if f"[{group}]" not in text:  # (most files: nothing to parse)
                continue
            found = _parse(text, group, dist)
            (own if dist == DISTRIBUTION else others).extend(found)
    if not own:
        own = _source_tree_entry_points(group)
    return own + others


def _parse(text: str, group: str, dist: str) -> list[EntryPoint]:
    """The ``name = value`` lines of section ``[group]`` of an ``entry_points.txt``."""
    out: list[EntryPoint] = []
    inside = False
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            inside = line == f"[{group}]"
        elif inside and "=" in line:
            name, value = line.split("=", 1)
            out.append(EntryPoint(name.strip(), value.strip(), dist))
    return out


def _source_tree_entry_points(group: str) -> list[EntryPoint]:
    """This package's entry points from its ``pyproject.toml``, when the package runs from a source
    tree whose installed metadata does not list them (never installed, or installed before the
    group existed): the built-in dialects are the same either way."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "pyproject.toml")
    try:
        with open(path, "rb") as f:
            import tomllib

            project = tomllib.load(f).get("project", {})
    except (OSError, ValueError):
        return []
    if project.get("name") != DISTRIBUTION:
        return []
    table = project.get("entry-points", {}).get(group, {})
    return [EntryPoint(name, value, DISTRIBUTION) for name, value in table.items()]


def _entry_points() -> dict[str, EntryPoint]:
    global _EPS
    if _EPS is None:
        with _lock:
            if _EPS is None:
                eps: dict[str, EntryPoint] = {}
                rank = {n: k for k, n in enumerate(TIE_ORDER)}
                for ep in sorted(entry_points(), key=lambda ep: rank.get(ep.name, len(rank))):
                    eps.setdefault(ep.name, ep)
                _ORDER[:] = [*eps, *(n for n in _ORDER if n not in eps)]
                _EPS = eps
    return _EPS


def _load(name: str) -> Dialect:
    """Import the dialect entry point ``name`` names, and register it."""
    with _lock:
        if name in _DIALECTS:
            return _DIALECTS[name]
        ep = _entry_points()[name]
        module, _, attr = ep.value.partition(":")
        obj = importlib.import_module(module.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            obj = getattr(obj, part)
        if not isinstance(obj, Dialect) or obj.name != name:
            raise TypeError(f"entry point {name} = {ep.value} ({ep.dist}) is not a Dialect named {name!r}: {obj!r}")
        return register(obj)


_ALL: list[Dialect] = []  # every dialect in detection's order, once all are loaded (emptied on any change)
_BY_TARGET: dict[str, Dialect] = {}  # ``of_target``'s answers (emptied on any change)


def _changed() -> None:
    """Forget what was worked out from the registry (under ``_lock``)."""
    _ALL.clear()
    _BY_TARGET.clear()


def load_all() -> list[Dialect]:
    """Every dialect, imported and registered, in detection's order."""
    if _ALL:  # every request the guard checks asks this several times: answered from what is known
        return list(_ALL)
    names_ = names()
    with _lock:
        if len(_DIALECTS) < len(names_):
            for name in names_:
                if name not in _DIALECTS:
                    _load(name)
            from .. import har, log_containers  # noqa: F401  (HAR captures, agents' log files: no dialect of their own)
        out = [_DIALECTS[n] for n in _ORDER]
        if len(out) == len(names()):
            _ALL[:] = out
    return list(out)


def register(dialect: Dialect) -> Dialect:
    """Make ``dialect`` known by its name, its container recognisers tried, and its messages
    recognised wherever a reader asks what a message is (``containers.looks_like_message``)."""
    with _lock:
        _entry_points()
        if dialect.name not in _ORDER:
            _ORDER.append(dialect.name)
        _DIALECTS[dialect.name] = dialect
        _changed()
        containers.register_message_test(dialect.is_message)
        for fn in dialect.recognisers:
            containers.register(fn)
    return dialect


def unregister(name: str) -> Dialect | None:
    """Forget the dialect ``name`` (its entry point too, until ``rescan``) and its container
    recognisers; the dialect that was registered, if any."""
    with _lock:
        _entry_points().pop(name, None)
        if name in _ORDER:
            _ORDER.remove(name)
        dialect = _DIALECTS.pop(name, None)
        _changed()
        for fn in dialect.recognisers if dialect is not None else ():
            containers.unregister(fn)
        if dialect is not None:
            containers.unregister_message_test(dialect.is_message)
    return dialect


def rescan() -> None:
    """Read the entry points again on next use (after a package was installed, or removed)."""
    global _EPS
    with _lock:
        _EPS = None
        _changed()


def names() -> list[str]:
    """The dialects' names, without importing any of them."""
    _entry_points()
    return list(_ORDER)


def all_dialects() -> list[Dialect]:
    return load_all()


def get(name: str) -> Dialect:
    d = _DIALECTS.get(name)
    if d is not None:
        return d
    if name not in _entry_points():
        raise InputError(f"unknown dialect {name!r}; known: {', '.join(names())}")
    return _load(name)


def fallback() -> Dialect:
    """The dialect a file with nothing to detect is read as (the first of ``TIE_ORDER``)."""
    return get(TIE_ORDER[0])


def of_target(target: str) -> Dialect:
    """The format a request to ``target``'s own API is written in: the first dialect (in
    ``TIE_ORDER``) that fits it (openai-chat for OpenAI, DeepSeek and Mistral, openai-responses
    for the Responses API, anthropic, bedrock, gemini). Only the dialects before it are imported."""
    found = _BY_TARGET.get(target)
    if found is not None:
        return found
    known = names()
    for name in dict.fromkeys([*TIE_ORDER, *known]):
        if name in known and target in get(name).targets:
            found = get(name)
            with _lock:
                _BY_TARGET[target] = found
            return found
    raise InputError(f"no dialect fits target {target!r}")


def named_by_request(key: str | None, request: Any, target: str | None = None) -> Dialect | None:
    """The dialect the request body around a list names (``Dialect.names_list``) when the
    list's items alone say little (plain role messages); None when no dialect claims it."""
    body = request if type(request) is dict else None
    for d in load_all():
        if d.names_list(key, body, target):
            return d
    return None


def detect(items: list[Any], target: str | None = None) -> Dialect:
    """The dialect that recognises ``items`` best; openai-chat when nothing is sure.

    With a ``target`` the user named, a dialect that fits it wins over one that does not
    (a plain role/content array reads as openai-chat and as anthropic alike)."""
    return detect_scored(items, target)[0]


def detect_scored(items: list[Any], target: str | None = None) -> tuple[Dialect, int]:
    """``detect``'s dialect and its ``detect`` score of ``items`` (0 or 1: no evidence of its own),
    for a caller that would otherwise ask the dialect again."""
    dialects = load_all()
    best, score = fallback(), 0
    fit_best, fit_score = None, 0
    for d in dialects:
        s = d.detect(items)
        if s > score:
            best, score = d, s
        if target is not None and s > fit_score and target in d.targets:
            fit_best, fit_score = d, s
    if target is not None and target not in best.targets and fit_best is not None:
        return fit_best, fit_score
    return best, score


def dialect_of(t: Transcript, override: str | None = None, target: str | None = None) -> Dialect:
    """The dialect a transcript is read as: the user's override, the one its container named, or detection."""
    if override:
        return get(override)
    if t.dialect:
        return get(t.dialect)
    return detect(t.items, target)


# Finding transcripts in a file tries the dialects' container recognisers: they load first.
containers.before_finding(load_all)
containers.api_format_from(lambda target: of_target(target).name)

__all__ = ["Block", "Dialect", "all_dialects", "detect", "detect_scored", "dialect_of", "entry_points", "fallback", "get",
           "load_all", "named_by_request", "names", "of_target", "register", "rescan", "unregister"]
