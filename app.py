"""MCTS Explorer: `streamlit run app.py`.

Builds the navigation over pages/ and the sidebar input panel every page shares.
"""

import streamlit as st

from pages import input_panel

st.set_page_config(page_title="MCTS Explorer", page_icon="🌳", layout="wide")

PAGES = [
    st.Page("pages/explorer.py", title="Explorer", icon=":material/account_tree:", default=True),
    st.Page("pages/sweep.py", title="C sweep", icon=":material/timeline:", url_path="sweep"),
    st.Page("pages/compare.py", title="Compare", icon=":material/compare_arrows:"),
    st.Page("pages/playback.py", title="Playback", icon=":material/play_circle:"),
    st.Page("pages/classroom.py", title="Classroom", icon=":material/school:"),
]

navigation = st.navigation(PAGES)
input_panel.render()
navigation.run()
