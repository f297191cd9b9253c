"""MCTS Explorer: `streamlit run app.py`.

Registers the pages (ui/navigation.py lists them), draws the sidebar every page shares, runs the page.
"""

import streamlit as st

from ui import heap, page_style, share, sidebar
from ui.navigation import PAGES

# The arena's worker processes are spawned, and a spawned process first re-runs the parent's main
# script (under Streamlit, this file) as "__mp_main__": it must not build the app there.
if __name__ != "__mp_main__":
    heap.freeze_libraries()
    st.set_page_config(page_title="MCTS Explorer", page_icon="🌳", layout="wide")
    page_style.apply()
    pages = [
        st.Page(page.script, title=page.title, icon=page.icon, url_path=page.url_path or None, default=page.default)
        for page in PAGES
    ]
    navigation = st.navigation(pages)
    share.read_link()  # a reload, a copied link or the back button: the URL's view comes first
    sidebar.render()
    wanted = share.take("page")  # a bundle names its page
    if wanted is not None and wanted != navigation.url_path:
        st.switch_page(next(page for page in pages if page.url_path == wanted))
    share.show_problems()
    navigation.run()
