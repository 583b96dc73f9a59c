"""The dataset view under AppTest: a file with several transcripts opens as a summary and a table."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest
from support.app_test import APP, app, texts, upload
from support.datasets import GOOD, MISSING, ORPHAN

from inspector.containers import Document, find_transcripts
from inspector.jsonio import parse

WARNED = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": [
    {**GOOD["messages"][1]["tool_calls"][0], "id": "call_2"}]}]}  # a call still running: a warning
RECORDS = [GOOD, ORPHAN, GOOD, MISSING, WARNED, GOOD]
DATA = b"".join(json.dumps(r).encode() + b"\n" for r in RECORDS)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def table(at: AppTest):
    return at.dataframe(key="ds_table").value


def test_several_transcripts_open_as_the_dataset_view():
    at = upload(app(), "train.jsonl", DATA)
    m = metrics(at)
    assert m["Transcripts"] == "6" and m["Rejected"] == "2" and m["Warnings only"] == "1" and m["Clean"] == "3"
    assert any(t.startswith("OpenAI would reject 2 of 6 transcripts (33.3%)") for t in texts(at))
    df = table(at)
    assert list(df["#"]) == [1, 2, 3, 4, 5, 6]  # one numbering: from 1, as the picker and the timeline say
    assert list(df["dialect"]) == ["openai-chat"] * 6
    assert df.loc[1, "codes"].startswith("TC002") and df.loc[3, "codes"].startswith("TC001")
    assert at.get("vega_lite_chart")  # the bar chart per rule
    assert "ds_back" not in [b.key for b in at.button] and "Tool calls" not in metrics(at)


def test_filters_by_severity_rule_and_dialect():
    at = upload(app(), "train.jsonl", DATA)
    at.button_group(key="ds_sev").set_value(["error"]).run()
    assert list(table(at)["#"]) == [2, 4]
    at.button_group(key="ds_sev").set_value(["error", "warning", "info", "clean"]).run()
    at.multiselect(key="ds_rule").set_value(["TC001"]).run()
    assert list(table(at)["#"]) == [4]
    at.multiselect(key="ds_rule").set_value([]).run()
    at.button_group(key="ds_sev").set_value(["warning"]).run()
    assert list(table(at)["#"]) == [5]
    assert at.multiselect(key="ds_dialect").options == ["openai-chat"]


def test_open_a_transcript_and_come_back():
    at = upload(app(), "train.jsonl", DATA)
    at.selectbox(key="transcript").set_value(3).run()
    assert not at.exception
    assert metrics(at)["Messages"] == "3" and "Tool calls" in metrics(at)  # the transcript view
    assert at.session_state["ds_open"]
    at.button(key="ds_back").click().run()
    assert metrics(at)["Transcripts"] == "6"
    at.button(key="ds_open_button").click().run()  # opens the picked transcript again
    assert metrics(at)["Messages"] == "3"


def test_a_shared_link_reopens_the_dataset_view_or_the_transcript(tmp_path, monkeypatch):
    from inspector.sharing.store import Store

    monkeypatch.setenv("INSPECTOR_STORE_URL", f"sqlite:///{tmp_path / 'shares.sqlite3'}")
    store = Store.from_env()
    for view, want in (({"target": "openai", "transcript": 3, "dataset": "table"}, "Transcripts"),
                       ({"target": "openai", "transcript": 3, "dataset": "transcript"}, "Tool calls")):
        token = store.put(DATA, "train.jsonl", view)
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["t"] = token
        at.run()
        assert not at.exception
        assert want in metrics(at)
        assert at.selectbox(key="transcript").value == 3
        if want == "Tool calls":
            assert metrics(at)["Messages"] == "3"


def test_a_big_file_reports_progress_and_the_same_report():
    from inspector.checking import check_document

    data = b"".join(json.dumps(RECORDS[k % len(RECORDS)]).encode() + b"\n" for k in range(1234))
    root, fmt = parse(data)
    calls = []
    whole, _ = check_document(Document(root, fmt, find_transcripts(root, fmt)), "openai", None)
    seen, analyses = check_document(Document(root, fmt, find_transcripts(root, fmt)), "openai", None,
                                    progress=lambda done, total: calls.append((done, total)))
    assert calls == [(500, 1234), (1000, 1234), (1234, 1234)]
    assert seen == whole and len(analyses) == 1234
