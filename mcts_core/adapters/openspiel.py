"""OpenSpiel MCTS to our formats: the JSON tree dump, and a JSON Lines log written while a search runs.

OpenSpiel (open_spiel 2.0.2, ``open_spiel/python/algorithms/mcts.py``) is imported inside functions
only. What this module relies on (checked node by node against the engine's trees):

- A simulation walks down from the root while the node has visits and its state is not terminal
  (with ``dont_return_chance_node`` also through unvisited chance nodes). A visited node without
  children is expanded on the way: its children are ``evaluator.prior(state)`` shuffled by the bot's
  RNG, all at 0 visits. So the first simulation stops at the root (our ``"path": []``), and every node
  is a leaf once before it is expanded: an expanded node has 1 + its children's visits (a chance
  node passed through by ``dont_return_chance_node`` has exactly its children's).
- Every node on the path gets one visit and ``returns[p]``, where p is ``SearchNode.player``: the player
  who moved into the node (for the root, the player to move there). A chance outcome's p is the
  nearest decision player above it, so a chance node's children are totalled from the view of the
  player whose view the chance node itself uses; our ``player`` at a chance node is that player.
- Selection is ``max(children, key=value)``: the first maximum in the children's (shuffled) order,
  an unvisited child is +inf (UCT) or Q = 0 (PUCT). A child with an ``outcome`` (every terminal
  node, and with ``solve=True`` every proven node) is valued ``outcome[p]`` instead, with no
  exploration term; the log carries outcomes as an extra fact key so a reader can do the same.
- A search from a chance node fails in OpenSpiel itself (Python: IndexError in the backup; C++:
  segmentation fault), and so does one from a terminal state (Python: IndexError), so
  :func:`search_log` refuses both.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any, TextIO

from ..search.games import opened, play_moves
from ..search.log_writer import LogWriter
from ..search.move_names import child_names
from ..selection.registry import PUCT, UCB1

TREE_VERSION = 1
CHANCE = -1  # pyspiel.PlayerId.CHANCE


def _outcome(node: Any) -> list[float] | None:
    """The node's solved returns, or None (Python uses None, C++ an empty list)."""
    outcome = node.outcome
    if outcome is None or len(outcome) == 0:
        return None
    return [float(x) for x in outcome]


def tree_dump(root: Any, state: Any = None, *, c: float | None = None, game: Any = None) -> dict:
    """A finished OpenSpiel search tree as our "MCTS tree, JSON" dict.

    Works for the Python ``SearchNode`` of ``open_spiel.python.algorithms.mcts`` and for the C++
    ``pyspiel.SearchNode`` that ``pyspiel.MCTSBot.mcts_search`` returns. Each node is
    ``{"move", "visits", "total", "player", "prior", "children"}`` plus ``"chance": true``,
    ``"terminal": true`` and the proven ``"outcome"`` (returns per player) when they apply.
    ``total`` is ``total_reward`` as the engine keeps it: from the view of the player who moved into
    the node (the root: the player to move there). ``player`` is who moves at the node, the player
    of its children; at a chance node, the player whose view its children's totals use. Children
    keep the engine's order, which is also its tie order (``ties: "first"``).

    Args:
        root: the root node ``mcts_search`` returned.
        state: the state searched from. With it moves are action names and every visited node
            gets ``player`` / ``chance`` / ``terminal`` from its replayed state; without it moves are
            action ids and ``player`` comes from the children.
        c: the exploration constant, written as the header's ``c`` when given.
        game: the ``pyspiel.Game``, for ``players`` when there is no state.

    Returns:
        ``{"mcts_tree": 1, "players": N, "ties": "first", ["c": c,] "root": NODE}``.
    """
    if game is None and state is not None:
        game = state.get_game()
    max_player = -1
    out_root: dict = {}
    # (node, its state or None, the player whose view its own total uses, the dict to fill)
    stack = [(root, state.clone() if state is not None else None, root.player, out_root)]
    first = True
    while stack:
        node, node_state, view, out = stack.pop()
        children = list(node.children)
        out["visits"] = int(node.explore_count)
        out["total"] = float(node.total_reward)
        if node_state is not None:
            chance, terminal = node_state.is_chance_node(), node_state.is_terminal()
            to_move = node_state.current_player()
        else:
            chance = bool(children) and children[0].player == CHANCE
            terminal = not children and _outcome(node) is not None
            to_move = children[0].player if children else None
        player = view if chance else to_move
        if player is not None and player >= 0:
            out["player"] = player
            max_player = max(max_player, player)
        if not first:
            out["prior"] = float(node.prior)
        first = False
        if chance:
            out["chance"] = True
        if terminal:
            out["terminal"] = True
        outcome = _outcome(node)
        if outcome is not None:
            out["outcome"] = outcome
        actions = [child.action for child in children]
        if node_state is not None:
            names: list[Any] = child_names(node_state, actions)
        else:
            names = [str(int(a)) for a in actions]
        out["children"] = kids = [{"move": name} for name in names]
        for child, kid in zip(children, kids):
            child_state = None
            if node_state is not None and (child.explore_count or len(child.children)):
                child_state = node_state.clone()
                child_state.apply_action(child.action)
            child_view = child.player if child.player >= 0 else view
            stack.append((child, child_state, child_view, kid))
    players = game.num_players() if game is not None else max(max_player + 1, 1)
    dump = {"mcts_tree": TREE_VERSION, "players": players, "ties": "first"}
    if c is not None:
        dump["c"] = float(c)
    dump["root"] = {"move": None, **out_root}
    return dump


class _RecordingEvaluator:
    """Passes calls to the bot's evaluator and hands each evaluation to the logger."""

    def __init__(self, inner: Any, logger: _SearchLogger):
        self._inner = inner
        self._logger = logger

    def evaluate(self, state: Any) -> Any:
        """Evaluates as the inner evaluator does, recording the returns."""
        returns = self._inner.evaluate(state)
        self._logger.evaluated(returns)
        return returns

    def prior(self, state: Any) -> Any:
        """The inner evaluator's prior."""
        return self._inner.prior(state)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _SearchLogger:
    """Writes log records around a Python MCTSBot's tree policy and evaluator."""

    def __init__(self, bot: Any, state: Any, out: TextIO, extras: bool):
        self.bot, self.state, self.extras = bot, state, extras
        self.log = LogWriter(out)
        self.write = self.log.record
        self.tree_policy = bot._apply_tree_policy
        self.names: dict[int, str] = {}  # id(node) -> move name (nodes live as long as the search)
        self.view: dict[int, int] = {}  # id(node) -> player whose view the node's total uses
        self.expanded: set[int] = set()
        self.terminal: set[int] = set()
        self.outcomes: dict[int, list[float]] = {}
        self.pending: list | None = None  # [path names, path nodes, returns or None]

    def header(self) -> None:
        """Writes the header and the root's facts known before the first simulation."""
        state = self.state
        rule = _rule_name(self.bot) if self.extras else None
        self.log.header(state.get_game().num_players(), self.bot.uct_c, rule=rule or None)
        # The first simulation stops at the root, before the root is expanded: say now who moves
        # there, so the root's total is read from the right view from the first record on.
        self.write({"node": [], "player": state.current_player(), "chance": False, "terminal": False})

    def apply_tree_policy(self, root: Any, state: Any) -> tuple[list, Any]:
        """The bot's own tree policy, then facts of the nodes it expanded."""
        self.flush()
        if not self.view:
            self.view[id(root)] = root.player
        visit_path, working_state = self.tree_policy(root, state)
        new = [i for i, node in enumerate(visit_path) if node.children and id(node) not in self.expanded]
        if new:
            replay = state.clone()
            for i, node in enumerate(visit_path[: new[-1] + 1]):
                if i:
                    replay.apply_action(node.action)
                if node.children and id(node) not in self.expanded:
                    self.declare(node, replay, [self.names[id(n)] for n in visit_path[1 : i + 1]])
        path = [self.names[id(node)] for node in visit_path[1:]]
        leaf = visit_path[-1]
        returns = None
        if working_state.is_terminal():
            returns = working_state.returns()
            if id(leaf) not in self.terminal:
                self.terminal.add(id(leaf))
                facts: dict = {"node": path, "terminal": True}
                if self.extras:
                    facts["outcome"] = self.outcomes[id(leaf)] = [float(x) for x in returns]
                self.write(facts)
        # mcts_search pops visit_path during the backup: keep a copy.
        self.pending = [path, list(visit_path), returns]
        return visit_path, working_state

    def declare(self, node: Any, state: Any, path: list[str]) -> None:
        """Writes an expanded node's facts and names its children."""
        self.expanded.add(id(node))
        children = node.children
        names = child_names(state, [child.action for child in children])
        view = self.view[id(node)]
        chance = state.is_chance_node()
        for child, name in zip(children, names):
            self.names[id(child)] = name
            self.view[id(child)] = child.player if child.player >= 0 else view
        player = view if chance else state.current_player()
        self.write({"node": path, "player": player, "children": names,
                    "priors": {name: float(child.prior) for name, child in zip(names, children)},
                    "chance": chance, "terminal": False})

    def evaluated(self, returns: Any) -> None:
        if self.pending is not None and self.pending[2] is None:
            self.pending[2] = returns

    def flush(self) -> None:
        """Writes the last simulation (its backup is done now) and outcomes it proved."""
        if self.pending is None:
            return
        path, nodes, returns = self.pending
        self.pending = None
        if returns is None:
            raise RuntimeError("a simulation ended without an evaluation or a terminal state")
        self.log.simulation(path, [float(x) for x in returns])
        if self.extras:
            for depth, node in enumerate(nodes):
                outcome = _outcome(node)
                if outcome is not None and self.outcomes.get(id(node)) != outcome:
                    self.outcomes[id(node)] = outcome
                    self.write({"node": path[:depth], "outcome": outcome})


def _rule_name(bot: Any) -> str | None:
    """Our selection rule's name for the bot's child selection function, if it is OpenSpiel's own."""
    from open_spiel.python.algorithms import mcts

    fn = getattr(bot, "_child_selection_fn", None)
    return {mcts.SearchNode.uct_value: UCB1, mcts.SearchNode.puct_value: PUCT}.get(fn)


def search_log(bot: Any, state: Any, out: TextIO, *, extras: bool = True) -> Any:
    """Runs ``bot.mcts_search(state)`` and writes its JSON Lines MCTS log to ``out``.

    The log is the header, then per simulation, in the engine's order: the facts of each node the
    simulation expanded (``player``, ``children`` in the engine's order, ``priors``, ``chance``,
    ``terminal``), the facts of a terminal node it reached for the first time, and
    ``{"path": [move names], "returns": [one per player]}``. The root's ``player`` is also stated
    before the first simulation (which stops at the root, so its path is ``[]``). Read with the
    puzzle's tree rule (declared children exist with 0 visits; a node's total adds
    ``returns[player at its parent]``, the root's ``returns[player at the root]``), the log gives
    every node exactly the engine's ``explore_count`` and ``total_reward``.

    With ``extras`` the log also carries keys docs/DESIGN.md does not define: the header's ``"rule"``
    (UCB1's or PUCT's key, when the bot uses OpenSpiel's own function) and ``"outcome"``
    (returns per player) on a terminal node's facts and on a ``{"node": path, "outcome": [...]}``
    fact written after the simulation that proved that node. A node's facts may come in several
    lines; later keys add to earlier ones.

    Hooks: for the search only, the bot's ``_apply_tree_policy`` and ``evaluator`` are wrapped
    (instance attributes, restored afterwards); the bot's RNG use is unchanged.

    Args:
        bot: an ``open_spiel.python.algorithms.mcts.MCTSBot`` (the C++ ``pyspiel.MCTSBot`` has no
            hook; dump its tree with :func:`tree_dump` instead).
        state: the state to search from; not a chance node, not terminal.
        out: a text stream; one JSON object per line is written to it.
        extras: also write the keys described above.

    Returns:
        The search tree's root, as ``mcts_search`` returns it.

    Raises:
        ValueError: ``state`` is a chance node or terminal (OpenSpiel's backup fails there).
    """
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("OpenSpiel's MCTSBot cannot search from a chance node or a terminal state "
                         "(its backup indexes returns by the root's player, which is negative there)")
    logger = _SearchLogger(bot, state, out, extras)
    own_policy = "_apply_tree_policy" in vars(bot)
    evaluator = bot.evaluator
    bot._apply_tree_policy = logger.apply_tree_policy
    bot.evaluator = _RecordingEvaluator(evaluator, logger)
    try:
        logger.header()
        root = bot.mcts_search(state)
        logger.flush()
    finally:
        bot.evaluator = evaluator
        if own_policy:
            bot._apply_tree_policy = logger.tree_policy
        else:
            del bot._apply_tree_policy
    return root


def log_search(
    game_name: str,
    *,
    simulations: int,
    uct_c: float,
    seed: int,
    moves: Iterable[int | str] = (),
    solve: bool = False,
    puct: bool = False,
    rollouts: int = 1,
    dont_return_chance_node: bool = False,
    extras: bool = True,
) -> tuple[list[str], Any]:
    """Searches ``game_name`` after ``moves`` with a Python MCTSBot and returns its log.

    The bot uses random rollouts (``rollouts`` per leaf) and one ``numpy.random.RandomState(seed)``
    for both the bot and the evaluator, so a seed gives one search. ``puct`` selects with
    ``SearchNode.puct_value`` instead of ``uct_value``.

    Returns:
        The log's lines (see :func:`search_log`) and the tree's root.
    """
    import numpy as np
    from open_spiel.python.algorithms import mcts

    game = opened(game_name)
    state = play_moves(game, moves)
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game, uct_c, simulations, mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng),
        solve=solve, random_state=rng,
        child_selection_fn=mcts.SearchNode.puct_value if puct else mcts.SearchNode.uct_value,
        dont_return_chance_node=dont_return_chance_node)
    buffer = io.StringIO()
    root = search_log(bot, state, buffer, extras=extras)
    return buffer.getvalue().splitlines(), root
