"""The app's wiring under AppTest: loading, Target, findings table, pasted error, safety.

AppTest runs the real script headless. It cannot click inside the timeline component (that is
in tests/e2e), but it sees the data handed to it, every other widget and the elements shown.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from support.app_test import APP, ROOT, app, component_data, open_repair, texts, upload

import inspector
from inspector import dialects

SAMPLES = ROOT / "sample_logs"
HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)> [x](javascript:alert(3)) ![b](http://127.0.0.1:9/b.png) <style>*{display:none}</style>"


def call(cid, name="lookup", args="{}"):
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


BROKEN = [
    {"role": "user", "content": "hi"},
    {"role": "assistant", "content": None, "tool_calls": [call("call_a"), call("call_b", "fetch")]},
    {"role": "tool", "tool_call_id": "call_a", "content": "ok"},
    {"role": "user", "content": "and?"},
    {"role": "tool", "tool_call_id": "call_stray", "content": "late"},
]


def test_first_page_offers_every_sample_in_one_click():
    at = app()
    labels = {b.label for b in at.button}
    for p in SAMPLES.glob("*.json"):
        assert p.stem.replace("_", " ") in labels


def test_a_sample_loads_with_summary_and_verdict():
    at = app()
    at.button(key="sample:parallel_half_answered.json").click().run()
    assert not at.exception
    assert "parallel_half_answered.json" in texts(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Messages"] == "6" and metrics["Tool calls"] == "3" and metrics["Results"] == "1"
    assert metrics["Errors"] == "2"
    assert any(t.startswith("OpenAI would reject this request: 2 errors. First: ") for t in texts(at))


def test_upload_shows_findings_table_matching_the_check():
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    report = inspector.check(BROKEN)
    df = at.dataframe[0].value
    assert list(df["code"]) == [f.code for f in report.findings]
    assert list(df["message"]) == [f.message_index for f in report.findings]
    assert set(df.columns) >= {"message", "code", "severity", "tool_call_id", "sentence", "provider_error"}


def test_dialect_badge_override_options_and_target_default():
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    dialect = at.selectbox(key="dialect_choice")
    assert dialect.options[1:] == dialects.names()
    target = at.selectbox(key="target")
    assert target.label == "Target"
    assert target.value == "openai"
    assert target.options == list(dialects.get("openai-chat").targets)


def _badges(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if "-badge[" in m.value]


def test_the_dialect_badge_names_what_the_check_reads():
    """A JSON Lines file mixing formats: the badge named the first line's dialect alone. A request
    body whose ``input`` holds plain role messages: the badge said openai-chat while the check read
    it as a Responses input."""
    lc = {"messages": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "hello"}]}
    oa = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]}
    mixed = b"".join(json.dumps(r).encode() + b"\n" for r in (lc, oa, lc))
    at = upload(app(), "mixed.jsonl", mixed)
    assert any("langchain + openai-chat" in b for b in _badges(at))
    assert at.selectbox(key="dialect_choice").options[0] == "auto-detect (langchain + openai-chat)"
    body = {"model": "gpt-4.1", "input": [{"role": "user", "content": "hi"}]}
    at = upload(app(), "body.json", json.dumps(body).encode())
    assert any(":material/translate: openai-responses" in b for b in _badges(at)), _badges(at)


def test_target_change_changes_severities_and_provider_texts_at_once():
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    before = at.dataframe[0].value
    at.selectbox(key="target").set_value("mistral").run()
    assert not at.exception
    after = at.dataframe[0].value
    want = inspector.check(BROKEN, target="mistral")
    assert list(after["severity"]) == [f.severity for f in want.findings]
    assert list(after["provider_error"]) == [f.provider_error or "" for f in want.findings]
    assert list(before["provider_error"]) != list(after["provider_error"])
    assert any(t.startswith("Mistral would reject") for t in texts(at))


def test_selecting_a_findings_row_selects_that_message_in_the_timeline():
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    df = at.dataframe[0].value
    row = list(df["code"]).index("TC002")
    at.session_state["findings"] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    assert at.session_state["sel"] == 4
    data = component_data(at)
    assert data["selected"] == 4
    assert "Message #4" in [s.value for s in at.subheader]


def test_severity_filter_narrows_the_table():
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    n_all = len(at.dataframe[0].value)
    at.session_state["f_sev"] = ["info"]
    at.run()
    df = at.dataframe[0].value
    assert set(df["severity"]) <= {"info"}
    assert len(df) < n_all


def test_unreadable_input_is_one_readable_message_with_line_and_column():
    at = upload(app(), "bad.json", b'[{"role": "user", "content": "hi"},\n {"role": }]')
    assert not at.exception
    shown = texts(at)
    assert "Could not read bad.json" in shown
    assert any("line 2 column" in t for t in shown)
    # An excerpt of what was there, with a caret under the position.
    assert [c.value for c in at.code] == ['line 2:\n {"role": }]\n          ^']


def test_paste_text_area_loads_and_empty_paste_says_so():
    at = app()
    at.text_area(key="paste_text").set_value(json.dumps(BROKEN))
    at.button(key="paste_go").click().run()
    assert not at.exception
    assert "pasted.json" in texts(at)
    at.text_area(key="paste_text").set_value("   ")
    at.button(key="paste_go").click().run()
    assert "the pasted text is empty" in texts(at)


def test_pasted_provider_error_points_at_the_message():
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    text = inspector.check(BROKEN).findings[0].provider_error
    at.text_area(key="pasted_error").set_value(text).run()
    assert not at.exception
    assert at.session_state["sel"] == 1
    assert component_data(at)["selected"] == 1
    assert any(t.startswith("calls call_b") for t in texts(at))


def test_pasted_openai_param_index():
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    at.text_area(key="pasted_error").set_value(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
        "'tool_calls'. param: messages.[4].role"
    ).run()
    assert at.session_state["sel"] == 4
    assert any("TC002" in t for t in texts(at))


def test_timeline_gets_one_page_and_the_pairing():
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    data = component_data(at)
    assert [it["i"] for it in data["items"] if "i" in it] == [0, 1, 2, 3, 4]
    assert [it["id"] for it in data["items"] if "ghost" in it] == ["call_b"]
    assert {l["id"] for l in data["links"] if "ghost" not in l} == {"call_a"}


def test_multi_transcript_file_offers_a_transcript_picker():
    log = {"eval": {"task": "t"}, "samples": [{"messages": BROKEN}, {"messages": BROKEN[:3]}]}
    at = upload(app(), "eval.json", json.dumps(log).encode())
    pick = at.selectbox(key="transcript")
    assert pick.label == "Transcript"
    assert len(pick.options) == 2
    pick.set_value(1).run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Messages"] == "3"


def test_hostile_text_never_reaches_markdown_or_html():
    items = [{"role": "user", "content": HOSTILE},
             {"role": "assistant", "content": None, "tool_calls": [call(HOSTILE, HOSTILE, HOSTILE)]},
             {"role": HOSTILE, "content": HOSTILE}]
    at = upload(app(), "evil.json", json.dumps(items).encode())
    at.session_state["sel"] = 1
    at.run()
    assert not at.exception
    for el in list(at.markdown) + list(at.caption) + list(at.get("html")) + list(at.subheader) + list(at.title):
        body = getattr(el, "value", None) or getattr(getattr(el, "proto", None), "body", "")
        assert "alert(" not in str(body) and "b.png" not in str(body)
    assert any(HOSTILE in t for t in texts(at))  # shown, as plain text


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.json*")))
def test_every_sample_opens_without_error(sample):
    at = app()
    at.button(key=f"sample:{sample}").click().run()
    assert not at.exception
    if "ds_open_button" in [b.key for b in at.button]:  # several transcripts: the dataset view first
        at.button(key="ds_open_button").click().run()
        assert not at.exception
    assert component_data(at)["total"] > 0


def test_repair_panel_counts_and_downloads():
    data = json.dumps(BROKEN).encode()
    at = open_repair(upload(app(), "broken.json", data))
    want = inspector.repair(data, target="openai")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Errors before"] == str(want.report.findings_before["error"])
    assert metrics["Errors after"] == "0"
    assert metrics["Changes"] == str(len(want.report.changes))
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Download repaired JSON", "Download repair report", "Download Markdown transcript"]
    assert any(t.startswith("after #") for t in texts(at))


def test_repair_options_come_from_the_engine_and_change_the_result():
    data = json.dumps(BROKEN).encode()
    at = open_repair(upload(app(), "broken.json", data))
    missing = at.selectbox(key="ro:missing")
    assert missing.value == "placeholder"
    missing.set_value("remove_call").run()
    assert not at.exception
    want = inspector.repair(data, target="openai", options={"missing": "remove_call"})
    assert {m.label: m.value for m in at.metric}["Quarantined"] == str(len(want.report.quarantine))
    assert at.session_state["repair_options"]["missing"] == "remove_call"


def test_repair_options_that_would_blow_up_the_output_get_the_reason_in_the_repair_tab():
    # issue 22: a share link carries repair options; a placeholder of {name} repeated on many
    # missing results once took the server from 338 MB to 1.47 GB when Repair was opened.
    from inspector.repairing import MAX_GROWTH

    msgs = [{"role": "user", "content": "go"}]
    for i in range(2_000):
        msgs += [{"role": "assistant", "content": None, "tool_calls": [call(f"c{i}", "t" * 150)]},
                 {"role": "user", "content": "next"}]
    at = open_repair(upload(app(), "many-missing.json", json.dumps(msgs).encode()))
    at.text_input(key="ro:placeholder").set_value("{name}" * 300).run()
    assert not at.exception
    said = [t for t in texts(at) if f"more than {MAX_GROWTH}x the input" in t]
    assert len(said) == 1 and said[0].startswith("these repair options would make the output")
    assert "use a shorter placeholder text" in said[0]
    assert [b.label for b in at.get("download_button") if b.label == "Download repaired JSON"] == []


CORPUS = Path("/work/shared/corpus")
OTHER_DIALECTS = [
    "anthropic/pydantic-ai_anthropic_tool_with_thinking.request.json",
    "anthropic/claude-code-log_representative_messages.jsonl",
    "gemini/pydantic-ai_google_model_iter_stream.request.json",
    "responses/pydantic-ai_openai_responses_model_retry.request.json",
]


@pytest.mark.parametrize("rel", OTHER_DIALECTS)
def test_other_dialects_get_their_own_target_and_a_timeline(rel):
    path = CORPUS / rel
    if not path.exists():
        pytest.skip("corpus not present")
    data = path.read_bytes()
    at = upload(app(), path.name, data)
    report = inspector.check(data)
    assert at.selectbox(key="target").value == report.target
    assert at.selectbox(key="target").options == list(dialects.get(report.dialect).targets)
    comp = component_data(at)
    metrics = {m.label: m.value for m in at.metric}
    assert comp["total"] == int(metrics["Messages"].replace(",", "")) > 0
    assert len([it for it in comp["items"] if "i" in it]) == min(comp["total"], 300)
    n_calls = sum(len(it["calls"]) for it in comp["items"] if "i" in it)
    assert n_calls == int(metrics["Tool calls"].replace(",", ""))


def test_a_shared_link_restores_the_file_and_the_view(tmp_path, monkeypatch):
    """``?t=<token>&m=4`` loads the shared bytes, its target and transcript, and selects message 4."""
    from inspector.sharing.store import Store

    monkeypatch.setenv("INSPECTOR_STORE_URL", f"sqlite:///{tmp_path / 'shares.sqlite3'}")
    data = json.dumps(BROKEN).encode()
    view = {"target": "mistral", "dialect": "openai-chat", "options": {"missing": "remove_call"},
            "selected": 1, "transcript": 0}
    token = Store.from_env().put(data, "shared.json", view)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["t"] = token
    at.query_params["m"] = "4"
    at.run()
    assert not at.exception
    assert "shared.json" in texts(at)
    assert at.selectbox(key="target").value == "mistral"
    assert at.session_state["sel"] == 4
    assert component_data(at)["selected"] == 4
    assert at.session_state["repair_options"]["missing"] == "remove_call"


def test_a_dead_share_link_keeps_saying_so_until_something_is_opened():
    app = AppTest.from_file(APP, default_timeout=60)
    app.query_params["t"] = "no-such-token-anywhere"
    app.run()
    assert not app.exception
    assert any("not found or has expired" in w.value for w in app.warning)
    app.run()  # any later rerun (a click, a widget) must not make the message vanish
    assert any("not found or has expired" in w.value for w in app.warning)
    upload(app, "clean.json", (SAMPLES / "clean_parallel_calls.json").read_bytes())
    assert not any("not found or has expired" in w.value for w in app.warning)


def test_repair_counts_and_lists_describe_the_same_transcript():
    """On a file with several transcripts the counts are the selected transcript's, as the lists
    below them are; the whole file's totals are one separate line that says so."""
    clean = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    lines = [json.dumps(clean), json.dumps(BROKEN), json.dumps(BROKEN)]
    data = ("\n".join(lines)).encode()
    whole = inspector.repair(data, target="openai").report
    at = upload(app(), "many.jsonl", data)
    at.button(key="ds_open_button").click().run()  # the dataset view first; open transcript 1
    at = open_repair(at)
    metrics = {m.label: m.value for m in at.metric if m.label in ("Errors before", "Errors after", "Changes", "Quarantined")}
    assert metrics == {"Errors before": "0", "Errors after": "0", "Changes": "0", "Quarantined": "0"}
    assert "Nothing to change in this transcript for this target." in texts(at)
    assert "Counts and verdict for transcript #1 of 3. Whole file: 2 of 3 transcripts would be rejected" in " ".join(texts(at))
    assert not any(t.startswith("Quarantined (kept") for t in texts(at))
    total = [t for t in texts(at) if t.startswith("Whole file (3 transcripts")]
    assert total and f"{len(whole.changes)} changes, {len(whole.quarantine)} quarantined" in total[0]
    at.selectbox(key="transcript").set_value(1).run()
    one = [c for c in whole.changes if c.transcript == 1]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Changes"] == str(len(one)) and metrics["Quarantined"] == str(
        sum(1 for q in whole.quarantine if q.transcript == 1))
    assert metrics["Errors before"] == str(sum(1 for f in inspector.check(data).findings
                                               if f.transcript == 1 and f.severity == "error"))


def test_target_defaults_from_the_requests_model_and_says_why():
    body = {"model": "deepseek-v4-flash", "input": [
        {"role": "user", "content": "read a"},
        {"type": "function_call", "call_id": "call-a", "name": "read", "arguments": "{}"},
        {"role": "assistant", "content": "<think>b</think>"},
        {"type": "function_call_output", "call_id": "call-a", "output": "contents"}]}
    at = upload(app(), "deepseek.json", json.dumps(body).encode())
    assert at.selectbox(key="target").value == "deepseek"
    assert "Target deepseek: the request's model 'deepseek-v4-flash' is a DeepSeek model." in texts(at)
    badges = [m.value for m in at.markdown if "-badge[" in m.value]
    assert any("target from the request's model" in b for b in badges)
    at.selectbox(key="target").set_value("responses").run()
    assert not any(t.startswith("Target deepseek:") for t in texts(at))
    assert not any("request's model" in m.value for m in at.markdown)


def test_target_from_the_model_a_langchain_history_names_in_the_badge_and_reason():
    """Issue 28: the model where the format records it (response_metadata), said in the app."""
    history = [
        {"type": "human", "data": {"content": "Weather in Oslo?"}},
        {"type": "ai", "data": {"content": "", "response_metadata": {"model_name": "claude-sonnet-4-5"},
                                "tool_calls": [{"name": "get_weather", "args": {"city": "Oslo"}, "id": "toolu_01Oslo",
                                                "type": "tool_call"}]}},
        {"type": "human", "data": {"content": "Never mind."}}]
    at = upload(app(), "history.json", json.dumps(history).encode())
    assert at.selectbox(key="target").value == "anthropic"
    assert ("Target anthropic: the history's AI messages name model 'claude-sonnet-4-5' "
            "(response_metadata.model_name).") in texts(at)
    badges = [m.value for m in at.markdown if "-badge[" in m.value]
    assert any("target from the model the file names" in b for b in badges)


def _qp(at, key):
    v = at.query_params.get(key)
    return v[-1] if isinstance(v, list) else v


def test_the_url_records_the_view_and_follows_back_and_forward():
    """The address holds target, message and (only when overridden) dialect; changing it moves the view."""
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    at.session_state["findings"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    first = at.session_state["sel"]
    assert _qp(at, "m") == str(first) and _qp(at, "target") == "openai"
    assert "dialect" not in at.query_params and "t" not in at.query_params
    at.query_params["m"] = "4"  # what back/forward does: the old address, a rerun
    at.run()
    assert at.session_state["sel"] == 4 and component_data(at)["selected"] == 4
    at.query_params["target"] = "mistral"
    at.run()
    assert at.selectbox(key="target").value == "mistral"


def open_shared(tmp_path, monkeypatch, view: dict, **params) -> tuple[AppTest, str]:
    """The app opened on a link to BROKEN shared with ``view``, the link's own ``params`` added."""
    from inspector.sharing.store import Store

    monkeypatch.setenv("INSPECTOR_STORE_URL", f"sqlite:///{tmp_path / 'shares.sqlite3'}")
    token = Store.from_env().put(json.dumps(BROKEN).encode(), "shared.json", view)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["t"] = token
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    return at, token


def test_a_shared_link_keeps_auto_detect_unless_the_sharer_overrode_it(tmp_path, monkeypatch):
    at, token = open_shared(tmp_path, monkeypatch, {"target": "openai", "dialect": None, "selected": 2}, m="3")
    assert at.selectbox(key="dialect_choice").value == "auto-detect"
    assert at.session_state["sel"] == 3
    assert _qp(at, "t") == token


def test_a_python_repr_is_named_and_can_be_read_on_request():
    at = upload(app(), "printed.json", repr(BROKEN).encode())
    assert any("looks like a Python repr" in t for t in texts(at))
    at.button(key="read_repr").click().run()
    assert not at.exception
    assert len(at.dataframe[0].value) == len(inspector.check(BROKEN).findings)


def test_findings_are_grouped_by_rule_with_counts_errors_first():
    """One button per rule code: errors before warnings and notes; a click narrows the table to it."""
    at = upload(app(), "broken.json", json.dumps(BROKEN).encode())
    report = inspector.check(BROKEN)
    buttons = [b for b in at.button if (b.key or "").startswith("rule:")]
    codes = [b.key.split(":", 1)[1] for b in buttons]
    assert sorted(codes) == sorted({f.code for f in report.findings})
    sev = {f.code: f.severity for f in report.findings}
    order = {"error": 0, "warning": 1, "info": 2}
    assert [order[sev[c]] for c in codes] == sorted(order[sev[c]] for c in codes)
    last = buttons[-1]
    n = sum(1 for f in report.findings if f.code == codes[-1])
    assert f": {n} " in last.label
    last.click().run()
    assert set(at.dataframe[0].value["code"]) == {codes[-1]}
    assert at.session_state["sel"] == min(f.message_index for f in report.findings if f.code == codes[-1])


def test_a_shared_link_whose_dialect_does_not_fit_shows_the_view_with_a_note(tmp_path, monkeypatch):
    """``&dialect=gemini`` on an openai-chat transcript: the view, read as detected, and a note
    that the link's dialect does not fit; never "Could not read this input"."""
    at, _ = open_shared(tmp_path, monkeypatch, {"target": "openai", "dialect": None, "selected": 1}, dialect="gemini")
    assert not at.exception
    assert "Could not read this input" not in texts(at)
    assert at.selectbox(key="dialect_choice").value == "auto-detect"
    note = [t for t in texts(at) if "link asks for the gemini dialect" in t]
    assert note and "not recognised as gemini" in note[0] and "read as detected (openai-chat)" in note[0]
    assert len(at.dataframe[0].value) == len(inspector.check(BROKEN).findings)
    assert _qp(at, "dialect") is None  # the address no longer claims the dialect that did not fit
