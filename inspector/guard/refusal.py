"""A refused request in words: ``RejectedRequest`` (what the SDK transport raises) and the 400 body
the proxy answers with, in the provider's own error JSON shape so that the caller's SDK raises its
usual error (``openai.BadRequestError``, ``anthropic.BadRequestError``, Gemini's ``ClientError``).

The message starts with the provider's own words for the first error (the text the provider
would have sent back), then says it was the inspector's guard that refused, before sending.
"""

from __future__ import annotations

from typing import Any

from .inspect import Inspection, who


def _first_words(ins: Inspection) -> tuple[str, dict[str, Any] | None]:
    f = ins.first_error
    if f is None:
        return f"the guard cannot read this request: {ins.unreadable}", None
    return (f["provider_error"] or f["text"]), f


def refusal_text(ins: Inspection) -> str:
    words, f = _first_words(ins)
    if f is None:
        return f"{words} (inspector guard: not sent)"
    n = len(ins.errors)
    more = f"; {n - 1} more error(s)" if n > 1 else ""
    return (f"{words} (inspector guard, before sending: {who(ins.target)} would reject this request: "
            f"{f['code']} {f['rule']} at message {f['message_index']}{more}; not sent)")


class RejectedRequest(BaseException):
    """The guard did not send a request the provider would reject (``mode="raise"``).

    ``findings`` are the error findings as ``inspector check --format json`` gives them,
    ``provider_error`` the provider's own words for the first, ``index`` its message index,
    ``report`` the whole check report, ``url`` the request's URL (without its query).

    A ``BaseException``, not an ``Exception``, on purpose: the OpenAI and Anthropic SDKs catch
    every ``Exception`` their HTTP client raises, retry the request and then raise
    ``APIConnectionError`` instead; a refusal is no connection problem and must not be retried.
    """

    def __init__(self, inspection: Inspection):
        self.inspection = inspection
        self.report = inspection.report
        self.findings: list[dict[str, Any]] = inspection.errors
        first = inspection.first_error
        self.provider_error: str | None = first["provider_error"] if first else None
        self.index: int | None = first["message_index"] if first else None
        self.target = inspection.target
        self.url = inspection.url
        self.unreadable = inspection.unreadable
        super().__init__(refusal_text(inspection))


def shaped(provider: str, status: int, message: str, param: str | None = None, code: str = "inspector_guard") -> dict[str, Any]:
    """An error body in the JSON shape of ``provider``'s API ("openai", "anthropic" or "gemini")."""
    if provider == "anthropic":
        return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
    if provider == "gemini":
        return {"error": {"code": status, "message": message, "status": "INVALID_ARGUMENT" if status == 400 else "UNAVAILABLE"}}
    return {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}}


def error_body(ins: Inspection) -> dict[str, Any]:
    """The 400 body the proxy answers a refused request with, in the shape of the API it was for,
    our findings beside the error under ``inspector``."""
    first = ins.first_error
    param = f"{ins.endpoint.key}.[{first['message_index']}]" if first else None
    body = shaped(ins.endpoint.provider, 400, refusal_text(ins), param)
    body["inspector"] = {"findings": ins.errors, "target": ins.target, "unreadable": ins.unreadable}
    return body
