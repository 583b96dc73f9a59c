"""OpenHands V0 session folders (issue 32): ``sessions/<sid>/events/<id>.json``, one event per
file named by its integer id, beside ``metadata.json``.

The layout is V0's own: All-Hands-AI/OpenHands ``openhands/storage/locations.py`` (commit
ad34a8bbe47acea98c77f8856ab2a0f668423cc4: ``CONVERSATION_BASE_DIR = 'sessions'``,
``get_conversation_events_dir(sid) = f'{get_conversation_dir(sid)}events/'``,
``get_conversation_event_filename(sid, id) = f'{get_conversation_events_dir(sid)}{id}.json'``)
and ``openhands/events/event_store.py`` (commit 908bb0c9f36615705d7b836ae8fde37a8b8c01ba: events
read by id, ``event_to_dict`` JSON per file, ``event_cache/{start}-{end}.json`` pages of 25). The
events are those of the V0 ``trajectory.json`` sample (``event_to_dict`` of each event).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import inspector
from inspector.checking import check_plain

ROOT = Path(__file__).resolve().parents[2]
TRAJECTORY = ROOT / "sample_logs" / "openhands_trajectory_unanswered_call.json"


def run(*args):
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], capture_output=True, text=True)


def v0_session(tmp_path: Path, events: list) -> Path:
    folder = tmp_path / "sessions" / "2f6e1c0a9b3d4e5f"
    (folder / "events").mkdir(parents=True)
    for e in events:
        (folder / "events" / f"{e['id']}.json").write_text(json.dumps(e))
    (folder / "metadata.json").write_text(json.dumps({"conversation_id": "2f6e1c0a9b3d4e5f", "title": "t",
                                                      "selected_repository": None}))
    # a cache page as EventStore writes it (the same events), which the reading leaves alone
    (folder / "event_cache").mkdir()
    (folder / "event_cache" / "0-25.json").write_text(json.dumps(events[:1]))
    return folder


def _findings(report: dict) -> list:
    return [(f["message_index"], f["code"], f["tool_call_id"], f["severity"]) for f in report["findings"]]


def test_a_v0_session_folder_reads_as_its_trajectory_in_id_order(tmp_path):
    events = json.loads(TRAJECTORY.read_text())
    assert [e["id"] for e in events] == sorted(e["id"] for e in events) and max(e["id"] for e in events) >= 10
    folder = v0_session(tmp_path, events)  # ids 0..12: "10.json" sorts before "4.json" by name, not by id
    want, _ = check_plain(inspector.load(TRAJECTORY))
    for path in (folder, folder / "events"):
        got, _ = check_plain(inspector.load(path))
        assert (got["dialect"], got["target"], got["message_count"]) == (want["dialect"], want["target"],
                                                                          want["message_count"])
        assert _findings(got) == _findings(want) and any(f["severity"] == "error" for f in got["findings"])
    p = run("check", folder, "--format", "json")
    assert p.returncode == 1 and _findings(json.loads(p.stdout)) == _findings(want)


def test_scan_and_the_app_read_a_v0_folder_as_check_does_and_repair_says_it_cannot_write_one(tmp_path):
    from inspector.reading import read_folder
    from inspector.scan import sources
    from inspector.scan.work import ScanOptions, scan_part

    folder = v0_session(tmp_path, json.loads(TRAJECTORY.read_text()))
    want, _ = check_plain(inspector.load(folder))
    [part] = sources.plan(sources.expand([str(folder)]))
    [row] = scan_part(part, ScanOptions(), 0)[0]
    assert [(f["message_index"], f["code"], f["tool_call_id"], f["severity"]) for f in row["findings"]] == \
        _findings(want)
    app, _ = check_plain(inspector.load(read_folder(str(folder)), name="events.json"))  # the app's reading
    assert _findings(app) == _findings(want)
    p = run("repair", folder, "-o", tmp_path / "out")
    assert p.returncode == 2 and "cannot write an OpenHands V0 session folder back" in p.stderr
    assert not (tmp_path / "out").exists()
