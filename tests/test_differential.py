"""Differential tests (issue 28): one input, one verdict, whichever entry point reads it.

Over every file of the shared corpus, ``sample_logs``, each dialect's own samples and the test
suite's own fixtures (the request bodies of the recorded cassettes in ``tests/cassettes``, the
fresh shapes of ``test_one_verdict``, ``check/test_provider_quirks`` and
``rules/test_thinking_required``), and
generated variants of each (every object's keys in reverse order, so that a body's ``tools``
come before its ``messages``; a request body as the lines of an OpenAI Batch file; one
transcript per line against a whole array; JSON against JSON Lines), these hold:

1. ``check`` ≡ ``scan``: the same transcripts, read in the same dialects, checked for the same
   targets, with the same findings at the same indexes and the same loops (``inspector.loops``)
   (or both refuse the file); check's SARIF and GitHub outputs carry those findings, then the
   loops tagged apart;
2. ``check`` ≡ the app: the findings table (``ui.findings.findings_frame`` over ``ui.analysis.Checked``,
   as the page builds it) holds check's findings, the loops table (``ui.loops.loops_frame``) its
   loops, and the Target box starts where check chose;
3. ``repair``: every change it makes cites a finding ``check`` reported for that transcript at a
   severity repair acts on (error or warning); its output reads back as the same transcripts in
   the same dialects and checks clean for the same targets, or it says why not (exit 1);
4. ``fit`` with a budget nothing exceeds reads the same transcripts for the same target, counts
   check's errors and changes nothing;
5. the guard (``inspector.guard.inspect_request``), given a request body as the API it is for
   would receive it, reports check's findings for check's target, judged as a request
   (``check --as-request``: the guard sees requests about to be sent, issue 31).

Two readers that decide the same question from their own key lists (the streamed dataset reader
read a batch body's ``tools`` as its transcript when they came before ``messages``) cannot both
pass this.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from support.dialect_writers import WRITERS, as_text, broken_chats
from support.transcripts import valid_transcripts

import inspector
from inspector.checking import check_plain
from inspector.errors import InputError
from inspector.scan import sources
from inspector.scan.work import FINDING_FIELDS, LOOP_FIELDS, ScanOptions, scan_part

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
SUFFIXES = (".json", ".jsonl", ".har", ".traj", ".db")  # .db: an Agents SDK SQLiteSession store
NOT_TRANSCRIPTS = {"manifest.json", "expected.json"}


def _sample_files(tmp: Path) -> list[Path]:
    """Each dialect's clean and broken samples, written as a user would have them."""
    from inspector.dialects import all_dialects

    out = []
    for d in all_dialects():
        for kind in ("clean", "broken"):
            value = getattr(d.samples, kind)
            name = f"{d.name}-{kind}"
            if d.samples.jsonl:
                p = tmp / f"{name}.jsonl"
                p.write_text("".join(json.dumps(e) + "\n" for e in value))
            else:
                p = tmp / f"{name}.json"
                p.write_text(json.dumps(value))
            out.append(p)
    return out


def _test_module(rel: str):
    """A test module of the suite by its path under tests/, as pytest imports it (by its file name)."""
    import importlib.util
    import sys

    name = Path(rel).stem
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / rel)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _fixture_files(tmp: Path) -> list[Path]:
    """The suite's own fixtures, written as files: every request body recorded in a cassette, and
    the shapes the one-verdict and fresh-shape tests were written for (a batch file listing tools
    before messages, a HAR of two APIs, a compacted Claude Code log, a LangChain history naming
    Claude, an Anthropic tool loop with thinking on)."""
    from inspector.guard.cassettes import read_cassette

    test_one_verdict = _test_module("test_one_verdict.py")
    test_fresh_shapes = _test_module("check/test_provider_quirks.py")
    test_thinking_required = _test_module("rules/test_thinking_required.py")
    from support import loop_shapes
    drift = _test_module("rules/test_provider_drift.py")
    newer = _test_module("rules/test_newer_refusals.py")
    copilot_subagents = _test_module("dialects/test_copilot_subagents.py")

    out = []
    for cassette in sorted((ROOT / "tests" / "cassettes").rglob("*.yaml")):
        for k, it in enumerate(read_cassette(cassette)):
            p = tmp / f"cassette-{cassette.stem}-{k}.json"
            p.write_bytes(it.body)
            out.append(p)
    named = {
        "one-verdict-batch.jsonl": _lines(test_one_verdict.BATCH),
        "one-verdict-two-apis.har": json.dumps(test_one_verdict.MIXED_HAR),
        "fresh-compacted.jsonl": _lines(test_fresh_shapes.COMPACTED),
        "fresh-langchain-claude.json": json.dumps(test_fresh_shapes.LANGCHAIN_CLAUDE),
        "thinking-required.json": json.dumps(test_thinking_required.body(test_thinking_required.LOOP,
                                                                         {"type": "enabled", "budget_tokens": 1024})),
        # loops (issue 38): found alike by every door, and the repeats that are none left alike
        # a Copilot CLI session whose sub-agent is a transcript of its own (issue 32), both shapes
        "copilot-subagent-agentid.jsonl": _lines(copilot_subagents.session("agentId")),
        "copilot-subagent-parent-call.jsonl": _lines(copilot_subagents.session("parentToolCallId")),
        "loop-rig.json": json.dumps(loop_shapes.rig_loop()),
        "loop-rig-anthropic.json": json.dumps(loop_shapes.anthropic_rig_loop()),
        "loop-same-result.json": json.dumps(loop_shapes.same_result_loop()),
        "loop-errors.json": json.dumps(loop_shapes.error_loop()),
        "loop-poll.json": json.dumps(loop_shapes.job_poll()),
        "loop-pages.json": json.dumps(loop_shapes.paginated_search()),
        "loop-dataset.jsonl": _lines([{"messages": m} for m in (loop_shapes.same_result_loop(), loop_shapes.job_poll(),
                                                                 loop_shapes.rig_loop())]),
        # issue 31: the provider drift of 2026, by model and as a request
        "drift-system-opus-4-8.json": json.dumps(drift._body("claude-opus-4-8", drift.PLACED)),
        "drift-system-sonnet-4-5.json": json.dumps(drift._body("claude-sonnet-4-5", drift.PLACED)),
        "drift-system-misplaced.json": json.dumps(drift._body("claude-opus-4-8", [*drift.PLACED[:2], {
            "role": "system", "content": "Note."}, *drift.PLACED[2:3]])),
        "drift-system-no-model.json": json.dumps(drift.PLACED),
        "drift-mistral-request-end.json": json.dumps({"model": "mistral-large-latest", "messages": drift.ENDS_ON_CALL}),
        "drift-deepseek-thinking-off.json": json.dumps({"model": "deepseek-chat", "thinking": {"type": "disabled"},
                                                        "messages": drift.THINKING_TURNS}),
        "drift-text-after-tool-use.json": json.dumps(drift._after({"type": "text", "text": "Checking."})),
        **{f"gateway-{t}.json": json.dumps({"model": m, "messages": drift.GATEWAY_HISTORY})
           for m, t in (("anthropic/claude-sonnet-4-5", "anthropic"),
                        ("bedrock/us.anthropic.claude-sonnet-4-5-v1:0", "bedrock"),
                        ("gemini/gemini-2.5-pro", "gemini"),
                        ("openrouter/google/gemini-3-pro-preview", "gemini-openrouter"))},
        # user text between the calls and their results: one TC016 on each result repair moves (issue 31)
        **{f"gateway-{t}-text-before-results.json": json.dumps({"model": m, "messages": [
            drift.GATEWAY_HISTORY[1], drift.GATEWAY_HISTORY[2], {"role": "user", "content": "and?"},
            drift.GATEWAY_HISTORY[3], drift._TOOL2, drift.GATEWAY_HISTORY[4]]})
           for m, t in (("anthropic/claude-sonnet-4-5", "anthropic"),
                        ("bedrock/us.anthropic.claude-sonnet-4-5-v1:0", "bedrock"))},
        # a top-level system names an Anthropic body; two system messages are read, not refused (issue 31)
        "anthropic-top-level-system.json": json.dumps(_test_module("dialects/test_recognition.py").CLAUDE_BODY),
        "two-system-messages.json": json.dumps(_test_module("dialects/test_recognition.py").TWO_SYSTEMS),
        # a tool call with no name at all, in each API's shape (issue 33)
        **{f"nameless-{k}.json": json.dumps(body)
           for k, (body, _, _) in _test_module("rules/test_missing_tool_name.py").NAMELESS.items()},
        # nothing to check, and a request the provider refuses for having no message (issue 31)
        "empty-list.json": "[]",
        "empty-messages.json": json.dumps({"messages": []}),
        "empty-request.json": json.dumps({"model": "gpt-4o", "messages": []}),
        # a Responses function call item replayed without its reasoning item (issue 31)
        "drift-responses-reasoning-dropped.json": json.dumps({"model": "gpt-5.5", "input": drift._turns(False)}),
        "drift-responses-reasoning-kept.json": json.dumps({"model": "gpt-5.5", "input": drift._turns(True)}),
        # the Anthropic thinking-binding error (issue 31), enabled, with drop_block, adaptive
        **{f"drift-anthropic-binding-{k}.json": json.dumps({"model": "claude-sonnet-4-5", "max_tokens": 1024,
                                                            "messages": drift._loop(False), "thinking": t})
           for k, t in (("enabled", {"type": "enabled", "budget_tokens": 1024}),
                        ("drop", {"type": "enabled", "budget_tokens": 1024,
                                  "block_binding": {"prefix_mismatch_behavior": "drop_block"}}),
                        ("adaptive", {"type": "adaptive"}))},
        # Gemini through a gateway (issue 31): clean, LiteLLM's own refusal, the count mismatch
        "gateway-gemini-clean.json": json.dumps({"model": "vertex_ai/gemini-2.5-pro", "messages": drift.GEMINI_CLEAN}),
        "gateway-gemini-orphan.json": json.dumps({"model": "gemini/gemini-3-pro-preview", "messages": [
            drift.GATEWAY_HISTORY[1], {"role": "tool", "tool_call_id": "call_9", "content": "x"},
            {"role": "assistant", "content": "ok"}]}),
        "gateway-gemini-surplus.json": json.dumps({"model": "gemini/gemini-2.5-pro", "messages": [
            *drift.GEMINI_CLEAN[:5], {"role": "tool", "tool_call_id": "call_1", "content": "again"},
            drift.GEMINI_CLEAN[5]]}),
        # two identical calls the gateway sends Gemini as one part, user text before their results
        "gateway-gemini-twin-calls-displaced.json": json.dumps({"model": "gemini/gemini-2.5-pro",
                                                                 "messages": drift._TWIN_CALLS}),
        # newer refusals (issue 31): the legacy function role by model, Converse's reasoning-only turn, Sonnet 5
        **{f"newer-function-role-{k}.json": json.dumps({"model": k, "messages": newer.LEGACY}) for k in ("o3", "gpt-4o")},
        "newer-function-role-no-model.json": json.dumps(newer.LEGACY),
        **{f"newer-reasoning-only-{k}.json": json.dumps(newer._converse(m))
           for k, m in (("sonnet-5", "global.anthropic.claude-sonnet-5"), ("sonnet-4-6", "global.anthropic.claude-sonnet-4-6"))},
        "newer-reasoning-only-no-model.json": json.dumps(newer.REASONING_ONLY),
        "newer-system-sonnet-5.json": json.dumps(drift._body("claude-sonnet-5", drift.PLACED)),
    }
    for name, text in named.items():
        (tmp / name).write_text(text)
        out.append(tmp / name)
    return out


def _inputs() -> list[Path]:
    files = sorted(p for p in (ROOT / "sample_logs").iterdir() if p.suffix in SUFFIXES)
    if CORPUS.exists():
        files += sorted(p for p in CORPUS.rglob("*") if p.suffix in SUFFIXES and p.name not in NOT_TRANSCRIPTS)
    return files


# --- variants ------------------------------------------------------------------------------------

def _reversed_keys(v):
    if type(v) is dict:
        return {k: _reversed_keys(v[k]) for k in reversed(list(v))}
    if type(v) is list:
        return [_reversed_keys(x) for x in v]
    return v


def _lines(values: list) -> str:
    return "".join(json.dumps(x) + "\n" for x in values)


def variants(path: Path, tmp: Path) -> list[Path]:
    """The file, and the same content written differently (see the module docstring)."""
    out = [path]
    try:
        doc = inspector.load(path)
    except InputError:
        return out
    if doc.format == "sqlite":  # a database is written one way only
        return out
    root, stem = doc.root, tmp / path.name.replace(".", "_")

    def write(tag: str, text: str, suffix: str) -> None:
        p = Path(f"{stem}.{tag}{suffix}")
        p.write_text(text)
        out.append(p)

    if doc.format == "jsonl":
        write("keys", _lines(_reversed_keys(root)), ".jsonl")
        write("array", json.dumps(root), ".json")  # the lines as one JSON array
    else:
        write("keys", json.dumps(_reversed_keys(root)), path.suffix)
        if type(root) is dict and "model" in root:  # a request body: as the lines of an OpenAI Batch file
            lines = [{"custom_id": f"req-{k}", "method": "POST", "url": "/v1/chat/completions", "body": root}
                     for k in range(2)]
            write("batch", _lines([lines[0], _reversed_keys(lines[1])]), ".jsonl")  # line 2: tools before messages
        if type(root) is list and len(root) > 1:
            write("lines", _lines(root), ".jsonl")  # one record (or message) per line
    return out


# --- the three readers ---------------------------------------------------------------------------

def _scan_rows(path: Path) -> list[dict]:
    rows, base = [], 0
    for part in sources.plan([str(path)]):
        got, n = scan_part(part, ScanOptions(), base)
        rows += got
        base += n
    return rows


def _same_as_scan(path: Path, report: dict, analyses) -> None:
    rows = _scan_rows(path)
    assert not any(r["problem"] for r in rows), [r["problem"] for r in rows if r["problem"]]
    assert len(rows) == report["transcripts"], f"{path}: scan read {len(rows)} transcripts, check {report['transcripts']}"
    for k, row in enumerate(rows):
        mine = [{name: f[name] for name in FINDING_FIELDS} for f in report["findings"] if f["transcript"] == k]
        assert (row["dialect"], row["target"], row["messages"]) == (
            report["transcript_dialects"][k], report["transcript_targets"][k], len(analyses[k].msgs)), \
            f"{path}: transcript {k}"
        assert row["findings"] == mine, f"{path}: transcript {k}"
        loops = [{name: f[name] for name in LOOP_FIELDS} for f in report["loops"] if f["transcript"] == k]
        assert row["loop_findings"] == loops, f"{path}: transcript {k}: scan's loops differ from check's"


def _same_in_ci_formats(doc, report: dict, analyses) -> None:
    """check's SARIF and GitHub outputs hold its findings, then its loops (tagged apart), each once."""
    from inspector.ci_output import Locator, github_line, github_loop_line, sarif_log

    loc = Locator(doc, analyses)
    want = [(f["code"], f["transcript"], f["message_index"]) for f in [*report["findings"], *report["loops"]]]
    results = sarif_log([("t.json", report, loc)], [], "0")["runs"][0]["results"]
    assert [(r["ruleId"], r["properties"]["transcript"], r["properties"]["messageIndex"]) for r in results] == want
    assert [r["properties"].get("family") for r in results] == [None] * len(report["findings"]) + ["loop"] * len(
        report["loops"])
    lines = [github_line(f, "t.json", loc) for f in report["findings"]]
    lines += [github_loop_line(f, "t.json", loc) for f in report["loops"]]
    assert [x.split("title=", 1)[1].split(" ", 1)[0] for x in lines] == [c for c, _, _ in want]


def _same_as_app(path: Path) -> None:
    from inspector.checking import check_document
    from inspector.ui.analysis import Checked, target_default
    from inspector.ui.findings import findings_frame
    from inspector.ui.loops import loops_frame

    doc = inspector.load(path.read_bytes(), name=path.name)
    report, analyses = check_document(doc)
    start, _ = target_default(report.dialect, doc)
    assert start == report.target, f"{path}: the app's Target box starts at {start}, check chose {report.target}"
    checked = Checked(doc, report, analyses)
    for k in range(report.transcripts):
        table = findings_frame(checked.findings(k)).to_dict("records")
        want = [f for f in report.findings if f.transcript == k]
        assert [(r["message"], r["code"], r["severity"], r["sentence"], r["provider_error"]) for r in table] == [
            (f.message_index, f.code, f.severity, f.text, f.provider_error or "") for f in want], f"{path}: transcript {k}"
        shown = loops_frame(checked.loops(k)).to_dict("records")
        assert [(r["message"], r["code"], r["tool"], r["calls"], r["tokens"], r["sentence"]) for r in shown] == [
            (f["message_index"], f["code"], f["tool"], f["count"], f["tokens"], f["text"])
            for f in report.model_dump()["loops"] if f["transcript"] == k], f"{path}: transcript {k}: the app's loops"


def _same_as_fit(path: Path, report: dict) -> None:
    res = inspector.fit(str(path), 10**12)
    errors = sum(f["severity"] == "error" for f in report["findings"])
    assert (res.report["target"], res.report["dialect"], len(res.report["transcripts"]), res.report["errors_before"]) \
        == (report["target"], report["dialect"], report["transcripts"], errors), f"{path}: fit read it otherwise"
    assert res.report["removed"] == [] and res.output == path.read_bytes(), f"{path}: fit changed what fits"


# Where each API's body is sent, on a host that names no provider (the body's model decides, as in check).
GUARD_URLS = {"openai-chat": "http://127.0.0.1:9/v1/chat/completions", "openai-responses": "http://127.0.0.1:9/v1/responses",
              "anthropic": "http://127.0.0.1:9/v1/messages",
              "gemini": "http://127.0.0.1:9/v1beta/models/gemini-2.5-flash:generateContent"}


def _same_as_guard(path: Path, report: dict) -> bool:
    """Property 5; False when the file is no request body the guard would see."""
    from inspector.guard import endpoint_of, inspect_request

    root = inspector.load(path).root
    url = GUARD_URLS.get(report["dialect"])
    if url is None or type(root) is not dict or type(root.get(endpoint_of(url).key)) is not list \
            or report["transcripts"] != 1:
        return False  # not a request body one of the guarded APIs receives (a log, a run state, a trajectory)
    ins = inspect_request(url, path.read_bytes())
    assert ins is not None and ins.report is not None, f"{path}: the guard cannot read it ({ins and ins.unreadable})"
    from inspector.guard import inspect

    typed_from, inspect.TYPED_BODY_BYTES = inspect.TYPED_BODY_BYTES, 0  # a Chat Completions body read typed
    try:
        again = inspect_request(url, path.read_bytes())
    finally:
        inspect.TYPED_BODY_BYTES = typed_from
    assert again is not None and again.report == ins.report, f"{path}: the guard's typed reading says something else"
    # The guard judges what it sees as a request about to be sent: check --as-request (issue 31).
    if report.get("judged_as") != "request":
        report = check_plain(inspector.load(path), as_request=True)[0]
    assert (ins.report["target"], ins.report["findings"]) == (report["target"], report["findings"]), \
        f"{path}: the guard's verdict differs from check's"
    return True


def repair_holds(source, report: dict, **kw) -> None:
    """Property 3 for one input (a path or a value) and its check report."""
    res = inspector.repair(source, **kw)
    acted = {(f["transcript"], f["code"]) for f in report["findings"] if f["severity"] in ("error", "warning")}
    for c in res.report.changes:
        assert (c.transcript, c.code) in acted, f"{c.action} {c.code} in transcript {c.transcript} cites no finding: {c.text}"
    if not res.report.ok:
        assert res.report.unfixed, "repair failed without saying why"
        return
    back, _ = check_plain(inspector.load(res.output), kw.get("target"), kw.get("dialect"))
    assert back["transcript_dialects"] == report["transcript_dialects"]
    assert back["transcript_targets"] == report["transcript_targets"]
    assert not [f["text"] for f in back["findings"] if f["severity"] == "error"]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    tmp = tmp_path_factory.mktemp("variants")
    out = []
    for p in [*_inputs(), *_sample_files(tmp), *_fixture_files(tmp)]:
        out += variants(p, tmp)
    return out


def _agree(path: Path, guarded: list[Path]) -> bool:
    """Properties 1-5 for one file; False when check refuses it (and so do scan and repair)."""
    try:
        doc = inspector.load(path)
        report, analyses = check_plain(doc)
    except InputError as exc:
        rows = _scan_rows(path)
        assert rows and all(r["problem"] for r in rows), f"check refuses it ({exc}), scan does not"
        with pytest.raises(InputError):
            inspector.repair(path)
        return False
    _same_as_scan(path, report, analyses)
    _same_in_ci_formats(doc, report, analyses)
    _same_as_app(path)
    repair_holds(path, report)
    _same_as_fit(path, report)
    if _same_as_guard(path, report):
        guarded.append(path)
    return True


def test_check_scan_app_repair_fit_and_guard_agree_on_every_file_and_variant(files):
    assert len(files) > 40
    failures, read, guarded = [], 0, []
    for path in files:
        try:
            read += _agree(path, guarded)
        except AssertionError as exc:
            failures.append(f"{path.name}: {str(exc).splitlines()[0]}")
    assert not failures, "\n".join(failures)
    assert read > len(files) * 3 // 4
    assert len(guarded) >= 20  # request bodies of every guarded API: corpus, samples, cassettes, their variants


# --- the same three properties on random broken transcripts, per dialect --------------------------

def to_vercel_ai(chat):
    """AI SDK 5 ``ModelMessage[]``: tool-call parts in assistant messages, tool-result parts in tool messages."""
    names = {c["id"]: c["function"]["name"] for m in chat for c in m.get("tool_calls", [])}
    out = []
    for m in chat:
        if m["role"] == "tool":
            out.append({"role": "tool", "content": [{"type": "tool-result", "toolCallId": m["tool_call_id"],
                                                     "toolName": names.get(m["tool_call_id"], "lost_tool"),
                                                     "output": {"type": "text", "value": m["content"]}}]})
        elif m["role"] == "assistant":
            parts = [{"type": "text", "text": m["content"]}] if m.get("content") else []
            parts += [{"type": "tool-call", "toolCallId": c["id"], "toolName": c["function"]["name"],
                       "input": json.loads(c["function"]["arguments"])} for c in m.get("tool_calls", [])]
            out.append({"role": "assistant", "content": parts})
        else:
            out.append({"role": m["role"], "content": m["content"]})
    return out


def _writers() -> dict:
    return {"openai-chat": lambda chat: chat, "vercel-ai": to_vercel_ai, **WRITERS}


@st.composite
def broken(draw):
    """A broken conversation: one of the fuzz suite's corruptions, or a history trimmed at the front
    so that it starts at a tool result (an Anthropic body whose only message is an orphan result)."""
    if draw(st.integers(0, 4)) == 0:
        msgs = draw(valid_transcripts(max_rounds=3))
        tools = [k for k, m in enumerate(msgs) if m["role"] == "tool"]
        k = draw(st.sampled_from(tools))
        return msgs[k:k + draw(st.integers(1, 3))]
    return draw(broken_chats())


@pytest.mark.parametrize("dialect", ["openai-chat", "anthropic", "bedrock", "gemini", "openai-responses", "langchain",
                                     "claude-code", "vercel-ai"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chat=broken(), data=st.data())
def test_repair_of_random_broken_transcripts_acts_on_check_and_reads_back(dialect, chat, data):
    """For the dialect's default target, and for a format that names no provider (LangChain, the
    AI SDK) the Anthropic and Bedrock targets too, whose repairs once read back as openai-chat."""
    text = as_text(_writers()[dialect](chat), dialect)
    target = data.draw(st.sampled_from([None, "anthropic", "bedrock", "mistral"])) \
        if dialect in ("langchain", "vercel-ai") else None
    try:
        report, _ = check_plain(inspector.load(text), target)
    except InputError:
        with pytest.raises(InputError):
            inspector.repair(text, target)
        return
    assume(report["dialect"] == dialect)  # a trimmed history may no longer show its format
    repair_holds(text, report, target=target)


# --- one reader (issue 37): each door, typed against the dict reading --------------------------------

def _door_bytes(source, name: str) -> tuple:
    """What repair, fit (a budget nothing exceeds and a tight one) and scan give for one input: the
    output bytes and the report of each, or the words each refuses it with."""
    from inspector.fitting import FitError
    from inspector.jsonio import dumps
    from inspector.scan.work import check_value  # noqa: F401 - (the rows below come from scan_part)

    out: list = []
    try:
        res = inspector.repair(source)
        out += [res.output, dumps(res.report.model_dump()), dumps(res.data)]
    except InputError as exc:
        out.append(f"repair: {exc}")
    for budget in (10**12, 150):
        try:
            fitted = inspector.fit(source, budget)
            out += [fitted.output, dumps(fitted.report), dumps(fitted.data)]
        except (InputError, FitError) as exc:
            out.append(f"fit {budget}: {exc}")
    if isinstance(source, Path):
        out.append(dumps(_scan_rows(source)))
    return tuple(out)


def _typed_and_dict(monkeypatch, source) -> tuple[tuple, tuple, bool]:
    """The doors' bytes with the engine's typed reading, then with it turned off (every file read as
    dicts), and whether the typed reading took the input."""
    from inspector import reading

    read_typed = reading.typed_document
    taken: list[bool] = []

    def spy(data: bytes, label: str):
        doc = read_typed(data, label)
        taken.append(doc is not None)
        return doc

    with monkeypatch.context() as m:
        m.setattr(reading, "typed_document", spy)
        m.setattr(reading, "TYPED_FROM_BYTES", 0)  # every size (the doors' own: from 1 MB)
        typed = _door_bytes(source, str(source))
    with monkeypatch.context() as m:
        m.setattr(reading, "typed_document", lambda data, label: None)
        plain = _door_bytes(source, str(source))
    return typed, plain, any(taken)


def test_every_file_the_typed_reading_takes_gives_repair_fit_and_scan_the_same_bytes(files, monkeypatch):
    """Over the corpus, the samples, the fixtures and their variants: every file the typed reading
    takes (a Chat Completions message array) gives repair, fit and scan the very bytes the dict
    reading gives (output, report, rows); the others are not read typed at all. And each file read
    as every door reads it gets from the clean proof (issue 37) the general path's report and
    analysis, the proof serving the files of its ground."""
    from inspector.reading import read_document

    taken, served, failures = 0, 0, []
    for path in files:
        typed, plain, was_typed = _typed_and_dict(monkeypatch, path)
        taken += was_typed
        proved, general, was_proved, _ = _proved_and_general(monkeypatch, lambda p=path: read_document(str(p)))
        served += was_proved
        if typed != plain or proved != general:
            failures.append(path.name)
    assert not failures, f"the typed reading or the clean proof changes a door's output: {failures}"
    assert taken >= 10, f"only {taken} files read typed: this proves little"
    assert served >= 6, f"the proof served only {served} files: this proves little"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(chat=st.one_of(valid_transcripts(max_rounds=3), broken()), indent=st.sampled_from([None, 1, 2]))
def test_generated_chat_completions_give_repair_fit_and_scan_the_same_bytes_typed(chat, indent, monkeypatch, tmp_path):
    """Generated Chat Completions transcripts, clean and broken (the fuzz suite's corruptions),
    written compact or indented: repair, fit and scan give the same bytes read typed as read as dicts."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(chat, indent=indent))
    typed, plain, _ = _typed_and_dict(monkeypatch, path)
    assert typed == plain
    typed, plain, _ = _typed_and_dict(monkeypatch, path.read_bytes())  # the app's upload: bytes
    assert typed == plain


# --- the clean proof (issue 37): the report of a typed document proved clean is the general path's ----

def _proved_and_general(monkeypatch, read) -> tuple[bytes, bytes, bool, dict | None]:
    """``check_plain`` of ``read()`` with ``clean_proof`` serving it where it can, then with the proof
    turned off: the report's bytes followed by every message's item and every issue (asked for after
    the report, so the proved analysis is made then), whether the proof served, and the report."""
    from inspector import checking, clean_proof, reading
    from inspector.jsonio import dumps

    # every size read typed (a size threshold of the doors' own, where there is one, left aside)
    monkeypatch.setattr(reading, "TYPED_FROM_BYTES", 0, raising=False)

    def once() -> tuple[bytes, bool, dict | None]:
        try:
            report, analyses = check_plain(read())
        except InputError as exc:
            return f"refused: {exc}".encode(), False, None
        proved = any(type(a) is checking.ProvedClean for a in analyses)
        out = dumps(report)
        return out + dumps([[[m.raw for m in a.msgs], [(x.code, x.index, x.call_id) for x in a.issues],
                             [(c.msg, c.id) for c in a.pairing.missing]] for a in analyses]), proved, report

    proved, was_proved, report = once()
    with monkeypatch.context() as m:
        m.setattr(clean_proof, "transcript_clean", lambda *a, **k: False)
        general, _, _ = once()
    return proved, general, was_proved, report


def _clean_with_calls(report: dict | None, text: bytes) -> bool:
    """True for a report of one clean openai-chat transcript for openai, no model named, at least one
    call in it (the proof's ground, ``clean_proof.transcript_clean``)."""
    return (report is not None and report["transcripts"] == 1 and not report["findings"] and not report["loops"]
            and report["transcript_dialects"] == ["openai-chat"] and report["target"] == "openai"
            and report["model"] is None and b'"tool_calls"' in text)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(chat=st.one_of(valid_transcripts(max_rounds=4), broken()), indent=st.sampled_from([None, 1]),
       change=st.sampled_from(["none", "41-character id", "id null", "a trailing call", "user after tool",
                               "blank arguments", "65-character name", "null tool content", "a loop"]),
       pieces=st.booleans())
def test_generated_documents_proved_clean_are_the_general_paths_and_every_clean_one_is_proved(
        chat, indent, change, pieces, monkeypatch):
    """Generated Chat Completions transcripts, clean and broken (the fuzz suite's corruptions), and
    near-clean ones (a change the proof must refuse): the proved report is the general path's to
    the byte, and the proof serves exactly the typed documents the general path finds clean. With
    ``pieces``, the list is read (and proved clean) in pieces of a message and up, as a big file is."""
    from inspector.dialects import openai_typed
    from inspector.dialects.openai_typed import TypedItems
    from inspector.reading import load_bytes

    with monkeypatch.context() as patch:  # (undone after each example: ``monkeypatch`` lives as long as the test)
        if pieces:
            patch.setattr(openai_typed, "_FIRST_PIECE", 1)
            patch.setattr(openai_typed, "_PIECE", 256)
        chat = json.loads(json.dumps(chat))
        calls = [c for m in chat if type(m) is dict and type(m.get("tool_calls")) is list for c in m["tool_calls"]
                 if type(c) is dict and type(c.get("function")) is dict]
        tools = [m for m in chat if type(m) is dict and m.get("role") == "tool"]
        if change == "41-character id" and calls:
            calls[-1]["id"] = "c" * 41
        elif change == "id null" and calls:
            calls[0]["id"] = "null"
        elif change == "a trailing call":
            chat.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_end", "type": "function", "function": {"name": "f", "arguments": "{}"}}]})
        elif change == "user after tool" and tools:
            chat.insert(chat.index(tools[0]) + 1, {"role": "user", "content": "and?"})
        elif change == "blank arguments" and calls:
            calls[0]["function"]["arguments"] = " "
        elif change == "65-character name" and calls:
            calls[0]["function"]["name"] = "n" * 65
        elif change == "null tool content" and tools:
            tools[-1]["content"] = None
        elif change == "a loop":
            for n in range(5):
                chat += [{"role": "assistant", "content": None, "tool_calls": [
                    {"id": f"call_again_{n}", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
                         {"role": "tool", "tool_call_id": f"call_again_{n}", "content": "same"}]
        text = json.dumps(chat, indent=indent).encode()
        proved, general, was_proved, report = _proved_and_general(monkeypatch, lambda: load_bytes(text, "t.json"))
        assert proved == general
        typed = isinstance(load_bytes(text, "t.json").root, TypedItems)
        assert was_proved == (typed and _clean_with_calls(report, text))
        event(f"proved: {was_proved}")
