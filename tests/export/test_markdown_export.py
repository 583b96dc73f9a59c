"""The Markdown transcript: calls shown with their results, and hostile text kept literal."""

from __future__ import annotations

from support.transcripts import asst, call, reply, tool, user

import inspector
from inspector.export import code, to_markdown


def test_calls_are_shown_with_their_results_even_out_of_order():
    msgs = [user("q"), asst(call("call_1", "get_weather", {"city": "Oslo"}), call("call_2", "search_web")),
            tool("call_2", "found it"), tool("call_1", "rain"), reply("done")]
    md = to_markdown(inspector.load(msgs))
    first = md.index("**Tool call** `get_weather`")
    assert md.index("rain") > first and md.index("rain") < md.index("**Tool call** `search_web`")
    assert '"city": "Oslo"' in md
    assert "*Result for call `call_1` of message #1, shown there.*" in md


def test_missing_and_orphan_results_are_said():
    msgs = [user("q"), asst(call("call_1")), tool("ghost", "boo"), user("z")]
    md = to_markdown(inspector.load(msgs))
    assert "*No result for this call.*" in md
    assert "Result for call `ghost`, which no call in this transcript made:" in md


def test_transcript_text_cannot_break_out_of_its_fence():
    evil = "```\n# Heading\n<script>alert(1)</script>\n````"
    md = to_markdown(inspector.load([user(evil), {"role": "a`b", "content": "x"}]))
    fence = "`````"  # one longer than the longest run of backticks in the text
    assert f"{fence}\n{evil}\n{fence}" in md
    assert code("a`b") == "``a`b``"
    assert "\n# Heading" not in md.replace(f"{fence}\n{evil}", "")


def test_report_section_lists_changes_and_unfixed():
    msgs = [user("q"), asst(call("call_1")), user("z")]
    result = inspector.repair(msgs)
    md = to_markdown(result.document, result.report)
    assert md.startswith("# Repair for target `openai`")
    assert "`insert_placeholder`" in md and "Errors before: 1, after: 0." in md
