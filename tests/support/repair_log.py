"""The change log is the truth (issue 34): replay a repair report's changes on the input.

``replay(before, after, changes)`` rebuilds one transcript's output list from its input list and
the report's changes alone, and returns what does not match (``[]`` when the log is the truth):

- an output position no change names (``index_after``) is the next input item in input order,
  byte for byte: what the log does not mention was not touched, and only the log moves things;
- an output position a change names holds that change's result: an item that is not the input item
  it came from (``index_before``), or, for an item the repair wrote (``index_before`` None), one
  that is not any input item: every change in the log is visible in the output;
- a change that takes an item out (``index_after`` None) names an input item;
- an output equal to its input has an empty log.

The content of an item a change names is taken from the output; everything else comes from the
input, so an unlogged edit, insertion, removal or move fails the replay. ``values`` then checks the
edits themselves, value by value: every scalar of the output that no input item holds was written by
a change that writes such a value there (a new id, a synthesized signature under its key, a new
message or block), and every scalar of an input item that changed is in the output, the quarantine
or the log (an old id, an old name; a null may go). An edit that changes anything the log does not
name fails.

``check_result(input_document, result)`` runs it over every transcript of a repair;
``tests/conftest.py`` calls it on every repair the test suite makes in this process.
"""

from __future__ import annotations

from typing import Any

import orjson

# Changes that move an item: the item itself may be unchanged.
MOVES = {"move_result", "move_message"}


def _key(value: Any) -> bytes:
    try:
        return orjson.dumps(value, option=orjson.OPT_PASSTHROUGH_DATACLASS)
    except TypeError:
        return repr(value).encode()


def replay(before: list, after: list, changes: list) -> list[str]:
    """What in the log does not match turning ``before`` into ``after`` (``[]``: it matches)."""
    problems: list[str] = []
    keys_in = [_key(x) for x in before]
    keys_out = [_key(x) for x in after]
    if keys_in == keys_out and changes:
        return [f"the output equals the input, yet the log lists {len(changes)} change(s): "
                + "; ".join(f"{c.action} {c.code}" for c in changes[:5])]
    named: dict[int, list] = {}
    for c in changes:
        if c.index_after is not None:
            if not 0 <= c.index_after < len(after):
                problems.append(f"{c.action} {c.code}: index_after {c.index_after} is outside the output "
                                f"({len(after)} items)")
                continue
            named.setdefault(c.index_after, []).append(c)
        elif c.index_before is None:
            problems.append(f"{c.action} {c.code}: neither an input nor an output item ({c.text})")
        if c.index_before is not None and not 0 <= c.index_before < len(before):
            problems.append(f"{c.action} {c.code}: index_before {c.index_before} is outside the input "
                            f"({len(before)} items)")
    # Rebuild the output: unnamed positions take the input's items in order.
    rebuilt: list[bytes] = []
    j = 0
    for k in range(len(after)):
        if k in named:
            rebuilt.append(keys_out[k])
            continue
        at = next((x for x in range(j, len(keys_in)) if keys_in[x] == keys_out[k]), None)
        if at is None:
            problems.append(f"output item {k} is no input item in input order, and no change in the log names it")
            rebuilt.append(b"")
            continue
        rebuilt.append(keys_in[at])
        j = at + 1
    if rebuilt != keys_out and not problems:
        problems.append("the replayed list is not the output")
    inputs = set(keys_in)
    for k, cs in named.items():
        sources = {c.index_before for c in cs}
        if sources == {None}:
            # An inserted item (a placeholder, a bridge) is new; blocks split off into a message of
            # their own may equal an input message (what a join and a split gave back).
            if any(c.action.startswith("insert") for c in cs) and keys_out[k] in inputs:
                what = ", ".join(f"{c.action} {c.code}" for c in cs)
                problems.append(f"{what}: logged as a new item at output {k}, which is an input item as it was")
            continue
        if all(c.action in MOVES for c in cs):
            continue  # a move shows as the item's new place (``values`` checks what it holds)
        if all(c.index_before is not None and 0 <= c.index_before < len(before)
               and keys_in[c.index_before] == keys_out[k] for c in cs):
            what = ", ".join(f"{c.action} {c.code} (input {c.index_before})" for c in cs)
            problems.append(f"{what}: logged at output {k}, which is the input item unchanged")
    return problems


# --- the values of the edits (issue 34: the replay checks what an edit changed, not only where) ---

# Changes that write a value of their own into the output (a value the input does not hold): the
# keys it may hold (None: any, for a message or block repair writes whole).
WRITES: dict[str, frozenset[str] | None] = {
    "synthesize_signature": frozenset({"thoughtSignature", "thought_signature"}),
    "synthesize_reasoning": frozenset({"reasoning_content"}),
    "strip_namespace": frozenset({"name"}), "set_result_name": frozenset({"name"}),
    "rename_role": frozenset({"role"}),
    "stringify_arguments": frozenset({"arguments", "args", "input"}),
    "fill_null_content": frozenset({"content", "text"}), "drop_empty_tool_calls": frozenset({"content"}),
    # A message whose calls are taken out keeps a content: an empty one, or a line saying so.
    "remove_call": frozenset({"content", "text"}), "quarantine_fragment": frozenset({"content", "text"}),
    # Messages joined, split or rebuilt around their blocks: a string content becomes a text block,
    # a split-off part a message of the role it needs.
    **dict.fromkeys(("join_turn", "merge_messages", "merge_results", "results_first", "split_call_turn",
                     "results_to_user", "separate_results", "keep_results_alone", "move_blocks_before_calls"),
                    frozenset({"type", "role"})),
    "rewrite_entry": frozenset({"parentUuid", "logicalParentUuid", "leafUuid"}),  # a log entry's links
}


def _leaves(value: Any, key: Any = None, out: dict | None = None) -> dict:
    """The scalar values of ``value`` with the key that holds each (None in a list), counted."""
    out = {} if out is None else out
    stack = [(key, value)]
    while stack:
        k, v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.items())
        elif isinstance(v, list):
            stack.extend((None, x) for x in v)
        else:
            leaf = (k, _key(v))
            out[leaf] = out.get(leaf, 0) + 1
    return out


def _minus(a: dict, b: dict) -> dict:
    """The leaves of ``a`` whose value ``b`` does not hold at all, under any key: a value copied is
    not a value made up (entries joined into one reply share its message id), and a string content
    joined into a message of blocks becomes a text block's ``text``."""
    held = {v for (_, v) in b}
    return {leaf: n for leaf, n in a.items() if leaf[1] not in held}


def values(before: list, after: list, changes: list, quarantine: list) -> list[str]:
    """What the output holds that neither the input nor a logged change gave it, and what of the
    input is neither in the output nor the quarantine nor a logged change: an edit the log does not
    name, inside an item a change names, fails here."""
    keys_in = {_key(x) for x in before}
    keys_out = {_key(y) for y in after}
    edited_in: dict = {}
    for x in before:
        if _key(x) not in keys_out:
            _leaves(x, out=edited_in)
    may: dict[int, set | None] = {}  # output position -> the keys the changes there may write (None: any)
    for c in changes:
        if c.index_after is None:
            continue
        keys = WRITES.get(c.action, frozenset())
        if c.index_before is None or c.action.startswith(("insert", "orphan_to", "user_to", "shape")):
            keys = None  # a new item, or a block or text repair writes into the item
        if keys is None or may.get(c.index_after, set()) is None:
            may[c.index_after] = None
        else:
            may.setdefault(c.index_after, set()).update(keys)
    out_new: dict = {}
    written: set = set()  # the values of what repair wrote whole (a placeholder entry's uuid, a link to it)
    for k, y in enumerate(after):
        if k in may and may[k] is None and _key(y) not in keys_in:
            written.update(v for (_, v) in _leaves(y))
    for k, y in enumerate(after):
        if _key(y) in keys_in or (k in may and may[k] is None):
            continue
        for leaf, n in _leaves(y).items():
            if leaf[0] not in (may.get(k) or ()):
                out_new[leaf] = out_new.get(leaf, 0) + n
    all_in: dict = {}
    for x in before:
        _leaves(x, out=all_in)
    all_out: dict = {}
    for y in after:
        _leaves(y, out=all_out)
    for (_, v) in list(all_out):  # arguments written as a JSON string hold the object's values
        if v[:2] in (b'"{', b'"['):
            try:
                _leaves(orjson.loads(orjson.loads(v)), out=all_out)
            except orjson.JSONDecodeError:
                pass
    held: dict = {}
    for q in quarantine:
        _leaves(q.content, out=held)
    new_ids = {_key(c.new_id) for c in changes if c.new_id is not None}
    old_ids = {_key(c.tool_call_id) for c in changes if c.new_id is not None and c.tool_call_id is not None}
    said = " ".join(c.text for c in changes)
    rewritten = set().union(*(WRITES.get(c.action) or () for c in changes))  # keys a logged change rewrites
    problems = []
    for k, v in _minus(out_new, all_in):
        if v in new_ids or v in written:
            continue
        problems.append(f"the output holds {k}={v[:80].decode(errors='replace')}, which is in no input item, and "
                        "no change in the log writes it")
    for k, v in _minus(_minus(edited_in, all_out), held):
        text = v[1:-1] if v.startswith(b'"') else v
        if v in old_ids or k in rewritten or v == b"null" or text.decode(errors="replace") in said:
            continue
        problems.append(f"the input's {k}={v[:80].decode(errors='replace')} is in neither the output nor the "
                        "quarantine, and no change in the log names it")
    return problems


def check_result(before_doc: Any, result: Any) -> list[str]:
    """``replay`` over every transcript of a repair result (``before_doc``: the input Document)."""
    report = result.report
    out_ts = result.document.transcripts
    problems: list[str] = []
    for n, t in enumerate(before_doc.transcripts):
        if n >= len(out_ts):
            break
        changes = [c for c in report.changes if c.transcript == n]
        problems += [f"transcript {n}: {p}" for p in replay(t.items, out_ts[n].items, changes)]
        held = [q for q in report.quarantine if q.transcript == n]
        problems += [f"transcript {n}: {p}" for p in values(t.items, out_ts[n].items, changes, held)]
    return problems
