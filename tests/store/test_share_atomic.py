"""Issue 22: a process killed with SIGKILL in the middle of a share leaves no row that no link
points to (before, the row was committed before it was read back and the link printed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import sqlalchemy as sa

from inspector.sharing.store import Store, audit, shares

SHARER = textwrap.dedent("""
    import os, sys, time, zlib
    from inspector.sharing import store as S

    real = zlib.decompress

    def stall(*args, **kwargs):  # the read-back of the row just written: say so, then wait to be killed
        sys.stdout.write("writing\\n"); sys.stdout.flush()
        time.sleep(600)
        return real(*args, **kwargs)

    st = S.Store(sys.argv[1])
    S.zlib.decompress = stall
    st.put(b'[{"role": "user", "content": "' + b"x" * 100000 + b'"}]', "big.json")
    sys.stdout.write("link shown\\n")
""")


def test_a_share_killed_mid_write_leaves_no_orphan_row(store_url):
    Store(store_url).close()  # the schema exists before the sharer starts
    child = subprocess.Popen([sys.executable, "-c", SHARER, store_url], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert child.stdout.readline() == "writing\n"  # inside put, after the INSERT
        child.send_signal(signal.SIGKILL)
        child.wait()
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    store = Store(store_url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(shares)).scalar() == 0
            assert conn.execute(sa.select(sa.func.count()).select_from(audit)).scalar() == 0
    finally:
        store.close()
