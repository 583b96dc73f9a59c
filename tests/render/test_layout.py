"""The timeline's pure layer: pages, connectors, ghosts, stubs, lanes and previews."""

from __future__ import annotations

import inspector
from inspector.checking import check_document
from inspector.render import TimelineModel, asset, assign_lanes, preview_text, script


def call(cid, name="f"):
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": "{}"}}


def model(items, page_size=300):
    report, (a,) = check_document(inspector.load(items))
    return TimelineModel(a.msgs, a.pairing, report.findings, a.dialect, page_size=page_size)


PARALLEL = [
    {"role": "user", "content": "weather in Paris and Tokyo?"},
    {"role": "assistant", "content": None, "tool_calls": [call("c1", "wx"), call("c2", "wx"), call("c3", "book")]},
    {"role": "tool", "tool_call_id": "c1", "content": "18C"},
    {"role": "tool", "tool_call_id": "c2", "content": "22C"},
    {"role": "user", "content": "thanks"},
]


def test_page_has_a_card_per_message_and_a_connector_per_answered_call():
    d = model(PARALLEL).page(0)
    cards = [it for it in d["items"] if "i" in it]
    assert [c["i"] for c in cards] == [0, 1, 2, 3, 4]
    assert [c["role"] for c in cards] == ["user", "assistant", "tool", "tool", "user"]
    real = [l for l in d["links"] if "ghost" not in l]
    assert {(l["id"], l["from"], l["to"], l["st"]) for l in real} == {("c1", 1, 2, "ok"), ("c2", 1, 3, "ok")}


def test_missing_result_gets_a_ghost_card_after_the_block_and_a_marker_on_the_call():
    d = model(PARALLEL).page(0)
    ghosts = [it for it in d["items"] if "ghost" in it]
    assert [(g["id"], g["call"], g["after"]) for g in ghosts] == [("c3", 1, 3)]
    order = [it.get("i", "ghost") for it in d["items"]]
    assert order == [0, 1, 2, 3, "ghost", 4]
    assert ("TC001", "error") in d["items"][1]["marks"]
    assert d["items"][1]["sev"] == "error"


def test_parallel_calls_fan_out_on_separate_lanes():
    d = model(PARALLEL).page(0)
    lanes = [l["lane"] for l in d["links"]]
    assert len(set(lanes)) == 3  # three calls in flight at once: three lanes
    assert d["lanes"] == 3


def test_orphan_and_duplicate_results_are_marked_on_their_cards():
    items = [
        {"role": "assistant", "content": None, "tool_calls": [call("a")]},
        {"role": "tool", "tool_call_id": "a", "content": "1"},
        {"role": "tool", "tool_call_id": "a", "content": "1 again"},
        {"role": "tool", "tool_call_id": "zzz", "content": "stray"},
    ]
    d = model(items).page(0)
    cards = {it["i"]: it for it in d["items"] if "i" in it}
    assert ("TC005", "error") in cards[2]["marks"]
    assert ("TC002", "error") in cards[3]["marks"]
    assert cards[3]["results"][0].orphan == 1  # orphan flag on the result chip
    assert {l["st"] for l in d["links"]} == {"ok", "duplicate"}


def test_a_connector_leaving_the_page_ends_in_a_stub_naming_the_other_end():
    items = [{"role": "user", "content": "go"}, {"role": "assistant", "content": None, "tool_calls": [call("x")]}]
    items += [{"role": "user", "content": f"n{i}"} for i in range(5)]
    items += [{"role": "tool", "tool_call_id": "x", "content": "late"}]  # displaced, at index 7
    m = model(items, page_size=4)
    assert m.pages == 2
    first, second = m.page(0), m.page(1)
    (l1,) = [l for l in first["links"] if "ghost" not in l]
    assert l1["stub"] == {"end": "to", "dir": "down", "other": 7, "page": 2}
    assert l1["st"] == "displaced"
    (l2,) = [l for l in second["links"] if "ghost" not in l]
    assert l2["stub"] == {"end": "from", "dir": "up", "other": 1, "page": 1}
    assert m.page_of(7) == 1


def test_page_size_bounds_the_cards_sent_whatever_the_length():
    items = []
    for k in range(2000):
        items += [{"role": "assistant", "content": None, "tool_calls": [call(f"c{k}")]},
                  {"role": "tool", "tool_call_id": f"c{k}", "content": "ok"}]
    m = model(items, page_size=250)
    d = m.page(7)
    assert len(d["items"]) == 250
    assert d["start"] == 1750 and d["end"] == 2000
    assert len(d["overview"]) == 160


def test_overview_points_at_the_worst_problem_of_each_slice():
    items = [{"role": "user", "content": "x"} for _ in range(20)]
    items[13] = {"role": "tool", "tool_call_id": "nope", "content": "stray"}
    ov = model(items).overview(buckets=4)
    assert [(b.first, b.last) for b in ov] == [(0, 4), (5, 9), (10, 14), (15, 19)]
    assert ov[2].worst == 3 and ov[2].target == 13  # error rank, jump target
    assert ov[0].worst == 0


def test_assign_lanes_reuses_a_lane_once_free():
    assert assign_lanes([(0, 2), (1, 3), (3, 5), (4, 4)]) == [0, 1, 0, 1]
    assert assign_lanes([]) == []


def test_preview_text_reads_any_dialect_and_stays_short():
    assert preview_text({"role": "user", "content": "hello\n\n  world"}) == "hello world"
    anth = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "42"},
                                        {"type": "text", "text": "and more"}]}
    assert preview_text(anth) == "42 and more"
    gem = {"role": "model", "parts": [{"text": "hi"}, {"functionCall": {"name": "f", "args": {}}}]}
    assert preview_text(gem).startswith("hi")
    long = preview_text({"content": "x" * 5000})
    assert len(long) == 280 and long.endswith("…")


def test_hostile_text_is_passed_through_as_plain_strings():
    evil = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    d = model([{"role": "user", "content": evil}]).page(0)
    assert d["items"][0]["text"] == evil  # the component puts it in with textContent


def test_component_assets_are_real_files_without_innerhtml():
    js, css = script("timeline.js") + asset("compare.js"), asset("timeline.css") + asset("compare.css")
    assert js.count("\n") > 50 and css.count("\n") > 20
    assert "innerHTML" not in js.replace("No innerHTML", "")
    assert "insertAdjacentHTML" not in js


def test_a_turn_folds_an_assistant_message_with_the_results_after_it():
    """Issue 36: a turn (the call message and the result messages right after it) is one fold; a
    fold cut by the page's edge is not offered; card text keeps its newlines, search's does not."""
    items = [{"role": "user", "content": "go"}]
    for k in range(4):
        items += [{"role": "assistant", "content": None, "tool_calls": [call(f"c{k}", "bash")]},
                  {"role": "tool", "tool_call_id": f"c{k}", "content": f"line one\n\n\n  line   two {k}"}]
    items.append({"role": "assistant", "content": "done"})
    m = model(items, page_size=4)
    turns = m.turns()
    assert [(t.first, t.last) for t in turns] == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert turns[0].label == "assistant · 1 call: bash · 1 result" and turns[0].kind == "turn"
    assert [(f.first, f.last) for f in m.page(0)["folds"]] == [(1, 2)]  # (3, 4) crosses into page 2
    assert [(f.first, f.last) for f in m.page(1)["folds"]] == [(5, 6)]
    card = next(it for it in m.page(0)["items"] if it.get("i") == 2)
    assert card["text"] == "line one\n\nline two 0"
    assert preview_text(items[2]) == "line one line two 0"


def test_a_folded_turn_names_the_rule_codes_inside_it_worst_first_with_counts():
    """Issue 36: a folded row says which rules broke inside it (with counts), errors first, so an
    error folded away is never hidden; a turn without findings names none."""
    items = [{"role": "user", "content": "go"},
             {"role": "assistant", "content": None, "tool_calls": [call("a", "ls"), call("b", "ls"), call("c", "ls")]},
             {"role": "tool", "tool_call_id": "a", "content": "x"},
             {"role": "tool", "tool_call_id": "zz", "content": "stray"},
             {"role": "tool", "tool_call_id": "yy", "content": "stray"},
             {"role": "user", "content": "next"},
             {"role": "assistant", "content": None, "tool_calls": [call("d", "ls")]},
             {"role": "tool", "tool_call_id": "d", "content": "ok"},
             {"role": "assistant", "content": "done"}]
    m = model(items)
    report, _ = check_document(inspector.load(items))
    inside = [f for f in report.findings if 1 <= f.message_index <= 4]
    assert inside and any(f.severity == "error" for f in inside)
    broken, clean = m.turns()
    assert (broken.first, broken.last, clean.first, clean.last) == (1, 4, 6, 7)
    per: dict[str, int] = {}
    for f in inside:
        per[f.code] = per.get(f.code, 0) + 1
    for code, n in per.items():
        assert (f"{code} ×{n}" if n > 1 else code) in broken.codes.split(", ")
    assert len(broken.codes.split(", ")) == len(per)
    worst_first = [c.split(" ")[0] for c in broken.codes.split(", ")]
    sev = {f.code: f.severity for f in inside if f.severity == "error"}
    assert worst_first[0] in sev  # an error's code leads
    assert clean.codes == "" and clean.sev == ""
    assert m.page(0)["folds"][0].codes == broken.codes  # sent with the page
