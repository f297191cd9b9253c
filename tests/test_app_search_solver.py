"""AppTest of the Search page's solver toggle (issue 22): a proven position says so, and the log keeps the proofs."""


import required

required.module("pyspiel")

from apptest_support import plain  # noqa: E402
from test_app_search import run_search  # noqa: E402

from mcts_core.inputs.loading import read_input  # noqa: E402
from mcts_core.model.tree import ROOT  # noqa: E402

PAGE = "pages/search.py"


def test_the_solve_checkbox_proves_a_won_position(app):
    app.checkbox(key="search_solve").check().run()
    job = run_search(app, 5000, moves="x(0,1) o(2,2)")
    assert job.result.outcome == [1.0, -1.0] and job.result.best_move == "x(0,2)"
    assert job.result.simulations < 5000  # it stopped at the proof
    assert any("Proven (MCTS-Solver)" in plain(box.value) and "+1 to player 0" in plain(box.value)
               for box in app.success)
    assert read_input(job.result.log).tree.outcome_of(ROOT) == 1.0


def test_without_the_checkbox_nothing_is_proven(app):
    job = run_search(app, 300, moves="x(0,1) o(2,2)")
    assert job.result.outcome is None and job.result.simulations == 300
    assert not any("Proven" in plain(box.value) for box in app.success)
