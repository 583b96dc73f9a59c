"""Tool-call transcript inspector: find and repair broken tool-call pairing in LLM transcripts.

    >>> import inspector
    >>> report = inspector.check([{"role": "tool", "tool_call_id": "x", "content": "hi"}])
    >>> [f.code for f in report.findings]
    ['TC002']

This package never imports streamlit or pandas; the web app lives in ``inspector.ui``.
"""

from __future__ import annotations

from typing import Any as _Any

from .check import check_document as _check_document
from .check import verdict
from .containers import Document, Transcript
from .errors import InputError
from .loading import load
from .rules import RULES
from .targets import TARGETS

__all__ = [
    "Document",
    "Finding",
    "InputError",
    "RULES",
    "Report",
    "RepairOptions",
    "RepairReport",
    "RepairResult",
    "TARGETS",
    "Transcript",
    "check",
    "load",
    "repair",
    "verdict",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> _Any:
    # The pydantic types load on first use: the CLI's hot path never needs them.
    if name in ("Finding", "Report"):
        from . import report

        return getattr(report, name)
    if name in ("repair", "RepairOptions", "RepairReport", "RepairResult"):
        import importlib

        mod = importlib.import_module(".repair", __name__)  # a callable module: inspector.repair(...) repairs
        return mod if name == "repair" else getattr(mod, name)
    raise AttributeError(f"module 'inspector' has no attribute {name!r}")


def check(source: _Any, target: str | None = None, *, dialect: str | None = None) -> "Report":
    """Check a transcript (messages, a request body, JSON text, bytes, a path or ``-``).

    ``target`` is the provider whose rules apply (default: the dialect's own); ``dialect``
    overrides detection. Raises ``InputError`` when the input cannot be read.
    """
    report, _ = _check_document(load(source), target, dialect)
    return report
