"""The guard as LangChain v1 agent middleware (``pip install langchain``; imported only here).

    from langchain.agents import create_agent
    from inspector.guard.langchain import InspectorGuard
    agent = create_agent(model, tools, middleware=[InspectorGuard(mode="raise")])

``wrap_model_call`` checks the model request's messages before each model call. LangChain
messages are a dialect of their own (``langchain``), read from ``model_dump()`` exactly as
``inspector check`` reads a saved list; the target is what the messages' ``response_metadata``
names, else the chat model's model name, else OpenAI's rules. ``raise`` stops the step with
``RejectedRequest``; ``repair`` hands the model the repaired messages (lossless: nothing is
dropped that the report does not list); ``observe`` logs and records.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from .inspect import LANGCHAIN, inspect_messages
from .recorder import Recorder
from .refusal import RejectedRequest
from .transport import check_mode

log = logging.getLogger("inspector.guard")
_CLASSES: dict[str, Any] = {"ai": AIMessage, "human": HumanMessage, "system": SystemMessage, "tool": ToolMessage}


def _model_name(model: Any) -> str | None:
    for attr in ("model_name", "model", "model_id"):
        value = getattr(model, attr, None)
        if type(value) is str and value:
            return value
    return None


class InspectorGuard(AgentMiddleware):
    def __init__(self, mode: str = "observe", recorder: Recorder | None = None):
        super().__init__()
        self.mode = check_mode(mode)
        self.recorder = recorder if recorder is not None else Recorder("langchain")

    def _checked(self, request: Any) -> Any:
        dumped = [m.model_dump(mode="json") for m in request.messages]
        ins = inspect_messages(dumped, LANGCHAIN, model=_model_name(request.model), repair=self.mode == "repair",
                               where="langchain:wrap_model_call")
        if ins.report is None:
            return request
        if ins.would_reject and self.mode == "raise":
            self.recorder.record(ins, "would_reject")
            raise RejectedRequest(ins)
        if ins.repaired is not None:
            self.recorder.record(ins, "repaired")
            fixed = json.loads(ins.repaired)["messages"]
            return request.override(messages=[_CLASSES[d["type"]].model_validate(d) for d in fixed])
        if ins.would_reject:
            log.warning("inspector guard: %s (LangChain model call, observe mode)", ins.summary())
            self.recorder.record(ins, "would_reject")
        return request

    def wrap_model_call(self, request: Any, handler: Any) -> Any:
        return handler(self._checked(request))

    async def awrap_model_call(self, request: Any, handler: Any) -> Any:
        return await handler(self._checked(request))
