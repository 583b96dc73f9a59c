"""HAR captures (browser devtools "Save all as HAR", mitmproxy, Charles, Proxyman): the chat
requests inside, one transcript per entry.

HAR 1.2 (``log.entries[]``, each with ``request.method``, ``request.url``, ``request.postData.text``
and ``response.status``, ``response.content.text``) keeps request bodies as text. Every entry whose
body is a chat request of any dialect the inspector reads (``messages``, ``input``, ``contents``)
becomes a transcript labelled ``METHOD URL → STATUS``; the dialect is detected per entry as for any
request body, the default target comes from the URL (``api.anthropic.com``, ``bedrock-runtime``,
...) or else the body's model, and repair writes the repaired body back into ``postData.text``. When the
recorded response is an error (status 400 and up), its text is kept as ``response_error``: the app
reads it like a pasted provider error (``provider_errors``) and opens on the message it names.
Spec: HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/ (docs/formats-research.md).
"""

from __future__ import annotations

from typing import Any

from .containers import EMBEDDED, LIST_KEYS, Path, api_format, embedded_json, looks_like_messages, register
from .targets import target_from_url

ERROR_CHARS = 20_000  # enough for any provider's error body; a huge HTML error page is cut


def har_entries(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    log = root.get("log") if type(root) is dict else None
    entries = log.get("entries") if type(log) is dict else None
    if type(entries) is not list:
        return []
    out: list[tuple[Path, Any]] = []
    for k, e in enumerate(entries):
        if type(e) is not dict or type(e.get("request")) is not dict:
            continue
        req: dict[str, Any] = e["request"]
        post = req.get("postData")
        body = embedded_json(post.get("text")) if type(post) is dict else None
        if type(body) is not dict:
            continue
        key = next((x for x in LIST_KEYS[:3] if type(body.get(x)) is list and looks_like_messages(body[x])), None)
        if key is None:
            continue
        resp: dict[str, Any] = e["response"] if type(e.get("response")) is dict else {}
        status = resp.get("status")
        url = req["url"] if type(req.get("url")) is str else "?"
        extra: dict[str, Any] = {"label": f"{req.get('method', 'POST')} {url} → {status if status is not None else '?'}"}
        extra["captured"] = True  # a captured HTTP request: judged as a request (rules/requests.py)
        target = target_from_url(url)
        if target:  # else the body's model, as for any request body (target_from_model)
            extra["target"] = target
            # The endpoint says how the body is read: entries to several APIs are not one dialect.
            extra["dialect"] = api_format("responses" if target == "openai" and key == "input" else target)
            extra["target_reason"] = f"the request went to {url.split('/')[2] if '//' in url else url}"
        content = resp.get("content")
        text = content.get("text") if type(content) is dict else None
        if type(text) is str and type(content) is dict and content.get("encoding") == "base64":  # HAR 1.2: binary-safe bodies
            import base64  # here: every check's start-up imports this module, few HAR files hold base64 bodies

            try:
                text = base64.b64decode(text).decode("utf-8", "replace")
            except ValueError:
                text = None
        if type(status) is int and status >= 400 and type(text) is str and text.strip():
            extra["response_error"] = text[:ERROR_CHARS]
        out.append((("log", "entries", k, "request", "postData", "text", EMBEDDED, key), ("HAR entry", extra)))
    return out


register(har_entries)
