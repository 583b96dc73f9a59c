"""Under load: 20 browser sessions at once upload different transcripts, view a message, share.

Every session must see only its own transcript (each carries a unique marker), none may error,
and every share must be in the PostgreSQL store byte for byte with its view. Timing is reported
by ``benchmarks/bench_load.py``, not asserted here.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import appserver
import loaddriver

from inspector.sharing.store import Store

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
SESSIONS = 20


def test_twenty_sessions_at_once_see_only_their_own_transcript(pg_cluster):
    if loaddriver.CHROMIUM is None:
        pytest.skip("no system Chromium")
    url = pg_cluster.create_database("load_" + uuid.uuid4().hex[:8])
    app = appserver.start({"INSPECTOR_STORE_URL": url})
    try:
        outcomes = loaddriver.run_sessions(app.url, SESSIONS)
    finally:
        app.stop()

    assert [(o.index, o.errors) for o in outcomes if o.errors] == []
    assert [(o.index, o.markers_seen) for o in outcomes if o.markers_seen != {o.marker}] == []
    assert all(o.link and o.link.endswith(f"&m={loaddriver.SELECT}") for o in outcomes)
    assert len({o.link for o in outcomes}) == SESSIONS

    store = Store(url)
    try:
        for o in outcomes:
            shared = store.get(parse_qs(urlsplit(o.link).query)["t"][0])
            assert shared is not None, f"share of session {o.index} lost"
            assert shared.data == o.data and shared.name == f"session-{o.index}.json"
            assert shared.view["selected"] == loaddriver.SELECT
    finally:
        store.close()
