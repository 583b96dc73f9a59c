"""Harness-patch notes (issue 32): where the harness version a log names is known to patch a break
before it sends the history, the finding says so and is a note naming the version; it is never
hidden. Codex CLI from 0.48.0 on answers a call left open with an ``aborted`` output and drops an
output whose call is gone (openai/codex#5473, ``ConversationHistory.normalize_history``, merged
2025-10-21; docs/provider-evidence.md). Earlier versions sent such histories and were refused
("No tool output found for function call", openai/codex#394 and #825 of April-May 2025)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector
from inspector.dialects.codex import DIALECT as CODEX
from inspector.dialects.harness_patches import PATCHES, parse_version, patch_for


def _rollout(version: str | None, rows: list[dict] | None = None) -> str:
    rows = [dict(r) for r in (rows or CODEX.samples.broken)]
    payload = dict(rows[0]["payload"])
    if version is None:
        payload.pop("cli_version", None)
    else:
        payload["cli_version"] = version
    rows[0] = {**rows[0], "payload": payload}
    return "".join(json.dumps(r) + "\n" for r in rows)


@pytest.mark.parametrize(("text", "want"), [("0.48.0", (0, 48, 0)), ("v0.50", (0, 50, 0)),
                                             ("0.60.1-alpha.2", (0, 60, 1)), ("dev", None), (None, None)])
def test_versions_are_read_as_numbers(text, want):
    assert parse_version(text) == want


def test_before_the_patch_the_open_call_is_an_error():
    report = inspector.check(_rollout("0.47.0"))
    assert [(f.code, f.severity) for f in report.findings] == [("TC001", "error")] and not report.ok


@pytest.mark.parametrize("version", ["0.48.0", "0.60.1-alpha.2"])
def test_from_the_patch_on_the_open_call_is_a_note_naming_the_version(version):
    report = inspector.check(_rollout(version))
    (f,) = report.findings
    assert (f.code, f.severity) == ("TC001", "info") and report.ok
    assert f"Codex CLI {version} (the version this log names) inserts an 'aborted' output" in f.text
    assert "openai/codex#5473" in f.text
    assert f.text.startswith("Message #1 calls tool 'shell' (id call_Rk3x), but no result")  # the break still said


def test_an_orphan_output_is_a_note_too_and_an_unnamed_version_changes_nothing():
    rows = [*CODEX.samples.clean[:3], {"timestamp": "t", "type": "response_item", "payload": {
        "type": "function_call_output", "call_id": "call_gone", "output": "x"}}]
    patched = inspector.check(_rollout("0.50.0", rows))
    assert [(f.code, f.severity) for f in patched.findings] == [("TC002", "info")]
    assert "drops an output whose call is not in the history" in patched.findings[0].text
    plain = inspector.check(_rollout(None, rows))
    assert [(f.code, f.severity) for f in plain.findings] == [("TC002", "error")]


def test_repair_leaves_what_the_harness_fixes_itself(tmp_path):
    path = tmp_path / "rollout.jsonl"
    path.write_text(_rollout("0.50.0"))
    res = inspector.repair(str(path))
    assert res.report.ok and not res.report.changes
    assert res.output == path.read_bytes()


def test_every_door_says_the_same(tmp_path):
    from test_differential import _agree

    path = tmp_path / "rollout-0.50.0.jsonl"
    path.write_text(_rollout("0.50.0"))
    assert _agree(path, [])


def test_the_table_names_its_evidence_and_date():
    for p in PATCHES:
        assert p.evidence and p.date[:4].isdigit() and p.codes and p.since
    assert patch_for("codex", (0, 47, 9), "TC001") is None
    assert patch_for("codex", (0, 48, 0), "TC001") is not None
    assert patch_for("codex", (1, 0, 0), "TC005") is None
    assert patch_for("copilot", (9, 9, 9), "TC001") is None


# Google ADK (issue 32): ``_get_contents`` drops an orphan function response from google-adk 2.7.0 on and a
# function call no response answers from 2.10.0 on (read in the released wheels, 2026-11-27;
# docs/provider-evidence.md). ADK's events name no version, so a session is judged as recorded and the
# finding says what those releases do; given a version (as a log of a harness that names one would),
# the same table lowers it.
ADK_DB = Path(__file__).resolve().parents[1] / "reading" / "adk_real"


def test_the_adk_rows_start_where_the_released_code_does():
    assert patch_for("adk", (2, 9, 2), "TC001") is None and patch_for("adk", (2, 10, 0), "TC001") is not None
    assert patch_for("adk", (2, 6, 3), "TC002") is None and patch_for("adk", (2, 7, 0), "TC002") is not None
    assert patch_for("adk", (2, 13, 0), "TC003") is None


def test_an_adk_session_names_no_version_so_the_break_stays_an_error_that_says_what_adk_does():
    report = inspector.check(str(ADK_DB / "session.db"))
    (f,) = report.findings
    assert (f.code, f.severity) == ("TC001", "error") and not report.ok
    assert "From 2.10.0 on, Google ADK drops a function call that no function response answers" in f.text
    assert "this log names no Google ADK version, so it is judged as recorded" in f.text
    (g,) = inspector.check(str(ADK_DB / "orphan_response.db")).findings
    assert (g.code, g.severity) == ("TC002", "error") and "From 2.7.0 on, Google ADK drops a function response" in g.text


def _adk_issues(db: str, version: str):
    from inspector.checking import analyse
    from inspector.dialects.adk import DIALECT as ADK
    from inspector.rules.catalogue import severity

    doc = inspector.load(str(ADK_DB / db))
    t = doc.transcripts[-1]
    t.extra["harness"] = ("adk", version)
    return [(i.code, severity(i.code, "gemini", i.data.get("kind")), i.say or "") for i in analyse(t, "gemini", ADK).issues]


@pytest.mark.parametrize(("db", "code", "first", "before"), [("session.db", "TC001", "2.10.0", "2.9.2"),
                                                             ("orphan_response.db", "TC002", "2.7.0", "2.6.3")])
def test_a_named_adk_version_is_lowered_from_the_release_that_patches_and_not_before(db, code, first, before):
    ((c, sev, say),) = _adk_issues(db, first)
    assert (c, sev) == (code, "info") and f"Google ADK {first} (the version this log names) drops" in say
    ((c, sev, say),) = _adk_issues(db, before)
    assert (c, sev) == (code, "error") and "drops" not in say
