"""AppTest of the Simultaneous page: per-player tables, joint children, Smitsimax trees, strategies and
exploitability over C; and every page survives a simultaneous input."""

import json

import pytest

import required

required.module("pyspiel")

from apptest_support import plain  # noqa: E402

from mcts_core.search import search_simultaneous  # noqa: E402
from mcts_core.simultaneous import JointScoring  # noqa: E402
from ui.common.navigation import PAGES  # noqa: E402

PAGE = "pages/simultaneous.py"


def small_log(game="matrix_brps", rule="ucb1", c=1.4, simulations=300, algorithm="duct") -> str:
    return search_simultaneous(game, algorithm=algorithm, scoring=JointScoring(rule, c), simulations=simulations,
                               seed=1).log


def use_input(app, text: str):
    app.text_area(key="playouts").input(text).run()
    assert not app.exception
    return app


def tables(app) -> list:
    """The page's tables in page order: player 0's and player 1's own moves, the joint children, then the
    Smitsimax roots (when shown) and the strategies (a matrix game's root)."""
    return [frame.value for frame in app.dataframe]


def own_table(app, player: int):
    return tables(app)[player]


def markdown_text(app) -> str:
    return "\n".join(plain(m.value) for m in app.markdown)


def test_a_sequential_input_is_said_so_and_a_small_duct_search_becomes_the_input(app):
    assert any("has no simultaneous moves" in plain(info.value) for info in app.info)
    app.selectbox(key="sim_demo_game").select("matrix_rps").run()
    app.number_input(key="sim_demo_simulations").set_value(3000).run()
    app.button(key="sim_demo_run").click().run()
    assert not app.exception
    assert "DUCT search of matrix_rps" in app.session_state["_kept_input"].source
    for table in tables(app)[:2]:
        assert sorted(table["move"]) == ["Paper", "Rock", "Scissors"] and table["visits"].sum() == 3000
        assert list(table["rank"]) == [1, 2, 3] and table["selected"].tolist() == [True, False, False]
    joint = tables(app)[2]
    assert joint["visits"].sum() == 3000 and {"player 0", "player 1"} <= set(joint.columns)


def test_each_player_has_a_table_of_its_own_moves_with_the_rules_terms(app):
    use_input(app, small_log())
    app.switch_page(PAGE).run()
    assert not app.exception
    table = own_table(app, 1)
    assert {"mean", "exploration", "value"} <= set(table.columns)
    assert "**Player 1**: picks" in markdown_text(app)
    assert {metric.label for metric in app.metric} >= {"Simulations", "Joint-tree nodes", "Players"}
    assert "A decoupled UCT search of ` matrix_brps() `" in markdown_text(app)


def test_regret_matching_shows_sigma_and_its_average_and_the_strategies_exploitability(app):
    use_input(app, small_log(rule="regret_matching", c=0.1, simulations=2000))
    app.switch_page(PAGE).run()
    assert app.selectbox(key="sim_rule").value == "regret_matching"  # the log's own rule
    table = own_table(app, 0)
    assert {"regret", "probability", "average"} <= set(table.columns)
    assert abs(table["probability"].sum() - 1) < 1e-9 and abs(table["average"].sum() - 1) < 1e-9
    strategies = tables(app)[-1]
    assert set(strategies["strategy"]) == {"visit shares", "average σ"}
    labels = {metric.label: float(plain(metric.value)) for metric in app.metric if "(" in metric.label}
    assert all(0 <= value < 8 for value in labels.values()) and len(labels) == 4
    assert len(app.get("arrow_vega_lite_chart") or app.get("vega_lite_chart")) >= 2  # what C does


def test_changing_the_rule_and_c_changes_the_picks_and_terms(app):
    use_input(app, small_log(simulations=500))
    app.switch_page(PAGE).run()
    app.selectbox(key="sim_rule").select("puct").run()
    assert not app.exception
    assert "prior" in own_table(app, 0).columns
    app.number_input(key="sim_c").set_value(50.0).run()
    assert not app.exception


def test_the_smitsimax_trees_are_drawn_side_by_side(app):
    use_input(app, small_log("oshi_zumo(coins=6)", simulations=300, algorithm="smitsimax"))
    app.switch_page(PAGE).run()
    assert app.toggle(key="sim_smitsimax").value is True  # a Smitsimax log opens with its own view
    charts = app.get("graphviz_chart")
    assert len(charts) == 2
    for table in tables(app)[3:5]:  # each player's Smitsimax root, after the two own-move tables and the joint one
        assert table["visits"].sum() == 300


def test_stepping_into_a_child_and_back(app):
    use_input(app, small_log("oshi_zumo(coins=6)", simulations=400))
    app.switch_page(PAGE).run()
    child = app.selectbox(key="sim_child")
    first = child.options[0].rsplit(" (", 1)[0]  # "Bid: 0|Bid: 0 (57 visits)": the joint move's name
    child.set_value(first).run()
    assert not app.exception
    assert json.loads(app.session_state["_sim_node"]) != []
    assert "Node ` [[" in markdown_text(app)  # the inspected node, named by its joint moves
    app.button(key="sim_root").click().run()
    assert json.loads(app.session_state["_sim_node"]) == []


@pytest.mark.parametrize("kind", ["log", "dump"])
def test_every_page_survives_a_simultaneous_input(app, kind):
    text = small_log("goofspiel(num_cards=3)", simulations=200)
    if kind == "dump":
        import io

        from mcts_core.inputs.formats.tree_json_writer import write_tree_json
        from mcts_core.inputs.loading import read_input

        read = read_input(text)
        out = io.StringIO()
        write_tree_json(read.tree, out, c=1.4, rule="ucb1", decoupled=read.simultaneous.decoupled)
        text = out.getvalue()
    use_input(app, text)
    for page in PAGES:
        app.switch_page(page.script).run()
        assert not app.exception, page.script
        if page.script in ("pages/explorer.py", "pages/sweep.py", "pages/compare.py", "pages/playback.py",
                           "pages/classroom.py"):  # they show the joint tree, and say so
            assert any("this page shows the joint tree" in info.value for info in app.info), page.script
            assert "simultaneous" in [link.proto.page for link in app.get("page_link")], page.script
    assert not app.error
