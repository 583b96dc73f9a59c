"""Entry point of the web app: ``streamlit run app.py``. No logic here; see ``inspector.ui``."""

from pathlib import Path

import streamlit as st

# The icon is a file served by the app itself: a ":material/...:" icon makes the browser fetch it
# from fonts.gstatic.com, and the page must request nothing from other hosts (internal hosting).
FAVICON = Path(__file__).parent / "inspector" / "ui" / "favicon.png"
st.set_page_config(page_title="Tool-call transcript inspector", page_icon=str(FAVICON), layout="wide")

from inspector.ui import main

main()
