"""The hosted entry point: ``streamlit run server.py`` serves the same page as ``app.py`` plus the
server's own endpoints (``/inspector/health``, ``/inspector/metrics``), the retention schedule
from start-up, and sign-in's return to a share link. See ``docs/hosting.md``.

``streamlit run app.py`` still works: the same page, without those endpoints (retention then starts
with the first visitor's session).
"""

import streamlit as st

from inspector.hosting.routes import app_options

app = st.App("app.py", **app_options())
