"""OpenTelemetry GenAI messages (``gen_ai.input.messages``), on their own or inside an OTLP/JSON
trace export.

Each message is ``{role, parts: [...], name?}``; parts by ``type``: ``text`` (``content``),
``tool_call`` (``id``, ``name``, ``arguments``), ``tool_call_response`` (``id``, ``response``;
``result`` in the conventions' first drafts, as Pydantic AI and Logfire still write),
``server_tool_call`` / ``server_tool_call_response`` (run by the provider: they answer each other
inside the model's turn and are no calls to answer), ``reasoning``, ``blob``, ``file``, ``uri``
and any other (generic) part. Results come in a ``tool`` (or ``user``) message after the call;
instrumentations write one message per result or one with several, so pairing is openai-chat's
(``Block.RUN``).

Trace exports (``resourceSpans[].scopeSpans[].spans[]``, the collector's file exporter and the
observability tools' "export trace" buttons) hold the messages as a JSON string in the span
attribute ``gen_ai.input.messages``: every span that has it is one transcript, labelled by span
name and id, and repair writes the repaired messages back into that string. The model's answer,
``gen_ai.output.messages`` (the same messages, with a ``finish_reason``), follows the input in
the span's transcript, and goes back into its own attribute. The span says which
provider it called (``gen_ai.provider.name``, formerly ``gen_ai.system``; else
``gen_ai.request.model``): that is the default target; without it, the most permissive reading
(openai). Schema: open-telemetry/semantic-conventions ``docs/gen-ai/gen-ai-input-messages.json``
(docs/formats-research.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..containers import EMBEDDED, Path, embedded_json
from ..model import Call, Issue, Msg, Result
from ..target_from_model import model_named
from ..targets import target_from_provider
from .base import (
    PERMISSIVE_TARGETS,
    Block,
    Dialect,
    Samples,
    block_call,
    block_result,
    json_text,
    known,
    run_rules,
    word,
)
from .editing import PartsEditor

if TYPE_CHECKING:
    from ..pairing import Pairing

ROLES = ("system", "user", "assistant", "tool")
OWN_PARTS = frozenset({"tool_call", "tool_call_response", "server_tool_call", "server_tool_call_response",
                       "reasoning", "blob", "uri"})
INPUT_ATTR = "gen_ai.input.messages"
OUTPUT_ATTR = "gen_ai.output.messages"


def _response(part: dict[str, Any]) -> Any:
    return part["response"] if "response" in part else part.get("result")


class OtelGenAi(Dialect):
    name = "otel-genai"
    targets = PERMISSIVE_TARGETS
    block = Block.RUN

    def detect(self, items: list[Any]) -> int:
        for m in items[:50]:
            if type(m) is dict and type(m.get("parts")) is list:
                for p in m["parts"][:20]:
                    if type(p) is dict and (word(p.get("type")) in OWN_PARTS or (p.get("type") == "text" and "content" in p)):
                        return 4
        return 0

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        out: list[Msg] = []
        note = issues.append
        for i, m, role in known(items, where, out, note, ROLES):
            parts = m.get("parts")
            calls: list[Call] = []
            results: list[Result] = []
            other = False
            for j, p in enumerate(parts if type(parts) is list else ()):
                kind = p.get("type") if type(p) is dict else None
                if kind == "tool_call" and role == "assistant":
                    calls.append(block_call(i, j, p.get("id"), p.get("name"), p.get("arguments"), note))
                elif kind == "tool_call_response" and role in ("tool", "user"):
                    results.append(block_result(i, j, p.get("id"), note))
                elif kind not in ("server_tool_call", "server_tool_call_response"):
                    other = True
            out.append(Msg(i, role, calls, results, m, other))
        return out

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        return run_rules(msgs, pairing, target, self.text)

    def text(self, raw: Any) -> str:
        if type(raw) is not dict or type(raw.get("parts")) is not list:
            return ""
        out = []
        for p in raw["parts"]:
            if type(p) is not dict:
                continue
            if p.get("type") == "text":
                out.append(json_text(p.get("content")))
            elif p.get("type") == "tool_call_response":
                out.append(json_text(_response(p)))
        return "\n".join(t for t in out if t)


class OtelGenAiEditor(PartsEditor):
    def text_part(self, text: str) -> dict[str, Any]:
        return {"type": "text", "content": text}

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict[str, Any]:
        return {"role": "tool", "parts": [{"type": "tool_call_response", "id": call_id, "response": text}]}

    def set_call_id(self, raw: dict[str, Any], call: Call, new_id: str) -> dict[str, Any]:
        return self.with_part(raw, call.pos, id=new_id)

    def set_result_id(self, raw: dict[str, Any], result: Result, new_id: str) -> dict[str, Any]:
        return self.with_part(raw, result.pos, id=new_id)

    def set_result_name(self, raw: dict[str, Any], result: Result, name: str) -> dict[str, Any] | None:
        return self.with_part(raw, result.pos, name=name) if "name" in raw["parts"][result.pos] else None

    def note_for_orphan(self, raw: dict[str, Any], result: Result, text: str) -> dict[str, Any]:
        return {"role": "user", "parts": [self.text_part(text + "\n" + self.text_of(raw))]}

    def user_to_result(self, raw: dict[str, Any], call: Call, call_id: str | None) -> dict[str, Any]:
        return {**raw, "role": "tool",
                "parts": [{"type": "tool_call_response", "id": call_id, "response": self.text_of(raw)}]}

    def bridge(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "parts": [self.text_part(text)]}


# --- OTLP/JSON trace exports ---------------------------------------------------------------------

def _attr_value(v: Any) -> Any:
    if type(v) is not dict:
        return None
    for k in ("stringValue", "intValue", "boolValue", "doubleValue"):
        if k in v:
            return v[k]
    return None


def otlp_traces(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    """One transcript per span holding ``gen_ai.input.messages`` (a file, or JSON Lines of exports),
    continued by the span's ``gen_ai.output.messages`` when it has them."""
    docs: list[tuple[tuple[Any, ...], Any]]
    if type(root) is dict:
        docs = [((), root)]
    elif type(root) is list and root and type(root[0]) is dict and "resourceSpans" in root[0]:
        docs = [((k,), d) for k, d in enumerate(root)]
    else:
        return []
    out: list[tuple[Path, Any]] = []
    for base, doc in docs:
        rss = doc.get("resourceSpans") if type(doc) is dict else None
        if type(rss) is not list:
            continue
        for r, rs in enumerate(rss):
            for s, ss in enumerate(rs.get("scopeSpans") or () if type(rs) is dict else ()):
                for k, span in enumerate(ss.get("spans") or () if type(ss) is dict else ()):
                    attrs = span.get("attributes") if type(span) is dict else None
                    if type(attrs) is not list:
                        continue
                    values = {a.get("key"): (n, _attr_value(a.get("value"))) for n, a in enumerate(attrs)
                              if type(a) is dict}
                    if INPUT_ATTR not in values or type(embedded_json(values[INPUT_ATTR][1])) is not list:
                        continue
                    at = (*base, "resourceSpans", r, "scopeSpans", s, "spans", k, "attributes")
                    path = (*at, values[INPUT_ATTR][0], "value", "stringValue", EMBEDDED)
                    say = {key: values[key][1] for key in
                           ("gen_ai.provider.name", "gen_ai.system", "gen_ai.request.model") if key in values}
                    extra: dict[str, Any] = {"label": f"span {span.get('name', '?')} ({span.get('spanId', '?')})"}
                    if OUTPUT_ATTR in values and type(embedded_json(values[OUTPUT_ATTR][1])) is list:
                        # The model's answer continues the conversation: read after the input.
                        extra["tail"] = (*at, values[OUTPUT_ATTR][0], "value", "stringValue", EMBEDDED)
                    extra.update(span_target(say))
                    model = span_model({key: values[key][1] for key in MODEL_ATTRS if key in values})
                    if model is not None:
                        extra["model"] = model
                    out.append((path, ("OpenTelemetry span", extra)))
    return out


# Where a span names its model: the requested one first, then the one that answered (OpenTelemetry
# GenAI semantic conventions), then OpenInference's (Arize Phoenix, ``llm.model_name``).
MODEL_ATTRS = ("gen_ai.request.model", "gen_ai.response.model", "llm.model_name")


def span_model(attrs: dict[str, Any]) -> str | None:
    """The model a span's attributes name (``MODEL_ATTRS``, in that order), or None."""
    for key in MODEL_ATTRS:
        v = attrs.get(key)
        if type(v) is str and v.strip():
            return v.strip()
    return None


def span_target(attrs: dict[str, Any]) -> dict[str, Any]:
    """``{"target", "target_reason"}`` from a span's provider name, else its requested model."""
    for key in ("gen_ai.provider.name", "gen_ai.system"):
        target = target_from_provider(attrs.get(key))
        if target:
            return {"target": target, "target_reason": f"the span's {key} is {attrs[key]!r}"}
    target, why = model_named(attrs.get("gen_ai.request.model"), "the span's gen_ai.request.model is")
    return {"target": target, "target_reason": why} if target else {}


OtelGenAi.editor_class = OtelGenAiEditor
OtelGenAi.recognisers = (otlp_traces,)

_ASK = {"role": "user", "parts": [{"type": "text", "content": "Convert 250 EUR to JPY."}]}
_CALL = {"role": "assistant", "parts": [
    {"type": "tool_call", "id": "call_fx_01", "name": "convert_currency",
     "arguments": {"amount": 250, "from": "EUR", "to": "JPY"}}]}
OtelGenAi.samples = Samples(
    clean=[
        _ASK, _CALL,
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_fx_01", "response": "40,512 JPY"}]},
        {"role": "assistant", "parts": [{"type": "text", "content": "250 EUR is about 40,512 JPY."}]},
    ],
    broken=[
        _ASK, _CALL,
        {"role": "user", "parts": [{"type": "text", "content": "And in USD?"}]},
    ],
)

DIALECT = OtelGenAi()
