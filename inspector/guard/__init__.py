"""The guard in the request path: check (and optionally repair) every chat request before it
leaves, with the same engine and the same verdicts as ``inspector check``.

    import inspector.guard
    client = openai.OpenAI(http_client=inspector.guard.client(mode="raise"))

``client`` / ``async_client`` / ``GuardTransport`` / ``AsyncGuardTransport`` need httpx (the
``[guard]`` extra, or any SDK that brings it); ``inspect_request``, ``RejectedRequest`` and the
``Recorder`` do not. The proxy is ``inspector proxy`` (``inspector.guard.proxy``); the framework
hooks are ``inspector.guard.litellm`` and ``inspector.guard.langchain``.
"""

from __future__ import annotations

from typing import Any

from .inspect import Endpoint, Inspection, endpoint_of, inspect_request
from .recorder import Recorder, recording_on
from .refusal import RejectedRequest, error_body, refusal_text

__all__ = [
    "AsyncGuardTransport", "Endpoint", "GuardTransport", "Inspection", "Recorder", "RejectedRequest",
    "async_client", "client", "endpoint_of", "error_body", "inspect_request", "recording_on", "refusal_text",
    "transports",
]

_HTTPX = ("AsyncGuardTransport", "GuardTransport", "async_client", "client", "transports")


def __getattr__(name: str) -> Any:
    if name in _HTTPX:
        from . import transport

        return getattr(transport, name)
    raise AttributeError(f"module 'inspector.guard' has no attribute {name!r}")
