"""An engine's analysis in the app: the file says what it is, a second table shows the engine's own
numbers under its own names below our terms, a file with several analyses has a menu (and links say which), and every analysis
opens on the engine's own rule with the file's settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from apptest_support import children_frame, plain, start_app
from mcts_core import RULES
from mcts_core.inputs import read_input
from test_app_share import open_link

ENGINES = Path(__file__).resolve().parent / "data" / "engines"
LZ_STREAM = ENGINES / "leela_zero_lz_analyze.txt"
LC0_STATS = ENGINES / "lc0_pr1268_node.txt"


def upload(app, file: Path):
    app.file_uploader(key="upload").set_value((file.name, file.read_bytes(), "text/plain")).run()
    assert not app.exception and not app.error, [plain(e.value) for e in app.error]
    return app


@pytest.fixture
def stream_app(monkeypatch):
    return upload(start_app(monkeypatch), LZ_STREAM)


def captions(app) -> str:
    return " ".join(plain(caption.value) for caption in app.caption)


def test_a_stream_opens_at_its_last_update_on_leela_zeros_rule_with_its_title(stream_app):
    read = read_input(LZ_STREAM.read_text())
    last = read.analyses[-1]
    assert stream_app.selectbox(key="rule").value == "leela_zero" == last.rule
    assert f"Using the uploaded file {LZ_STREAM.name}: {last.title}" in captions(stream_app)
    assert last.title in captions(stream_app)  # the Explorer's first line
    menu = stream_app.selectbox(key="analysis")
    assert menu.value == len(read.analyses) and len(menu.options) == len(read.analyses) > 1
    frame = children_frame(stream_app)
    assert sorted(frame["visits"]) == sorted(move.visits for move in last.moves)


def test_a_second_table_shows_the_engines_numbers_as_printed_under_its_names(stream_app):
    last = read_input(LZ_STREAM.read_text()).analyses[-1]
    frame = children_frame(stream_app, "engine_table")
    assert list(frame.columns[:-2]) == ["move", *last.columns]  # then rank and selected, as every table
    assert list(frame["move"]) == [move.move for move in last.moves]  # in the engine's order
    for move, (_, row) in zip(last.moves, frame.iterrows()):
        for name in last.columns:
            printed = move.columns.get(name)
            if printed is not None:
                assert row[name] == pytest.approx(printed)
    assert any("As Leela Zero printed them" in plain(caption.value) for caption in stream_app.caption)
    # ours stays as it is for every input: the rule's terms, no engine column to scroll sideways
    assert not any(name in children_frame(stream_app).columns for name in ("V", "LCB"))


def test_another_analysis_from_the_menu_is_its_own_tree_and_its_link_names_it(stream_app, monkeypatch):
    first = read_input(LZ_STREAM.read_text()).analyses[0]
    stream_app.selectbox(key="analysis").select(1).run()
    assert not stream_app.exception and not stream_app.error
    assert sorted(children_frame(stream_app)["visits"]) == sorted(move.visits for move in first.moves)
    assert first.title in captions(stream_app)
    params = {name: value[0] if isinstance(value, list) else value for name, value in stream_app.query_params.items()}
    assert params["analysis"] == "1"
    reopened = open_link(monkeypatch, params)
    assert reopened.selectbox(key="analysis").value == 1
    assert sorted(children_frame(reopened)["visits"]) == sorted(move.visits for move in first.moves)


def test_an_lc0_block_shows_lc0s_printed_u_in_the_engines_own_table_on_lc0s_rule(monkeypatch):
    app = upload(start_app(monkeypatch), LC0_STATS)
    read = read_input(LC0_STATS.read_text())
    assert app.selectbox(key="rule").value == "lc0"
    frame = children_frame(app, "engine_table").set_index("move")
    for move in read.engine.moves:
        assert frame.loc[move.move, "U"] == pytest.approx(move.columns["U"])
    assert "Children under" in " ".join(plain(m.value) for m in app.markdown)


@pytest.mark.parametrize("rule", [rule for rule in RULES if rule in ("leela_zero", "lc0", "katago")])
def test_the_engines_rules_work_on_puzzle_text_too(monkeypatch, rule):
    app = start_app(monkeypatch)
    app.selectbox(key="rule").select(rule).run()
    assert not app.exception and not app.error
    assert len(children_frame(app)) == 2  # the statement's root: a and b


def test_the_slider_reaches_beyond_the_engines_own_cpuct(stream_app):
    """Winrates spread little: the slider, sized from them alone, ended at the engine's C."""
    from apptest_support import c_slider

    assert stream_app.session_state["c"] == 0.5  # Leela Zero's cpuct, as the file's engine ran
    assert c_slider(stream_app).max >= 3 * 0.5
