"""The rule catalogue (rules.md §3): codes, names, and the passes that find them.

Shape rules are found while a dialect reads its messages (one pass); pairing rules by
``links.pair``; the rules here need the whole sequence or the target (ids, role order,
reasoning state, results sent as user text).
"""

from __future__ import annotations

from .catalogue import RULES, rule_name
from .sequence import sequence_issues
from .tools import undeclared_tools

__all__ = ["RULES", "rule_name", "sequence_issues", "undeclared_tools"]
