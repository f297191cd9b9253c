"""Decoupled UCT (DUCT) over OpenSpiel's simultaneous-move games, writing the simultaneous log.

DUCT runs the loop of :func:`~mcts_core.search.skeleton.run_simulations` (select, expand, simulate,
backpropagate), specialised so:

1. **Select**: at a simultaneous node every player picks one of its own moves with the rule, on
   its own statistics at the node (:mod:`.own_moves`; exact ties drawn at random, seeded), and the
   joint move is the tuple (a joint child is created the first time its joint move is picked).
2. **Expand**: a node reached for the first time records its players' legal moves (a chance
   node: its outcomes, each a child with 0 visits).
3. **Backpropagate**: every node on the path gets one visit and the return of the player whose
   view its total takes (a joint child: the ``player`` of its parent, 0 at a simultaneous node);
   at every simultaneous node on the path each player's own move gets one visit and **that
   player's** return (regret matching and EXP3 update their state there).

The log: the header ``{"mcts_log": 1, "players": N, "ties": "first", "c": C, "rule": R,
"settings": {...}, "algorithm": "duct", "game": G}``, the root's facts, then per simulation the
facts of the node it reached first (``{"node", "player": 0, "simultaneous": true, "moves": [[own
moves of player 0], ...]}``, a chance node's ``{"node", "player", "children", "chance": true}``,
a terminal's ``{"node", "children": [], "terminal": true}``) and the simulation
``{"path": [["R", "P"], ...], "returns": [...]}``. Read back
(:func:`mcts_core.inputs.loading.read_input`), the decoupled tree has exactly the search's visits and
totals, per node and per player's own move, and before every simulation its selection at each
simultaneous node is the joint move the simulation played (draws excepted).

Decision nodes where one player moves alone are not supported (OpenSpiel's simultaneous games
have none besides chance).
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, TextIO

from ..model.tree import CHANCE, ROOT, TERMINAL
from ..simultaneous.joint import ALGORITHMS, joint_name
from ..simultaneous.rules import JointScoring, update
from .budget import SearchBudget, check_budget
from .games import chance_outcomes, check_log_width, load_game, play_moves
from .live_tree import LiveTree
from .log_writer import LogWriter
from .move_names import own_move_names
from .own_moves import OwnMoves, own_chooser
from .simultaneous_result import SimultaneousResult, result_of
from .skeleton import run_simulations
from .smitsimax_search import smitsimax_search

SIMULTANEOUS = 8  # a live node's flag beside CHANCE and TERMINAL


class JointLiveTree(LiveTree):
    """The decoupled tree a running DUCT search grows: a :class:`LiveTree` whose decision nodes are
    simultaneous.

    Node 0 is the root. A simultaneous node keeps one :class:`OwnMoves` per player and its joint
    children by the positions of the own moves; a chance node its outcomes (created together, 0
    visits). ``view[node]`` is whose return the node's total adds: its parent's ``player`` (0 at a
    simultaneous node; a chance node keeps the player who moved into it).
    """

    def __init__(self, players: int, root_player: int):
        super().__init__(players, root_player)
        self.parent = [-1]
        self.element: list[Any] = [None]  # the move as the log writes it: a name or a list of names
        self.children: list[Any] = [None]  # a dict (joint positions -> child) or a list (chance outcomes)
        self.own: dict[int, list[OwnMoves]] = {}

    def add(self, parent: int, move: str, element: Any, action: Any) -> int:
        """A child of ``parent`` with 0 visits."""
        kid = len(self.move)
        self.move.append(move)
        self.parent.append(parent)
        self.element.append(element)
        self.action.append(action)
        self.depth.append(self.depth[parent] + 1)
        self.visits.append(0)
        self.total.append(0.0)
        self.total_sq.append(0.0)
        self.view.append(self.player[parent])
        self.player.append(self.player[parent])
        self.flags.append(0)
        self.children.append(None)
        return kid

    def path_elements(self, node: int) -> list[Any]:
        """The moves from the root to ``node`` as the log writes them."""
        elements = []
        while node != ROOT:
            elements.append(self.element[node])
            node = self.parent[node]
        return elements[::-1]


def search_simultaneous(
    game: Any,
    *,
    algorithm: str = "duct",
    moves: Iterable[Any] = (),
    scoring: JointScoring,
    simulations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    out: TextIO | None = None,
    log: bool = True,
    progress: Callable[[int, int | None], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> SimultaneousResult:
    """Search a simultaneous-move game with DUCT or Smitsimax, writing the simultaneous log as it goes.

    Args:
        game: a ``pyspiel.Game`` or game string with simultaneous moves (``"oshi_zumo"``,
            ``"goofspiel(num_cards=4)"``, ``"matrix_rps"``).
        algorithm: ``"duct"`` (one decoupled tree) or ``"smitsimax"`` (one tree per player).
        moves: the start position (:func:`~mcts_core.search.games.play_moves`: a joint move is a list).
        scoring: the rule every player uses (Smitsimax: the registered rules only).
        simulations, seconds: the budget (at most 1,000,000 simulations, 600 s); whichever first.
        seed: seeds every random choice.
        out: where the log goes, line by line; None keeps it in ``SimultaneousResult.log``.
        log: False writes no log at all (faster; for sweeps).
        progress: called as ``progress(done, simulations)`` about every 0.1 s and at the end.
        should_stop: polled after every simulation (and every 1,000 moves of a rollout); True ends the
            search (a simulation under way is dropped).

    Raises:
        ValueError: an unknown or sequential game, a bad position or budget, an unknown algorithm.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    check_budget(simulations, seconds)
    loaded = load_game(game, simultaneous=True)
    moves = list(moves)
    state = play_moves(loaded, moves)
    if state.is_terminal():
        raise ValueError("the game is over in this position: there is nothing to search")
    if log:
        check_log_width(state)
    # A rule may need the game's range of returns (EXP3 maps them to [0, 1]): written in the header
    # for the log's readers.
    settings = scoring.spec.for_returns(scoring.settings, loaded.min_utility(), loaded.max_utility())
    if settings is not scoring.settings:
        scoring = JointScoring(scoring.rule, scoring.c, settings)
    sink = None
    if log:
        sink = out if out is not None else io.StringIO()
    game_name = str(loaded) if not moves else None
    if algorithm == "smitsimax":
        result = smitsimax_search(state, scoring, simulations, seconds, seed, sink, progress, should_stop, game_name)
    else:
        result = duct_search(state, scoring, simulations, seconds, seed, sink, progress, should_stop, game_name)
    if log and out is None:
        result = replace(result, log=sink.getvalue())
    return result


def duct_search(state: Any, scoring: JointScoring, simulations: int | None, seconds: float | None, seed: int,
                out: TextIO | None, progress, should_stop, game_name: str | None = None) -> SimultaneousResult:
    """DUCT from ``state`` (left unchanged); see :func:`search_simultaneous`."""
    rng = random.Random(seed)
    players = state.get_game().num_players()
    write = LogWriter(out) if out is not None else None
    search = _Duct(state, scoring, write)
    if write is not None:
        write.header(players, scoring.c, rule=scoring.rule, settings=scoring.settings, algorithm="duct",
                     game=game_name)
    search.expand(ROOT, state, [])
    budget = SearchBudget(simulations, seconds, progress, should_stop)
    run_simulations(search, state, rng, budget, write)
    elapsed = budget.finish()
    tree = search.tree
    return result_of("duct", scoring, tree.visits[ROOT], tree.own.get(ROOT), tree.max_visited_depth(), budget.done,
                     elapsed, budget.stopped, tree)


class _Duct:
    """DUCT's steps (:class:`~mcts_core.search.skeleton.Specialisation`)."""

    simultaneous = True

    def __init__(self, state: Any, scoring: JointScoring, write: LogWriter | None):
        self.players = players = state.get_game().num_players()
        self.tree = JointLiveTree(players, 0)
        self.play = type(state).apply_actions
        self.choose = own_chooser(scoring)
        self.regret = scoring.regret_based
        self.rule, self.settings = scoring.rule, scoring.settings
        self.write = write
        self.steps: list[tuple[int, tuple[int, ...]]] = []  # this simulation's (node, own-move positions)
        self.step = self._stepper()

    def _stepper(self) -> Callable[[JointLiveTree, int, random.Random], int]:
        """``step(tree, node, rng)``: every player's own move by the rule; the joint child (created the
        first time). A closure: it runs once per tree level of every simulation."""
        tree, players, choose, steps = self.tree, range(self.players), self.choose, self.steps
        own_of, visits, children = tree.own, tree.visits, tree.children

        def step(_: JointLiveTree, node: int, rng: random.Random) -> int:
            own = own_of[node]
            parent_visits = visits[node]
            picks = tuple([choose(own[p], parent_visits, rng, None) for p in players])
            kid = children[node].get(picks)
            if kid is None:
                names = [own[p].names[picks[p]] for p in players]
                kid = tree.add(node, joint_name(names), names, [own[p].actions[picks[p]] for p in players])
                children[node][picks] = kid
            steps.append((node, picks))
            return kid

        return step

    def backpropagate(self, path: list[int], elements: list, returns: Sequence[float]) -> bool:
        """The tree's visits and totals, then every player's own move at each simultaneous step:
        one visit and that player's return (regret matching and EXP3 update their state)."""
        self.tree.backpropagate(path, returns)
        own_of, players, regret, steps = self.tree.own, self.players, self.regret, self.steps
        for at, picks in steps:
            own = own_of[at]
            for p in range(players):
                moves = own[p]
                moves.record(picks[p], returns[p])
                if regret:
                    update(self.rule, moves.state, moves.sigma, picks[p], returns[p], self.settings)
        steps.clear()  # the list the step closure appends to
        return False

    def expand(self, node: int, state: Any, path: list) -> None:
        """Record what ``node`` is from its state (legal own moves, outcomes, the end) and write its facts."""
        tree, write = self.tree, self.write
        if state.is_terminal():
            tree.flags[node] = TERMINAL
            tree.children[node] = []
            if write is not None:
                write.terminal(path)
            return
        if state.is_chance_node():
            actions, names, odds = chance_outcomes(state)
            player = tree.view[node]
            tree.player[node], tree.flags[node], tree.odds[node] = player, CHANCE, odds
            tree.children[node] = [tree.add(node, name, name, action) for action, name in zip(actions, names)]
            if write is not None:
                write.chance(path, player, names)
            return
        if not state.is_simultaneous_node():
            raise ValueError(
                f"player {state.current_player()} moves alone at {json.dumps(path)}: the decoupled search handles "
                "simultaneous and chance nodes only"
            )
        own = []
        for player in range(tree.players):
            actions = state.legal_actions(player)
            own.append(OwnMoves(own_move_names(state, player, actions), list(actions), self.regret))
        tree.own[node] = own
        tree.player[node], tree.flags[node] = 0, SIMULTANEOUS
        tree.children[node] = {}
        if write is not None:
            write.record({"node": path, "player": 0, "simultaneous": True, "moves": [o.names for o in own]})
