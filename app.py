"""MCTS Explorer: `streamlit run app.py`.

Registers the pages (ui/navigation.py lists them), draws the sidebar every page shares, runs the page.
"""

import streamlit as st

from ui import page_style, sidebar
from ui.navigation import PAGES

# The arena's worker processes are spawned, and a spawned process first re-runs the parent's main
# script (under Streamlit, this file) as "__mp_main__": it must not build the app there.
if __name__ != "__mp_main__":
    st.set_page_config(page_title="MCTS Explorer", page_icon="🌳", layout="wide")
    page_style.apply()
    navigation = st.navigation(
        [
            st.Page(page.script, title=page.title, icon=page.icon, url_path=page.url_path or None, default=page.default)
            for page in PAGES
        ]
    )
    sidebar.render()
    navigation.run()
