"""Token counts per message and per transcript, with a named counter.

Why these counters: OpenAI publishes its encodings, so ``o200k_base`` and ``cl100k_base`` are
counted exactly, with ``toktok`` (package ``toktok-rs``), whose encodings are compiled into its
binary: a run never downloads anything (plain ``tiktoken`` fetches its encoding files on first
use, which this tool must never do). Anthropic, Bedrock's Claude models, Gemini, Mistral and
DeepSeek use tokenizers this tool does not ship, so for them the count is a labelled
*estimate*: the ``cl100k_base`` count times 1.3, rounded up. It errs high on purpose (third-party
measurements put cl100k's error on Claude text at 20-50%, see ``docs/tokens.md``), so that a fit
to an estimated budget stays under the provider's real limit.

What is counted: every string in the message (its text, tool names, call ids, arguments,
results), joined, plus 3 tokens of framing per message, the way OpenAI's cookbook counts chat
messages. The count is exact for the encoding; a provider's bill can differ by a few tokens per
message (its own framing) and for images, which are counted here as the text they are sent as.

``toktok`` is imported on first count only: ``import inspector`` and a plain ``check`` never load it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

FRAMING = 3  # tokens per message for role and separators (OpenAI cookbook, num_tokens_from_messages)
ESTIMATE_FACTOR = 1.3

EXACT = ("o200k_base", "cl100k_base")
COUNTERS = (*EXACT, "estimate")
# The counter each target's default is: its own encoding where it is public and shipped here.
TARGET_COUNTER = {"openai": "o200k_base", "responses": "o200k_base"}


class Counter:
    """A named way to count tokens: ``exact`` says whether the counts are the encoding's own."""

    __slots__ = ("_encoding", "_factor", "exact", "label", "name")

    def __init__(self, name: str):
        if name not in COUNTERS:
            from .errors import InputError

            raise InputError(f"unknown token counter {name!r}; known: {', '.join(COUNTERS)}")
        self.name = name
        self.exact = name in EXACT
        self._encoding = name if self.exact else "cl100k_base"
        self._factor = 1.0 if self.exact else ESTIMATE_FACTOR
        self.label = (f"{name} (exact)" if self.exact else
                      f"estimate (cl100k_base x {ESTIMATE_FACTOR}, rounded up; the provider's tokenizer is not public here)")

    def count_texts(self, texts: list[str]) -> list[int]:
        """The token count of each text."""
        import toktok  # lazy: the tokenizer loads only when something is counted

        counts: list[int] = toktok.batch_count(texts, self._encoding, threads=1)
        if self._factor != 1.0:
            f = self._factor
            return [math.ceil(c * f) for c in counts]
        return counts

    def count_text(self, text: str) -> int:
        return self.count_texts([text])[0]


def counter_for(target: str | None, name: str | None = None) -> Counter:
    """The counter named ``name``, else the target's default (exact for OpenAI, estimate otherwise)."""
    return Counter(name or TARGET_COUNTER.get(target or "openai", "estimate"))


def _strings(value: Any, out: list[str]) -> None:
    # Strings are handled in the loop, not by a call each: this runs over every value of a
    # 100,000-message transcript. A stack of iterators, not recursion: check reads arrays
    # 1,000 deep, and fit must count them too (issue 22).
    add = out.append
    stack = [iter(value.values() if type(value) is dict else value)]
    while stack:
        for v in stack[-1]:
            t = type(v)
            if t is str:
                add(v)
            elif t is dict:
                stack.append(iter(v.values()))
                break
            elif t is list:
                stack.append(iter(v))
                break
            elif v is not None and t is not bool:
                add(str(v))
        else:
            stack.pop()


def message_text(raw: Any) -> str:
    """Every string of a message (values, not keys), joined by newlines: what a model reads of it."""
    if type(raw) is str:
        return raw
    out: list[str] = []
    if type(raw) is dict or type(raw) is list:
        _strings(raw, out)
    elif raw is not None:
        out.append(str(raw))
    return "\n".join(out)


def count_messages(raws: Iterable[Any], counter: Counter) -> list[int]:
    """Tokens of each message: its strings, plus ``FRAMING``."""
    counts = counter.count_texts([message_text(r) for r in raws])
    return [c + FRAMING for c in counts]


def token_summary(msgs_per_transcript: list[list[Any]], counter: Counter) -> dict[str, Any]:
    """The ``tokens`` object of ``check --format json --tokens``: totals and per-message counts."""
    per = [count_messages(raws, counter) for raws in msgs_per_transcript]
    return {
        "counter": counter.name,
        "exact": counter.exact,
        "label": counter.label,
        "total": sum(sum(p) for p in per),
        "transcripts": [{"total": sum(p), "per_message": p} for p in per],
    }
