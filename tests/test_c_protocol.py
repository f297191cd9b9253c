"""The C control's one protocol with the page, checked from both sides: what follows a drag of C is a
component of its own (ui/c/live_text.py) that hears the control's event, and what only a commit
updates sits in containers whose key prefix Python and the script name alike."""

import re

from apptest_support import REPO
from ui.c import c_control, live_text

SCRIPTS = REPO / "ui"


def js_constant(path: str, name: str) -> str:
    """The string constant ``name`` of the script ``ui/<path>``."""
    found = re.search(rf'^const {name} = "([^"]*)";', (SCRIPTS / path).read_text(encoding="utf-8"), re.M)
    assert found, f"{path} has no constant {name}"
    return found.group(1)


def test_python_and_the_scripts_name_the_protocol_alike():
    assert js_constant("c/c_control.js", "AT_COMMITTED_C") == c_control.AT_COMMITTED_C
    assert js_constant("c/live_text.js", "NO_PATH") == live_text.NO_PATH
    # Every follower hears the event the control announces each frame of a drag on.
    drag = js_constant("c/c_control.js", "DRAG_EVENT")
    assert js_constant("c/live_text.js", "DRAG_EVENT") == js_constant("c/live_c_marker.js", "DRAG_EVENT") == drag
    assert js_constant("picture/tree_view.js", "C_DRAG_EVENT") == drag


def test_the_c_scripts_reach_into_no_streamlit_markup():
    # The control and the live texts write only their own roots (and the exact box's value): no
    # Streamlit test id, no child by index.
    for name in ("c_control.js", "live_text.js"):
        source = (SCRIPTS / "c" / name).read_text(encoding="utf-8")
        selectors = re.findall(r"querySelector(?:All)?\(([^)]*)\)", source)
        assert not [s for s in selectors if "testid" in s or "nth-" in s or "stMetric" in s], name
        assert "writeText" not in source and "nth-of-type" not in source, name
