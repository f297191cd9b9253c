"""MCTS over an OpenSpiel game, driven by our selection rules, writing our JSON Lines MCTS log as it runs.

The loop is :func:`~mcts_core.search.skeleton.run_simulations` (select, expand, simulate,
backpropagate); this search specialises it so:

1. **Select**: at a decision node, step into the child our rule picks (:mod:`.choosers`).
2. **Expand**: a node reached for the first time gets all its children (the legal actions in
   ``legal_actions()`` order, or a chance node's outcomes), each with 0 visits.
3. **Backpropagate**: every node on the path gets one visit and the return of the player who moved
   into it (the player to move at its parent); the root gets the return of the player to move there.

**MCTS-Solver** (``solve=True``, as OpenSpiel's ``MCTSBot(solve=True)``): a simulation that ends in
a terminal node proves it (its outcome: the returns), and the proof climbs the path while it holds:
a decision node is proven when one child's outcome is the game's maximum utility for the player
to move there (a win), or when all its children are proven (then its outcome is the best of them
for that player: all losses give a loss, a best draw a draw); a chance node when all its outcomes
are proven with equal returns. A proven child is worth its outcome to the player choosing, and
the search stops once the root is proven. The best move prefers proven wins and avoids proven
losses: the largest (proven value, 0 if unproven; visits).

**A chance position** (backgammon's opening roll) is no position to pick a move in: the search
first draws its outcome(s) with their probabilities (the seeded RNG, before anything else) and
searches the position after them; :attr:`SearchResult.sampled` names the outcomes drawn.

The log: the header ``{"mcts_log": 1, "players": N, "ties": "first", "c": C, "rule": key, "settings":
{...}}`` (settings only when the rule has some besides C), the
root's facts, then per simulation the facts of the node it expanded (``{"node", "player",
"children", "chance", "terminal"}``, plus ``priors`` when the rule has per-move priors) and
``{"path": [move names], "returns": [one per player]}``; with the solver, after a simulation, one
``{"node": path, "outcome": [returns]}`` per node it proved. A chance node's ``player`` is the player
who moved into it (the root is never a chance node); a terminal node's facts have no ``player``.
Read back by :func:`mcts_core.inputs.loading.read_input`, the log gives every node exactly the
search's visits and totals (and proven outcomes), and at every decision node the child
:func:`mcts_core.selection.select_child` picks on the tree built from the records before a
simulation is the child that simulation stepped into (random draws below a sample threshold
excepted). One seeded :class:`random.Random` makes every random
choice, so a seed and a simulation budget give one log, byte for byte.
"""

from __future__ import annotations

import io
import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from ..model.tree import CHANCE, ROOT, TERMINAL
from ..selection import Scoring
from ..selection.terms import value_of
from .budget import SearchBudget, check_budget
from .choosers import chooser_for
from .games import chance_outcomes, check_log_width, load_game, play_moves
from .live_tree import LiveTree
from .log_writer import LogWriter
from .move_names import child_names
from .skeleton import run_simulations

ROLLOUTS = ("random",)


@dataclass(frozen=True)
class RootChild:
    """One move at the root after the search: its visits and total (from the root player's view),
    and its proven value for the root player (None: not proven)."""

    move: str
    action: int
    visits: int
    total: float
    outcome: float | None = None


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        root_visits: simulations through the root (all of them).
        root_total: the sum of their returns for the player to move at the root.
        children: the root's children in the engine's order.
        best_move: the most visited root move (ties: the first in the engine's order); with the
            solver, a proven win first and a proven loss last (the largest proven value, 0 for
            an unproven move, then visits).
        best_action: its action id.
        depth: the depth of the deepest node a simulation reached (rollouts not counted).
        simulations: simulations done.
        elapsed: seconds the search took.
        stopped: True when ``should_stop`` ended the search before its budget.
        log: the log's text when no ``out`` stream was given, else None.
        tree: the search's tree, every node's statistics.
        outcome: the root's proven returns, one per player (None: not proven).
        sampled: the chance outcomes drawn before the search, from a chance position (else empty).
    """

    root_visits: int
    root_total: float
    children: tuple[RootChild, ...]
    best_move: str
    best_action: int
    depth: int
    simulations: int
    elapsed: float
    stopped: bool
    log: str | None
    tree: LiveTree = field(repr=False, compare=False)
    outcome: list[float] | None = None
    sampled: tuple[str, ...] = ()

    @property
    def shares(self) -> dict[str, float]:
        """Each root move's share of the root children's visits."""
        visits = sum(child.visits for child in self.children)
        return {child.move: child.visits / visits if visits else 0.0 for child in self.children}

    @property
    def visit_entropy(self) -> float:
        """``-sum(p * ln p)`` over the root moves' visit shares p, in nats (natural log)."""
        return -sum(p * math.log(p) for p in self.shares.values() if p > 0)

    @property
    def top_share(self) -> float:
        """The most visited root move's share of the visits."""
        return max(self.shares.values(), default=0.0)


def search(game: Any, *, moves: Iterable[int | str] = (), out: TextIO | None = None, **options: Any) -> SearchResult:
    """Searches ``game`` after ``moves``, writing the log as it goes.

    Args:
        game: a ``pyspiel.Game`` or a game string (``"tic_tac_toe"``, ``"connect_four(rows=5)"``):
            a sequential game of perfect information.
        moves: the position: action ids or names from the initial state (chance outcomes too).
        out: where the log is written, line by line; None keeps it in ``SearchResult.log``.
        options: :func:`search_state`'s keywords: ``scoring`` (required), ``simulations``,
            ``seconds``, ``seed``, ``rollout``, ``progress``, ``should_stop``, ``solve``.

    Raises:
        ValueError: an unknown game, a game OpenSpiel cannot set up, a simultaneous-move or
            imperfect-information game, an illegal move, a finished position, a position with more
            moves than a log lists, or a budget that is missing, <= 0 or too large.
    """
    state = play_moves(load_game(game), moves)
    sink = out if out is not None else io.StringIO()
    result = search_state(state, out=sink, **options)
    return result if out is not None else replace(result, log=sink.getvalue())


def search_state(
    state: Any,
    *,
    scoring: Scoring,
    simulations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    out: TextIO | None = None,
    rollout: str = "random",
    progress: Callable[[int, int | None], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    solve: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """MCTS from an OpenSpiel state (left unchanged) with ``scoring``'s rule; no log at all when ``out`` is None.

    Args:
        state: the position; of a sequential game of perfect information.
        scoring: the selection rule and its settings (C included).
        simulations: stop after this many simulations (at most 1,000,000).
        seconds: stop after this much time (at most 600); with both, whichever comes first.
        seed: seeds every random choice (rollouts, chance outcomes, draws below a threshold).
        out: where the log is written, line by line.
        rollout: the simulation policy; ``"random"`` (uniform over legal actions).
        progress: called as ``progress(done, simulations)`` about every 0.1 s and at the end.
        should_stop: polled after every simulation (and every 1,000 moves of a rollout); returning True
            ends the search (a simulation under way is dropped).
        solve: prove outcomes (MCTS-Solver, see the module's docstring); the search ends early
            when the root is proven.
        clock: what ``seconds`` are measured by (seconds, read once per simulation).

    Raises:
        ValueError: a finished position, a bad budget, an unknown rollout, or (with ``out``) a
            position with more moves than a log lists.
    """
    check_budget(simulations, seconds)
    if rollout not in ROLLOUTS:
        raise ValueError(f"unknown rollout {rollout!r}; known: {', '.join(ROLLOUTS)}")
    if state.is_terminal():
        raise ValueError("the game is over in this position: there is nothing to search")
    rng = random.Random(seed)
    state, sampled = _past_chance(state, rng)
    if out is not None:  # the arena's searches write no log: any width plays
        check_log_width(state)
    players = state.get_game().num_players()
    write = LogWriter(out) if out is not None else None
    search = _Sequential(state, scoring, write, solve)
    if write is not None:
        write.header(players, scoring.c, rule=scoring.rule, settings=scoring.settings)
    search.expand(ROOT, state, [])
    budget = SearchBudget(simulations, seconds, progress, should_stop, clock)
    run_simulations(search, state, rng, budget, write)
    elapsed = budget.finish()
    return replace(_result(search.tree, budget.done, elapsed, budget.stopped), sampled=sampled)


def _past_chance(state: Any, rng: random.Random) -> tuple[Any, tuple[str, ...]]:
    """``state`` itself, or from a chance position the first decision position after outcomes drawn
    with their probabilities, and the outcomes' names."""
    sampled: list[str] = []
    if state.is_chance_node():
        state = state.clone()
        while state.is_chance_node():
            actions, names, odds = chance_outcomes(state)
            k = rng.choices(range(len(actions)), odds)[0]
            sampled.append(names[k])
            state.apply_action(actions[k])
        if state.is_terminal():
            raise ValueError(f"the game ends after the chance outcome {' '.join(sampled)}: there is nothing to search")
    return state, tuple(sampled)


class _Sequential:
    """The sequential search's steps (:class:`~mcts_core.search.skeleton.Specialisation`)."""

    simultaneous = False

    def __init__(self, state: Any, scoring: Scoring, write: LogWriter | None, solve: bool):
        self.choose = chooser_for(scoring, solve=solve)  # choose(tree, node, rng) -> child
        self.solve = solve
        self.max_utility = state.get_game().max_utility()
        self.priors = scoring.settings.get("priors")  # a rule with per-move priors (PUCT): declared to the tree
        self.tree = LiveTree(state.get_game().num_players(), state.current_player(), priors=bool(self.priors))
        self.write = write
        self.step = self.choose  # the child our rule picks
        self.play = type(state).apply_action

    def backpropagate(self, path: list[int], elements: list[str], returns: list[float]) -> bool:
        """Visits and totals along ``path``; with the solver, what a terminal leaf proves (written to
        the log); True when the root is proven."""
        tree = self.tree
        tree.backpropagate(path, returns)
        if not self.solve or not tree.flags[path[-1]] & TERMINAL:
            return False
        proven = tree.proven
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            outcome = list(returns) if depth == len(path) - 1 else self._proof(node)
            if outcome is None:
                break
            if proven.get(node) != outcome:
                proven[node] = outcome
                if self.write is not None:
                    self.write.record({"node": elements[:depth], "outcome": outcome})
        return ROOT in proven

    def _proof(self, node: int) -> list[float] | None:
        """The outcome ``node``'s children prove (OpenSpiel's max^n backup), or None."""
        tree = self.tree
        proven, kids = tree.proven, tree.children[node]
        if tree.flags[node] & CHANCE:
            first = proven.get(kids[0])
            return first if first is not None and all(proven.get(kid) == first for kid in kids) else None
        player = tree.player[node]
        best, all_proven = None, True
        for kid in kids:
            outcome = proven.get(kid)
            if outcome is None:
                all_proven = False
            elif best is None or outcome[player] > best[player]:
                best = outcome
        if best is not None and (all_proven or best[player] == self.max_utility):
            return best
        return None

    def expand(self, node: int, state: Any, path: list[str]) -> None:
        """Creates ``node``'s children from its state and writes its facts."""
        tree, write = self.tree, self.write
        if state.is_terminal():
            tree.expand(node, tree.view[node], TERMINAL, [], [])
            if write is not None:
                write.terminal(path)
            return
        if state.is_chance_node():
            actions, names, odds = chance_outcomes(state)
            player = tree.view[node]  # outcomes' totals take the view of the player who moved into the chance node
            tree.expand(node, player, CHANCE, actions, names, odds=odds)
            if write is not None:
                write.chance(path, player, names)
            return
        actions = state.legal_actions()
        names = child_names(state, actions)
        player = state.current_player()
        priors = self.priors
        child_priors = [value_of(priors, name) for name in names] if priors else None
        tree.expand(node, player, 0, actions, names, priors=child_priors)
        if write is not None:
            facts = {"node": path, "player": player, "children": names, "chance": False, "terminal": False}
            if child_priors is not None:
                facts["priors"] = dict(zip(names, child_priors))
            write.record(facts)


def _result(tree: LiveTree, done: int, elapsed: float, stopped: bool) -> SearchResult:
    kids = tree.children[ROOT]
    children = tuple(
        RootChild(tree.move[k], tree.action[k], tree.visits[k], tree.total[k], tree.outcome_of(k)) for k in kids
    )
    # OpenSpiel's sort key without its last part: proven value (0 unproven), then visits; the first of equals
    best = max(children, key=lambda child: (child.outcome or 0.0, child.visits))
    return SearchResult(
        root_visits=tree.visits[ROOT], root_total=tree.total[ROOT], children=children,
        best_move=best.move, best_action=best.action, depth=tree.max_visited_depth(),
        simulations=done, elapsed=elapsed, stopped=stopped, log=None, tree=tree, outcome=tree.proven.get(ROOT),
    )
