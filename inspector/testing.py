"""Helpers for users' own tests.

    from inspector.testing import assert_accepted
    assert_accepted(agent.messages, target="anthropic")

``assert_accepted`` fails (``AssertionError``) when the target would reject the request, with the
verdict and every error finding in the provider's own words, as ``inspector check`` prints them.
"""

from __future__ import annotations

from typing import Any


def assert_accepted(messages: Any, target: str | None = None, *, dialect: str | None = None) -> None:
    """Assert that ``target`` would accept ``messages`` (any source ``inspector.check`` reads)."""
    from . import check
    from .checking import verdict

    report = check(messages, target, dialect=dialect)
    errors = [f for f in report.findings if f.severity == "error"]
    if errors:
        lines = [verdict(report)]
        for f in errors:
            lines.append(f"  message {f.message_index}: {f.code} {f.rule}: {f.text}")
            if f.provider_error:
                lines.append(f"    {report.target} says: {f.provider_error}")
        raise AssertionError("\n".join(lines))
