"""The pytest plugin, run with ``pytester`` over real cassettes copied verbatim from public test
suites (tests/cassettes/README.md), and ``inspector.testing.assert_accepted``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.testing import assert_accepted

pytest_plugins = ["pytester"]

CASSETTES = Path(__file__).resolve().parents[1] / "cassettes" / "pydantic-ai"


@pytest.fixture
def suite(pytester):
    shutil.copytree(CASSETTES, pytester.path / "tests" / "cassettes")
    return pytester


def test_off_unless_asked(suite):
    result = suite.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes()  # no cassette became a test
    assert "interaction" not in result.stdout.str()


def test_real_cassettes_pass_and_recorded_refusals_are_found(suite):
    result = suite.runpytest_subprocess("--inspector-cassettes", "-p", "no:cacheprovider", "-rA")
    # 8 recorded chat requests: 6 accepted (the check agrees), 2 refused (the check finds both)
    result.assert_outcomes(passed=8)
    out = result.stdout.str()
    assert "inspector: recorded refusals" in out
    for where in ("test_deepseek_responses_rejects_interleaved_function_calls.yaml::interaction 0 (line 2)",
                  "test_openai_responses_thinking_with_modified_history.yaml::interaction 1 (line 131)"):
        # the provider's recorded words are our finding's: it points at the message the provider means
        assert f"{where}: recorded refusal found; our finding points at the message the provider names: yes" in out


def test_a_request_recorded_as_accepted_that_the_target_refuses_fails_with_file_and_line(suite):
    # The DeepSeek cassette as if the provider had said 200: the request is the same broken one.
    src = suite.path / "tests" / "cassettes" / "test_deepseek_responses" / \
        "test_deepseek_responses_rejects_interleaved_function_calls.yaml"
    text = src.read_text().replace("code: 400", "code: 200")
    (src.parent / "accepted.yaml").write_text(text)
    result = suite.runpytest_subprocess("--inspector-cassettes", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=8, failed=1)
    result.stdout.fnmatch_lines([("*accepted.yaml:2: POST https://api.deepseek.com/responses: recorded as accepted "
                                  "(HTTP 200), but DeepSeek would reject this request: 1 error.*")])


def test_assert_accepted():
    assert_accepted([{"role": "user", "content": "hi"}], target="openai")
    with pytest.raises(AssertionError) as info:
        assert_accepted([{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "c1", "content": "x"}],
                        target="openai")
    text = str(info.value)
    assert text.startswith("OpenAI would reject this request")
    assert "openai says: Invalid parameter: messages with role 'tool' must be a response to a preceeding message" in text
