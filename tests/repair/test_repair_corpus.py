"""Real openai-chat transcripts from public projects, repaired for every openai-chat target.

The corpus sits beside the clone (``../shared/corpus``); the tests skip when it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import turnsafe
from support.validators import mistral_accepts

import inspector
from inspector.errors import NothingToCheck

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
FILES = [
    "broken/letta_memgpt_agent_with_convo.af.json",
    "broken/inspect-ai_log_tool_call_error_fixture.json",
    "broken/mistral-inference-issue135_orphan_tool_message.json",
    "broken/vllm-pr12332_mistral_toolcall_id_not_9_chars.json",
    "openai_chat/inspect-ai_browser_eval_log.json",
    "openai_chat/pydantic-ai_deepseek_deferred_capability_with_thinking.request.json",
    "openai_chat/pydantic-ai_groq_tool_use_failed_error.request.json",
    "openai_chat/pydantic-ai_openai_multiple_agent_tool_calls.request.json",
    "openai_chat/tau-bench_gpt-4o-airline_task13_trial2_success.json",
    "openai_chat/tau-bench_gpt-4o-airline_task3_trial0_longest.json",
    "openai_chat/toolbench_G3_13_ChatGPT_DFS_legacy_function_call.json",
    "trajectories/letta_lettabot-builder_sleeptime_agent.messages.json",
    "trajectories/mini-swe-agent_deepseek_chat_dev_pydicom__pydicom-1256.traj.json",
    "trajectories/mini-swe-agent_deepseek_chat_dev_rerun_pylint-dev__astroid-1333.traj.json",
    "trajectories/mini-swe-agent_deepseek_chat_test_1-100_django__django-13964.traj.json",
    "trajectories/mini-swe-agent_deepseek_lite_dev_noparallel_sqlfluff__sqlfluff-1733.traj.json",
    "trajectories/mini-swe-agent_deepseek_reasoner_dev_sqlfluff__sqlfluff-1733.traj.json",
    "trajectories/swe-agent_function_calling_simple.traj.json",
    "trajectories/swe-agent_marshmallow-1867_function_calling_replace_from_source.traj.json",
]
# Legacy function_call / role "function" messages: Mistral's message types have no such role.
NOT_FOR_MISTRAL_COMMON = {"openai_chat/toolbench_G3_13_ChatGPT_DFS_legacy_function_call.json"}


def _skip_swe_agent_replies(msgs: list) -> None:
    """SWE-agent writes tool replies with its own ``tool_call_ids`` list, which no provider's wire
    format has; the inspector reads them as SWE-agent's relative, a client would rewrite them."""
    if any(m.get("role") == "tool" and "tool_call_id" not in m and "tool_call_ids" in m for m in msgs):
        pytest.skip("SWE-agent tool replies (tool_call_ids) are not a provider's wire format")


def _path(name: str) -> Path:
    p = CORPUS / name
    if not p.exists():
        pytest.skip(f"corpus file not found: {p}")
    return p


@pytest.mark.parametrize("target", ["openai", "deepseek", "mistral"])
@pytest.mark.parametrize("name", FILES)
def test_corpus_file_repairs_clean_and_stays_repaired(name, target):
    result = inspector.repair(_path(name), target=target)
    if not any(t.items for t in result.document.transcripts):
        # A log of results alone (every one an orphan): all go to the quarantine, and repair says
        # "not fixed" rather than pass an empty request as clean (issue 31); the output is refused.
        assert not result.report.ok and any("leave no message" in u for u in result.report.unfixed)
        assert len(result.report.quarantine) == result.report.findings_before["error"]
        with pytest.raises(NothingToCheck):
            inspector.check(result.output, target=target)
        return
    after = inspector.check(result.output, target=target)
    assert after.ok, [f.text for f in after.findings if f.severity == "error"][:3]
    assert inspector.repair(result.output, target=target).output == result.output
    if result.report.findings_before == {"error": 0, "warning": 0, "info": result.report.findings_before["info"]}:
        assert result.output == _path(name).read_bytes()


@pytest.mark.parametrize("name", [f for f in FILES if f not in NOT_FOR_MISTRAL_COMMON])
def test_mistral_common_accepts_the_repaired_corpus_file(name):
    # what is sent to Mistral is a request: a finished run's log is repaired as one (issue 31)
    result = inspector.repair(_path(name), target="mistral", options={"pending": "close"}, as_request=True)
    msgs = result.document.transcripts[0].items
    _skip_swe_agent_replies(msgs)
    if not result.report.ok:
        # What repair would not invent (a final user turn, a first message) is said, not hidden.
        assert result.report.unfixed and result.report.findings_after["error"] == 0
        pytest.skip("; ".join(result.report.unfixed))
    mistral_accepts(msgs)


@pytest.mark.parametrize("name", FILES)
def test_turnsafe_agrees_on_the_repaired_corpus_file(name):
    result = inspector.repair(_path(name), target="openai", options={"pending": "close"})
    for t in result.document.transcripts:
        _skip_swe_agent_replies(t.items)
        report = turnsafe.validate(t.items, provider="openai")
        assert not report.errors, [str(v) for v in report.errors][:3]


def test_letta_displaced_results_move_back_next_to_their_calls():
    result = inspector.repair(_path("broken/letta_memgpt_agent_with_convo.af.json"))
    moves = [c for c in result.report.changes if c.action == "move_result"]
    assert len(moves) == 5 and all(c.code == "TC003" for c in moves)
    assert result.report.quarantine == []


def test_inspect_fixture_orphans_are_all_kept_in_the_quarantine():
    result = inspector.repair(_path("broken/inspect-ai_log_tool_call_error_fixture.json"))
    assert len(result.report.quarantine) == 11
    assert {q.code for q in result.report.quarantine} == {"TC002"}
