"""One record per rule: its stable code and name (tests, the JSON output and users' CI scripts key
on these), each target's severity, each provider's own words with where they were seen, the
sentence a person reads and the likely cause. The check, the sentences, the provider texts and
``rules.md``'s table (``table()``) are all read from here.

Evidence names a section of the research (``protocol-research.md`` beside the contract,
``../shared/spec``) or of ``docs/provider-evidence.md``. Only words seen in the wild are here: an
error without a known text gets no provider text rather than an invented sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec

from ..model import USUAL, Issue, Msg
from ..targets import TARGETS
from . import sentences as s
from .sentences import Neighbours

Severity = Literal["error", "warning", "info"]
E: Severity = "error"
W: Severity = "warning"
I: Severity = "info"

# The fields a provider text may name, filled by the check (``check.findings_for``) for each error.
TEMPLATE_FIELDS: Mapping[str, str] = {
    "i": "the message index (the provider's turn where it combines messages)",
    "j": "the block's position in the message (counted across a combined turn)",
    "id": "the call id",
    "ids": "every unanswered call id of the message, comma-separated",
    "n": "the id's length",
    "name": "the tool name",
    "role": "the message's role",
    "prev": "the role of the message before",
    "first": "the index of the first of two duplicates",
    "got": "the type found instead of a string",
    "next": "the index of the message after",
    "item": "the reasoning item's id",
}


class Said(msgspec.Struct, frozen=True):
    """A provider's own words for a rule (a template over ``TEMPLATE_FIELDS``) and where they were
    seen. ``only_without``: the words are for the case where these fields are empty; ``date``: the
    newest dated report of them (None: no dated report was found; every door shows "undated", not the
    day the research was done)."""

    text: str
    evidence: str
    only_without: tuple[str, ...] = ()
    date: str | None = None

    @property
    def fields(self) -> frozenset[str]:
        import string  # only tests and ``inspector rules`` ask: not imported on every start-up

        return frozenset(f for _, f, _, _ in string.Formatter().parse(self.text) if f)


class Rule(msgspec.Struct, frozen=True):
    """A rule: ``severity`` keyed by target (None: the rule does not apply there), ``by_kind`` the
    cases of it one target rates apart, ``said`` each provider's words, ``said_by_kind`` the words
    for one case of it (a case listed there has only those), ``sentence`` and ``hint`` what a person
    reads. ``found_in``: every module (under ``inspector/``) that finds it, that is that makes an
    ``Issue`` of its code or turns another issue into one (tests/rules/test_rule_records.py holds
    the list to the code, both ways); the dataset scan's fast path says how it holds the rule in
    ``clean_proof.HOLDS``."""

    code: str
    name: str
    severity: Mapping[str, Severity | None]
    sentence: Callable[[Issue], str]
    hint: Callable[[Issue, Neighbours], str | None] | None = None
    said: Mapping[str, Said] = msgspec.field(default_factory=dict)
    by_kind: Mapping[str, Mapping[str, Severity]] = msgspec.field(default_factory=dict)
    said_by_kind: Mapping[str, Mapping[str, Said]] = msgspec.field(default_factory=dict)
    found_in: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # (That its provider texts name only ``TEMPLATE_FIELDS`` is held by tests/rules/test_rule_records.py:
        # parsing every template on every start-up cost the CLI a few milliseconds.)
        if tuple(self.severity) != TARGETS:
            raise ValueError(f"{self.code}: severities for {tuple(self.severity)}, not {TARGETS}")

    @property
    def fields(self) -> frozenset[str]:
        """The template fields its provider texts name."""
        texts = [*self.said.values(), *(t for by in self.said_by_kind.values() for t in by.values())]
        return frozenset(f for t in texts for f in t.fields)


def targets(openai: Severity | None, deepseek: Severity | None, mistral: Severity | None,
            anthropic: Severity | None, bedrock: Severity | None, gemini: Severity | None,
            responses: Severity | None) -> dict[str, Severity | None]:
    """Each target's severity, by name."""
    return {"openai": openai, "deepseek": deepseek, "mistral": mistral, "anthropic": anthropic,
            "bedrock": bedrock, "gemini": gemini, "responses": responses}


def everywhere(sev: Severity) -> dict[str, Severity | None]:
    return dict.fromkeys(TARGETS, sev)


OPENAI = "protocol-research.md §1.3"
RESPONSES = "protocol-research.md §2.2"
ANTHROPIC = "protocol-research.md §3.3"
GEMINI = "protocol-research.md §4"
MISTRAL = "protocol-research.md §5.1 (mistral-common's validator)"
DEEPSEEK = "protocol-research.md §5.2"
BEDROCK = "protocol-research.md §5.4"
ONE_ROLE = 'docs/provider-evidence.md, "Consecutive messages of one role"'
REASONING_DROPPED = ('docs/provider-evidence.md, "Provider drift of 2026" (cline/cline#12242, gpt-5.5; '
                     "continuedev/continue#10018, #10880; mastra-ai/mastra#8738; VRSEN/agency-swarm#367)")
THINKING_BINDING_SEEN = ("rules.md, Changes of 2026-11-27 (the thinking-binding error's third sentence; "
                         'docs/provider-evidence.md, "Provider drift of 2026")')
MOVED = 'docs/provider-evidence.md, "Rules that moved"'
DRIFT = 'docs/provider-evidence.md, "Provider drift of 2026"'
PROBE = 'docs/provider-evidence.md, "Provider drift of 2026" (live probe of La Plateforme, 2026-10-04)'
# DeepSeek refusing a request that ends on an assistant message with unanswered calls: ms-agent's
# continuation appended the truncated answer (its calls not run) and sent the history again.
PENDING_REFUSED = ('docs/provider-evidence.md, "Provider drift of 2026" (modelscope/ms-agent#909, #910: '
                   "deepseek-v4-pro)")
RECORDED = ('docs/provider-evidence.md, "Recorded rejections held as tests" (corpus: '
            "broken/pydantic-ai_openai_responses_reasoning_without_following_item)")

# The evidence search repeated on 2026-11-27 for every provider text whose newest report was older
# than 2026-06 (or undated): docs/provider-evidence.md, "Evidence re-searched", names each report.
RESEARCHED = 'docs/provider-evidence.md, "Evidence re-searched"'


def seen(reports: str) -> str:
    """The evidence of words re-searched on 2026-11-27: the section and the reports that quote them."""
    return f"{RESEARCHED} ({reports})"



_PREFILL = "This model does not support assistant message prefill. The conversation must end with a user message."

# Refusals the search of 2026-11-27 found unmodelled ("Newer refusals", a part of "Evidence re-searched"):
# the legacy function role on OpenAI's reasoning models, a reasoning-only assistant turn on Converse.
FUNCTION_ROLE = seen("microsoft/vscode#260529, gpt-5; TheR1D/shell_gpt#717, o3; langgenius/dify-official-plugins#1137, "
                     "o1; microsoft/azurechat#493, Azure")
REASONING_ONLY = seen("NousResearch/hermes-agent#105780, #105799: claude-sonnet-5 and claude-fable-5-1 on Converse")

REASONING_BINDING = ('docs/provider-evidence.md, "Responses reasoning items" (the reasoning item\'s own words, '
                     "rules.md 2026-11-23; item ids of one response: cline/cline#12242, 2026-07-12)")

_MISSING_RESULTS_ANTHROPIC = ("messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately "
                              "after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in "
                              "the next message.")
_GEMINI_COUNT = ("Please ensure that the number of function response parts is equal to the number of function call "
                 "parts of the function call turn.")
_UNIQUE_TOOL_USE = "messages.{i}.content.{j}: `tool_use` ids must be unique"
# Bedrock Converse's words for duplicate toolUse ids (claude-sonnet-4-5 on ConverseStream, re-searched 2026-11-27)
_CONVERSE_DUPLICATE_IDS = "The toolUse blocks at messages.{i}.content contain duplicate Ids: {id}"
_CONVERSE_DUPLICATE_SEEN = seen("bvcyber/Cyber-AutoAgent-ng#72; double16/Cyber-AutoAgent-ng#27")
_RESPONSES_DUPLICATE = "Duplicate item found with id {id}. Remove duplicate items from your input and try again."
# its newest report (a duplicated reasoning item, gpt-5-codex through OpenRouter), re-searched 2026-11-27
_RESPONSES_DUPLICATE_SEEN = Said(_RESPONSES_DUPLICATE, seen("OpenRouterTeam/ai-sdk-provider#254"), date="2025-11-26")
_LEGACY_NAME = "Missing parameter 'name': messages with role 'function' must have a 'name'."
_NULL_CONTENT = "Invalid value for 'content': expected a string, got null."
_EMPTY_NAME = ("empty string. Expected a string with minimum length 1, but got an empty string instead.")

# A result after its call's block (TC003) or before it (TC004) is answered with the orphan's words
# on the result side (the call side gets TC001's).
_ORPHAN_SAID: Mapping[str, Said] = {
    "openai": Said("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
                   "'tool_calls'.", seen("sdcb/chats#132; run-llama/llama_index#16214"), date="2026-04-23"),
    "deepseek": Said("Messages with role 'tool' must be a response to a preceding message with 'tool_calls'", OPENAI, date="2026-06-10"),
    "anthropic": Said("messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each "
                      "`tool_result` block must have a corresponding `tool_use` block in the previous message.",
                      ANTHROPIC, date="2026-02-06"),
    "responses": Said("No tool call found for function call output with call_id {id}.", RESPONSES, date="2026-07-20"),
    "bedrock": Said("The number of toolResult blocks at messages.{i}.content exceeds the number of toolUse blocks of "
                    "previous turn.", seen("langgenius/dify-official-plugins#765; Just-Curieous/Curie#16"),
                    date="2025-04-21"),
    "mistral": Said("Unexpected tool call id {id} in tool results", seen("pydantic/pydantic-ai#3733"), date="2025-12-15"),
    "gemini": Said("Please ensure that function response turn comes immediately after a function call turn.", GEMINI),
}

_RULES = (
    Rule("TC001", "missing_tool_result", everywhere(E), s.sentence_tc001, s.hint_tc001, by_kind={
        # the harness named in the log answers it before sending (harness_patches.PATCHES): a note
        "harness_patched": dict.fromkeys(TARGETS, I),
    }, said={
        "openai": Said("An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                       "'tool_call_id'. The following tool_call_ids did not have response messages: {ids}", OPENAI),
        "deepseek": Said("An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                         "'tool_call_id'. (insufficient tool messages following tool_calls message)", OPENAI, date="2026-07-06"),
        "anthropic": Said(_MISSING_RESULTS_ANTHROPIC, ANTHROPIC, date="2026-06-15"),
        "responses": Said("No tool output found for function call {id}.", RESPONSES, date="2026-04-30"),
        "gemini": Said(_GEMINI_COUNT, GEMINI, date="2026-03-04"),
        "bedrock": Said("Expected toolResult blocks at messages.{next}.content for the following Ids: {ids}", BEDROCK, date="2026-07-15"),
        "mistral": Said("Not the same number of function calls and responses", MISTRAL),
    },
         found_in=("dialects/vercel_ai.py", "dialects/vercel_ui.py", "pairing.py")),
    Rule("TC002", "orphan_tool_result", everywhere(E), s.sentence_tc002, s.hint_tc002, said=_ORPHAN_SAID,
         by_kind={"harness_patched": dict.fromkeys(TARGETS, I)},
         found_in=("dialects/anthropic.py", "dialects/gateway.py", "pairing.py")),
    Rule("TC003", "result_not_adjacent", targets(E, E, E, E, E, E, W), s.sentence_tc003, s.hint_tc003,
         said=_ORPHAN_SAID,
         found_in=("pairing.py",)),
    Rule("TC004", "result_before_call", everywhere(E), s.sentence_tc004, s.hint_tc004, said=_ORPHAN_SAID,
         found_in=("pairing.py",)),
    Rule("TC005", "duplicate_tool_result", targets(E, E, E, E, E, W, E), s.sentence_tc005, s.hint_tc005, said={
        "openai": Said("Invalid parameter: Duplicate value for 'tool_call_id' of '{id}', in messages[{first}] and "
                       "messages[{i}].", OPENAI),
        "anthropic": Said("each tool_use must have a single result. Found multiple tool_result blocks with id {id}",
                          ANTHROPIC),
        "mistral": Said("Duplicate tool call id {id} in tool results", MISTRAL),
        "responses": _RESPONSES_DUPLICATE_SEEN,
    }, by_kind={
        # a second response in the turn right after the call turn makes more responses than calls:
        # Gemini's count check refuses it (dialects/gemini.surplus_responses)
        "response_count": {"gemini": E},
    }, said_by_kind={
        "response_count": {"gemini": Said(_GEMINI_COUNT, GEMINI, date="2026-03-04")},
    },
         found_in=("pairing.py",)),
    Rule("TC006", "duplicate_tool_call_id", targets(E, E, E, E, E, W, E), s.sentence_tc006, said={
        "anthropic": Said(_UNIQUE_TOOL_USE, ANTHROPIC, date="2026-03-13"),
        # Converse's own words (claude-sonnet-4-5 on ConverseStream, re-searched 2026-11-27)
        "bedrock": Said(_CONVERSE_DUPLICATE_IDS, _CONVERSE_DUPLICATE_SEEN, date="2026-03-06"),
        "mistral": Said("Duplicate tool call id {id} in assistant message", MISTRAL),
        "responses": _RESPONSES_DUPLICATE_SEEN,
    },
         found_in=("rules/sequence.py",)),
    Rule("TC007", "empty_tool_calls_array", targets(E, E, W, None, None, None, None), s.sentence_tc007,
         s.hint_tc007, said={
             "openai": Said("Invalid 'messages[{i}].tool_calls': empty array. Expected an array with minimum length 1, "
                            "but got an empty array instead.", seen("chatboxai/chatbox#2079; openai/openai-node#1341"),
                            date="2025-02-27"),
         },
         found_in=("dialects/agui.py", "dialects/openai_chat.py", "dialects/openai_typed.py")),
    Rule("TC008", "missing_tool_call_id", targets(E, E, E, E, E, I, E), s.sentence_tc008, said={
        "mistral": Said("Tool call id has to be defined.", seen("Gage-Technologies/mistral-go#8"), date="2025-02-12"),
    },
         found_in=("dialects/base.py", "dialects/gemini.py", "dialects/langchain.py", "dialects/openai_chat.py", "dialects/openai_typed.py",
                   "dialects/responses.py")),
    # mistral: a warning (rules.md note 1): La Plateforme took `call_abc123` in a live probe of 2026-10-04;
    # mistral-common and vLLM's Mistral tokenizer (self-hosted) still require nine characters.
    Rule("TC009", "tool_call_id_format", targets(W, I, W, E, E, None, E), s.sentence_tc009, said={
        # refused to 2026-02; a live test of 2026-07-15 was accepted (TARGET_EVIDENCE): a warning (rules.md)
        "openai": Said("Invalid 'messages[{i}].tool_calls[{j}].id': string too long. Expected a string with maximum "
                       "length 40, but got a string with length {n} instead.",
                       seen("pydantic/pydantic-ai#4389; openclaw/openclaw#875"), date="2026-02-20"),
        "mistral": Said("Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.",
                        seen("zed-industries/zed#53034; nearai/ironclaw#1241; karthink/gptel#1203"), date="2026-04-03"),
        "anthropic": Said("messages.{i}.content.{j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
                          seen("maximhq/bifrost#5097; HKUDS/nanobot#4356; CommandCodeAI/command-code#323"),
                          date="2026-07-10"),
        "bedrock": Said("messages.{i}.content.{j}.toolUse.toolUseId: String should match pattern "
                        "'^[a-zA-Z0-9_-]+$'", BEDROCK),
        "responses": Said("Invalid 'input[{i}].call_id': string too long. Expected a string with maximum length 64, "
                          "but got a string with length {n} instead.", seen("AnswerDotAI/fastllm#45; decolua/9router#393"),
                          date="2026-06-08"),
    },
         found_in=("rules/sequence.py",)),
    Rule("TC010", "arguments_not_string", targets(E, E, E, None, None, None, E), s.sentence_tc010, s.hint_tc010,
         said={
             "openai": Said("Invalid type for 'messages[{i}].tool_calls[{j}].function.arguments': expected a string, "
                            "but got {got} instead.", seen("aaif-goose/goose-mobile#20"), date="2025-03-06"),
         },
         found_in=("dialects/agui.py", "dialects/openai_chat.py", "dialects/responses.py")),
    Rule("TC011", "arguments_invalid_json", targets(W, W, W, None, None, None, W), s.sentence_tc011, s.hint_tc011,
         found_in=("dialects/base.py", "dialects/langchain.py", "dialects/openai_chat.py", "dialects/openai_typed.py", "dialects/responses.py")),
    Rule("TC012", "invalid_function_name", everywhere(E), s.sentence_tc012, said={
        # OpenAI's known words are for an empty name only
        "openai": Said("Invalid 'messages[{i}].tool_calls[{j}].function.name': " + _EMPTY_NAME,
                       seen("continuedev/continue#11645"), only_without=("name",), date="2026-03-20"),
        # the Responses API's words for an empty function_call name (found 2026-11-27; none were known before)
        "responses": Said("Invalid 'input[{i}].name': " + _EMPTY_NAME, seen("Wei-Shaw/sub2api#3818; diegosouzapw/OmniRoute#346"),
                          only_without=("name",), date="2026-07-08"),
        "mistral": Said("Function name was {name} but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a "
                        "maximum length of 64.", MISTRAL),
    }, said_by_kind={
        # a call with no name at all (the key missing, or null): the words above are for an empty
        # string and do not fit it, and no provider's own words for a missing call name were found
        # (searched 2026-11-28; docs/provider-evidence.md, "A call with no name"): none is quoted
        "missing_name": {},
    },
         found_in=("dialects/base.py", "dialects/gemini.py", "dialects/langchain.py", "dialects/openai_chat.py", "dialects/openai_typed.py",
                   "dialects/responses.py")),
    Rule("TC013", "result_name_mismatch", targets(W, W, W, None, None, W, None), s.sentence_tc013,
         found_in=("pairing.py",)),
    Rule("TC014", "results_out_of_call_order", targets(I, I, I, I, I, W, I), s.sentence_tc014,
         found_in=("pairing.py",)),
    Rule("TC015", "results_split_across_messages", targets(None, None, None, E, E, E, None), s.sentence_tc015,
         said={"gemini": Said(_GEMINI_COUNT, GEMINI, date="2026-03-04")},
         found_in=("pairing.py",)),
    Rule("TC016", "tool_result_not_first", targets(None, None, None, E, E, None, None), s.sentence_tc016,
         found_in=("dialects/anthropic.py", "dialects/bedrock.py", "dialects/gateway.py", "dialects/pydantic_ai.py")),
    Rule("TC017", "legacy_function_pairing", targets(W, E, E, None, None, None, None), s.sentence_tc017, said={
        "openai": Said(_LEGACY_NAME, seen("open-compass/T-Eval#66"), date="2025-03-20"),
        "deepseek": Said(_LEGACY_NAME, OPENAI),
    },
         found_in=("pairing.py",)),
    Rule("TC018", "null_or_empty_content", targets(E, E, E, E, E, W, None), s.sentence_tc018, said={
        "openai": Said(_NULL_CONTENT, seen("vercel/ai#13744; docker/docker-agent#63"), date="2026-04-30"),
        "deepseek": Said(_NULL_CONTENT, OPENAI),
    },
         found_in=("dialects/agui.py", "dialects/anthropic.py", "dialects/bedrock.py", "dialects/gemini.py",
                   "dialects/langchain.py", "dialects/openai_chat.py", "dialects/openai_typed.py", "dialects/vercel_ai.py")),
    # anthropic: info, not rules.md's error: the Messages API combines consecutive messages of one
    # role into one turn (docs/provider-evidence.md); Bedrock's Converse API refuses them.
    Rule("TC019", "role_sequence_violation", targets(I, I, E, I, E, E, I), s.sentence_tc019, said={
        "mistral": Said("Unexpected role '{role}' after role '{prev}'", MISTRAL, date="2026-06-02"),
        # the old words (to 2025-03; "not reproducible anymore", 2026-05-16): the Messages API now combines
        "anthropic": Said('messages: roles must alternate between "user" and "assistant", but found multiple '
                          '"{role}" roles in a row', seen("modelcontextprotocol/quickstart-resources#20"),
                          date="2025-03-17"),
        "bedrock": Said("A conversation must alternate between user and assistant roles. Make sure the conversation "
                        "alternates between user and assistant roles and try again.",
                        seen("microsoft/semantic-kernel#10281; langchain-ai/langchainjs#6724"), date="2025-03-03"),
        "gemini": Said("Please ensure that function call turn comes immediately after a user turn or after a function "
                       "response turn.", GEMINI, date="2026-05-05"),
    }, by_kind={
        # A tool_result block inside an assistant message is refused outright ("`tool_result` blocks can
        # only be in `user` messages", tghamm/Anthropic.SDK#128), unlike a role repeated (combined).
        "result_in_assistant": {"anthropic": E},
        # An Anthropic body for Bedrock's InvokeModel: refused there in 2024-2025 reports, combined by
        # the Messages API (docs/provider-evidence.md); a warning, the route's current answer unknown.
        "bedrock_invoke": {"anthropic": W},
        # Two Pydantic AI responses in a row reach Bedrock's Converse as two assistant messages (its
        # adapter merges only requests). Converse refused that in reports up to 2025; Pydantic AI's own
        # adapter says "Bedrock re-merges consecutive same-role turns" (docs/provider-evidence.md): a
        # warning, the current answer unknown.
        "responses_in_a_row": {"bedrock": W},
        # A mid-conversation system message out of its place, on a model that takes one (2026-05-28).
        "system_misplaced": {"anthropic": E},
        # The first call turn of a run's events read on their own (ADK's /run answer): the user's message
        # that started the run is in the session and sent before it (dialects/adk.py).
        "run_answer": {"gemini": I},
    },
         found_in=("dialects/anthropic.py", "dialects/base.py", "dialects/gemini.py", "dialects/openai_chat.py", "dialects/openai_typed.py",
                   "dialects/pydantic_ai.py")),
    Rule("TC020", "tool_result_as_user_text", everywhere(W), s.sentence_tc020,
         found_in=("dialects/base.py",)),
    Rule("TC021", "reasoning_state", targets(I, W, I, W, I, W, W), s.sentence_tc021, s.hint_tc021, said={
        "deepseek": Said("The reasoning_content is an intermediate result for display purposes only and will not be "
                         "included in the context for inference. Please remove the reasoning_content from your message "
                         "to reduce network traffic.", DEEPSEEK),
    }, by_kind={
        # The Responses API rejects a reasoning item without its required following item, while the
        # other reasoning-state cases stay warnings there (rules.md, 2026-11-23).
        "reasoning_item": {"responses": E},
        # a function_call item keeping its fc_ id, replayed without the reasoning item its response put
        # before it, where the input shows the conversation reasons (cline#12242, 2026-07-12; the
        # unsure case, no reasoning item anywhere and no reasoning model named, stays a warning)
        "reasoning_dropped": {"responses": E},
        # Provider drift (issue 28; docs/provider-evidence.md, "Rules that moved"), each with its date:
        # a thinking block sent back without its signature is refused (reports 2026-03 to 2026-07);
        "thinking_signature": {"anthropic": E},
        # thinking blocks not first in an assistant message are refused (claude-code#20705, 2026-01-25);
        "thinking_order": {"anthropic": E},
        # a signed thinking block whose turn's earlier step lost its thinking block, thinking "enabled":
        # the thinking-binding error (rules.md 2026-11-27, third sentence seen 2026-09); with the body's
        # drop_block opt-out, or adaptive thinking, a warning (thinking_binding_dropped / _unsure)
        "thinking_binding": {"anthropic": E},
        # the open tool loop's last assistant turn without a thinking block, in a body that says
        # "thinking": {"type": "enabled"} (reports 2025-09 to 2026-01; without that, thinking_missing: a
        # warning), or a Converse body whose additionalModelRequestFields say it (langchain-aws#844, 2026-01-22);
        "thinking_required": {"anthropic": E, "bedrock": E},
        # Gemini 3 enforces thoughtSignature on the current turn's calls since 2026-01-30 (reports to 2026-09);
        "thought_signature": {"gemini": E},
        # DeepSeek V4 thinking mode (on by default) refuses a tool-call turn without its reasoning_content
        # (reports 2026-04 to 2026-05), and ignores reasoning_content elsewhere (its thinking-mode guide).
        "missing_reasoning": {"deepseek": E},
        "reasoning_content": {"deepseek": I},
        # a reasoning item followed by a call another response made (item ids of one response share a
        # prefix: cline/cline#12242, 2026-07-12): its required following item is missing (issue 34)
        "reasoning_binding": {"responses": E},
        # an assistant turn holding only reasoningContent: Converse refuses it as prefill on Sonnet 5 and
        # Fable 5.1, takes it on Sonnet 4.6 (hermes-agent#105780, 2026-09-08); another model: a warning
        "reasoning_only": {"bedrock": E},
        "reasoning_only_unsure": {"bedrock": W},
    }, said_by_kind={
        "reasoning_only": {"bedrock": Said(_PREFILL, REASONING_ONLY, date="2026-09-08")},
        "reasoning_binding": {
            "responses": Said("Item '{item}' of type 'reasoning' was provided without its required following item.",
                              REASONING_BINDING),
        },
        # DeepSeek V4's words (reports 2026-04-24 to 2026-05-17); before V4 (to 2026-03): "Missing
        # `reasoning_content` field in the assistant message at message index {i}. ..."
        "missing_reasoning": {
            "deepseek": Said("The `reasoning_content` in the thinking mode must be passed back to the API.", MOVED),
        },
        "reasoning_item": {
            "responses": Said("Item '{item}' of type 'reasoning' was provided without its required following item.",
                              RECORDED),
        },
        "reasoning_dropped": {
            "responses": Said("Item '{item}' of type 'function_call' was provided without its required 'reasoning' "
                              "item: 'rs_…'.", REASONING_DROPPED, date="2026-07-12"),
        },
    },
         found_in=("dialects/anthropic.py", "dialects/bedrock.py", "dialects/gateway.py", "dialects/gemini.py",
                   "dialects/openai_chat.py", "dialects/responses.py")),
    Rule("TC022", "pending_trailing_call", everywhere(W), s.sentence_tc022, s.hint_tc022, said_by_kind={
        "request_end": {"mistral": Said("Expected last role User or Tool (or Assistant with prefix True) for serving "
                                        "but got assistant", PROBE),
                        "deepseek": Said("An assistant message with 'tool_calls' must be followed by tool messages "
                                         "responding to each 'tool_call_id'. (insufficient tool messages following "
                                         "tool_calls message)", PENDING_REFUSED, date="2026-05-03")},
    }, by_kind={
        # A request about to be sent that ends on unanswered calls: Mistral refuses it (live probe
        # 2026-10-04), DeepSeek too (modelscope/ms-agent#909, 2026-05-03); the others' answer is not
        # recorded (rules/requests.py).
        "request_end": {"mistral": E, "deepseek": E},
        # A call left open at the end of a part of a log that is never sent again (a Claude Code branch
        # abandoned by a rewind, the conversation before a compaction): a note, not a pending call.
        "never_sent": dict.fromkeys(TARGETS, I),
    },
         found_in=("dialects/vercel_ai.py", "pairing.py", "rules/requests.py")),
    Rule("TC023", "tool_call_id_reused", targets(I, I, W, E, E, I, E), s.sentence_tc023, s.hint_tc023, said={
        "anthropic": Said(_UNIQUE_TOOL_USE, ANTHROPIC, date="2026-03-13"),
        # Converse's own words for a toolUse id it has seen before (not Anthropic's, issue 31)
        "bedrock": Said(_CONVERSE_DUPLICATE_IDS, ('docs/provider-evidence.md, "Issue 31 verdicts" (bvcyber/'
                        "Cyber-AutoAgent-ng#72; double16/Cyber-AutoAgent-ng#27)"), date="2026-03-06"),
        "responses": _RESPONSES_DUPLICATE_SEEN,
    },
         found_in=("rules/sequence.py",)),
    Rule("TC024", "unknown_role", everywhere(E), s.sentence_tc024, s.hint_tc024, said_by_kind={
        "developer_role": {"deepseek": Said("messages[{i}].role: unknown variant `developer`, expected one of `system`, "
                                            "`user`, `assistant`, `tool`, `latest_reminder`", DRIFT)},
        # OpenAI's reasoning models refuse the legacy function role outright (o3, 2025-07-21; gpt-5, 2025-08-08)
        "function_role_refused": {"openai": Said("Unsupported value: 'messages[{i}].role' does not support 'function' "
                                                 "with this model.", FUNCTION_ROLE, date="2025-08-08")},
    }, by_kind={
        # The legacy function role with no model named (or one not placed): gpt-4o and older take it,
        # the reasoning models refuse it (model_families.function_role).
        "function_model_unknown": {"openai": W},
        # Anthropic's mid-conversation system message with no model named (or one not placed): some
        # models take it, others refuse it (model_families, 2026-05-28).
        "system_model_unknown": {"anthropic": W},
        # A record an agent harness wrote after its run (mini-swe-agent's exit), in a log: a note.
        "harness_record": dict.fromkeys(TARGETS, I),
    },
         found_in=("dialects/base.py", "dialects/openai_chat.py")),
    # anthropic: text or other blocks after tool_use are a warning (accepted by five Claude models in a
    # live test of 2026-09-20); server-tool blocks after a client tool_use stay an error (2026-03).
    Rule("TC025", "blocks_after_tool_use", targets(None, None, None, E, W, None, None), s.sentence_tc025,
         s.hint_tc025, said={"anthropic": Said(_MISSING_RESULTS_ANTHROPIC, seen(
             "server-tool blocks after a client tool_use: vercel/ai#13013; nothing newer found"), date="2026-03")},
         by_kind={"text_after": {"anthropic": W}},
         found_in=("dialects/anthropic.py", "dialects/base.py")),
    Rule("TC026", "undeclared_tool", everywhere(W), s.sentence_tc026, s.hint_tc026,
         found_in=("rules/tools.py",)),
)

RULE: Mapping[str, Rule] = {r.code: r for r in _RULES}
# code -> name, the stable pair tests, the JSON output and users' CI scripts key on
RULES: Mapping[str, str] = {r.code: r.name for r in _RULES}


def rule_name(code: str) -> str:
    return RULES[code]


def severity(code: str, target: str, kind: str | None = None) -> Severity | None:
    """The target's severity for ``code`` (for one ``kind`` of it, where that differs)."""
    rule = RULE[code]
    if kind is not None:
        special = rule.by_kind.get(kind)
        if special is not None and target in special:
            return special[target]
    return rule.severity[target]


def sentence(issue: Issue) -> str:
    """The sentence a person reads for ``issue`` (a dialect's own words where it gave them)."""
    if issue.say:  # a dialect's own sentence (thinking blocks, reasoning items, ...)
        return f"Message #{issue.index} {issue.say}"
    rule = RULE.get(issue.code)
    return rule.sentence(issue) if rule is not None else f"Message #{issue.index}: {issue.code}."


def hint(issue: Issue, msgs: list[Msg], near: Neighbours | None = None) -> str | None:
    """The likely cause of ``issue``; pass one ``Neighbours`` for all of a transcript's issues."""
    rule = RULE.get(issue.code)
    if rule is None or rule.hint is None:
        return None
    return rule.hint(issue, near if near is not None and near.msgs is msgs else Neighbours(msgs))


class _Fields(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def provider_error(issue: Issue, target: str, fields: Mapping[str, Any]) -> str | None:
    """The target's own error text for ``issue``, or None when none is known."""
    if issue.provider is not USUAL:  # the target's wording for this dialect (set by the dialect; None: unknown)
        tmpl = issue.provider if isinstance(issue.provider, str) else None
    else:
        rule = RULE[issue.code]
        by_kind = rule.said_by_kind.get(issue.data.get("kind") or "")
        said = by_kind.get(target) if by_kind is not None else rule.said.get(target)
        if said is None or any(fields.get(f) for f in said.only_without):
            return None
        tmpl = said.text
    if tmpl is None:
        return None
    if "{id}" in tmpl and not fields.get("id"):
        return None  # the target names the id in its text; without one, its exact words are not known
    return tmpl.format_map(_Fields(fields))


# The evidence of a case one target rates apart, or whose words a dialect gives (``by_kind``, an
# issue's own ``provider``): (code, kind) -> (source, date). docs/provider-evidence.md has each.
KIND_EVIDENCE: Mapping[tuple[str, str], tuple[str, str]] = {
    ("TC019", "run_answer"): ("google/adk-docs docs/runtime/api-server.md (the /run answer), commit 0530c65",
                              "2026-11-27"),
    # re-searched 2026-11-27 ("Newer refusals"): Sonnet 5 refuses, Mythos Preview refuses, Bedrock still conflicts
    ("TC019", "system_misplaced"): (seen("Anthropic, mid-conversation system messages, placement rules (2026-05-28); "
                                         "messages.0 refused on opus-4-8 and opus-5: LeenHawk/gproxy#209"), "2026-09-04"),
    ("TC024", "system_refused"): (seen("older models' words: decolua/9router#1603 (claude-sonnet-4-6), "
                                       "anthropics/claude-code#61412; not on Sonnet 5: elgorro/aiquila#413, getkyo/kyo#1810; "
                                       "claude-mythos-preview: UKGovernmentBEIS/inspect_ai#4221; DeepSeek's endpoint: "
                                       "deepseek-ai/DeepSeek-V3#1370, deepseek-ai/awesome-deepseek-integration#639, 2026-05-29, "
                                       "though a comment of 2026-05-31 there says it was resolved"), "2026-07-31"),
    ("TC024", "system_model_unknown"): (seen("Anthropic, mid-conversation system messages (2026-05-28); which models: "
                                             "getkyo/kyo#1810, elgorro/aiquila#413; model_families.py"), "2026-07-31"),
    ("TC024", "function_role_refused"): (FUNCTION_ROLE, "2025-08-08"),
    ("TC024", "function_model_unknown"): (FUNCTION_ROLE + "; model_families.py", "2025-08-08"),
    ("TC024", "developer_role"): ("decolua/9router#773; num-scope/pix#34", "2026-08-17"),
    ("TC024", "harness_record"): ("rules.md, Changes of 2026-11-27 (a finished run's log)", "2026-11-27"),
    ("TC022", "request_end"): (("live probe of La Plateforme (rules.md); 0xPlaygrounds/rig#708; DeepSeek: "
                                "modelscope/ms-agent#909, #910"), "2026-10-04"),
    ("TC022", "run_ended"): ("rules.md, Changes of 2026-11-27 (a finished run's log)", "2026-11-27"),
    ("TC025", "text_after"): ("gotgenes/pi-anthropic-auth#66 (five Claude models accepted)", "2026-09-20"),
    ("TC008", "local_shell"): (seen("openai/openai-agents-python#1855; nothing newer found"), "2025-10-04"),
    ("TC021", "thinking_signature"): ("WordPress/ai-provider-for-anthropic#27", "2026-07-21"),
    # re-searched 2026-11-27: nothing newer than these reports quotes the words
    ("TC021", "thinking_order"): ("anthropics/claude-code#20705, #20717; lbjlaq/Antigravity-Manager#690", "2026-01-25"),
    # the words to 2026-01; Converse refusing the turn without its reasoning block to 2026-08 (re-searched 2026-11-27)
    ("TC021", "thinking_required"): (("the words: langchain-ai/langchain-aws#844 (Converse, 2026-01-22), "
                                      "anthropics/claude-code#20705 (2026-01-25), Kilo-Org/kilocode#5219; the refusal: "
                                      "spring-projects/spring-ai#6413 (2026-06-13), #6845 (ConverseStream, 2026-08-24)"),
                                     "2026-08-24"),
    ("TC021", "thought_signature"): ("Gemini 3 thought signatures (docs/provider-evidence.md, Rules that moved)",
                                     "2026-09"),
    ("TC021", "reasoning_binding"): (REASONING_BINDING, "2026-07-12"),
    ("TC021", "missing_reasoning"): (("DeepSeek V4 thinking mode (baby-llm/baby-agent#17, 2026-05-22; the refusal "
                                      "as CodeRouter's guide quotes it, coderouter.io, 2026-07-05)"), "2026-07-05"),
    ("TC021", "reasoning_item"): (RECORDED, "2026-11-23"),
    ("TC021", "reasoning_only"): (REASONING_ONLY, "2026-09-08"),
    ("TC021", "reasoning_only_unsure"): (REASONING_ONLY + "; model_families.py", "2026-09-08"),
    ("TC021", "reasoning_dropped"): (REASONING_DROPPED, "2026-07-12"),
    ("TC021", "thinking_binding"): (THINKING_BINDING_SEEN, "2026-09"),
    ("TC021", "thinking_binding_unsure"): (THINKING_BINDING_SEEN, "2026-09"),
    ("TC021", "thinking_binding_dropped"): (THINKING_BINDING_SEEN + "; the opt-out: beta "
                                            "thinking-binding-controls-2026-08-01", "2026-09"),
    ("TC021", "reasoning_dropped_unsure"): (REASONING_DROPPED + "; model_families.py", "2026-07-12"),
    # the schemas require the name; the refusal of a missing sibling field of the same call (re-searched 2026-11-28)
    ("TC012", "missing_name"): (("a call's name is required (OpenAI: tool_calls[].function.name, Anthropic: "
                                 "tool_use.name, Gemini: functionCall.name); a missing sibling refused in OpenAI's "
                                 "words: mark3labs/mcphost#117 (messages[1].tool_calls[1].function.arguments); no "
                                 "words for a missing name found (docs/provider-evidence.md)"), "2025-07-31"),
    ("TC005", "response_count"): ("google-gemini/gemini-cli#3814; microsoft/vscode#299295", "2026-03-04"),
    ("TC002", "response_count"): ("google-gemini/gemini-cli#3814; microsoft/vscode#299295", "2026-03-04"),
}
# Rules whose verdict rests on a dated change of a provider, whatever the case (code, target) -> evidence.
TARGET_EVIDENCE: Mapping[tuple[str, str], tuple[str, str]] = {
    ("TC009", "mistral"): ("live probe of La Plateforme (rules.md note 1); mistral-common's validator", "2026-10-04"),
    # OpenAI's 40-character limit: refused to 2026-02, accepted in live tests of 2026-07 (re-searched 2026-11-27)
    ("TC009", "openai"): (("refused: pydantic/pydantic-ai#4389 (2026-02-20); a 51-character id accepted by Chat "
                           "Completions with gpt-4o-mini in live tests: vercel/ai#17233, #17276, #17280"), "2026-07-15"),
    # Converse's toolUseId pattern (API reference, no dated refusal in its own words); id fixes to 2026-08
    ("TC009", "bedrock"): (("Converse API reference, ToolUseBlock.toolUseId ([a-zA-Z0-9_-]+, 1 to 64 characters); "
                            "id fixes for Converse: earendil-works/pi#781, maximhq/bifrost#6300"), "2026-08-19"),
}


def evidence(issue: Issue, target: str, sev: Severity | None) -> dict[str, str | None] | None:
    """``{source, date}``: where the provider behaviour a finding rests on was seen, and when; None
    for a finding that rests on no provider behaviour (a note, or a rule without words)."""
    if sev is None or sev == "info" and issue.data.get("kind") != "harness_record":
        return None
    if "seen" in issue.data:  # worked out where the words were (a gateway's destination)
        return {"source": issue.data["seen"][0], "date": issue.data["seen"][1]}
    kind = issue.data.get("kind")
    found = KIND_EVIDENCE.get((issue.code, kind or "")) or TARGET_EVIDENCE.get((issue.code, target))
    if found is not None:
        return {"source": found[0], "date": found[1]}
    rule = RULE.get(issue.code)
    if rule is None or issue.provider is not USUAL:
        return None
    by_kind = rule.said_by_kind.get(kind or "")
    said = by_kind.get(target) if by_kind is not None else rule.said.get(target)
    if said is None:
        return None
    # the newest dated report of these words; None when only the undated research holds them (old
    # provider words are not dated by the day they were researched)
    return {"source": said.evidence, "date": said.date}


def table() -> str:
    """The rules table of the contract (``rules.md`` section 3): code, name and each target's
    severity ("—" where the rule does not apply), as the check applies them."""
    rows = ["| code | name | " + " | ".join(TARGETS) + " |", "|---" * (len(TARGETS) + 2) + "|"]
    rows += [f"| {r.code} | {r.name} | " + " | ".join(r.severity[t] or "—" for t in TARGETS) + " |"
             for r in _RULES]
    return "\n".join(rows)
