"""MCTS Explorer: `streamlit run app.py`.

Registers the pages, draws the sidebar every page shares, runs the page.
"""

import streamlit as st

from ui.room import live_room
from ui.share import share
from ui.shell import closed_sessions, heap, page_style
from ui.shell import sidebar

# The arena's worker processes are spawned, and a spawned process first re-runs the parent's main
# script (under Streamlit, this file) as "__mp_main__": it must not build the app there.
if __name__ != "__mp_main__":
    heap.freeze_libraries()
    closed_sessions.release()  # Streamlit would keep what a closed session held forever
    live_room.keep_clean()  # expired rooms leave the disk even when no new room opens
    st.set_page_config(page_title="MCTS Explorer", page_icon="🌳", layout="wide")
    page_style.apply()
    # The pages, in menu order: the one list of them (ui/common/navigation.py reads it from this file).
    pages = [
        st.Page("pages/explorer.py", title="Explorer", icon=":material/account_tree:", default=True),
        st.Page("pages/sweep.py", title="C sweep", icon=":material/timeline:", url_path="sweep"),
        st.Page("pages/compare.py", title="Compare", icon=":material/compare_arrows:", url_path="compare"),
        st.Page("pages/playback.py", title="Playback", icon=":material/play_circle:", url_path="playback"),
        st.Page("pages/classroom.py", title="Classroom", icon=":material/school:", url_path="classroom"),
        st.Page("pages/search.py", title="Search", icon=":material/play_arrow:", url_path="search"),
        st.Page("pages/strength.py", title="C and strength", icon=":material/trending_up:", url_path="strength"),
        st.Page("pages/simultaneous.py", title="Simultaneous", icon=":material/group:", url_path="simultaneous"),
    ]
    # A live room's page (/classroom?room=CODE) is the room's alone: no page menu, no sidebar.
    room = live_room.link_code()
    navigation = st.navigation(pages, position="hidden" if room is not None else "sidebar")
    share.read_link()  # a reload, a copied link or the back button: the URL's view comes first
    if room is not None and navigation.url_path == "classroom":
        live_room.enter()
    else:
        sidebar.render()
    wanted = share.take("page")  # a bundle names its page
    if wanted is not None and wanted != navigation.url_path:
        st.switch_page(next(page for page in pages if page.url_path == wanted))
    share.show_problems()
    navigation.run()
