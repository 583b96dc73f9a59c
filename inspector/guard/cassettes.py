"""Recorded HTTP interactions in VCR.py / pytest-recording YAML cassettes, read for the guard's
pytest plugin (and anyone else): each interaction's request URI, method and body, the response's
status and body, and the line of the cassette the interaction starts on.

VCR.py writes ``request.body`` as a string (or ``{string: …}``) and ``response.body.string``;
some suites (Pydantic AI's) write ``parsed_body`` instead (the JSON value, YAML-encoded), or, in
newer cassettes, ``body: {type: json, content: …}``. All are read; a body that is neither is None. Needs PyYAML (the ``[guard]`` extra), imported here only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError


@dataclass
class Interaction:
    index: int
    line: int  # 1-based line of the cassette where the interaction starts
    method: str
    uri: str
    body: bytes | None  # the request body
    status: int | None
    response: bytes | None  # the response body
    headers: dict[str, list[str]]  # the response headers


def _body(part: dict[str, Any], key: str = "body") -> bytes | None:
    if "parsed_body" in part:
        return json.dumps(part["parsed_body"], ensure_ascii=False).encode("utf-8")
    b = part.get(key)
    if isinstance(b, dict) and b.get("type") == "json" and "content" in b:  # Pydantic AI's newer cassettes
        return json.dumps(b["content"], ensure_ascii=False).encode("utf-8")
    if isinstance(b, dict):
        b = b.get("string")
    if isinstance(b, str):
        return b.encode("utf-8", "surrogatepass")
    if isinstance(b, (bytes, bytearray)):
        return bytes(b)
    return None


def read_cassette(path: str | Path) -> list[Interaction]:
    """Every interaction of a cassette; ``InputError`` when the file is no cassette."""
    import yaml

    text = Path(path).read_text(encoding="utf-8")
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InputError(f"not a YAML cassette: {str(exc).splitlines()[0]}", str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("interactions"), list):
        raise InputError("not a VCR cassette (no 'interactions' list)", str(path))
    lines: list[int] = []
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if getattr(k, "value", None) == "interactions" and isinstance(v, yaml.SequenceNode):
                lines = [item.start_mark.line + 1 for item in v.value]
    out = []
    for i, it in enumerate(data["interactions"]):
        req: Any = it.get("request") if isinstance(it, dict) else None
        resp: Any = it.get("response") if isinstance(it, dict) else None
        if not isinstance(req, dict):
            continue
        resp = resp if isinstance(resp, dict) else {}
        status = resp.get("status")
        code = status.get("code") if isinstance(status, dict) else status
        out.append(Interaction(
            index=i, line=lines[i] if i < len(lines) else 0, method=str(req.get("method", "POST")).upper(),
            uri=str(req.get("uri", "")), body=_body(req), status=code if isinstance(code, int) else None,
            response=_body(resp), headers={str(k): v if isinstance(v, list) else [v] for k, v in (resp.get("headers") or {}).items()},
        ))
    return out
