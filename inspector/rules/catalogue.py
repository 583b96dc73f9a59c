"""Stable rule codes and names. Tests, the JSON output and users' CI scripts key on these."""

from __future__ import annotations

RULES: dict[str, str] = {
    "TC001": "missing_tool_result",
    "TC002": "orphan_tool_result",
    "TC003": "result_not_adjacent",
    "TC004": "result_before_call",
    "TC005": "duplicate_tool_result",
    "TC006": "duplicate_tool_call_id",
    "TC007": "empty_tool_calls_array",
    "TC008": "missing_tool_call_id",
    "TC009": "tool_call_id_format",
    "TC010": "arguments_not_string",
    "TC011": "arguments_invalid_json",
    "TC012": "invalid_function_name",
    "TC013": "result_name_mismatch",
    "TC014": "results_out_of_call_order",
    "TC015": "results_split_across_messages",
    "TC016": "tool_result_not_first",
    "TC017": "legacy_function_pairing",
    "TC018": "null_or_empty_content",
    "TC019": "role_sequence_violation",
    "TC020": "tool_result_as_user_text",
    "TC021": "reasoning_state",
    "TC022": "pending_trailing_call",
    "TC023": "tool_call_id_reused",
    "TC024": "unknown_role",
    "TC025": "blocks_after_tool_use",
    "TC026": "undeclared_tool",
}


def rule_name(code: str) -> str:
    return RULES[code]


def table() -> str:
    """The rules table of the contract (``rules.md`` section 3): code, name and each target's
    severity ("—" where the rule does not apply), as the check applies them."""
    from ..targets import SEVERITY, TARGETS

    rows = ["| code | name | " + " | ".join(TARGETS) + " |", "|---" * (len(TARGETS) + 2) + "|"]
    rows += [f"| {code} | {name} | " + " | ".join(SEVERITY[code][t] or "—" for t in TARGETS) + " |"
             for code, name in RULES.items()]
    return "\n".join(rows)
