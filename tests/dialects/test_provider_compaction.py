"""Provider-side compaction inside a Responses history (issue 32): a ``compaction`` item
(``{type: "compaction", id, encrypted_content}``, made by ``POST /v1/responses/compact``: openai-python
``ResponseCompactionItem``, the Agents SDK's ``RunCompactionItem``) stands for the conversation it
replaced. The outputs right after it may answer calls it holds: they are no orphans, as after an
``item_reference``. Anywhere else an output without its call is still TC002."""

from __future__ import annotations

import inspector

COMPACTION = {"type": "compaction", "id": "cmp_68c9", "encrypted_content": "gAAAAABo..."}
OUTPUT = {"type": "function_call_output", "call_id": "call_9", "output": "done"}
NEXT = {"role": "user", "content": "and now?"}


def test_an_output_right_after_a_compaction_item_is_no_orphan():
    report = inspector.check({"model": "gpt-5", "input": [COMPACTION, OUTPUT, NEXT]})
    assert report.dialect == "openai-responses" and report.ok and report.findings == []


def test_an_output_after_a_message_is_still_an_orphan():
    report = inspector.check({"model": "gpt-5", "input": [COMPACTION, NEXT, OUTPUT]})
    assert [(f.code, f.tool_call_id) for f in report.findings if f.severity == "error"] == [("TC002", "call_9")]


def test_a_codex_rollout_with_a_remote_compaction_reads_alike():
    import json

    rows = [{"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "s", "cli_version": "0.80.0"}},
            {"timestamp": "2026-01-01T00:00:01Z", "type": "compacted",
             "payload": {"message": "", "replacement_history": [COMPACTION, OUTPUT, NEXT]}}]
    report = inspector.check("".join(json.dumps(r) + "\n" for r in rows))
    assert report.dialect == "codex" and report.ok
