"""Tool-call transcript inspector: find and repair broken tool-call pairing in LLM transcripts.

    >>> import inspector
    >>> report = inspector.check([{"role": "tool", "tool_call_id": "x", "content": "hi"}])
    >>> [f.code for f in report.findings]
    ['TC002']

This package never imports streamlit or pandas; the web app lives in ``inspector.ui``.
"""

from __future__ import annotations

from typing import Any

from .check import check_document, verdict
from .containers import Document, Transcript
from .errors import InputError
from .loading import load
from .model import Finding, Report
from .rules import RULES
from .targets import TARGETS

__all__ = [
    "Document",
    "Finding",
    "InputError",
    "RULES",
    "Report",
    "TARGETS",
    "Transcript",
    "check",
    "load",
    "verdict",
]
__version__ = "0.1.0"


def check(source: Any, target: str | None = None, *, dialect: str | None = None) -> Report:
    """Check a transcript (messages, a request body, JSON text, bytes, a path or ``-``).

    ``target`` is the provider whose rules apply (default: the dialect's own); ``dialect``
    overrides detection. Raises ``InputError`` when the input cannot be read.
    """
    report, _ = check_document(load(source), target, dialect)
    return report
