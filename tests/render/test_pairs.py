"""The Compare view's rows (``render.pairs``, issue 38): two transcripts side by side, one row per
aligned turn, each side's messages drawn as the timeline's cards, the rows that differ marked."""

from __future__ import annotations

import json

from support import loop_shapes as shapes

import inspector
from inspector.diffing import checked_side, diff_analyses
from inspector.render.layout import TimelineModel
from inspector.render.pairs import MAX_CARDS, ROWS_PER_PAGE, PairView
from inspector.report import Finding


def view(a: list[dict], b: list[dict]) -> PairView:
    sides = [checked_side(inspector.load(x), name, 0) for x, name in ((a, "A"), (b, "B"))]
    (ra, aa), (rb, ab) = sides
    d = diff_analyses(ra, aa, rb, ab)
    models = [TimelineModel(an.msgs, an.pairing, [Finding.model_validate(f) for f in r["findings"]], an.dialect)
              for r, an in sides]
    return PairView(d, *models)


def indexes(side: dict | None) -> list[int]:
    return [] if side is None else [c["i"] for c in side["cards"]]


def test_each_turn_is_a_row_with_both_sides_messages_as_timeline_cards():
    a = shapes.paginated_search(4)
    b = json.loads(json.dumps(a).replace('"call_', '"r2_call_'))
    b[6]["content"] = json.dumps({"page": 3, "hits": []})  # page 3 answered otherwise
    v = view(a, b)
    # the task before the first call, then one row per call with its result
    assert [r["status"] for r in v.rows] == ["before", "same", "same", "answered_differently", "same"]
    assert [indexes(r["a"]) for r in v.rows] == [[0], [1, 2], [3, 4], [5, 6], [7, 8, 9]]
    assert [indexes(r["b"]) for r in v.rows] == [[0], [1, 2], [3, 4], [5, 6], [7, 8, 9]]
    row = v.rows[3]
    assert row["first_divergence"] and v.first == 3
    assert row["calls"] == [["\u2260", "answered_differently", "search"]]
    card = row["a"]["cards"][0]  # the timeline's own card: its call chip leads to the result
    assert card["calls"][0].name == "search" and card["calls"][0].result_at == 6
    assert row["b"]["cards"][1]["text"] == json.dumps({"page": 3, "hits": []})  # text as plain text
    page = v.page(v.start_page(), ("run1.json", "run2.json"))
    assert page["labels"] == ["run1.json", "run2.json"] and page["first"] == 3 and len(page["rows"]) == 5


def test_a_call_only_one_side_makes_leaves_the_other_side_empty_and_the_pairs_level():
    a = shapes.same_result_loop(3)
    b = json.loads(json.dumps(a))
    b[7:7] = [shapes.call("call_new", "run_tests", {}), shapes.result("call_new", "3 passed")]
    v = view(a, b)
    statuses = [r["status"] for r in v.rows]
    assert statuses == ["before", "same", "same", "same", "added"]
    added = v.rows[4]
    assert added["a"] is None and indexes(added["b"]) == [7, 8, 9]
    assert added["calls"] == [["+", "added", "run_tests"]] and added["first_divergence"]
    # A's last row keeps the text after its last call; B's stops where its next turn begins
    assert indexes(v.rows[3]["a"]) == [5, 6, 7] and indexes(v.rows[3]["b"]) == [5, 6]


def test_removed_calls_and_long_runs_of_text_are_counted_not_dropped():
    a = shapes.same_result_loop(2)
    chatter = [{"role": "assistant" if k % 2 else "user", "content": f"note {k}"} for k in range(MAX_CARDS + 5)]
    a = a[:3] + chatter + a[3:]
    b = shapes.same_result_loop(1)
    v = view(a, b)
    first_turn = v.rows[1]
    assert first_turn["status"] == "same" and len(first_turn["a"]["cards"]) == MAX_CARDS
    assert first_turn["a"]["more"] == 2 + len(chatter) - MAX_CARDS and first_turn["a"]["last"] == 2 + len(chatter)
    removed = v.rows[2]
    assert removed["status"] == "removed" and removed["b"] is None and removed["calls"][0][0] == "\u2212"


def test_rows_are_paged_and_the_first_page_shown_holds_the_first_divergence():
    n = ROWS_PER_PAGE + 10
    a = shapes.paginated_search(n)
    b = json.loads(json.dumps(a))
    b[2 * n - 2]["content"] = "no more pages"  # the answer of the last call but one
    v = view(a, b)
    assert v.pages == 2 and v.first == n - 1
    page = v.page(v.start_page(), ("a", "b"))
    assert page["page"] == 1 and any(r.get("first_divergence") for r in page["rows"])
    assert [r["row"] for r in v.page(0, ("a", "b"))["rows"]] == list(range(ROWS_PER_PAGE))
