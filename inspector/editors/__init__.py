"""Editors: the few raw edits repair needs, one class per dialect.

Repair decides *what* to do on the neutral view (``Msg``, ``Call``, ``Result``, ``Pairing``) and
never touches a dialect's dicts itself: every edit goes through the dialect's ``Editor``. An
editor never mutates its input; each method returns a new item (a shallow copy where a field
changed), so that the caller's data stays as it was and unchanged messages keep their identity,
key order and unknown fields.

Interface (see ``Editor`` for the exact signatures). ``raw`` is the dialect's item at
``msg.index``; ``call``/``result`` are the neutral ``Call``/``Result`` inside it:

- ``placeholder(call, call_id, text) -> item``: a synthesized result answering ``call`` (marked
  as an error where the dialect has a flag for it);
- ``set_call_id(raw, call, new_id)`` / ``set_result_id(raw, result, new_id)``: rename one id;
- ``set_result_name(raw, result, name)``: give a result its call's tool name (TC013);
- ``drop_calls(raw, calls) -> (item, [removed raw calls])``: the message without those calls,
  never leaving an empty call array behind;
- ``call_item(raw, call)``: the raw call object, whole (for the quarantine);
- ``has_id_slot(raw, call)``: False for calls that carry no id by design (legacy ``function_call``);
- ``shape_fix(raw, issue) -> (item, sentence) | None``: the lossless fix for a shape issue the
  dialect's reader raised (TC007 empty call array, TC010 object arguments, TC018 null content);
- ``note_for_orphan(raw, result, text) -> item``: a user message quoting an orphan result;
- ``user_to_result(raw, call, call_id) -> item``: tool output sent as user text, made a result;
- ``bridge(text) -> item``: a synthesized assistant message (role-order repair);
- ``role_of(item) -> str``: the neutral role of an item the planner built itself;
- ``text_of(raw) -> str``: plain text of a message (placeholder detection, notes, Markdown).

Optional: ``make_plan(analysis, target, options, editor)`` returns an object used instead of
``fixes.plan.Plan`` (same ``run()``, ``recs``, ``quarantine``, ``id_map``, ``unfixed`` and, if it
can, ``origins``), for dialects that must reshape the list around the shared plan
(``editors/blocks.py`` explodes result blocks into messages and joins them back).

A dialect without an editor cannot be repaired: ``editor_for`` raises ``InputError`` saying so,
and the CLI turns that into exit 2 with one line.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..model import Call, Issue, Result


class Editor:
    """Raw edits for one dialect. Subclasses implement every method; none may mutate its input."""

    dialect: str = ""

    def placeholder(self, call: Call, call_id: str | None, text: str) -> Any:
        raise NotImplementedError

    def set_call_id(self, raw: Any, call: Call, new_id: str) -> Any:
        raise NotImplementedError

    def set_result_id(self, raw: Any, result: Result, new_id: str) -> Any:
        raise NotImplementedError

    def set_result_name(self, raw: Any, result: Result, name: str) -> Any | None:
        """The item with the result's name set, or None when the result carries no name field."""
        raise NotImplementedError

    def drop_calls(self, raw: Any, calls: list[Call]) -> tuple[Any, list[Any]]:
        raise NotImplementedError

    def call_item(self, raw: Any, call: Call) -> Any:
        raise NotImplementedError

    def has_id_slot(self, raw: Any, call: Call) -> bool:
        raise NotImplementedError

    def shape_fix(self, raw: Any, issue: Issue) -> tuple[Any, str] | None:
        raise NotImplementedError

    def note_for_orphan(self, raw: Any, result: Result, text: str) -> Any:
        raise NotImplementedError

    def user_to_result(self, raw: Any, call: Call, call_id: str | None) -> Any:
        raise NotImplementedError

    def bridge(self, text: str) -> Any:
        raise NotImplementedError

    def role_of(self, item: Any) -> str:
        raise NotImplementedError

    def text_of(self, raw: Any) -> str:
        raise NotImplementedError


_EDITORS: dict[str, Editor] = {}


def register(editor: Editor) -> Editor:
    """Make ``editor`` the one used for its dialect (dialect packages call this at import)."""
    _EDITORS[editor.dialect] = editor
    return editor


def editor_for(dialect: str) -> Editor:
    """The editor for ``dialect``, or ``InputError`` when repair does not support it yet."""
    try:
        return _EDITORS[dialect]
    except KeyError:
        have = ", ".join(sorted(_EDITORS)) or "none"
        raise InputError(f"repair is not available for dialect {dialect!r} yet (available: {have})") from None


def names() -> list[str]:
    return sorted(_EDITORS)


from . import openai_chat  # noqa: E402  (registers itself)

register(openai_chat.EDITOR)

# The other dialects' editors register themselves. They load with repair, not with the
# dialects: checking never needs them.
from . import blocks as _block_editors  # noqa: E402,F401
from . import langchain as _langchain_editor  # noqa: E402,F401
from . import responses as _responses_editor  # noqa: E402,F401
