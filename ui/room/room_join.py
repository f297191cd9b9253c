"""How students join a room, on the teacher's screen: the QR code of the join link, the code, the link.

The QR code is drawn on the server by ``segno`` (a QR code library with no dependencies; nothing
is loaded from the network) as a PNG, dark on white whatever the theme (phones read dark modules
on a light ground), with the standard quiet zone of 4 modules, and shown as wide as its column:
about 300 px at 1366 px, some 15 cm on a 3 m projection, which a phone reads from the back of a
classroom. The PNG travels inside the page's message as a data URL, not as a media file the page
fetches: a rerun that replaced the code (a new room) dropped the file while the page still asked
for it, and the page said 404 in its console.
"""

from __future__ import annotations

import base64
import io
from urllib.parse import urlparse

import segno
import streamlit as st

QR_SCALE = 10  # pixels per module in the PNG; the page scales it to its column
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}


@st.cache_data(max_entries=64, show_spinner=False)
def qr_png_url(link: str) -> str:
    """The QR code of ``link`` as a PNG data URL (error correction M at least: a projector's glare)."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=QR_SCALE, border=4, dark="#000000", light="#ffffff")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def join_panel(code: str, link: str) -> None:
    """The QR code, the code in large letters and the link (in the current container)."""
    with st.container(key="room_qr"):
        st.image(qr_png_url(link), width="stretch", alt=f"QR code of the join link {link}")
    with st.container(key="room_join_code_shown"):
        st.markdown(f"# {code}")  # 6 characters of the code alphabet: no markdown in them
    st.caption("Scan the code, or open this link, or type the code on the Classroom page:")
    st.code(link, language=None, wrap_lines=True)
    if urlparse(link).hostname in LOCAL_HOSTS:
        st.warning("This link names this computer (localhost): students' devices cannot open it. Open the app "
                   "at its network address (Streamlit prints it as the Network URL) and the link follows.")
