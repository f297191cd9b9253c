"""What the AppTests share: the app after its first run, the page's data, C typed as a user does.

The st.navigation workaround and ``set_c`` live in :mod:`bench.harness.apptest` (the benchmarks use them too).
"""

from pathlib import Path

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import app_test as app_test_module

import required
from bench.harness.apptest import NavigationPagesManager

REPO = Path(__file__).resolve().parent.parent


def start_app(monkeypatch, page: str | None = None) -> AppTest:
    """Run app.py once (optionally switched to ``page``, e.g. "pages/sweep.py") and return it."""
    required.program("dot")  # every page draws its tree with graphviz
    monkeypatch.setattr(app_test_module, "PagesManager", NavigationPagesManager)
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    app.run()
    if page is not None:
        app.switch_page(page).run()
    assert not app.exception
    return app


def plain(markdown_text: str) -> str:
    """Undo ui.common.markdown.escape for assertions on displayed messages."""
    return markdown_text.replace("\\", "").replace("\u2060", "")


def tree_view_data(app, key: str = "tree_view") -> dict:
    """The data a custom component got this run; a tree picture's: layout, svg (or None), highlights."""
    import json

    from ui.picture.tree_view import read_picture_payload

    element = next(e for e in app.get("bidi_component") if e.proto.id.endswith(f"-{key}"))
    if element.proto.WhichOneof("data") == "bytes":
        return read_picture_payload(element.proto.bytes)
    return json.loads(element.proto.json)


def live_texts(app) -> dict[str, dict]:
    """The texts that follow a drag of C (ui/c/live_text.py) as this run sent them: name -> data."""
    import json

    prefix = "-live_text_"
    return {
        element.proto.id.rsplit(prefix, 1)[1]: json.loads(element.proto.json)
        for element in app.get("bidi_component") if prefix in element.proto.id
    }


def text_at_rest(data: dict) -> str:
    """A live text's words as the page shows them at rest."""
    return "".join(text for _, text, _ in data["shapes"][data["shape"]]["parts"])


def live_text(app, name: str) -> str:
    """The live text ``name`` as the page shows it at rest."""
    return text_at_rest(live_texts(app)[name])


def metrics(app) -> dict[str, str]:
    """Every metric's label -> value as the page shows it: st.metric's (markdown) and the live texts'
    drawn as metrics (plain text)."""
    shown = {metric.label: metric.value for metric in app.metric}
    shown.update({data["label"]: text_at_rest(data) for data in live_texts(app).values() if data["look"] == "metric"})
    return shown


def children_frame(app, key: str = "children_table"):
    """The Explorer's children table as the page sent it: one column per shown column (named as in
    :func:`mcts_core.tables.children_table`, with the numbers, not their text), then rank (1: first,
    best) and selected."""
    import math

    import pandas as pd

    data = tree_view_data(app, key)
    names = [column["name"] for column in data["columns"]]
    number = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan, None: math.nan}
    rows = [
        [number.get(value, value) if column["kind"] == "number" else value for column, value in zip(data["columns"], row["values"])]
        + [rank, row["selected"]]
        for rank, row in enumerate(data["rows"], start=1)
    ]
    frame = pd.DataFrame(rows, columns=[*names, "rank", "selected"])
    for column in data["columns"]:
        if column["kind"] == "flag":
            frame[column["name"]] = frame[column["name"]].astype(bool)
    return frame


def children_cells(app, key: str = "children_table") -> list[list[str]]:
    """The Explorer's children table's cells as the browser shows them, row by row, best first."""
    return [row["cells"] for row in tree_view_data(app, key)["rows"]]


def small_grid(app, c_values: str = "0.5, 2", games: int = 4, simulations: int = 20, game: str = "tic_tac_toe"):
    """C and strength's settings of a grid that plays in well under a second, in this process."""
    app.selectbox(key="strength_game").select(game)
    app.text_input(key="strength_c_values").input(c_values)
    app.number_input(key="strength_games").set_value(games)
    app.number_input(key="strength_simulations").set_value(simulations)
    app.number_input(key="strength_workers").set_value(1)
    app.run()
    assert not app.exception


def wait_for_job(app, key: str, timeout: float = 300.0):
    """Rerun as a page's polling fragment does until its background job (session key ``key``) ends.

    ``timeout`` only tells a hang from slow work on a loaded machine: how fast the work goes is a
    benchmark's figure, not a test's."""
    import time

    job = app.session_state[key]
    deadline = time.monotonic() + timeout
    while job.running:
        assert time.monotonic() < deadline, "the background work did not end"
        time.sleep(0.05)
        app.run()
        assert not app.exception
    app.run()
    assert not app.exception
    return job


def c_slider(app):
    """The C slider as the page drew it: its data (``value``, ``max``, ``label``).

    It is a custom component AppTest cannot move: tests type C into ``c_exact``, which commits the
    same way.
    """
    from types import SimpleNamespace

    data = tree_view_data(app, "c_live")
    return SimpleNamespace(value=data["c"], max=data["max"], label=data["label"])


def open_limits(app):
    """Open the Explorer's "Drawing limits" expander, as a click on it does (its widgets are drawn
    only while it is open). Returns the app, run."""
    app.session_state["limits_open"] = True
    return app.run()


def open_share(app):
    """Open the page's "Share" popover, as a click on it does (its contents are made only while it
    is open). Returns the app, run."""
    app.session_state["share_open"] = True
    return app.run()
