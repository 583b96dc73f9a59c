"""The guard as a LiteLLM callback (``pip install litellm``; imported only here).

    import litellm, inspector.guard.litellm
    litellm.callbacks = [inspector.guard.litellm.InspectorGuard(mode="raise")]

LiteLLM proxy ``config.yaml``: ``litellm_settings: {callbacks: inspector.guard.litellm.proxy_handler}``
(``INSPECTOR_GUARD_MODE`` chooses the mode, default ``observe``).

The messages LiteLLM receives are Chat Completions messages whatever the model, so they are
checked as that body (``inspector check`` on ``{"model": …, "messages": …}`` says the same); the
target comes from the model name (``deepseek/deepseek-chat`` is judged by DeepSeek's rules).
``async_pre_call_hook`` runs in the LiteLLM proxy, ``async_pre_call_deployment_hook`` in the SDK
(``litellm.acompletion``) and the router. ``raise`` stops the call: ``RejectedRequest`` in the SDK,
a 400 (``HTTPException``) in the proxy; ``repair`` hands LiteLLM the repaired messages.
"""

from __future__ import annotations

import json
import os
from typing import Any

from litellm.integrations.custom_logger import CustomLogger

from .inspect import CHAT, inspect_messages
from .recorder import Recorder
from .refusal import RejectedRequest, refusal_text
from .transport import check_mode

_CHAT_CALLS = {"completion", "acompletion"}


class InspectorGuard(CustomLogger):
    def __init__(self, mode: str = "observe", recorder: Recorder | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.mode = check_mode(mode)
        self.recorder = recorder if recorder is not None else Recorder("litellm")

    def _guard(self, data: dict[str, Any], call_type: Any) -> dict[str, Any] | None:
        name = getattr(call_type, "value", call_type)
        messages = data.get("messages")
        if name not in _CHAT_CALLS or type(messages) is not list:
            return None
        ins = inspect_messages(messages, CHAT, model=data.get("model") if type(data.get("model")) is str else None,
                               repair=self.mode == "repair", where=f"litellm:{name}")
        if ins.report is None:
            return None  # not readable as Chat Completions messages: LiteLLM says what is wrong
        if ins.would_reject and self.mode == "raise":
            self.recorder.record(ins, "would_reject")
            raise RejectedRequest(ins)
        if ins.repaired is not None:
            self.recorder.record(ins, "repaired")
            return {**data, "messages": json.loads(ins.repaired)["messages"]}
        if ins.would_reject:
            self.recorder.record(ins, "would_reject")
        return None

    async def async_pre_call_deployment_hook(self, kwargs: dict[str, Any], call_type: Any) -> dict[str, Any] | None:
        return self._guard(kwargs, call_type)

    async def async_pre_call_hook(self, user_api_key_dict: Any, cache: Any, data: dict[str, Any], call_type: Any) -> dict[str, Any]:
        try:
            changed = self._guard(data, call_type)
        except RejectedRequest as refused:
            from fastapi import HTTPException  # the LiteLLM proxy's own framework

            raise HTTPException(status_code=400, detail={"error": refusal_text(refused.inspection),
                                                         "findings": refused.findings}) from None
        return changed if changed is not None else data


def _proxy_handler() -> InspectorGuard:
    return InspectorGuard(mode=os.environ.get("INSPECTOR_GUARD_MODE", "observe"))


proxy_handler = _proxy_handler()
