"""pytest plugin (entry point ``pytest11``): off unless asked.

``pytest --inspector-cassettes`` collects every VCR.py / pytest-recording YAML cassette under a
``cassettes`` directory of the test paths and checks each recorded chat request (Chat Completions,
Responses, Anthropic Messages, Gemini) with the guard, that is with ``inspector check``'s verdict:

- a request recorded with a 2xx (or no) answer that its target would refuse fails the run;
- a request recorded with a 4xx is expected to be broken: it passes when the check finds the
  error, and the report says whether our finding points at the message the provider's error names;
  a recorded refusal that names a tool-call problem the check does not see fails (a blind spot);
- a body the guard cannot read is skipped with the reason.

Each failure names the cassette file and the line its interaction starts on. With
``--inspector-record`` every finding is also recorded for the team inbox (source ``test``).
PyYAML is imported only when cassettes are checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .cassettes import Interaction
    from .inspect import Inspection


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("inspector", "tool-call transcript inspector")
    group.addoption("--inspector-cassettes", action="store_true", default=False,
                    help="check every request body recorded in VCR.py / pytest-recording cassettes "
                         "(YAML files under a 'cassettes' directory)")
    group.addoption("--inspector-record", action="store_true", default=False,
                    help="record what --inspector-cassettes finds for the team inbox (inspector inbox)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> CassetteFile | None:
    if not parent.config.getoption("inspector_cassettes"):
        return None
    if file_path.suffix in (".yaml", ".yml") and "cassettes" in file_path.parts:
        return CassetteFile.from_parent(parent, path=file_path)
    return None


class CassetteFile(pytest.File):
    def collect(self) -> Iterator[RecordedRequest]:
        from .cassettes import read_cassette
        from .inspect import endpoint_of

        for it in read_cassette(self.path):
            if it.method == "POST" and it.body is not None and endpoint_of(it.uri) is not None:
                yield RecordedRequest.from_parent(self, name=f"interaction {it.index} (line {it.line})", interaction=it)


class CassetteProblem(Exception):
    pass


class RecordedRequest(pytest.Item):
    def __init__(self, *, interaction: Interaction, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.interaction = interaction

    def runtest(self) -> None:
        from .inspect import inspect_request
        from .recorder import Recorder, error_text, names_a_tool_call_problem

        it = self.interaction
        assert it.body is not None  # collect() yields only requests with a body
        ins = inspect_request(it.uri, it.body)
        if ins is None:
            pytest.skip("not a chat request the guard checks")
        if ins.report is None:
            pytest.skip(f"the guard cannot read this request: {ins.unreadable}")
        refused = it.status is not None and 400 <= it.status < 500
        said = error_text(it.response) if refused and it.response is not None else None
        if self.config.getoption("inspector_record") and (ins.would_reject or refused):
            Recorder("test", enabled=True).record(ins, "rejected" if refused else "would_reject", status=it.status,
                                                  provider_error=said, response_body=it.response if refused else None)
        if not refused:
            if ins.would_reject:
                raise CassetteProblem(f"recorded as accepted (HTTP {it.status}), but {ins.summary()}")
            return
        if ins.would_reject:
            self.user_properties.append(("points_at_the_named_message", _points_at(ins, said)))
            return
        if said and names_a_tool_call_problem(said):
            raise CassetteProblem(f"recorded as refused (HTTP {it.status}: {said[:300]}), but the check finds no "
                                  f"error for {ins.target}: a blind spot")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CassetteProblem):
            return f"{self.path}:{self.interaction.line}: {self.interaction.method} {self.interaction.uri}: {excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.interaction.line - 1, f"{self.path.name}:{self.interaction.line}"


def _points_at(ins: Inspection, said: str | None) -> str:
    """``yes`` / ``no`` / ``unknown``: does our first error sit on a message the provider names?"""
    if not said:
        return "unknown"
    from ..provider_errors import parse_error

    # our finding in the provider's own words is the one the provider sent: it names that message
    if any(f["provider_error"] and f["provider_error"].strip() in said for f in ins.errors):
        return "yes"
    err = parse_error(said)
    ours = {f["message_index"] for f in ins.errors}
    named = set(err.indexes)
    if not named and err.ids:
        named = {f["message_index"] for f in ins.errors if f["tool_call_id"] in err.ids}
        return "yes" if named else "no"
    if not named:
        return "unknown"
    return "yes" if ours & named else "no"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if not config.getoption("inspector_cassettes"):
        return
    rows = []
    for rep in terminalreporter.stats.get("passed", []):
        props = dict(getattr(rep, "user_properties", ()))
        if "points_at_the_named_message" in props:
            rows.append(f"{rep.nodeid}: recorded refusal found; our finding points at the message the provider "
                        f"names: {props['points_at_the_named_message']}")
    if rows:
        terminalreporter.write_sep("-", "inspector: recorded refusals")
        for r in rows:
            terminalreporter.write_line(r)
