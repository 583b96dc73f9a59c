"""The Target box says why a target is not offered (issue 36): one sentence from the engine,
naming every target the format's targets and gateways leave out."""

from __future__ import annotations

import re

from inspector import dialects
from inspector.checking import not_offered, why_not_offered
from inspector.targets import PROVIDER_NAME, TARGETS


def test_the_sentence_names_every_target_left_out_and_none_offered():
    for name in dialects.names():
        d = dialects.get(name)
        said = not_offered(name)
        left_out = [t for t in TARGETS if why_not_offered(name, t) is not None]
        if not left_out:
            assert said is None
            continue
        assert said is not None and said.startswith("Not offered: ")
        head = said.split(". ", 1)[0][len("Not offered: "):]
        assert re.split(r", | and ", head) == [PROVIDER_NAME[t] for t in left_out], said
        assert left_out == [t for t in TARGETS if t not in d.targets and t not in d.gateway_targets]
        assert f"the {name} format" in said and "Dialect box" in said


def test_anthropic_format_leaves_out_the_others():
    said = not_offered("anthropic")
    assert said is not None
    assert "OpenAI, DeepSeek" in said and "Their rules do not apply to the anthropic format" in said
