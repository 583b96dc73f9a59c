"""Repair in the browser: the downloaded file is the same kind of file, and it is clean."""

from __future__ import annotations

import json

import inspector

from .conftest import download, open_sample, rerun, upload


def download_repaired(page) -> bytes:
    with rerun(page):
        page.get_by_role("tab", name="Repair").click()
    dl = download(page, page.get_by_role("button", name="Download repaired JSON"))
    return open(dl.path(), "rb").read()


def test_download_repaired_sample_is_clean(app_page):
    page = app_page
    open_sample(page, "parallel_half_answered")
    data = download_repaired(page)
    report = inspector.check(data, target="openai")
    assert report.ok, [f.code for f in report.findings]
    assert isinstance(json.loads(data), list)


def test_download_keeps_the_request_body_wrapper(app_page):
    page = app_page
    body = {
        "model": "gpt-4o",
        "temperature": 0.2,
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "user", "content": "still there?"},
        ],
    }
    upload(page, name="request.json", data=json.dumps(body).encode())
    data = download_repaired(page)
    out = json.loads(data)
    assert out["model"] == "gpt-4o" and out["temperature"] == 0.2
    assert inspector.check(data).ok
