"""The provider drift of 2026 (rules.md, "Changes of 2026-11-27"): each shape the inspector judged
wrongly, with the provider's own words (docs/provider-evidence.md, "Provider drift of 2026").
Each of these failed on the code before issue 31."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector
from inspector.model_families import accepts

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def _errors(report):
    return [f for f in report.findings if f.severity == "error"]


def _body(model, messages, **more):
    return {"model": model, "max_tokens": 1024, "messages": messages, **more} if model else {"messages": messages,
                                                                                             **more}


# --- Anthropic mid-conversation system messages (2026-05-28) --------------------------------------

PLACED = [
    {"role": "user", "content": [{"type": "text", "text": "Refactor the parser."}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Done: the parser is split in two."}]},
    {"role": "user", "content": [{"type": "text", "text": "Now the tests."}]},
    {"role": "system", "content": "The user switched to plan mode: do not edit files."},
    {"role": "assistant", "content": [{"type": "text", "text": "Here is the plan for the tests."}]},
]


def test_a_well_placed_system_message_is_accepted_on_a_model_that_takes_it():
    report = inspector.check(_body("claude-opus-4-8", PLACED), "anthropic")
    assert not [f for f in report.findings if f.code in ("TC024", "TC019")]
    assert "would accept" in inspector.verdict(report)


def test_repair_leaves_a_well_placed_system_message_where_it_is():
    fixed = inspector.repair(_body("claude-opus-4-8", PLACED), "anthropic")
    assert fixed.report.quarantine == [] and fixed.report.changes == []
    assert fixed.data["messages"] == PLACED


@pytest.mark.parametrize("messages, index, words", [
    ([{"role": "system", "content": "Be brief."}, *PLACED[:3]], 0,
     "messages.0: use the top-level 'system' parameter for the initial system prompt"),
    ([*PLACED[:2], {"role": "system", "content": "Note."}, *PLACED[2:3]], 2, None),  # after the final answer
    ([PLACED[0],
      {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]},
      {"role": "system", "content": "Note."},
      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.py"}]}], 2, None),
])
def test_a_misplaced_system_message_is_refused_for_its_place(messages, index, words):
    report = inspector.check(_body("claude-opus-4-8", messages), "anthropic")
    (f,) = [f for f in report.findings if f.code == "TC019" and f.message_index == index]
    assert f.severity == "error"
    assert f.provider_error == words
    assert not [f for f in report.findings if f.code == "TC024"]


def test_an_older_model_refuses_the_role_in_its_words():
    report = inspector.check(_body("claude-sonnet-4-5-20250929", PLACED), "anthropic")
    (f,) = _errors(report)
    assert (f.code, f.message_index) == ("TC024", 3)
    assert f.provider_error == "role 'system' is not supported on this model"


def test_deepseeks_anthropic_endpoint_refuses_the_role_in_its_words():
    report = inspector.check(_body("deepseek-chat", PLACED), "anthropic")
    (f,) = _errors(report)
    assert (f.code, f.message_index) == ("TC024", 3)
    assert f.provider_error == "messages[3].role: unknown variant `system`, expected `user` or `assistant`"


def test_with_no_model_it_is_a_warning_naming_both_sides():
    report = inspector.check(PLACED, "anthropic")
    (f,) = [f for f in report.findings if f.code == "TC024"]
    assert f.severity == "warning"
    assert "Claude Opus 4.8" in f.text and "refuse" in f.text
    assert _errors(report) == []


@pytest.mark.parametrize("model, want", [
    ("claude-opus-4-8", True), ("anthropic/claude-opus-4-8-20260601", True), ("claude-opus-5", True),
    ("claude-fable-5", True), ("us.anthropic.claude-opus-5-v1:0", True), ("claude-sonnet-4-5-20250929", False),
    ("claude-3-7-sonnet-20250219", False), ("claude-opus-4-1", False), ("deepseek-chat", False),
    ("claude-sonnet-4-8", None), (None, None), ("my-model", None),
])
def test_the_model_table_places_the_models(model, want):
    assert accepts("system_messages", model) is want


# --- DeepSeek and OpenAI's developer role ---------------------------------------------------------

def test_deepseek_refuses_a_developer_message_in_its_words():
    body = {"model": "deepseek-chat", "messages": [
        {"role": "system", "content": "You are a coder."},
        {"role": "developer", "content": "Answer in English."},
        {"role": "user", "content": "hi"}]}
    (f,) = _errors(inspector.check(body))
    assert (f.code, f.message_index) == ("TC024", 1)
    assert f.provider_error == ("messages[1].role: unknown variant `developer`, expected one of `system`, `user`, "
                                "`assistant`, `tool`, `latest_reminder`")


# --- a request that ends on unanswered calls ------------------------------------------------------

ENDS_ON_CALL = [
    {"role": "user", "content": "weather in Paris?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "abcDEF123", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
]


def test_mistral_refuses_a_request_that_ends_on_a_call_in_its_words():
    report = inspector.check({"model": "mistral-large-latest", "messages": ENDS_ON_CALL})
    assert report.judged_as == "request"
    (f,) = _errors(report)
    assert f.code == "TC022"
    assert f.provider_error == ("Expected last role User or Tool (or Assistant with prefix True) for serving but "
                                "got assistant")


def test_deepseek_refuses_a_request_that_ends_on_a_call_and_openai_is_only_warned():
    """DeepSeek refused the history ms-agent sent after appending a truncated answer whose calls it
    had not run (modelscope/ms-agent#909, deepseek-v4-pro, 2026-05-03). OpenAI's refusal of a request
    ending on calls is not recorded: a warning there, and the request is not said to be refused."""
    report = inspector.check({"model": "deepseek-v4-pro", "messages": ENDS_ON_CALL})
    assert report.judged_as == "request" and not report.ok
    (f,) = _errors(report)
    assert (f.code, f.message_index) == ("TC022", 1)
    assert f.provider_error == ("An assistant message with 'tool_calls' must be followed by tool messages responding "
                                "to each 'tool_call_id'. (insufficient tool messages following tool_calls message)")
    report = inspector.check({"model": "gpt-4o", "messages": ENDS_ON_CALL})
    assert report.judged_as == "request" and _errors(report) == []
    assert [(f.code, f.severity) for f in report.findings] == [("TC022", "warning")]


def test_the_same_list_as_a_log_is_a_pending_call():
    report = inspector.check(ENDS_ON_CALL, "mistral")
    assert report.judged_as == "log"
    (f,) = report.findings
    assert (f.code, f.severity) == ("TC022", "warning")
    assert inspector.check(ENDS_ON_CALL, "mistral", as_request=True).findings[0].severity == "error"


# --- Mistral call ids ---------------------------------------------------------------------------

def test_a_mistral_call_id_of_another_shape_is_a_warning_naming_both_sides():
    msgs = [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_abc123", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_abc123", "content": "a.py"},
            {"role": "assistant", "content": "one file"}]
    (f,) = [f for f in inspector.check(msgs, "mistral").findings if f.code == "TC009"]
    assert f.severity == "warning"
    assert "La Plateforme" in f.text and "mistral-common" in f.text


# --- content after tool_use (Anthropic) -----------------------------------------------------------

def _after(block):
    return [{"role": "user", "content": "search and list"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_a", "name": "ls", "input": {}}, block]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "a.py"}]},
            {"role": "assistant", "content": "done"}]


def test_text_after_tool_use_is_a_warning_now():
    (f,) = inspector.check(_after({"type": "text", "text": "Checking."})).findings
    assert (f.code, f.severity) == ("TC025", "warning")


def test_server_tool_blocks_after_a_client_tool_use_stay_refused():
    report = inspector.check(_after({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
                                     "input": {"query": "x"}}))
    (f,) = [f for f in _errors(report) if f.code == "TC025"]
    assert f.provider_error.startswith("messages.1: `tool_use` ids were found without `tool_result` blocks")


# --- a finished run is a log ----------------------------------------------------------------------

TRAJECTORY = CORPUS / "trajectories" / "mini-swe-agent_deepseek_chat_dev_pydicom__pydicom-1256.traj.json"


@pytest.mark.skipif(not TRAJECTORY.exists(), reason="the shared corpus is not there")
def test_a_finished_mini_swe_agent_run_is_judged_as_a_log():
    report = inspector.check(TRAJECTORY)
    assert report.judged_as == "log"
    assert _errors(report) == []
    exit_record = [f for f in report.findings if f.code == "TC024"]
    assert [f.severity for f in exit_record] == ["info"]
    (ended,) = [f for f in report.findings if f.code == "TC022"]
    assert "Submitted" in ended.text
    assert "would reject" not in inspector.verdict(report)


@pytest.mark.skipif(not TRAJECTORY.exists(), reason="the shared corpus is not there")
def test_the_same_run_judged_as_a_request_keeps_its_errors():
    report = inspector.check(TRAJECTORY, as_request=True)
    assert report.judged_as == "request"
    assert {f.code for f in _errors(report)} == {"TC001", "TC024"}
    assert json.loads(TRAJECTORY.read_text())["messages"][-1]["role"] == "exit"


# --- DeepSeek V4 thinking mode --------------------------------------------------------------------

THINKING_TURNS = [
    {"role": "user", "content": "list files"},
    {"role": "assistant", "content": "", "reasoning_content": "I should call ls.", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "a.py"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_2", "type": "function", "function": {"name": "cat", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_2", "content": "print(1)"},
]


def test_deepseek_thinking_mode_refuses_a_tool_turn_without_reasoning_in_v4_words():
    (f,) = _errors(inspector.check({"model": "deepseek-chat", "messages": THINKING_TURNS}))
    assert (f.code, f.message_index) == ("TC021", 3)
    assert f.provider_error == "The `reasoning_content` in the thinking mode must be passed back to the API."


def test_deepseek_accepts_it_with_thinking_disabled():
    body = {"model": "deepseek-chat", "thinking": {"type": "disabled"}, "messages": THINKING_TURNS}
    assert _errors(inspector.check(body)) == []


def test_the_engine_says_why_a_target_is_not_offered():
    from inspector.checking import why_not_offered

    assert why_not_offered("openai-chat", "openai") is None
    assert why_not_offered("openai-chat", "anthropic") is None  # offered, through a gateway
    why = why_not_offered("openai-chat", "responses")
    assert "Responses API" in why and "openai-chat" in why and "--from" in why
    assert why_not_offered("anthropic", "openai") is not None


# --- through a gateway (LiteLLM's translation, the destination's rules and words) -------------------

GATEWAY_HISTORY = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "list the files"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}},
        {"id": "call_2", "type": "function", "function": {"name": "pwd", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "a.py"},
    {"role": "assistant", "content": "There is a.py."},
]


def test_an_openai_history_for_claude_through_litellm_gets_anthropics_relayed_refusal():
    # BerriAI/litellm#16525: "litellm.BadRequestError: AnthropicException - ... messages.4: tool_use ids
    # were found without tool_result blocks immediately after: toolu_01...". The system message leaves
    # the list, so the assistant turn is the destination's messages.1.
    report = inspector.check({"model": "anthropic/claude-sonnet-4-5", "messages": GATEWAY_HISTORY})
    assert (report.dialect, report.target) == ("openai-chat", "anthropic")
    assert "through a gateway" in report.target_reason
    (f,) = _errors(report)
    assert (f.code, f.message_index, f.tool_call_id) == ("TC001", 2, "call_2")  # the file's own index
    assert f.provider_error == ("messages.1: `tool_use` ids were found without `tool_result` blocks immediately "
                                "after: call_2. Each `tool_use` block must have a corresponding `tool_result` block "
                                "in the next message.")
    assert inspector.verdict(report).startswith("Anthropic (through a gateway) would reject")
    assert f.evidence.source == "protocol-research.md §3.3"  # the destination's words, with their evidence


def test_a_system_message_between_call_and_result_is_no_break_through_the_gateway():
    # LiteLLM lifts every system message into the top-level system prompt: OpenAI refuses this
    # history (TC003), Claude through the gateway takes it.
    msgs = [GATEWAY_HISTORY[1], {**GATEWAY_HISTORY[2], "tool_calls": GATEWAY_HISTORY[2]["tool_calls"][:1]},
            {"role": "system", "content": "Tool running."}, GATEWAY_HISTORY[3], GATEWAY_HISTORY[4]]
    assert [f.code for f in _errors(inspector.check(msgs))] == ["TC003"]
    assert _errors(inspector.check({"model": "anthropic/claude-sonnet-4-5", "messages": msgs})) == []


@pytest.mark.parametrize("model", ["anthropic/claude-sonnet-4-5", "bedrock/us.anthropic.claude-sonnet-4-5-v1:0"])
def test_user_text_before_the_results_is_one_finding_on_each_result_repair_moves(model):
    # LiteLLM sends the user text and the two tool results after it as one user message
    # [text, tool_result, tool_result]: the destination refuses it once (TC016), and repair moves
    # both tool messages before the text. Each moved message is reported, the text message is
    # the other end, and each change cites the finding on its message (issue 31).
    msgs = [GATEWAY_HISTORY[1], GATEWAY_HISTORY[2], {"role": "user", "content": "and the hidden ones?"},
            GATEWAY_HISTORY[3], _TOOL2, GATEWAY_HISTORY[4]]
    report = inspector.check({"model": model, "messages": msgs})
    assert [(f.code, f.message_index, f.other_index, f.tool_call_id) for f in _errors(report)] == [
        ("TC016", 3, 2, "call_1"), ("TC016", 4, 2, "call_2")]
    assert {f.provider_error for f in _errors(report)} == {_errors(report)[0].provider_error}  # one refusal
    assert "messages.2" in _errors(report)[0].text and "message #2" in _errors(report)[0].text
    fixed = inspector.repair({"model": model, "messages": msgs})
    assert [(c.action, c.code, c.index_before) for c in fixed.report.changes] == [
        ("move_result", "TC016", 3), ("move_result", "TC016", 4)]
    assert [m.get("content") for m in fixed.data["messages"]][2:5] == ["a.py", "/work", "and the hidden ones?"]
    if model.startswith("anthropic/"):
        assert fixed.report.ok and inspector.check(fixed.output).ok
    else:  # Converse refuses the results and the user text after them in one message too: said, not hidden
        assert not fixed.report.ok and "TC016" in fixed.report.unfixed[-1]


@pytest.mark.parametrize("model, target", [("bedrock/us.anthropic.claude-sonnet-4-5-v1:0", "bedrock"),
                                           ("openrouter/anthropic/claude-sonnet-4-5", "anthropic"),
                                           ("anthropic/claude-opus-4-8", "anthropic")])
def test_the_gateway_prefix_picks_the_destination(model, target):
    report = inspector.check({"model": model, "messages": GATEWAY_HISTORY})
    assert report.target == target and report.findings[0].message_index == 2
    assert [f.code for f in _errors(report)] == ["TC001"]


def test_a_model_without_a_gateway_prefix_keeps_the_formats_own_target():
    assert inspector.check({"model": "claude-sonnet-4-5", "messages": GATEWAY_HISTORY}).target == "openai"
    assert inspector.check(GATEWAY_HISTORY, "anthropic").target == "anthropic"  # asked for: through a gateway


def test_a_captured_http_request_is_judged_as_a_request():
    body = {"messages": ENDS_ON_CALL}  # no model: the capture alone says it was sent
    har = {"log": {"version": "1.2", "entries": [{
        "request": {"method": "POST", "url": "https://api.mistral.ai/v1/chat/completions",
                    "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
        "response": {"status": 200, "content": {"text": "{}"}}}]}}
    report = inspector.check(har)
    assert (report.target, report.judged_as, report.judged_reason) == ("mistral", "request", "a captured HTTP request")
    assert [(f.code, f.severity) for f in report.findings] == [("TC022", "error")]


# --- Gemini through a gateway (LiteLLM's _gemini_convert_messages_with_history) ------------------

_TOOL2 = {"role": "tool", "tool_call_id": "call_2", "content": "/work"}
GEMINI_CLEAN = [*GATEWAY_HISTORY[:4], _TOOL2, GATEWAY_HISTORY[4]]
_COUNT = ("Please ensure that the number of function response parts is equal to the number of function call parts "
          "of the function call turn.")


def _gemini(messages: list, model: str = "gemini/gemini-2.5-pro"):
    report = inspector.check({"model": model, "messages": messages})
    assert (report.dialect, report.target) == ("openai-chat", "gemini")
    assert "through a gateway" in report.target_reason
    return report


@pytest.mark.parametrize("model", ["gemini/gemini-3-pro-preview", "vertex_ai/gemini-2.5-pro",
                                   "openrouter/google/gemini-2.5-flash"])
def test_a_clean_history_for_gemini_through_a_gateway_is_accepted(model):
    report = _gemini(GEMINI_CLEAN, model)
    assert _errors(report) == []
    assert inspector.verdict(report).startswith("Gemini (through a gateway) would accept")


def test_half_answered_parallel_calls_get_geminis_count_words_through_the_gateway():
    (f,) = _errors(_gemini(GATEWAY_HISTORY))
    assert (f.code, f.message_index, f.tool_call_id) == ("TC001", 2, "call_2")  # the file's own index and id
    assert f.provider_error == _COUNT


def test_a_missing_result_before_the_next_user_turn_is_rejected_through_the_gateway():
    msgs = [*GATEWAY_HISTORY[:3], {"role": "user", "content": "go on"}]
    found = [(f.code, f.message_index, f.tool_call_id, f.provider_error) for f in _errors(_gemini(msgs))]
    assert found == [("TC001", 2, "call_1", _COUNT), ("TC001", 2, "call_2", _COUNT)]


def test_one_response_too_many_is_the_count_mismatch_not_a_placement():
    msgs = [*GATEWAY_HISTORY[:4], _TOOL2, {"role": "tool", "tool_call_id": "call_1", "content": "again"},
            GATEWAY_HISTORY[4]]
    (f,) = _errors(_gemini(msgs))
    assert (f.code, f.message_index, f.tool_call_id, f.provider_error) == ("TC005", 5, "call_1", _COUNT)
    assert f.evidence.date == "2026-03-04"


def test_an_orphan_result_with_no_name_is_refused_by_litellm_before_sending():
    # BerriAI/litellm#28978 (2026-05-27): "Missing corresponding tool call for tool response message.
    # Received - message={...}, last_message_with_tool_calls={...}"
    msgs = [GATEWAY_HISTORY[1], {"role": "tool", "tool_call_id": "call_9", "content": "x"},
            {"role": "assistant", "content": "ok"}]
    (f,) = _errors(_gemini(msgs, "vertex_ai/gemini-2.5-pro"))
    assert (f.code, f.message_index, f.tool_call_id) == ("TC002", 1, "call_9")
    assert f.provider_error == "Missing corresponding tool call for tool response message."
    assert f.evidence.source.startswith("LiteLLM's Gemini conversion")


def test_an_orphan_result_that_names_its_tool_gets_geminis_placement_words():
    msgs = [GATEWAY_HISTORY[1], {"role": "tool", "tool_call_id": "call_9", "name": "ls", "content": "x"},
            {"role": "assistant", "content": "ok"}]
    (f,) = _errors(_gemini(msgs))
    assert (f.code, f.message_index, f.tool_call_id) == ("TC002", 1, "call_9")
    assert f.provider_error == "Please ensure that function response turn comes immediately after a function call turn."


def test_a_text_only_assistant_message_between_call_and_result_breaks_litellms_lookup():
    # BerriAI/litellm#29560 (2026-06-03): the later assistant message takes last_message_with_tool_calls.
    msgs = [GATEWAY_HISTORY[1], {**GATEWAY_HISTORY[2], "tool_calls": GATEWAY_HISTORY[2]["tool_calls"][:1]},
            {"role": "assistant", "content": "Running it."}, GATEWAY_HISTORY[3], GATEWAY_HISTORY[4]]
    (f,) = _errors(_gemini(msgs))
    assert (f.code, f.message_index) == ("TC002", 3)
    assert f.provider_error == "Missing corresponding tool call for tool response message."


def test_gemini_3_through_openrouter_needs_the_reasoning_details():
    # LibreChat-AI/agents#37 (2025-11-25), OpenRouterTeam/openrouter-examples#67 (2026-03-10): "Gemini models
    # require OpenRouter reasoning details to be preserved in each request. ... Function call is missing a
    # thought_signature in functionCall parts."
    (f,) = _errors(_gemini(GEMINI_CLEAN, "openrouter/google/gemini-3-pro-preview"))
    assert (f.code, f.message_index, f.tool_call_id) == ("TC021", 2, "call_1")
    assert f.provider_error.startswith("Function call is missing a thought_signature in functionCall parts.")
    kept = [*GEMINI_CLEAN[:2], {**GEMINI_CLEAN[2], "reasoning_details": [
        {"type": "reasoning.encrypted", "id": "call_1", "data": "c2ln", "format": "google-gemini-v1"}]}, *GEMINI_CLEAN[3:]]
    assert _errors(_gemini(kept, "openrouter/google/gemini-3-pro-preview")) == []
    # LiteLLM sends a stand-in signature on Gemini 3: accepted
    assert _errors(_gemini(GEMINI_CLEAN, "gemini/gemini-3-pro-preview")) == []


def test_with_no_gateway_named_a_missing_signature_is_a_warning_naming_both_sides():
    report = inspector.check(GEMINI_CLEAN, "gemini")
    assert report.target == "gemini" and _errors(report) == []
    (w,) = [f for f in report.findings if f.code == "TC021"]
    assert w.severity == "warning" and "OpenRouter" in w.text and "LiteLLM" in w.text


# --- Responses: a function call item replayed without its reasoning item (TC021 reasoning_dropped) --

_FC_WORDS = "Item '{fc}' of type 'function_call' was provided without its required 'reasoning' item: 'rs_…'."
_FC1 = "fc_0a4d512680f81369006a5364c645f481a1a979134e6d548de1"
_RS0 = "rs_0a4d512680f81369006a5364c0001111a1803037dcae023e29"


def _turns(keep_second_reasoning: bool) -> list:
    """Two responses of a reasoning model (cline/cline#12242, gpt-5.5, 2026-07-12: the client dropped the
    reasoning item of a function call that kept its fc_ id)."""
    second = [{"type": "reasoning", "id": "rs_0a4d512680f81369006a5364c4142481a1803037dcae023e29", "summary": []}] \
        if keep_second_reasoning else []
    return [
        {"role": "user", "content": "list the files"},
        {"type": "reasoning", "id": _RS0, "summary": []},
        {"type": "function_call", "id": "fc_0a4d512680f81369006a5364c0002222a1a979134e6d548de1", "call_id": "call_1", "name": "ls",
         "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "a.py"},
        *second,
        {"type": "function_call", "id": _FC1, "call_id": "call_2", "name": "cat", "arguments": "{\"p\": \"a.py\"}"},
        {"type": "function_call_output", "call_id": "call_2", "output": "print(1)"},
    ]


def test_a_function_call_replayed_without_its_reasoning_item_gets_the_responses_words():
    report = inspector.check({"model": "gpt-5.5", "input": _turns(False)})
    assert report.target == "responses"
    (f,) = _errors(report)
    assert (f.code, f.message_index, f.tool_call_id) == ("TC021", 4, "call_2")
    assert f.provider_error == _FC_WORDS.format(fc=_FC1)
    assert f.evidence.date == "2026-07-12" and "cline/cline#12242" in f.evidence.source
    # with the reasoning item kept, the same input is accepted
    assert _errors(inspector.check({"model": "gpt-5.5", "input": _turns(True)})) == []
    # repair cannot recreate the reasoning item: it says so, and what the user can do
    fixed = inspector.repair({"model": "gpt-5.5", "input": _turns(False)})
    assert not fixed.report.ok and any("previous_response_id" in u for u in fixed.report.unfixed)


def test_call_items_without_the_apis_ids_are_not_looked_up():
    items = [{k: v for k, v in x.items() if k != "id"} if x.get("type") == "function_call" else x
             for x in _turns(False)]
    assert _errors(inspector.check({"model": "gpt-5.5", "input": items})) == []


def test_with_no_reasoning_item_anywhere_the_model_decides():
    items = [x for x in _turns(False) if x.get("type") != "reasoning"]
    for model, severity in (("gpt-5.5", "warning"), ("o3", "warning"), (None, "warning"), ("gpt-4.1", None)):
        report = inspector.check({"model": model, "input": items} if model else items, "responses")
        found = [f.severity for f in report.findings if f.code == "TC021"]
        assert found == ([severity, severity] if severity else []), model


# --- Anthropic: the thinking-binding error (rules.md 2026-11-27, third sentence seen 2026-09) ------

_BINDING = "The `thinking` block that preceded this one when it was created is missing from this request."


def _loop(first_step_thinks: bool) -> list:
    step1 = [{"type": "thinking", "thinking": "List first.", "signature": "sig-1"}] if first_step_thinks else []
    return [
        {"role": "user", "content": "Tidy the repo."},
        {"role": "assistant", "content": [*step1, {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.py"}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "Now read it.", "signature": "sig-2"},
                                          {"type": "tool_use", "id": "toolu_2", "name": "cat", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "content": "print(1)"}]},
    ]


def _claude(messages: list, thinking: dict | None):
    body = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages}
    return inspector.check({**body, "thinking": thinking} if thinking else body)


def test_a_thinking_block_whose_earlier_thinking_was_dropped_gets_the_binding_sentence():
    report = _claude(_loop(False), {"type": "enabled", "budget_tokens": 1024})
    (f,) = _errors(report)
    assert (f.code, f.message_index) == ("TC021", 3)
    assert f.provider_error == _BINDING and f.evidence.date == "2026-09"
    assert _errors(_claude(_loop(True), {"type": "enabled", "budget_tokens": 1024})) == []
    fixed = inspector.repair({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": _loop(False),
                              "thinking": {"type": "enabled", "budget_tokens": 1024}})
    assert not fixed.report.ok and any("drop_block" in u for u in fixed.report.unfixed)


def test_the_drop_block_opt_out_turns_the_refusal_into_a_warning():
    report = _claude(_loop(False), {"type": "enabled", "budget_tokens": 1024,
                                    "block_binding": {"prefix_mismatch_behavior": "drop_block"}})
    assert _errors(report) == []
    (w,) = [f for f in report.findings if f.code == "TC021"]
    assert w.severity == "warning" and "drops this block" in w.text


@pytest.mark.parametrize("thinking", [{"type": "adaptive"}, None])
def test_adaptive_thinking_may_skip_a_step_so_the_binding_is_a_warning(thinking):
    report = _claude(_loop(False), thinking)
    (w,) = [f for f in report.findings if f.code == "TC021"]
    assert w.severity == "warning" and _errors(report) == []


# --- the model read from OTel attributes and framework metadata (issue 31) -------------------------

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


@pytest.mark.parametrize("key", ["gen_ai.request.model", "gen_ai.response.model", "llm.model_name"])
def test_the_model_is_read_from_an_otel_spans_attributes(key):
    trace = json.loads((SAMPLES / "otel_trace_export.json").read_text())
    for span in trace["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        span["attributes"] = [a for a in span["attributes"] if a["key"] not in (
            "gen_ai.request.model", "gen_ai.response.model", "llm.model_name")]
        span["attributes"].append({"key": key, "value": {"stringValue": "claude-opus-4-8"}})
    report = inspector.check(json.dumps(trace))
    assert report.model == "claude-opus-4-8"
    assert report.judged_as == "log"  # a span is a record of a request, not one about to be sent


_ORPHANED_FC = [x for x in _turns(False) if x.get("type") != "reasoning"]


@pytest.mark.parametrize("root, where", [
    ({"input": _ORPHANED_FC, "metadata": {"ls_model_name": "gpt-4.1"}}, "LangSmith's ls_model_name"),
    ({"input": _ORPHANED_FC, "extra": {"metadata": {"ls_model_name": "gpt-4.1"}}}, "a LangSmith run's extra"),
    ({"input": _ORPHANED_FC, "extra": {"invocation_params": {"model": "gpt-4.1"}}}, "LangChain invocation_params"),
    ({"eval": {"model": "openai/gpt-4.1"}, "samples": [{"messages": _ORPHANED_FC}]}, "an Inspect log's eval.model"),
])
def test_the_model_in_framework_metadata_decides_a_model_dependent_rule(root, where):
    # a Responses input with fc_ call items and no reasoning item: a warning unless the model is one
    # that produces no reasoning items (gpt-4.1), which the metadata around the list names
    bare = inspector.check({"input": _ORPHANED_FC}, "responses")
    assert [f.severity for f in bare.findings if f.code == "TC021"] == ["warning", "warning"] and bare.model is None
    named = inspector.check(root, "responses")
    assert named.model.endswith("gpt-4.1"), where
    assert [f for f in named.findings if f.code == "TC021"] == [], where
    assert named.judged_as == "log"


def test_a_langchain_histories_response_metadata_names_the_model():
    history = [{"type": "human", "data": {"content": "Weather in Paris?"}},
               {"type": "ai", "data": {"content": "", "response_metadata": {"model_name": "claude-opus-4-8"},
                                       "tool_calls": [{"name": "get_weather", "args": {}, "id": "call_1",
                                                       "type": "tool_call"}]}},
               {"type": "tool", "data": {"content": "18C", "tool_call_id": "call_1"}}]
    assert inspector.check(history).model == "claude-opus-4-8"



# Two identical calls (same tool, same arguments) in one message, user text before their results: the
# gateway sends Gemini one functionCall part for both (LiteLLM keeps an identical call once), and Gemini
# refuses the responses for their place. Each result answers a call in message #1, out of its place.
_TWIN_CALLS = [{"role": "user", "content": "list"},
               {"role": "assistant", "content": None, "tool_calls": [
                   {"id": f"call_{k}", "type": "function", "function": {"name": "ls", "arguments": "{}"}} for k in (1, 2)]},
               {"role": "user", "content": "and?"},
               {"role": "tool", "tool_call_id": "call_1", "content": "a"},
               {"role": "tool", "tool_call_id": "call_2", "content": "b"},
               {"role": "assistant", "content": "ok"}]


@pytest.mark.parametrize("model", ["openrouter/google/gemini-3-pro", "gemini/gemini-2.5-pro"])
def test_a_result_for_an_identical_call_the_gateway_joined_is_displaced_not_an_orphan(model):
    found = _errors(_gemini(_TWIN_CALLS, model))
    assert [(f.code, f.message_index, f.tool_call_id, f.other_index) for f in found] == [
        ("TC003", 3, "call_1", 1), ("TC003", 4, "call_2", 1)]
    assert all(f.provider_error == "Please ensure that function response turn comes immediately after a function "
                                   "call turn." for f in found)
    assert not any("no message has a call" in f.text for f in found)
    assert [f.code for f in _errors(inspector.check(_TWIN_CALLS, "gemini"))] == ["TC003", "TC003"]
