"""One message, one text: the timeline preview, the detail pane and the Markdown export all show
what the dialect's ``text`` reads, for every dialect. The case that used to disagree: an
Anthropic user message holding a ``tool_result`` with a text block and then a text block (the
preview showed only "and more", the export a JSON dump, the detail pane nothing)."""

from __future__ import annotations

import json
import re

from support.app_test import app, component_data, upload

import inspector
from inspector.dialects import all_dialects
from inspector.export import to_markdown

ANTHROPIC = [
    {"role": "user", "content": "What is six times seven?"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "calc", "input": {"q": "6*7"}}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "42"}]},
        {"type": "text", "text": "and more"}]},
    {"role": "assistant", "content": "It is 42."},
]


def test_anthropic_result_with_text_reads_the_same_in_preview_detail_and_export():
    at = upload(app(), "anthropic.json", json.dumps(ANTHROPIC).encode())
    at.query_params["m"] = "2"
    at.run()
    assert not at.exception
    cards = {c["i"]: c for c in component_data(at)["items"]}
    assert cards[2]["text"] == "42\nand more"  # the card keeps the lines too (issue 36)
    assert "42\nand more" in [c.value for c in at.code]
    assert "```\n42\nand more\n```" in to_markdown(inspector.load(ANTHROPIC))


def test_every_dialect_shows_its_sample_text_in_the_app():
    for d in all_dialects():
        data = json.dumps(d.samples.clean)
        at = upload(app(), f"{d.name}.json", data.encode())
        at.query_params["m"] = str(d.samples.text_at)
        at.run()
        assert not at.exception, d.name
        doc = inspector.load(data)
        t = doc.transcripts[0]
        text = d.text(d.read(t.items, t.path, [])[d.samples.text_at].raw)
        cards = {c["i"]: c for c in component_data(at)["items"]}
        # Each line's spaces folded, the lines kept, blank lines at most one in a row (issue 36).
        lines = re.sub(r"\n{3,}", "\n\n", "\n".join(" ".join(line.split()) for line in text.strip().splitlines()))
        assert cards[d.samples.text_at]["text"] == lines, d.name
        assert text in [c.value for c in at.code], d.name
