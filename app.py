"""Entry point of the web app: ``streamlit run app.py``. No logic here; see ``inspector.ui``."""

import streamlit as st

st.set_page_config(page_title="Tool-call transcript inspector", layout="wide")
st.title("Tool-call transcript inspector")
st.text("The web interface is being built; use the CLI meanwhile: inspector check FILE")
