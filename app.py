"""Entry point of the web app: ``streamlit run app.py``. No logic here; see ``inspector.ui``."""

import streamlit as st

st.set_page_config(page_title="Tool-call transcript inspector", page_icon=":material/timeline:", layout="wide")

from inspector.ui import main  # noqa: E402 - page config must come first

main()
