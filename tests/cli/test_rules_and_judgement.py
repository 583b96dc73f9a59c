"""``inspector rules`` (the catalogue as ``ruff rule`` prints it) and the check's request-or-log
judgement on the command line: ``--as-request``, "judged as" in the summary, and the evidence of a
finding on its hint line and in the JSON (issue 31)."""

from __future__ import annotations

import json

from tests.support.cli_process import run

ENDS_ON_CALL = [
    {"role": "user", "content": "weather in Paris?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "abcDEF123", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
]


def test_rules_prints_one_rule_with_its_severities_words_evidence_and_repair():
    proc = run("rules", "TC022", "--target", "mistral")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert out.startswith("# pending_trailing_call (TC022)")
    assert "a request about to be sent that ends on unanswered calls: mistral error" in out
    assert "Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant" in out
    assert "2026-10-04" in out and "Repair:" in out


def test_rules_for_a_model_says_the_case_for_that_model():
    accepted = json.loads(run("rules", "TC024", "--target", "anthropic", "--model", "claude-opus-4-8",
                              "--format", "json").stdout)
    refused = json.loads(run("rules", "TC024", "--target", "anthropic", "--model", "claude-sonnet-4-5",
                             "--format", "json").stdout)
    unknown = json.loads(run("rules", "TC024", "--target", "anthropic", "--format", "json").stdout)
    case = {c["case"]: c for c in accepted["cases"]}
    assert "system_misplaced" in case and "TC019" in case["system_misplaced"]["note"]
    assert {c["case"]: c["severity"] for c in refused["cases"]}["system_refused"] == {"anthropic": "error"}
    assert {c["case"]: c["severity"] for c in unknown["cases"]}["system_model_unknown"] == {"anthropic": "warning"}


def test_rules_lists_every_case_a_rule_has_words_or_severities_for():
    """TC012's call with no name at all is a finding of its own kind; ``inspector rules TC012`` left it out."""
    from inspector.rules.catalogue import RULE

    every = {r["code"]: r for r in json.loads(run("rules", "--format", "json").stdout)}
    for code, rule in RULE.items():
        listed = {c["case"] for c in every[code]["cases"]}
        assert set(rule.said_by_kind) <= listed, (code, set(rule.said_by_kind) - listed)
    out = run("rules", "TC012").stdout.decode()
    assert "a tool call with no name at all (the key missing, or null), not an empty one" in out


def test_rules_lists_every_code_and_refuses_an_unknown_one():
    every = json.loads(run("rules", "--format", "json").stdout)
    assert [r["code"] for r in every] == [f"TC{k:03d}" for k in range(1, 27)]
    bad = run("rules", "TC999")
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1 and "TC999" in bad.stderr.decode()


def test_check_says_request_or_log_and_as_request_turns_a_log_into_a_request(tmp_path):
    path = tmp_path / "ends.json"
    path.write_text(json.dumps(ENDS_ON_CALL))
    log = run("check", path, "--target", "mistral")
    assert log.returncode == 0, log.stderr
    assert "judged as a log" in log.stdout.decode()
    req = run("check", path, "--target", "mistral", "--as-request")
    assert req.returncode == 1
    text = req.stdout.decode()
    assert "judged as a request (as asked (--as-request))" in text
    assert "mistral says: Expected last role User or Tool" in text
    assert "(evidence: live probe of La Plateforme" in text  # the hint line carries the evidence
    out = json.loads(run("check", path, "--target", "mistral", "--as-request", "--format", "json").stdout)
    assert out["judged_as"] == "request"
    (f,) = out["findings"]
    assert f["evidence"] == {"source": ("live probe of La Plateforme (rules.md); 0xPlaygrounds/rig#708; DeepSeek: "
                                        "modelscope/ms-agent#909, #910"), "date": "2026-10-04"}
