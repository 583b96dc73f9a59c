"""The catalogue's provider texts, for the tests that hold the rule records to their evidence."""

from __future__ import annotations

from collections.abc import Iterator

from inspector.rules import RULE, Rule, Said


def provider_texts() -> Iterator[tuple[Rule, str, str | None, Said]]:
    """Every provider text of the catalogue: (rule, target, kind or None, Said)."""
    for rule in RULE.values():
        for target, said in rule.said.items():
            yield rule, target, None, said
        for kind, by in rule.said_by_kind.items():
            for target, said in by.items():
                yield rule, target, kind, said
