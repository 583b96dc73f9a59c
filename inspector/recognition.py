"""Refuse a transcript the chosen dialect cannot account for, instead of judging it anyway.

Read with the wrong dialect (``--from gemini`` on a Pydantic AI history, or a format no reader
knows), a file still yields "messages", and a verdict on them is a confident wrong answer: "would
accept" with 0 tool calls, or five unknown roles that repair would quarantine. Two signs say the
dialect did not recognise the file:

- most items have a role or type the dialect does not have (TC024 on more than half, at least two);
- the items plainly carry tool calls or results in another format's fields (non-empty
  ``tool_call_id`` or ``tool_name`` where Gemini expects ``functionCall``, say), and the dialect
  read no call and no result at all.

Then ``check`` and ``repair`` raise ``InputError("not recognised as DIALECT: …")`` saying what was
seen, and the CLI exits 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .containers import path_text
from .errors import InputError
from .model import Issue, Msg

if TYPE_CHECKING:
    from .dialects.base import Dialect

# Field names that only tool calls and results carry, in the formats seen in the wild.
TOOLISH = frozenset({
    "tool_calls", "tool_call_id", "toolCallId", "tool_use_id", "toolUseId", "function_call", "functionCall",
    "functionResponse", "function_response", "call_id", "callId", "tool_call", "toolCall", "toolInvocations",
    "tool_name", "toolName",
})
_DEPTH = 4  # how deep into an item to look (parts of a message, a call inside a part)


def _toolish(x: Any, depth: int, path: tuple[Any, ...], seen: dict[str, Any]) -> None:
    if depth > _DEPTH or len(seen) >= 4:
        return
    if type(x) is dict:
        for k, v in x.items():
            if k in TOOLISH and v not in (None, "", [], {}) and k not in seen:
                seen[k] = (*path, k)
            if type(v) in (dict, list):
                _toolish(v, depth + 1, (*path, k), seen)
    elif type(x) is list:
        for j, v in enumerate(x[:50]):
            if type(v) in (dict, list):
                _toolish(v, depth + 1, (*path, j), seen)


CHOOSE = "choose the file's format with --from (or the app's Dialect)"  # the app says it in its own words


def _seen(items: list[Any], issue: Issue) -> str:
    """What an unrecognised item looked like: its role, or the keys it has instead."""
    role = issue.data.get("role")
    if role is not None:
        return repr(role)
    item = items[issue.index] if 0 <= issue.index < len(items) else None
    if type(item) is dict:  # the dialect read no role: say what the item names itself instead
        for k in ("role", "type"):
            if isinstance(item.get(k), str):
                return f"{k} {item[k]!r}"
    keys = list(item)[:4] if type(item) is dict else []
    return f"no role or type, only the keys {'/'.join(map(str, keys))}" if keys else "no role or type"


def refuse_unaccounted(dialect: Dialect, items: list[Any], where: tuple[Any, ...], msgs: list[Msg], issues: list[Issue]) -> None:
    """Raise ``InputError`` when ``dialect`` plainly did not recognise ``items`` (see the module doc).

    The dialect's own tool fields (``Dialect.tool_fields``) are no sign of a wrong dialect (an
    Anthropic server tool's result has a tool_use_id and is no client result); only another
    format's are, and a dialect that declares none is not second-guessed that way."""
    if not items:
        return
    name = dialect.name
    unknown = [i for i in issues if i.code == "TC024"
               and not (type(i.data.get("role")) is str and i.data.get("role") in dialect.model_roles)]
    if len(unknown) >= 2 and 2 * len(unknown) > len(items):
        roles = sorted({_seen(items, i) for i in unknown})[:5]
        raise InputError(
            f"not recognised as {name}: {len(unknown)} of {len(items)} items have a role or type {name} does not "
            f"have ({'; '.join(roles)}); {CHOOSE}, or it is a format the inspector does not read", path_text(where))
    own = dialect.tool_fields
    if own is None or any(m.calls or m.results for m in msgs):
        return
    found: dict[str, Any] = {}
    for k, item in enumerate(items[:2000]):
        _toolish(item, 0, (*where, k), found)
        if len(found) >= 4:
            break
    seen = {key: at for key, at in found.items() if key not in own}
    if seen:
        first = next(iter(seen.values()))
        raise InputError(
            f"not recognised as {name}: the items carry tool calls or results ({', '.join(seen)}, first at "
            f"{path_text(first)}), but {name} read no tool call and no result from them; {CHOOSE}, "
            "or it is a format the inspector does not read", path_text(where))
