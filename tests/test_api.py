"""The Python API: what ``import inspector`` offers, and what ``check`` and ``load`` return."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def test_exported_names_are_exactly_all():
    public = {n for n in dir(inspector) if not n.startswith("_")}
    for name in inspector.__all__:
        assert getattr(inspector, name) is not None, name
    # every public callable or type the package offers is listed in __all__
    modules = {n for n in public if type(getattr(inspector, n)).__name__ == "module"}
    assert public - modules - {"annotations"} <= set(inspector.__all__)


def test_check_returns_a_pydantic_report_from_any_source():
    path = SAMPLES / "duplicate_tool_reply.json"
    msgs = json.loads(path.read_text())
    for source in (path, str(path), path.read_bytes(), path.read_text(), msgs, {"model": "m", "messages": msgs}):
        report = inspector.check(source)
        assert isinstance(report, inspector.Report)
        assert [f.code for f in report.findings] == ["TC005"]
        assert isinstance(report.findings[0], inspector.Finding)
        assert report.model_dump()["findings"][0]["provider_error"].startswith("Invalid parameter: Duplicate value")


def test_load_keeps_the_raw_dicts_untouched():
    msgs = [{"role": "user", "content": "hi", "x-custom": {"keep": [1, 2]}}]
    doc = inspector.load(msgs)
    assert doc.transcripts[0].items is msgs
    inspector.check(doc)
    assert msgs == [{"role": "user", "content": "hi", "x-custom": {"keep": [1, 2]}}]


def test_unreadable_input_raises_input_error_with_location():
    with pytest.raises(inspector.InputError) as exc:
        inspector.check('[{"role": "user"},\n {"role": }]')
    assert str(exc.value).startswith("line 2 column 11:")


def test_jsonl_error_names_the_line():
    text = '{"role": "user", "content": "a"}\n{"role": "assistant", "content": "b"}\n{"role": "tool" "x"}\n'
    with pytest.raises(inspector.InputError) as exc:
        inspector.load(text)
    assert str(exc.value) == "line 3 column 17: Expecting ',' delimiter"


def test_unknown_target_and_mismatched_target_are_input_errors():
    with pytest.raises(inspector.InputError, match="unknown target 'gpt'"):
        inspector.check([], target="gpt")


def test_the_plain_findings_dict_and_the_public_finding_have_the_same_fields():
    from inspector.checking import FindingDict
    from inspector.report import Finding

    assert list(FindingDict.__annotations__) == list(Finding.model_fields)
    report = inspector.check([{"role": "tool", "tool_call_id": "x", "content": "hi"}])
    assert list(report.findings[0].model_dump()) == list(FindingDict.__annotations__)
