"""Real transcripts from public projects, judged as ``../shared/corpus/expected.json`` says.

New corpus files are picked up from expected.json. The corpus sits beside the clone (CI has it);
the test is skipped with a reason when it is absent.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import inspector

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
EXPECTED = CORPUS / "expected.json"
PAIRING = ("TC001", "TC002", "TC003", "TC004", "TC005", "TC006", "TC008", "TC024")
# Every family of expected.json is read now (openai-chat and its log containers, anthropic and
# Claude Code logs, Responses, Gemini); a new family would need its dialect first.
READ_FAMILIES = {"openai", "inspect", "letta", "swe", "anthropic", "claude", "responses", "gemini"}


def _entries():
    if not EXPECTED.exists():
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=f"corpus not found at {CORPUS}"))]
    data = json.loads(EXPECTED.read_text())
    return [
        pytest.param(name, spec, id=name)
        for name, spec in data.items()
        if not name.startswith("_") and READ_FAMILIES & set(spec.get("family", []))
    ]


@pytest.mark.parametrize("name,spec", _entries())
def test_corpus_file_is_judged_as_expected(name, spec):
    path = CORPUS / name
    if spec.get("parse_only"):
        proc = subprocess.run(
            [sys.executable, "-m", "inspector", "check", str(path), "--format", "json"],
            capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode in (0, 1, 2), proc.stderr
        if proc.returncode == 2:
            assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
        else:
            assert any(word in json.loads(proc.stdout)["dialect"] for word in spec["family"]), proc.stdout[:300]
        return
    report = inspector.check(path, target=spec.get("target"))
    assert any(word in report.dialect for word in spec["family"]), report.dialect
    counts = Counter(f.code for f in report.findings)
    if spec.get("pairing_clean"):
        assert not [c for c in PAIRING if counts[c]], counts
    if spec.get("no_errors"):
        assert report.ok, [f.text for f in report.findings if f.severity == "error"]
    for code, least in spec.get("require", {}).items():
        assert counts[code] >= least, (code, counts)
    for code in spec.get("forbid", []):
        assert not counts[code], (code, counts)
    for group in spec.get("require_any", []):
        assert any(counts[c] for c in group), (group, counts)
