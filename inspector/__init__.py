"""Tool-call transcript inspector: find and repair broken tool-call pairing in LLM transcripts.

    >>> import inspector
    >>> report = inspector.check([{"role": "tool", "tool_call_id": "x", "content": "hi"}])
    >>> [f.code for f in report.findings]
    ['TC002']

This package never imports streamlit or pandas; the web app lives in ``inspector.ui``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from .check import check_document as _check_document
from .check import verdict
from .containers import Document, Transcript
from .errors import InputError
from .loading import load
from .rules import RULES
from .targets import TARGETS

if _TYPE_CHECKING:
    from .fitting import FitResult
    from .repairing import RepairResult
    from .report import Report

__all__ = [
    "RULES",
    "TARGETS",
    "Document",
    "Finding",
    "FitError",
    "FitOptions",
    "FitResult",
    "InputError",
    "RepairOptions",
    "RepairReport",
    "RepairResult",
    "Report",
    "Transcript",
    "check",
    "fit",
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
    if name in ("FitError", "FitOptions", "FitResult"):
        from . import fitting

        return getattr(fitting, name)
    if name in ("RepairOptions", "RepairReport", "RepairResult"):
        from . import repairing

        return getattr(repairing, name)
    raise AttributeError(f"module 'inspector' has no attribute {name!r}")


def check(source: _Any, target: str | None = None, *, dialect: str | None = None) -> Report:
    """Check a transcript (messages, a request body, JSON text, bytes, a path or ``-``).

    ``target`` is the provider whose rules apply (default: the dialect's own); ``dialect``
    overrides detection. Raises ``InputError`` when the input cannot be read.
    """
    report, _ = _check_document(load(source), target, dialect)
    return report


def repair(source: _Any, target: str | None = None, options: _Any = None, *, dialect: str | None = None) -> RepairResult:
    """Repair a transcript for ``target`` (same sources as ``check``), losing nothing.

    ``options`` is a ``RepairOptions`` or a dict of its fields. Returns a ``RepairResult``:
    ``.output`` (the repaired file's bytes, same dialect and wrapper), ``.data``, ``.document``
    and ``.report`` (a ``RepairReport``). Raises ``InputError`` when the input cannot be read.
    """
    from .repairing import repair as _repair

    return _repair(source, target, options, dialect=dialect)


def fit(source: _Any, max_tokens: int, target: str | None = None, options: _Any = None, *,
        dialect: str | None = None) -> FitResult:
    """Fit a transcript to ``max_tokens`` by removing whole units (a message, or a call block with
    all its results), oldest first by default; same sources as ``check``.

    ``options`` is a ``FitOptions`` or a dict (``keep_system``, ``keep_first_user``, ``keep_last``,
    ``strategy``, ``counter``). Returns a ``FitResult``: ``.output`` (bytes, same dialect and
    wrapper), ``.data`` and ``.report`` (a dict listing every removed unit, whole). Raises
    ``FitError`` when the protected messages alone exceed the budget.
    """
    from .fitting import fit as _fit

    return _fit(source, max_tokens, target, options, dialect=dialect)
