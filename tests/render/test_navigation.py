"""What the timeline needs to find and follow (issue 12): call chips' first argument, links
from chips to the other end, whole-transcript search, filters, findings in order, tool errors."""

from __future__ import annotations

import json

import inspector
from inspector.checking import check_document
from inspector.render import TimelineModel
from inspector.render.layout import first_string_arg


def call(cid, name="bash", **args):
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def model(items, page_size=300):
    report, (a,) = check_document(inspector.load(items))
    return TimelineModel(a.msgs, a.pairing, report.findings, a.dialect, page_size=page_size)


ITEMS = [
    {"role": "user", "content": "Fix the failing test"},
    {"role": "assistant", "content": None, "tool_calls": [call("call_a", command="git diff --stat")]},
    {"role": "tool", "tool_call_id": "call_a", "content": "src/app.py | 2 +-"},
    {"role": "assistant", "content": None, "tool_calls": [call("call_b", "read_file", path="src/app.py")]},
    {"role": "tool", "tool_call_id": "call_b", "content": "def main(): ..."},
    {"role": "tool", "tool_call_id": "call_zz", "content": "stray"},
    {"role": "assistant", "content": "Done. The diff was small."},
]


def test_first_string_argument_in_every_shape():
    assert first_string_arg('{"command": "ls  -la\\n  /tmp"}') == "ls -la /tmp"
    assert first_string_arg({"timeout": 3, "path": "a.py"}) == "a.py"
    assert first_string_arg({"opts": {"q": "weather"}}) == "weather"
    assert first_string_arg("not json at all") == "not json at all"
    assert first_string_arg('{"n": 1}') == ""
    long = first_string_arg({"c": "x" * 500})
    assert len(long) == 72 and long.endswith("…")


def test_chips_carry_the_argument_and_the_other_end():
    items = model(ITEMS).page(0)["items"]
    cards = {it["i"]: it for it in items if "i" in it}
    assert cards[1]["calls"][0].arg == "git diff --stat"
    assert cards[1]["calls"][0].result_at == 2  # the call leads to its result
    assert cards[2]["results"][0].call_at == 1  # and the result back to the call
    assert cards[5]["results"][0].call_at == -1  # an orphan leads nowhere


def test_search_over_text_tool_id_arguments_and_role():
    m = model(ITEMS)
    assert m.search("git diff") == [1]
    assert m.search("read_file") == [3, 4]  # the call, and the result named by its call
    assert m.search("id:call_zz") == [5]
    assert m.search("role:user") == [0]
    assert m.search("diff") == [1, 6]  # arguments and text
    assert m.search('"the diff"') == [6]
    assert m.search("  ") == []
    assert m.search("DIFF tool:bash") == [1]


def test_filters_keep_messages_with_findings_or_one_tool():
    m = model(ITEMS)
    assert m.filtered(False, None) is None
    assert m.filtered(True, None) == m.finding_indexes == [5]
    assert m.filtered(False, "read_file") == [3, 4]
    assert dict(m.tool_names()) == {"bash": 1, "read_file": 1}


def test_claude_code_cards_show_time_and_tokens():
    from pathlib import Path

    path = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "anthropic" / "claude-code-log_representative_messages.jsonl"
    report, analyses = check_document(inspector.load(str(path)))
    a = analyses[0]
    m = TimelineModel(a.msgs, a.pairing, report.findings, a.dialect, items=a.transcript.items)
    card = m.page(0)["items"][1]
    assert card["meta"] == "10:00:30 · 25 in / 120 out tokens"
    assert m.meta(1, full=True).startswith("2025-06-14T10:00:30+00:00")
    assert model(ITEMS).page(0)["items"][0]["meta"] == ""  # a plain OpenAI list has none
