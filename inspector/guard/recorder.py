"""The recorder: the one interface every producer of guard records goes through (the SDK
transports, the proxy, the LiteLLM and LangChain hooks, the pytest plugin).

A record is kept only where the operator turned recording on (``INSPECTOR_RECORD=1``, or the
proxy's ``--record``): the team inbox is visible to whoever can open the app. What is kept is the
request body as a one-entry HAR (URL without its query, no headers: never an API key or an
Authorization header), with every secret the share scan finds masked (``inspector.sharing.redact``), in
the share store (``inspector.sharing.store``, SQLite or PostgreSQL) under the shares' retention
(``INSPECTOR_SHARE_TTL_DAYS``). A body bigger than a share may be (``INSPECTOR_SHARE_MAX_BYTES``)
is recorded without its body.

Verdicts: ``would_reject`` (the check found errors and the request was sent anyway, observe mode),
``rejected`` (the provider answered 4xx naming a tool-call problem, or the guard refused it before
sending), ``repaired`` (the guard sent the repaired body), ``unreadable`` (refused in block mode
because the guard could not read it).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .inspect import Inspection, public_url

if TYPE_CHECKING:
    from ..sharing.redact import Redactor

log = logging.getLogger("inspector.guard")

SOURCES = ("proxy", "sdk", "litellm", "langchain", "test")
VERDICTS = ("would_reject", "rejected", "repaired", "unreadable")
ERROR_CHARS = 20_000


def recording_on(env: Mapping[str, str] = os.environ) -> bool:
    return env.get("INSPECTOR_RECORD", "").strip().lower() in ("1", "true", "yes", "on")


def error_text(body: bytes | str) -> str:
    """A provider error body as the text to read: its ``error.message`` when it is the usual
    JSON (OpenAI, Anthropic, Gemini shapes), else the body itself; cut at 20,000 characters."""
    import json

    text = body.decode("utf-8", "replace") if isinstance(body, (bytes, bytearray)) else str(body)
    try:
        value = json.loads(text)
    except ValueError:
        return text[:ERROR_CHARS]
    err = value.get("error") if type(value) is dict else None
    if type(err) is dict and type(err.get("message")) is str:
        msg: str = err["message"]
        param = err.get("param")
        return (msg + (f" (param: {param})" if type(param) is str and param not in msg else ""))[:ERROR_CHARS]
    if type(err) is str:
        return err[:ERROR_CHARS]
    return text[:ERROR_CHARS]


def names_a_tool_call_problem(text: str) -> bool:
    """True when a provider's error text reads as a tool-call problem (``provider_errors``)."""
    from ..provider_errors import parse_error

    err = parse_error(text)
    return bool(err.rules or err.ids)


class Recorder:
    """Keeps guard records for the inbox. ``enabled`` None reads ``INSPECTOR_RECORD``.

    Safe from many threads; the store opens on the first record. A store that cannot be written
    is logged once per failure and never stops a request."""

    def __init__(self, source: str = "sdk", *, enabled: bool | None = None, store: Any = None, settings: Any = None) -> None:
        if source not in SOURCES:
            raise ValueError(f"source must be one of {', '.join(SOURCES)}")
        self.source = source
        self.enabled = recording_on() if enabled is None else enabled
        self._store = store
        self._settings = settings
        self._lock = threading.Lock()
        self._redactor: Redactor | None = None

    def _open(self) -> Any:
        with self._lock:
            if self._store is None:
                from ..sharing.config import Settings
                from ..sharing.redact import Redactor
                from ..sharing.store import Store

                self._settings = self._settings or Settings.from_env()
                self._store = Store.from_env(self._settings)
                self._redactor = Redactor.build(self._settings.redact_patterns)
            elif self._redactor is None:
                from ..sharing.config import Settings
                from ..sharing.redact import Redactor

                self._settings = self._settings or Settings.from_env()
                self._redactor = Redactor.build(self._settings.redact_patterns)
            return self._store

    def record(self, ins: Inspection, verdict: str, *, status: int | None = None,
               provider_error: str | None = None, response_body: bytes | None = None) -> str | None:
        """Keep one record; returns its id (None when recording is off or the store failed)."""
        if not self.enabled:
            return None
        from ..gc_pause import without_settling

        # The proxy lives for weeks: the secret scan's GC pause must not move the process's young
        # objects (a refused request's cyclic garbage holds its body) into the oldest generation,
        # where they waited for a rare full collection: ~47 kB of RSS per recorded request (issue 33).
        with without_settling():
            return self._record(ins, verdict, status, provider_error, response_body)

    def _record(self, ins: Inspection, verdict: str, status: int | None, provider_error: str | None,
                response_body: bytes | None) -> str | None:
        try:
            store = self._open()
            fields, har = record_fields(ins, verdict, self.source, status, provider_error, response_body)
            data = self._redacted(har, store.max_bytes)
            record_id: str | None = store.add_record(fields, data)
            return record_id
        except Exception as exc:  # noqa: BLE001 - the inbox must never break a request
            log.warning("inspector guard: could not record the request (%s: %s)", type(exc).__name__, exc)
            return None

    def _redacted(self, har: dict[str, Any], max_bytes: int) -> bytes:
        from ..jsonio import dumps
        from ..sharing.redact import check_masked

        data = dumps(har, indent=False)
        if len(data) > max_bytes:
            entry = har["log"]["entries"][0]
            size = len(entry["request"]["postData"]["text"])
            entry["request"]["postData"]["text"] = ""
            entry["comment"] = f"the request body ({size:,} bytes) is larger than a share may be; it was not kept"
            data = dumps(har, indent=False)
        assert self._redactor is not None  # built by _open
        found = self._redactor.scan(data)
        if found:
            masked = self._redactor.mask(data, found)
            check_masked(data, masked)
            data = masked
        return data


def record_fields(ins: Inspection, verdict: str, source: str, status: int | None, provider_error: str | None,
                  response_body: bytes | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``guard_records`` columns and the one-entry HAR for a record."""
    report = ins.report or {}
    findings = report.get("findings", [])
    errors = [f for f in findings if f["severity"] == "error"]
    first = errors[0] if errors else (findings[0] if findings else None)
    culprit = first["message_index"] if first else None
    said = provider_error
    if said and culprit is None and ins.report is not None:
        from ..provider_errors import parse_error

        named = parse_error(said).indexes
        culprit = named[0] if named else None
    if said is None and errors:
        said = errors[0]["provider_error"] or errors[0]["text"]
    if said is None and ins.unreadable:
        said = f"the guard cannot read this request: {ins.unreadable}"
    url = public_url(ins.url)
    fields = {
        "source": source,
        "provider": ins.target,
        "model": ins.model,
        "dialect": ins.endpoint.dialect,
        "verdict": verdict,
        "status": status,
        "url": url,
        "rules": " " + " ".join(sorted({f["code"] for f in errors})) + " ",
        "culprit": culprit,
        "provider_error": said[:ERROR_CHARS] if said else None,
        "first_finding": f"{first['code']} {first['rule']}: {first['text']}" if first else None,
        "findings": _json(findings),
    }
    response: dict[str, Any] = {"status": status if status is not None else 0, "statusText": "", "headers": [],
                      "content": {"mimeType": "application/json", "size": 0}}
    if response_body is not None and status is not None and status >= 400:
        text = response_body.decode("utf-8", "replace")[:ERROR_CHARS]
        response["content"] = {"mimeType": "application/json", "size": len(text), "text": text}
    entry = {
        "request": {"method": "POST", "url": url, "httpVersion": "HTTP/1.1", "headers": [], "queryString": [],
                    "postData": {"mimeType": "application/json", "text": ins.body.decode("utf-8", "replace")}},
        "response": response,
        "_inspector": {"verdict": verdict, "source": source, "target": ins.target,
                       "repair": ins.repair_report if verdict == "repaired" else None},
    }
    har = {"log": {"version": "1.2", "creator": {"name": "tool-call-inspector guard", "version": "1"},
                   "entries": [entry]}}
    return fields, har


def _json(value: Any) -> str:
    from ..jsonio import dumps

    return dumps(value, indent=False).decode("utf-8")
