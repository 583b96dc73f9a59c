"""The rule catalogue (rules.md §3): one record per rule (``catalogue``: code, name, severities,
the providers' words, sentence and hint), and the passes that find them.

Shape rules are found while a dialect reads its messages (one pass); pairing rules by
``pairing.pair``; the rules here need the whole sequence or the target (ids, role order,
reasoning state, results sent as user text).
"""

from __future__ import annotations

from .catalogue import RULE, RULES, Rule, Said, evidence, hint, provider_error, rule_name, sentence, severity
from .sentences import Neighbours
from .sequence import sequence_issues
from .tools import undeclared_tools

__all__ = ["RULE", "RULES", "Neighbours", "Rule", "Said", "evidence", "hint", "provider_error", "rule_name", "sentence",
           "sequence_issues", "severity", "undeclared_tools"]
