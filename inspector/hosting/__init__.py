"""Running the app for a team (issue 27): what the server process does besides serving pages.

- ``events``: one call per thing that happened (a check, a share made or opened, a store error);
  it counts it for ``/inspector/metrics`` and writes one log line (JSON lines with
  ``INSPECTOR_LOG_FORMAT=json``). Only counts, ids and user names: never transcript text,
  file names or secrets.
- ``retention``: the schedule that deletes expired shares inside the server process, at start-up
  and every ``INSPECTOR_PURGE_INTERVAL_SECONDS``.
- ``routes``: ``/inspector/health`` (answers 503 when the share store does not answer a
  ``SELECT 1``) and ``/inspector/metrics`` (Prometheus text), mounted by ``server.py`` through
  ``st.App``, and the middleware that brings a share link back after an OIDC sign-in.

Streamlit and prometheus_client load only here and in the app, never from ``import inspector``.
"""
