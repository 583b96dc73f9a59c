"""The timeline's rows are arrays named once, in Python: ``layout.CallChip``, ``ResultChip``,
``Mark`` and ``Bucket`` build them, every page sends their field names as ``shapes``, and
``cards.js`` and ``timeline.js`` read each row by those names through ``rows(kind, list)``. A field renamed or
moved on one side and not the other fails here, not as a chip that silently loses its link.

The script is read as text: every ``rows("kind", ...)`` must be destructured where it is iterated
(``for (const { a, b: alias } of rows("kind", ...))``) or bound to a name whose uses are
``X.some((r) => r.field)`` or ``for (const { ... } of X)``; each field it names must be one of
the kind's. (Keep to these forms: another one fails the first assertion, and then this reading
learns it.)"""

from __future__ import annotations

import re

import inspector
from inspector.checking import check_document
from inspector.render import script
from inspector.render.layout import SHAPES, Bucket, CallChip, Fold, Mark, ResultChip, TimelineModel

JS = script("timeline.js")  # cards.js (shared with the Compare view) and timeline.js
ROW_TYPES = {"call": CallChip, "result": ResultChip, "mark": Mark, "bucket": Bucket, "fold": Fold}


def _names(pattern: str) -> set[str]:
    """``a, b: alias`` -> {a, b}: the fields a destructuring reads."""
    return {part.split(":")[0].strip() for part in pattern.split(",") if part.strip()}


def js_reads() -> tuple[dict[str, set[str]], int, int]:
    """Fields the script reads per kind, rows() calls found, and rows() calls accounted for."""
    reads: dict[str, set[str]] = {}
    calls = len(re.findall(r"\brows\(\"", JS))
    seen = 0
    for fields, kind in re.findall(r"const \{([^}]*)\} of rows\(\"(\w+)\"", JS):
        reads.setdefault(kind, set()).update(_names(fields))
        seen += 1
    for var, kind in re.findall(r"const (\w+) = rows\(\"(\w+)\"", JS):
        seen += 1
        for arg, field in re.findall(rf"\b{var}\.some\(\((\w+)\) => (\w+\.\w+)\)", JS):
            obj, name = field.split(".")
            assert obj == arg
            reads.setdefault(kind, set()).add(name)
        for fields in re.findall(rf"const \{{([^}}]*)\}} of {var}\)", JS):
            reads.setdefault(kind, set()).update(_names(fields))
    return reads, calls, seen


def test_the_script_reads_only_fields_the_python_rows_have():
    reads, calls, seen = js_reads()
    assert calls == seen and calls >= 4, "a rows() use this test does not read: keep to the forms in its docstring"
    assert set(reads) == set(SHAPES)
    for kind, fields in reads.items():
        assert fields <= set(SHAPES[kind]), f"{kind}: the script reads {sorted(fields - set(SHAPES[kind]))}"
        assert fields == set(SHAPES[kind]), f"{kind}: sent and never read: {sorted(set(SHAPES[kind]) - fields)}"


def test_every_page_row_is_built_by_its_named_type_and_the_page_names_them():
    items = [{"role": "user", "content": "x"},
             {"role": "assistant", "content": None, "tool_calls": [
                 {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"q\": \"a\"}"}}]},
             {"role": "tool", "tool_call_id": "c1", "content": "ok"},
             {"role": "tool", "tool_call_id": "stray", "content": "?"}]
    report, analyses = check_document(inspector.load(items))
    a = analyses[0]
    page = TimelineModel(a.msgs, a.pairing, report.findings, a.dialect).page(0)
    assert page["shapes"] == SHAPES == {k: t._fields for k, t in ROW_TYPES.items()}
    cards = [it for it in page["items"] if "i" in it]
    rows = {"call": [c for it in cards for c in it["calls"]], "result": [r for it in cards for r in it["results"]],
            "mark": [m for it in cards for m in it["marks"]], "bucket": page["overview"], "fold": page["folds"]}
    for kind, got in rows.items():
        assert got and all(type(r) is ROW_TYPES[kind] for r in got), kind
    assert rows["call"][0].result_at == 2 and rows["result"][0].call_at == 1 and rows["result"][1].orphan == 1
