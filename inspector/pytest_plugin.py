"""pytest plugin (entry point ``pytest11``): off unless asked with ``--inspector-cassettes``."""

from __future__ import annotations


def pytest_addoption(parser) -> None:
    group = parser.getgroup("inspector", "tool-call transcript inspector")
    group.addoption("--inspector-cassettes", action="store_true", default=False,
                    help="check every request body recorded in VCR.py / pytest-recording cassettes")
