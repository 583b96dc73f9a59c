"""The real app script under Streamlit's AppTest: start it, upload a file, read what it shows."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key="upload").set_value((name, data, "application/json")).run()
    assert not at.exception
    return at


def texts(at: AppTest) -> list[str]:
    return [t.value for t in at.text]


def component_data(at: AppTest) -> dict:
    (el,) = [e for e in at.get("bidi_component") if e.proto.component_name.endswith("inspector_timeline")]
    return json.loads(el.proto.json)


def open_repair(at: AppTest) -> AppTest:
    at.session_state["tabs"] = "Repair"
    at.run()
    assert not at.exception
    return at


