"""An OpenAI Agents SDK SQLiteSession database (issue 32) opens in the app like any file: uploaded,
its sessions listed as the dataset view, the broken session drawn with its finding, and the
repaired session store downloaded as a new database that checks clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

import inspector
from inspector.sqlite_sessions import HEADER

from .conftest import download, rerun, upload
from .test_app_dataset import click_row

pytestmark = pytest.mark.e2e
SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "agents_sdk_sqlite_session.db"
TL = '[data-testid="timeline"]'


def test_sqlite_session_store_opens_and_repairs_to_a_new_database(app_page):
    page = app_page
    before = SAMPLE.read_bytes()
    upload(page, SAMPLE)
    summary = page.locator(".st-key-dataset_summary")
    expect(summary).to_contain_text("Transcripts")
    expect(page.locator(".st-key-verdict-bad")).to_contain_text("would reject 1 of 2 transcripts")

    click_row(page, 1)  # session "deploy": the call its run never answered
    expect(page.locator(f"{TL} [data-msg-index]")).to_have_count(3)
    expect(page.locator(f"{TL} [data-finding=TC001]")).not_to_have_count(0)

    with rerun(page):
        page.get_by_role("tab", name="Repair").click()
    dl = download(page, page.get_by_role("button", name="Download repaired database"))
    assert dl.suggested_filename == "agents_sdk_sqlite_session.repaired.db"
    data = Path(dl.path()).read_bytes()
    assert data[:16] == HEADER
    report = inspector.check(data)
    assert report.ok and report.transcripts == 2, [f.code for f in report.findings]
    assert SAMPLE.read_bytes() == before  # the uploaded file is never changed
