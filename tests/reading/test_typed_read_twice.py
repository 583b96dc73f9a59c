"""The typed reading uses its structs up (``openai_typed.read`` lets each go once its message is
read, for the check's peak memory): a list read a second time, as the app reads it again when the
user picks another target, or the gateway path reads it twice, has them decoded again from the
bytes, and says exactly what the dict reading says every time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.transcripts import asst, call, reply, system, tool, user

from inspector import reading as reading_module
from inspector.checking import check_plain
from inspector.dialects.openai_typed import TypedItems
from inspector.jsonio import dumps
from inspector.reading import load_path, read_document


def _broken(tmp_path: Path) -> Path:
    msgs = [system(), user("Weather in Paris and Rome?"),
            asst(call("call_1", args={"city": "Paris"}), call("call_2", args={"city": "Rome"})),
            tool("call_1", "18C"),  # call_2's result removed: TC001, the general path
            user("and Oslo?"), asst(call("call_3", args={"city": "Oslo"})), tool("call_3", "4C"), reply()]
    path = tmp_path / "broken.json"
    path.write_bytes(dumps(msgs))
    return path


def _report(doc: Any, target: str) -> bytes:
    report, analyses = check_plain(doc, target)
    return dumps(report) + dumps([[m.raw for m in a.msgs] for a in analyses])


def test_a_typed_list_checked_again_says_what_the_dict_reading_says(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading_module, "TYPED_FROM_BYTES", 0)  # (a small file read typed too)
    path = _broken(tmp_path)
    doc = read_document(str(path))
    items = doc.transcripts[0].items
    assert isinstance(items, TypedItems)
    n, head = len(items), items.head(3)
    for target in ("openai", "mistral", "anthropic", "openai"):  # anthropic: through the gateway, read twice
        assert _report(doc, target) == _report(load_path(str(path), typed=False), target), target
        assert len(items) == n and bool(items) and items.head(3) == head  # the list is the same list
