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

The content of an item a change names is taken from the output (the log says what happened to it
in words, not in bytes); everything else comes from the input, so an unlogged edit, insertion,
removal or move fails the replay.

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
            continue  # a move shows as the item's new place
        if all(c.index_before is not None and 0 <= c.index_before < len(before)
               and keys_in[c.index_before] == keys_out[k] for c in cs):
            what = ", ".join(f"{c.action} {c.code} (input {c.index_before})" for c in cs)
            problems.append(f"{what}: logged at output {k}, which is the input item unchanged")
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
    return problems
