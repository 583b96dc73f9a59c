"""JSON Lines: each value keeps the line of the file it came from (GitHub annotations and SARIF
point at it), blank lines included, whichever way the lines were read (compact lines take the
shortest check, others the colon count, a repeated key the exact parse)."""

from __future__ import annotations

import pytest

from inspector.jsonio import parse_document
from inspector.loading import load_bytes

LINE_A = b'{"role":"user","content":"a"}'
LINE_B = b'{"role": "assistant", "content": "b"}'
LINE_DUP = b'{"role":"user","content":"x","content":"c"}'


@pytest.mark.parametrize("text, numbers", [
    (LINE_A + b"\n" + LINE_A + b"\n", [1, 2]),
    (LINE_A + b"\n" + LINE_A, [1, 2]),
    (b"\n" + LINE_A + b"\n\n" + LINE_B + b"\n  \n", [2, 4]),
    (LINE_B + b"\r\n" + LINE_B + b"\r\n", [1, 2]),
    (LINE_A + b"\n\n" + LINE_DUP + b"\n", [1, 3]),
])
def test_each_value_keeps_its_line(text, numbers):
    parsed = parse_document(text)
    assert parsed.format == "jsonl" and parsed.lines == numbers and len(parsed.value) == len(numbers)
    assert load_bytes(text, "t.jsonl").lines == numbers


def test_a_bad_line_is_named_by_its_own_number():
    from inspector.errors import InputError

    with pytest.raises(InputError, match="line 4"):
        parse_document(LINE_A + b"\n\n" + LINE_A + b"\n{broken\n")
