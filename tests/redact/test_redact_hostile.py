"""Issue 15: hostile input to the secret scan. Linear time whatever the text or the pattern, and
masking that works on string values so the shared file always parses.

The time limits here are generous on purpose: the old backtracking scan took 57 s on 385 KB of
headers and would take hours on the 4 MB used here; a linear scan takes a fraction of a second.
"""

from __future__ import annotations

import json
import time

import pytest

from inspector.sharing.redact import PatternError, Redactor

R = Redactor.build()
AWS = "AKIAIOSFODNN7EXAMPLE"
GENEROUS = 20.0  # seconds; a linear scan needs well under one on these inputs


def _timed(fn, *args):
    t = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - t


def test_private_key_headers_without_end_scan_in_linear_time():
    # ~4 MB in one string: each header starts a match that never finds its END
    data = json.dumps([{"role": "user", "content": "-----BEGIN PRIVATE KEY-----" * 150_000}]).encode()
    assert len(data) > 4_000_000
    found, took = _timed(R.scan, data)
    assert found == [] and took < GENEROUS


def test_many_headers_across_many_strings():
    msgs = [{"role": "user", "content": "-----BEGIN RSA PRIVATE KEY-----\nabc" * 20} for _ in range(5000)]
    found, took = _timed(R.scan, json.dumps(msgs).encode())
    assert found == [] and took < GENEROUS


def test_line_counting_is_linear_with_80000_keys():
    # one line (minified) and one key per line: line and column stay exact, in one pass
    one_line = json.dumps([{"role": "user", "content": f"k {AWS}"} for _ in range(80_000)]).encode()
    found, took = _timed(R.scan, one_line)
    assert len(found) == 80_000 and took < GENEROUS
    last = found[-1]
    assert last.line == 1 and one_line.decode()[last.start:last.end] == AWS
    many_lines = json.dumps([{"role": "user", "content": f"k {AWS}"} for _ in range(80_000)], indent=1).encode()
    found, took = _timed(R.scan, many_lines)
    assert len(found) == 80_000 and took < GENEROUS
    text = many_lines.decode()
    assert text.splitlines()[found[-1].line - 1][found[-1].column - 1:].startswith(AWS)


def test_catastrophic_user_pattern_runs_in_linear_time():
    r = Redactor.build([r"(a+)+$"])
    data = json.dumps([{"role": "user", "content": "a" * 200_000 + "!"}]).encode()
    found, took = _timed(r.scan, data)
    assert found == [] and took < GENEROUS


@pytest.mark.parametrize("pattern", [r"(?<=key=)\w+", r"(\w)\1{8}", r"secret(?!ive)"])
def test_pattern_needing_backtracking_is_refused_with_the_reason(pattern):
    with pytest.raises(PatternError, match="linear time") as exc:
        Redactor.build([pattern])
    assert repr(pattern) in str(exc.value)


def test_too_many_patterns_are_refused():
    with pytest.raises(PatternError, match="more than"):
        Redactor.build([f"x{i}" for i in range(1000)])


def test_pattern_spanning_quotes_masks_inside_the_value_and_the_result_parses():
    doc = {"messages": [{"role": "user", "content": "password=hunter2", "x": "tail"}]}
    data = json.dumps(doc).encode()
    r = Redactor.build([r"password=\S+"])
    masked = r.mask(data)
    assert json.loads(masked)["messages"][0] == {"role": "user", "content": "[REDACTED custom pattern]", "x": "tail"}
    greedy = Redactor.build([r"[\s\S]+"])  # matches everything, across every separator
    everything = json.loads(greedy.mask(data))  # every value masked, the structure intact
    assert list(everything["messages"][0]) == ["role", "content", "x"]


def test_secret_written_with_escapes_is_found_and_masked():
    escaped = "".join(f"\\u{ord(c):04x}" for c in AWS)
    data = ('{"messages": [{"role": "user", "content": "key \\n' + escaped + ' end"}]}').encode()
    [s] = R.scan(data)
    assert s.kind == "AWS access key" and AWS not in s.around
    value = json.loads(R.mask(data))["messages"][0]["content"]
    assert value == "key \n[REDACTED AWS access key] end"


def test_lone_surrogate_next_to_a_secret_still_masks_to_valid_json():
    data = ('[{"role": "user", "content": "\\ud800 ' + AWS + '"}]').encode()
    masked = R.mask(data)
    assert json.loads(masked)[0]["content"] == "\ud800 [REDACTED AWS access key]"


def test_preview_context_never_shows_a_neighbouring_secret():
    key2 = "AKIAZZZZZZZZZZZZZZZZ"
    data = json.dumps([{"role": "user", "content": f"{AWS} and {key2}"}]).encode()
    for s in R.scan(data):
        assert AWS not in s.around and key2 not in s.around
