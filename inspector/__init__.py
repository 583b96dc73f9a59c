"""Tool-call transcript inspector: find and repair broken tool-call pairing in LLM transcripts.

    >>> import inspector
    >>> report = inspector.check([{"role": "tool", "tool_call_id": "x", "content": "hi"}])
    >>> [f.code for f in report.findings]
    ['TC002']

This package never imports streamlit or pandas; the web app lives in ``inspector.ui``.
"""

from __future__ import annotations

_TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: importing typing costs more than this whole module

if _TYPE_CHECKING:
    from typing import Any as _Any

    from .containers import Document, Transcript
    from .errors import InputError
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

# Every name but the three functions below loads on first use (PEP 562): ``import inspector``
# costs next to nothing, and a run loads only what it uses (the CLI's check never needs pydantic).
_LAZY = {
    "Document": "containers", "Transcript": "containers", "InputError": "errors", "load": "reading",
    "RULES": "rules", "TARGETS": "targets", "verdict": "checking", "Finding": "report", "Report": "report",
    "FitError": "fitting", "FitOptions": "fitting", "FitResult": "fitting",
    "RepairOptions": "repairing", "RepairReport": "repairing", "RepairResult": "repairing",
}


def __getattr__(name: str) -> _Any:
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'inspector' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def check(source: _Any, target: str | None = None, *, dialect: str | None = None,
          as_request: bool | None = None) -> Report:
    """Check a transcript (messages, a request body, JSON text, bytes, a path or ``-``).

    ``target`` is the provider whose rules apply (default: the dialect's own); ``dialect``
    overrides detection; ``as_request`` judges it as a request about to be sent (True) or as a log
    (False) rather than as the input says (a body naming a model is a request). Raises
    ``InputError`` when the input cannot be read.
    """
    from .checking import check_document
    from .reading import load

    report, _ = check_document(load(source, typed=True), target, dialect, as_request=as_request)
    return report


def repair(source: _Any, target: str | None = None, options: _Any = None, *, dialect: str | None = None,
           as_request: bool | None = None) -> RepairResult:
    """Repair a transcript for ``target`` (same sources as ``check``, ``as_request`` as there), losing nothing.

    ``options`` is a ``RepairOptions`` or a dict of its fields. Returns a ``RepairResult``:
    ``.output`` (the repaired file's bytes, same dialect and wrapper), ``.data``, ``.document``
    and ``.report`` (a ``RepairReport``). Raises ``InputError`` when the input cannot be read.
    """
    from .repairing import repair as _repair

    return _repair(source, target, options, dialect=dialect, as_request=as_request)


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
