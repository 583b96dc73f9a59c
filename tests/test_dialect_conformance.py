"""The contract every registered dialect keeps, tested on the dialect's own ``samples``
(``dialects/base.py`` says how a dialect provides them). A new dialect is under this suite as soon
as it is registered: nothing here names a dialect.

For each: its samples are detected as it; ``text`` is non-empty on a message that has text and is
what the timeline preview, the detail pane and the Markdown export show; the clean sample checks
without error or warning for the default target and the broken one has an error; repair of the
broken sample checks clean, loses no string of the input, keeps the dialect and is idempotent;
repair of the clean sample gives back the very same bytes.
"""

from __future__ import annotations

import json

import pytest

import inspector
from dialect_asserts import strings
from inspector.dialects import all_dialects
from inspector.export import to_markdown
from inspector.render import preview_text

DIALECTS = all_dialects()


def as_text(dialect, doc) -> str:
    """The sample as a file's text (JSON Lines for a list of log entries, as they are written)."""
    if dialect.samples.jsonl:
        return "".join(json.dumps(e) + "\n" for e in doc)
    return json.dumps(doc, indent=2)


@pytest.fixture(params=DIALECTS, ids=[d.name for d in DIALECTS])
def dialect(request):
    d = request.param
    assert d.samples is not None, f"dialect {d.name} registers no conformance samples"
    return d


def test_the_samples_are_detected_as_the_dialect(dialect):
    for doc in (dialect.samples.clean, dialect.samples.broken):
        report = inspector.check(as_text(dialect, doc))
        assert report.dialect == dialect.name
        assert report.target == dialect.default_target


def test_text_is_one_reading_shown_everywhere(dialect):
    doc = inspector.load(as_text(dialect, dialect.samples.clean))
    t = doc.transcripts[0]
    msgs = dialect.read(t.items, t.path, [])
    raw = msgs[dialect.samples.text_at].raw
    text = dialect.text(raw)
    assert text.strip()
    assert preview_text(raw, text=dialect.text) == " ".join(text.split())[:280]
    assert text in to_markdown(doc)


def test_the_clean_sample_checks_clean_and_the_broken_one_does_not(dialect):
    clean = inspector.check(as_text(dialect, dialect.samples.clean))
    assert [f.code for f in clean.findings if f.severity in ("error", "warning")] == []
    broken = inspector.check(as_text(dialect, dialect.samples.broken))
    assert any(f.severity == "error" for f in broken.findings)


def test_repair_is_lossless_idempotent_and_keeps_the_dialect(dialect):
    assert dialect.editor is not None, f"{dialect.name} has no editor: repair would say it is unavailable"
    data = as_text(dialect, dialect.samples.broken)
    fixed = inspector.repair(data)
    after = inspector.check(fixed.output)
    assert after.dialect == dialect.name
    assert after.ok, [f.text for f in after.findings if f.severity == "error"]
    assert fixed.report.ok, fixed.report.unfixed
    lost = strings(inspector.load(data).root) - (strings(fixed.data) | strings(fixed.report.model_dump()))
    assert not lost, lost
    again = inspector.repair(fixed.output)
    assert again.report.changes == [] and again.output == fixed.output


def test_repair_of_a_clean_file_gives_back_the_same_bytes(dialect):
    assert dialect.editor is not None, f"{dialect.name} has no editor: repair would say it is unavailable"
    data = as_text(dialect, dialect.samples.clean).encode()
    fixed = inspector.repair(data)
    assert fixed.output == data and fixed.report.changes == []
