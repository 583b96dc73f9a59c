"""The contract every registered dialect keeps, tested on the dialect's own ``samples``
(``dialects/base.py`` says how a dialect provides them). A new dialect is under this suite as soon
as it is registered: nothing here names a dialect.

For each: its samples are detected as it; ``text`` is non-empty on a message that has text and is
what the timeline preview, the detail pane and the Markdown export show; the clean sample checks
without error or warning for the default target and the broken one has an error; repair of the
broken sample checks clean, loses no string of the input, keeps the dialect and is idempotent;
repair of the clean sample gives back the very same bytes. Its editor does every raw edit repair
asks for (placeholder, id rename, quarantine, orphan note, bridge, TC020 conversion, shape fixes),
each read back by the dialect.
"""

from __future__ import annotations

import copy
import json

import pytest
from support.dialect_asserts import strings

import inspector
from inspector.dialects import all_dialects, get
from inspector.dialects.editing import BlockEditor, Editor, LogEditor
from inspector.errors import InputError
from inspector.export import to_markdown
from inspector.render import preview_text

DIALECTS = all_dialects()


def as_text(dialect, doc) -> str:
    """The sample as a file's text (JSON Lines for a list of log entries, as they are written)."""
    if dialect.samples.jsonl:
        return "".join(json.dumps(e) + "\n" for e in doc)
    return json.dumps(doc, indent=2)


@pytest.fixture(params=DIALECTS, ids=[d.name for d in DIALECTS])
def dialect(request):
    d = request.param
    assert d.samples is not None, f"dialect {d.name} registers no conformance samples"
    return d


def test_the_samples_are_detected_as_the_dialect(dialect):
    for doc in (dialect.samples.clean, dialect.samples.broken):
        report = inspector.check(as_text(dialect, doc))
        assert report.dialect == dialect.name
        assert report.target == dialect.default_target


def test_text_is_one_reading_shown_everywhere(dialect):
    doc = inspector.load(as_text(dialect, dialect.samples.clean))
    t = doc.transcripts[0]
    msgs = dialect.read(t.items, t.path, [])
    raw = msgs[dialect.samples.text_at].raw
    text = dialect.text(raw)
    assert text.strip()
    assert preview_text(raw, text=dialect.text) == " ".join(text.split())[:280]
    assert text in to_markdown(doc)


def test_the_clean_sample_checks_clean_and_the_broken_one_does_not(dialect):
    clean = inspector.check(as_text(dialect, dialect.samples.clean))
    assert [f.code for f in clean.findings if f.severity in ("error", "warning")] == []
    broken = inspector.check(as_text(dialect, dialect.samples.broken))
    assert any(f.severity == "error" for f in broken.findings)


def test_repair_is_lossless_idempotent_and_keeps_the_dialect(dialect):
    assert dialect.editor is not None, f"{dialect.name} has no editor: repair would say it is unavailable"
    data = as_text(dialect, dialect.samples.broken)
    fixed = inspector.repair(data)
    after = inspector.check(fixed.output)
    assert after.dialect == dialect.name
    assert after.ok, [f.text for f in after.findings if f.severity == "error"]
    assert fixed.report.ok, fixed.report.unfixed
    lost = strings(inspector.load(data).root) - (strings(fixed.data) | strings(fixed.report.model_dump()))
    assert not lost, lost
    again = inspector.repair(fixed.output)
    assert again.report.changes == [] and again.output == fixed.output


def test_repair_of_a_clean_file_gives_back_the_same_bytes(dialect):
    assert dialect.editor is not None, f"{dialect.name} has no editor: repair would say it is unavailable"
    data = as_text(dialect, dialect.samples.clean).encode()
    fixed = inspector.repair(data)
    assert fixed.output == data and fixed.report.changes == []


# --- the editor contract: every operation repair asks for, on every dialect ------------------------
# Each operation's output is read back by the dialect (``Dialect.read``) and checked on the neutral
# view, so an editor that is missing a method, raises, or edits the wrong field fails here, not in a
# user's ``inspector repair``. A Claude Code log is edited as the messages its entries make
# (``LogEditor.messages``), read by the message dialect; so is a Codex rollout.

NOTE = "Result: the tool answered 21 C"


class View:
    """A sample as repair's plan sees it: the editor for a run, the reader, raw items and messages."""

    def __init__(self, dialect, doc):
        t = inspector.load(as_text(dialect, doc)).transcripts[0]
        self.ed, self.reader, self.items = dialect.editor, dialect, t.items
        if isinstance(self.ed, LogEditor):
            self.ed = self.ed.for_run()
            self.items, _ = self.ed.messages(t.items, t.path)
            self.reader = get(self.ed.message_dialect)
        self.msgs = self.reader.read(self.items, t.path, [])

    def one(self, item):
        """The neutral message one raw item reads as."""
        [msg] = self.reader.read([item], (), [])
        return msg

    def check(self, items, dialect):
        """The findings of ``items`` read as this view's dialect, for the dialect's default target."""
        report = inspector.check(items, target=dialect.default_target, dialect=self.reader.name)
        return [(f.code, f.tool_call_id) for f in report.findings]

    def about(self, items, dialect, call):
        """The codes of the findings about ``call`` (by its id, or its index when it has none)."""
        report = inspector.check(items, target=dialect.default_target, dialect=self.reader.name)
        return [f.code for f in report.findings if f.severity != "info" and (
            f.tool_call_id == call.id if call.id is not None else f.message_index == call.msg)]


def neutral(ed, role):
    """``role_of``'s answer as a neutral role: a block editor answers in its format's words
    (Gemini's ``model``), which it compares with its ``USER`` and ``ASSISTANT``."""
    if isinstance(ed, BlockEditor):
        return {ed.USER: "user", ed.ASSISTANT: "assistant"}.get(role, role)
    return role


def _views(dialect):
    return [View(dialect, dialect.samples.clean), View(dialect, dialect.samples.broken)]


def _first(dialect, what):
    """(view, message, call or result) for the first call (or result) the samples hold."""
    for v in _views(dialect):
        for m in v.msgs:
            for x in getattr(m, what):
                return v, m, x
    return None


def _unchanged(fn, raw, *args):
    """``fn(raw, ...)``, asserting that ``raw`` itself was not mutated (editors never mutate)."""
    before = copy.deepcopy(raw)
    out = fn(raw, *args)
    assert raw == before, f"{fn.__name__} mutated its input"
    return out


def test_the_editor_implements_every_operation(dialect):
    """``Editor`` is abstract: a dialect whose editor misses an operation cannot even be imported."""
    assert isinstance(dialect.editor, Editor)
    assert not type(dialect.editor).__abstractmethods__


def test_placeholder_answers_a_call(dialect):
    v, m, c = _first(dialect, "calls")
    text = "No result was recorded"
    inplace = _unchanged(v.ed.answer_in_place, m.raw, c, text)
    if inplace is not None:  # the call's outcome lives in the call itself (a UIMessage tool part)
        items = [*v.items[: m.index], inplace]
    else:
        item = v.ed.placeholder(c, c.id, text)
        assert text in v.ed.text_of(item)
        assert neutral(v.ed, v.ed.role_of(item)) == v.one(item).role
        assert [(r.id, r.name if c.id is None else None) for r in v.one(item).results] == [
            (c.id, c.name if c.id is None else None)]
        items = [*v.items[: m.index + 1], item]
    assert v.about(v.items[: m.index + 1], dialect, c)  # unanswered before
    assert v.about(items, dialect, c) == []


def test_ids_are_renamed_in_place(dialect):
    v, m, c = _first(dialect, "calls")
    assert type(v.ed.has_id_slot(m.raw, c)) is bool  # False where ids are optional: repair invents none
    renamed = _unchanged(v.ed.set_call_id, m.raw, c, "call_renamed_1")  # an id given where it had none, too
    assert [x.id for x in v.one(renamed).calls] == ["call_renamed_1" if x is c else x.id for x in m.calls]
    found = _first(dialect, "results")
    if found is None:
        pytest.skip(f"{dialect.name} reads no result of its own (a call's outcome is in the call)")
    v, m, r = found
    renamed = _unchanged(v.ed.set_result_id, m.raw, r, "call_renamed_1")
    assert "call_renamed_1" in [x.id for x in v.one(renamed).results]
    named = _unchanged(v.ed.set_result_name, m.raw, r, "renamed_tool")
    assert named is None or "renamed_tool" in [x.name for x in v.one(named).results]


def test_quarantine_drops_a_call_and_keeps_it_whole(dialect):
    v, m, c = _first(dialect, "calls")
    whole = v.ed.call_item(m.raw, c)
    assert (c.id or c.name) in strings(whole)
    try:
        dropped, removed = _unchanged(v.ed.drop_calls, m.raw, [c])
    except InputError as e:  # a format whose call is a whole item: repair says which option to use
        assert "missing=placeholder" in str(e)
        return
    assert removed == [whole]
    left = v.one(dropped)
    assert c not in left.calls and len(left.calls) == len(m.calls) - 1 and left.role == m.role


def test_an_orphan_result_becomes_a_note(dialect):
    found = _first(dialect, "results")
    if found is None:
        pytest.skip(f"{dialect.name} reads no result of its own: nothing can be orphaned")
    v, m, r = found
    note = _unchanged(v.ed.note_for_orphan, m.raw, r, NOTE)
    read = v.one(note)
    assert read.role == "user" and not read.results and not read.calls
    assert NOTE in v.ed.text_of(note)


def test_a_bridge_is_an_assistant_message_with_the_text(dialect):
    v = _views(dialect)[0]
    bridge = v.ed.bridge("(no answer was recorded)")
    read = v.one(bridge)
    assert read.role == "assistant" == neutral(v.ed, v.ed.role_of(bridge))
    assert not read.calls and v.ed.text_of(bridge) == "(no answer was recorded)"


def test_tool_output_sent_as_user_text_becomes_the_result(dialect):
    """TC020: a user message right after an unanswered call that reads like its output. The user
    message is the editor's own note (the one user message every dialect can build)."""
    found = _first(dialect, "results")
    if found is None:
        pytest.skip(f"{dialect.name} reads no result of its own: it reports no TC020")
    v, _, r = found
    _, m, c = _first(dialect, "calls")
    user = v.ed.note_for_orphan(m.raw, r, NOTE)
    items = [*v.items[: m.index + 1], user]
    if ("TC020", c.id) not in v.check(items, dialect):
        pytest.skip(f"{dialect.name} reports no TC020 for its default target")
    made = _unchanged(v.ed.user_to_result, user, c, c.id)
    assert [x.id for x in v.one(made).results] == [c.id]
    assert NOTE in v.ed.text_of(made)
    after = v.check([*v.items[: m.index + 1], made], dialect)
    assert ("TC020", c.id) not in after and ("TC001", c.id) not in after


def test_shape_fixes_are_lossless_sentences(dialect):
    for v in _views(dialect):
        issues = []
        v.reader.read(v.items, (), issues)
        for iss in issues:
            fixed = v.ed.shape_fix(v.items[iss.index], iss)
            if fixed is not None:
                item, sentence = fixed
                assert sentence.strip()
                assert strings(v.items[iss.index]) <= strings(item) | {""}
        for m in v.msgs:
            assert neutral(v.ed, v.ed.role_of(m.raw)) == m.role


def test_a_failed_tool_is_read_where_the_editor_writes_it(dialect):
    """``result_failed`` (the timeline's "tool error") and the editor speak one format: a result
    block the editor writes as an error reads back as failed and the same block written as a
    success does not (where the format has a flag: else both read as successes). The clean
    sample's results are all successes."""
    clean = View(dialect, dialect.samples.clean)
    assert not any(clean.reader.result_failed(x.raw, r.id) for x in clean.msgs for r in x.results)
    v, _, c = _first(dialect, "calls")
    if not isinstance(v.ed, BlockEditor):
        return
    for error in (True, False):
        block = v.ed.result_block(c, c.id, "No result was recorded", error)
        msg = {"role": v.ed.USER, v.ed.KEY: [block]}
        flagged = error and block != v.ed.result_block(c, c.id, "No result was recorded", False)
        assert v.reader.result_failed(msg, c.id) is flagged


def test_the_other_questions_a_dialect_answers(dialect):
    """``meta``, ``envelopes``, ``names_list`` and ``continues_stored`` answer on the samples:
    what a log recorded (only the keys the timeline knows), and no format claimed by a list
    outside any request body."""
    for doc in (dialect.samples.clean, dialect.samples.broken):
        t = inspector.load(as_text(dialect, doc)).transcripts[0]
        envelopes = dialect.envelopes(t.items)
        assert isinstance(envelopes, dict)
        for msg in dialect.read(t.items, t.path, []):
            meta = dialect.meta(msg.raw, envelopes.get(id(msg.raw)))
            assert set(meta) <= {"time", "seconds", "tokens_in", "tokens_out", "tokens"}
    assert dialect.names_list(None, None, None) is False
    assert dialect.continues_stored(None) is False
