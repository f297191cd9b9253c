"""Decoupled UCT (DUCT) over OpenSpiel's simultaneous-move games, writing the simultaneous log.

One simulation, with the puzzle's rule of one new node per simulation:

1. **Select**: at a simultaneous node every player picks one of its own moves with the rule, on
   its own statistics at the node (:mod:`.own_moves`), and the joint move is the tuple; at a
   chance node an outcome is drawn with its probability. Step into that child until stepping
   into a node no simulation has entered (a joint child is created the first time its joint move
   is picked), or reaching a terminal node.
2. **Expand**: a node reached for the first time records its players' legal moves (a chance
   node: its outcomes, each a child with 0 visits).
3. **Simulate**: uniformly random legal moves (chance outcomes by their probabilities) to the end.
4. **Backpropagate**: every node on the path gets one visit and the return of the player whose
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

import difflib
import io
import json
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from ..adapters.openspiel import LOG_VERSION, child_names
from ..simultaneous.joint import joint_name
from ..simultaneous.names import own_move_names
from ..simultaneous.rules import EXP3, JointScoring, update
from ..model.tree import CHANCE, ROOT, TERMINAL
from .budget import SearchBudget, check_budget
from .own_moves import OwnMoves, own_chooser

SIMULTANEOUS = 8  # a live node's flag beside CHANCE and TERMINAL
ALGORITHMS = ("duct", "smitsimax")


@dataclass(frozen=True)
class OwnMoveResult:
    """One player's own move at the root after the search (totals from that player's view)."""

    move: str
    action: int
    visits: int
    total: float

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else math.nan


@dataclass(frozen=True)
class SimultaneousResult:
    """What a simultaneous search found.

    Attributes:
        algorithm: ``"duct"`` or ``"smitsimax"``.
        scoring: the rule every player used.
        root_visits: simulations through the root.
        root: per player, its own moves at the root in the engine's order.
        strategy: per player, the strategy the search recommends at the root: the visit shares,
            or for regret matching and EXP3 the average sampling distribution.
        best: per player, its move of largest ``strategy`` share (ties: the first).
        depth: the deepest node a simulation reached (in the joint tree; Smitsimax: the deepest
            own-move node of any player).
        simulations, elapsed, stopped: how many, how long, whether ``should_stop`` ended it.
        log: the log's text when no ``out`` stream was given, else None.
        tree: the live tree (DUCT) or trees (Smitsimax, one per player).
    """

    algorithm: str
    scoring: JointScoring
    root_visits: int
    root: tuple[tuple[OwnMoveResult, ...], ...]
    strategy: tuple[dict[str, float], ...]
    best: tuple[str, ...]
    depth: int
    simulations: int
    elapsed: float
    stopped: bool
    log: str | None
    tree: Any = field(repr=False, compare=False)


def load_simultaneous_game(game: Any) -> Any:
    """The ``pyspiel.Game`` to search: ``game``, or loaded from a game string; simultaneous moves only.

    Raises:
        ValueError: an unknown game (with close names), a bad game string, or a game without
            simultaneous moves.
    """
    import pyspiel

    if isinstance(game, str):
        name = game.split("(", 1)[0].strip()
        known = [kind.short_name for kind in pyspiel.registered_games()]
        if name not in known:
            close = difflib.get_close_matches(name, known, n=5)
            raise ValueError(f"unknown game {name!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))
        try:
            game = pyspiel.load_game(game)
        except pyspiel.SpielError as error:
            raise ValueError(f"cannot load {game!r}: {error}") from None
    kind = game.get_type()
    if kind.dynamics != pyspiel.GameType.Dynamics.SIMULTANEOUS:
        raise ValueError(
            f"{kind.short_name} is not a simultaneous-move game; the decoupled search is for games where the "
            "players move at once (the sequential search plays the others)"
        )
    return game


def play_joint_moves(game: Any, moves: Iterable[Any] = ()) -> Any:
    """The initial state after ``moves``: at a simultaneous node one action (id or name) per player,
    at a chance node an outcome (id or name).

    Raises:
        ValueError: a move that is not legal where it is played, or a move after the game ended.
    """
    state = game.new_initial_state()
    for number, move in enumerate(moves, start=1):
        if state.is_terminal():
            raise ValueError(f"{move!r} (move {number}): the game is already over")
        if state.is_simultaneous_node():
            if not isinstance(move, (list, tuple)) or len(move) != game.num_players():
                raise ValueError(f"{move!r} (move {number}): a simultaneous node needs one move per player")
            actions = []
            for player, own in enumerate(move):
                legal = state.legal_actions(player)
                names = own_move_names(state, player, legal)
                action = own if isinstance(own, int) and own in legal else (
                    legal[names.index(own)] if own in names else None)
                if action is None:
                    raise ValueError(f"{own!r} (move {number}) is not legal for player {player}; legal: "
                                     f"{', '.join(names[:20])}")
                actions.append(action)
            state.apply_actions(actions)
        elif state.is_chance_node():
            legal = [a for a, _ in state.chance_outcomes()]
            names = child_names(state, legal)
            action = move if isinstance(move, int) and move in legal else (
                legal[names.index(move)] if move in names else None)
            if action is None:
                raise ValueError(f"{move!r} (move {number}) is not a chance outcome here; outcomes: {', '.join(names[:20])}")
            state.apply_action(action)
        else:
            raise ValueError(f"move {number}: player {state.current_player()} moves alone here, which this search "
                             "does not handle")
    return state


class JointLiveTree:
    """The decoupled tree a running DUCT search grows (plain growing lists).

    Node 0 is the root. A simultaneous node keeps one :class:`OwnMoves` per player and its joint
    children by the positions of the own moves; a chance node its outcomes (created together, 0
    visits). ``view[node]`` is whose return the node's total adds: its parent's ``player`` (0 at a
    simultaneous node; a chance node keeps the player who moved into it).
    """

    def __init__(self, players: int, root_player: int):
        self.players = players
        self.move: list[str] = [""]
        self.parent = [-1]
        self.element: list[Any] = [None]  # the move as the log writes it: a name or a list of names
        self.action: list[Any] = [0]
        self.depth = [0]
        self.visits = [0]
        self.total = [0.0]
        self.total_sq = [0.0]
        self.view = [root_player]
        self.player = [root_player]
        self.flags = [0]
        self.children: list[Any] = [None]  # a dict (joint positions -> child) or a list (chance outcomes)
        self.odds: dict[int, list[float]] = {}
        self.own: dict[int, list[OwnMoves]] = {}

    def __len__(self) -> int:
        return len(self.move)

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

    def max_visited_depth(self) -> int:
        return max((d for d, v in zip(self.depth, self.visits) if v), default=0)


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
        moves: the start position (:func:`play_joint_moves`).
        scoring: the rule every player uses (Smitsimax: the registered rules only).
        simulations, seconds: the budget (at most 1,000,000 simulations, 600 s); whichever first.
        seed: seeds every random choice.
        out: where the log goes, line by line; None keeps it in ``SimultaneousResult.log``.
        log: False writes no log at all (faster; for sweeps).
        progress: called as ``progress(done, simulations)`` about every 0.1 s and at the end.
        should_stop: polled after every simulation; True ends the search.

    Raises:
        ValueError: an unknown or sequential game, a bad position or budget, an unknown algorithm.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    check_budget(simulations, seconds)
    loaded = load_simultaneous_game(game)
    moves = list(moves)
    state = play_joint_moves(loaded, moves)
    if state.is_terminal():
        raise ValueError("the game is over in this position: there is nothing to search")
    if scoring.rule == EXP3 and not {"low", "high"} & set(scoring.settings):
        # EXP3 maps returns to [0, 1]: the game's own range, written in the header for the log's readers
        scoring = JointScoring(scoring.rule, scoring.c, {**scoring.settings, "low": float(loaded.min_utility()),
                                                         "high": float(loaded.max_utility())})
    sink = None
    if log:
        sink = out if out is not None else io.StringIO()
    game_name = str(loaded) if not moves else None
    if algorithm == "smitsimax":
        from .smitsimax_search import smitsimax_search

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
    tree = JointLiveTree(players, 0)
    write = LogWriter(out) if out is not None else None
    if write is not None:
        write.header(players, scoring, "duct", game_name)
    choose = own_chooser(scoring)
    regret = scoring.regret_based
    rule, settings = scoring.rule, scoring.settings
    expand(tree, ROOT, state, [], write, regret)

    budget = SearchBudget(simulations, seconds, progress, should_stop)
    visits, flags, children, own_of = tree.visits, tree.flags, tree.children, tree.own
    while budget.more():
        working = state.clone()
        node, path, elements, steps = ROOT, [ROOT], [], []
        while not flags[node] & TERMINAL:
            if flags[node] & CHANCE:
                kid = rng.choices(children[node], tree.odds[node])[0]
                working.apply_action(tree.action[kid])
            else:
                own = own_of[node]
                parent_visits = visits[node]
                picks = tuple(choose(own[p], parent_visits, rng, None) for p in range(players))
                kid = children[node].get(picks)
                if kid is None:
                    names = [own[p].names[picks[p]] for p in range(players)]
                    kid = tree.add(node, joint_name(names), names, [own[p].actions[picks[p]] for p in range(players)])
                    children[node][picks] = kid
                working.apply_actions(tree.action[kid])
                steps.append((node, picks))
            path.append(kid)
            elements.append(tree.element[kid])
            node = kid
            if not visits[kid]:  # the one new node of this simulation
                expand(tree, kid, working, elements, write, regret)
                break
        returns = random_rollout(working, rng)
        backpropagate(tree, path, returns)
        for at, picks in steps:
            own = own_of[at]
            for p in range(players):
                moves = own[p]
                moves.record(picks[p], returns[p])
                if regret:
                    update(rule, moves.state, moves.sigma, picks[p], returns[p], settings)
        if write is not None:
            write.simulation(elements, returns)
        if budget.spent():
            break
    elapsed = budget.finish()
    done, stopped = budget.done, budget.stopped
    root_own = own_of.get(ROOT)
    return result_of("duct", scoring, tree.visits[ROOT], root_own, tree.max_visited_depth(), done, elapsed,
                     stopped, tree)


def expand(tree: JointLiveTree, node: int, state: Any, path: list, write: LogWriter | None, regret: bool) -> None:
    """Record what ``node`` is from its state (legal own moves, outcomes, the end) and write its facts."""
    if state.is_terminal():
        tree.flags[node] = TERMINAL
        tree.children[node] = []
        if write is not None:
            write.record({"node": path, "children": [], "chance": False, "terminal": True})
        return
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        names = child_names(state, actions)
        player = tree.view[node]
        tree.player[node], tree.flags[node] = player, CHANCE
        tree.odds[node] = [p for _, p in outcomes]
        kids = []
        for action, name in zip(actions, names):
            kid = tree.add(node, name, name, action)
            kids.append(kid)
        tree.children[node] = kids
        if write is not None:
            write.record({"node": path, "player": player, "children": names, "chance": True, "terminal": False})
        return
    if not state.is_simultaneous_node():
        raise ValueError(
            f"player {state.current_player()} moves alone at {json.dumps(path)}: the decoupled search handles "
            "simultaneous and chance nodes only"
        )
    own = []
    for player in range(tree.players):
        actions = state.legal_actions(player)
        own.append(OwnMoves(own_move_names(state, player, actions), list(actions), regret))
    tree.own[node] = own
    tree.player[node], tree.flags[node] = 0, SIMULTANEOUS
    tree.children[node] = {}
    if write is not None:
        write.record({"node": path, "player": 0, "simultaneous": True, "moves": [o.names for o in own]})


def backpropagate(tree: JointLiveTree, path: list[int], returns: Sequence[float]) -> None:
    """One visit and its view's return to every node on ``path``."""
    visits, total, total_sq, view = tree.visits, tree.total, tree.total_sq, tree.view
    for node in path:
        score = returns[view[node]]
        visits[node] += 1
        total[node] += score
        total_sq[node] += score * score


def random_rollout(state: Any, rng: random.Random) -> list[float]:
    """Uniformly random legal moves for every player (chance by its probabilities) to the end; the returns."""
    players = state.get_game().num_players() if not state.is_terminal() else 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def result_of(algorithm: str, scoring: JointScoring, root_visits: int, root_own: list[OwnMoves] | None,
              depth: int, done: int, elapsed: float, stopped: bool, tree: Any) -> SimultaneousResult:
    """The search's summary from the root's own moves."""
    root, strategies, best = [], [], []
    for own in root_own or []:
        root.append(tuple(OwnMoveResult(n, a, v, t) for n, a, v, t in zip(own.names, own.actions, own.visits, own.total)))
        if own.state is not None:
            shares = own.state.average()
        else:
            chosen = sum(own.visits)
            shares = [v / chosen if chosen else 1.0 / len(own.visits) for v in own.visits]
        strategies.append(dict(zip(own.names, shares)))
        best.append(own.names[shares.index(max(shares))])
    return SimultaneousResult(algorithm, scoring, root_visits, tuple(root), tuple(strategies), tuple(best), depth,
                              done, elapsed, stopped, None, tree)


class LogWriter:
    """Writes the simultaneous log's records, one JSON object per line."""

    def __init__(self, out: TextIO):
        self._write = out.write

    def record(self, record: dict) -> None:
        self._write(json.dumps(record) + "\n")

    def header(self, players: int, scoring: JointScoring, algorithm: str, game: str | None) -> None:
        header = {"mcts_log": LOG_VERSION, "players": players, "ties": "first", "c": float(scoring.c),
                  "rule": scoring.rule}
        settings = {name: dict(value) if hasattr(value, "items") else value
                    for name, value in scoring.settings.items() if value is not None}
        if settings:
            header["settings"] = settings
        header["algorithm"] = algorithm
        if game is not None:
            header["game"] = game
        self.record(header)

    def simulation(self, path: list, returns: Sequence[float]) -> None:
        self._write(f'{{"path": {json.dumps(path)}, "returns": {json.dumps(list(returns))}}}\n')
