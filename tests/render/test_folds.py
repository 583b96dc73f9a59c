"""The timeline folds a loop's run of repeated calls into one row (issue 38): the row says what
repeats, connectors inside it go, the run opens when asked or when a message in it is selected."""

from __future__ import annotations

import json

from support import loop_shapes

import inspector
from inspector.checking import check_document
from inspector.render import TimelineModel
from inspector.ui.loops import folds


def model_of(messages, page_size=300):
    report, (a,) = check_document(inspector.load(json.dumps(messages).encode(), name="t.json"))
    return TimelineModel(a.msgs, a.pairing, report.findings, a.dialect, page_size=page_size,
                         folds=folds(report.loops)), report


def test_the_rig_loop_is_one_row_saying_what_repeats():
    m, report = model_of(loop_shapes.same_result_loop(6))
    (fold,) = folds(report.loops)
    assert (fold.first, fold.last) == (1, 12)
    assert fold.label == "read_file × 6, same arguments, same result"
    page = m.page(0)
    rows = page["items"]
    assert [it.get("i", it.get("fold")) for it in rows] == [0, 1, 13]  # user, the fold, the last answer
    assert rows[1]["label"] == fold.label and (rows[1]["first"], rows[1]["last"]) == (1, 12)
    assert page["links"] == []  # every call and its result are inside the fold


def test_an_opened_fold_or_a_selected_message_inside_shows_every_card():
    m, _ = model_of(loop_shapes.same_result_loop(6))
    for page in (m.page(0, opened=frozenset({1})), m.page(0, selected=5)):
        assert [it["i"] for it in page["items"]] == list(range(14))
        assert len(page["links"]) == 6


def test_a_fold_across_a_page_edge_stays_open():
    m, _ = model_of(loop_shapes.same_result_loop(6), page_size=6)
    assert all("fold" not in it for p in range(m.pages) for it in m.page(p)["items"])


def test_no_fold_for_a_poll_or_pages():
    for shape in (loop_shapes.job_poll, loop_shapes.paginated_search):
        m, report = model_of(shape())
        assert folds(report.loops) == () and all("fold" not in it for it in m.page(0)["items"])
