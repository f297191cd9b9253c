"""MCTS Explorer: `streamlit run app.py`.

Registers the pages (ui/navigation.py lists them), draws the sidebar every page shares, runs the page.
"""

import streamlit as st

from ui import sidebar
from ui.navigation import PAGES

st.set_page_config(page_title="MCTS Explorer", page_icon="🌳", layout="wide")

navigation = st.navigation(
    [st.Page(page.script, title=page.title, icon=page.icon, url_path=page.url_path or None, default=page.default)
     for page in PAGES]
)
sidebar.render()
navigation.run()
