"""Playing strength against C: our MCTS at each C (and budget) plays a series of games against an opponent.

How one game is played is :mod:`.arena_games`; games come in groups of one per seat, the MCTS side
taking each seat in turn with the same seed (a two-player pair swaps the seats), so each group
cancels the luck of the seat and of the dice. :mod:`.schedule` hands the games to a pool
(:mod:`.pools`: this process, local processes, or a Dask cluster), and :mod:`.rows` turns each
series into a row. With an SPRT a series stops as soon as its LLR reaches a bound.

A game is a win for the MCTS side when its return is larger than every opponent's, a draw when
it ties the largest, a loss otherwise. The score counts a draw as half a win.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import defaults
from ..common.numbers import is_valid_c, parse_c
from ..selection import DEFAULT_RULE, Scoring
from ..search.budget import check_budget
from ..search.games import load_game, play_moves
from .arena_games import GameTask, game_tasks
from .elo import SprtSettings
from .pools import open_pool
from .rows import ArenaRow, make_row
from .schedule import Series, StopRule, play_series
from .sprt import SprtStop

if TYPE_CHECKING:
    from .result_store import ArenaKey, ResultStore

MAX_GAMES = 100_000  # games per series
MAX_WORKERS = 64
MAX_SERIES = 200  # budgets x C values in one run
MAX_TOTAL_GAMES = 1_000_000  # games in one run, all series together


def parse_opponent(opponent: str) -> float | None:
    """The opponent's C for ``"mcts:<C>"``, None for ``"random"``.

    Raises:
        ValueError: anything else.
    """
    if opponent == "random":
        return None
    if opponent.startswith("mcts:"):
        try:
            return parse_c(opponent.removeprefix("mcts:"))
        except ValueError as error:
            raise ValueError(f"opponent {opponent!r}: {error}") from None
    raise ValueError(f'opponent must be "random" or "mcts:<C>" (like "mcts:1.4"), got {opponent!r}')


@dataclass(frozen=True)
class ArenaPlan:
    """Checked arena settings: what every series of a run shares."""

    game: str  # the full game string
    moves: tuple[int, ...]
    players: int
    rule: str
    settings: Mapping[str, Any]
    opponent_c: float | None
    seed: int
    workers: int
    cluster: str | None
    cluster_wait: float = defaults.ARENA_CLUSTER_WAIT  # seconds without a live worker before a cluster run gives up

    @property
    def opponent(self) -> str:
        return "random" if self.opponent_c is None else f"mcts:{self.opponent_c!r}"

    def key(self) -> ArenaKey:
        """The key this plan's games are stored under."""
        from .result_store import ArenaKey, canonical_rule

        return ArenaKey(self.game, self.moves, canonical_rule(self.rule, self.settings), self.opponent, self.seed)

    def series(self, c: float, simulations: int, games: int, stop_rule: StopRule | None = None,
               store: ResultStore | None = None) -> Series:
        """A series at this C and budget, holding the games the store has for it."""

        def make_tasks(indices: list[int]) -> list[GameTask]:
            return game_tasks(self.game, self.moves, self.rule, self.settings, c, self.opponent_c, simulations,
                              self.seed, self.players, indices)

        one = Series(c, simulations, self.players, games, make_tasks, stop_rule,
                     chunk_groups=1 if stop_rule is not None else Series.chunk_groups)
        if store is not None:
            one.results.update(store.load(self.key(), simulations, c))
        return one

    def play(self, series: list[Series], *, store: ResultStore | None, progress, should_stop) -> None:
        """Plays what the series miss (see :func:`.schedule.play_series`), storing each game.

        Raises:
            ValueError: a cluster without a live worker for ``cluster_wait`` seconds (the finished
                games are stored first).
        """
        from .cluster import NoLiveWorkers

        key = self.key()
        try:
            play_series(series, lambda: open_pool(self.workers, self.cluster, self.cluster_wait), progress=progress,
                        should_stop=should_stop, save=(lambda results: store.save(key, results)) if store else None)
        except NoLiveWorkers as lost:
            # No path: the page shows this sentence too, and server paths stay off the page.
            kept = ("the finished games are stored and a rerun resumes from them" if store
                    else "without a result store the finished games are lost")
            raise ValueError(f"{lost}: {kept}; start workers with `dask worker {self.cluster}` and run again") from None


def plan(game: Any, *, moves: Iterable[int | str] = (), rule: str = DEFAULT_RULE, settings: Mapping[str, Any] | None = None,
         opponent: str = defaults.ARENA_OPPONENT, seed: int = defaults.ARENA_SEED,
         workers: int = defaults.ARENA_WORKERS, cluster: str | None = None,
         cluster_wait: float | None = None) -> ArenaPlan:
    """Checks the settings every series shares. ``cluster_wait`` None: $MCTS_EXPLORER_CLUSTER_WAIT if
    set, else :data:`~mcts_core.defaults.ARENA_CLUSTER_WAIT`.

    Raises:
        ValueError: bad settings (the message says which).
    """
    game = load_game(game)
    start = play_moves(game, moves)
    if start.is_terminal():
        raise ValueError("the game is over in this position: there is nothing to play")
    opponent_c = parse_opponent(opponent)
    _check_count("workers", workers, MAX_WORKERS)
    settings = dict(settings or {})
    Scoring(rule, 1.0, settings)  # a bad setting: ValueError with the rule's sentence
    if cluster is not None and not cluster.strip():
        cluster = None
    return ArenaPlan(str(game), tuple(start.history()), game.num_players(), rule, settings, opponent_c, seed,
                     workers, cluster.strip() if cluster else None, _cluster_wait(cluster_wait))


def _cluster_wait(given: float | None) -> float:
    """Seconds a cluster run waits without a live worker: ``given``, else the environment's, else the default.

    Raises:
        ValueError: a wait that is not a number of seconds > 0.
    """
    import os

    variable = defaults.ARENA_CLUSTER_WAIT_VARIABLE
    text = os.environ.get(variable, "").strip()
    where, value = ("the cluster wait", given) if given is not None else (f"${variable}", text)
    try:
        seconds = float(value) if value != "" else defaults.ARENA_CLUSTER_WAIT
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise ValueError(f"{where} must be a number of seconds > 0, got {value!r}")
    return seconds


def check_grid(arena_plan: ArenaPlan, c_values: Sequence[float], games: int, budgets: Sequence[int]) -> None:
    """C values, games per series and budgets a run can play.

    Raises:
        ValueError: one sentence naming the bad value.
    """
    if not c_values or not all(is_valid_c(c) for c in c_values):
        raise ValueError(f"C values must be finite numbers >= 0, at least one, got {list(c_values)}")
    if len(set(c_values)) < len(c_values):
        raise ValueError(f"a C value is listed twice: {list(c_values)}")
    if not budgets:
        raise ValueError("give at least one simulation budget")
    for simulations in budgets:
        check_budget(simulations, None)
    if len(set(budgets)) < len(budgets):
        raise ValueError(f"a simulation budget is listed twice: {list(budgets)}")
    _check_count("games", games, MAX_GAMES)
    players = arena_plan.players
    if games % players:
        how = "in pairs, the seats swapped" if players == 2 else f"in groups of {players}, the seats rotated"
        raise ValueError(f"games ({games}) must be a multiple of {players}: {arena_plan.game}'s games are played {how}")
    series = len(c_values) * len(budgets)
    if series > MAX_SERIES:
        raise ValueError(f"{len(budgets)} budgets x {len(c_values)} C values make {series} series; "
                         f"the limit is {MAX_SERIES}")
    if series * games > MAX_TOTAL_GAMES:
        raise ValueError(f"{series} series x {games:,} games make {series * games:,} games; "
                         f"the limit is {MAX_TOTAL_GAMES:,} in one run")


def arena(
    game: Any,
    *,
    moves: Iterable[int | str] = (),
    c_values: Sequence[float] = defaults.ARENA_C_VALUES,
    games: int = defaults.ARENA_GAMES,
    simulations: int | Sequence[int] = defaults.ARENA_SIMULATIONS,
    rule: str = DEFAULT_RULE,
    settings: Mapping[str, Any] | None = None,
    opponent: str = defaults.ARENA_OPPONENT,
    seed: int = defaults.ARENA_SEED,
    workers: int = defaults.ARENA_WORKERS,
    cluster: str | None = None,
    cluster_wait: float | None = None,
    sprt: SprtSettings | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    store: ResultStore | None = None,
) -> list[ArenaRow]:
    """Plays ``games`` games at each budget and C and returns one row per pair, budget by budget, C by C.

    Args:
        game: a sequential game of perfect information (a ``pyspiel.Game`` or string), any number of players.
        moves: the start position (action ids or names), the same for every game.
        c_values: the MCTS side's exploration constants.
        games: games per C and budget, a multiple of the number of players (one game per seat).
        simulations: each search's budget, or several (a budget x C map).
        rule: the selection rule (a registry key); ``settings`` its other settings.
        opponent: ``"random"`` or ``"mcts:<C>"``, in every other seat.
        seed: with the group's number, seeds each game.
        workers: local processes playing games; 1 plays them in this process.
        cluster: a Dask scheduler address (``tcp://HOST:8786``): the games run there instead.
        cluster_wait: seconds the cluster may have no live worker before the run gives up (None:
            :func:`plan`'s default).
        sprt: two players only: each series stops as soon as its LLR reaches a bound (``games`` is then the cap).
        progress: called as ``progress(games done, games it may play)``.
        should_stop: polled while games run; True cancels the games not finished and returns the
            rows of the series done so far.
        store: a :class:`~mcts_core.strength.result_store.ResultStore`: games it holds for these
            settings are not played again, and finished games are saved as they come.

    Raises:
        ValueError: bad settings, an unreachable scheduler, a cluster left without workers (the
            message says which; the finished games are stored).
        KeyboardInterrupt: after cancelling the games in flight and storing the finished ones.
    """
    arena_plan = plan(game, moves=moves, rule=rule, settings=settings, opponent=opponent, seed=seed,
                      workers=workers, cluster=cluster, cluster_wait=cluster_wait)
    budgets = [simulations] if isinstance(simulations, int) else list(simulations)
    c_values = [float(c) for c in c_values]
    check_grid(arena_plan, c_values, games, budgets)
    if sprt is not None and arena_plan.players != 2:
        raise ValueError(f"the SPRT compares two players; {arena_plan.game} has {arena_plan.players}")
    series = [arena_plan.series(c, budget, games, SprtStop(sprt) if sprt else None, store)
              for budget in budgets for c in c_values]
    arena_plan.play(series, store=store, progress=progress, should_stop=should_stop)
    return [make_row(one.c, one.simulations, arena_plan.players, one.rows_games(), sprt)
            for one in series if one.done]


def stored_grid(arena_plan: ArenaPlan, c_values: Sequence[float], simulations: int, store: ResultStore) -> list[ArenaRow]:
    """Each C's row over the games the store holds for it, from the first up to the first one missing (whole
    groups); C values with none are left out. What a grid of these C values has played, whatever its games per C."""
    rows = []
    for c in c_values:
        games = store.load(arena_plan.key(), simulations, float(c))
        count = next(index for index in range(len(games) + 1) if index not in games)
        count -= count % arena_plan.players
        if count:
            rows.append(make_row(float(c), simulations, arena_plan.players, [games[i] for i in range(count)]))
    return rows


def parse_budgets(text: str) -> list[int]:
    """Simulation budgets separated by commas or spaces.

    Raises:
        ValueError: a value that is not a whole number (the message names it).
    """
    budgets = []
    for token in text.replace(",", " ").split():
        if not token.isascii() or not token.isdigit():
            raise ValueError(f"simulation budget {token!r} is not a whole number")
        budgets.append(int(token))
    if not budgets:
        raise ValueError("give at least one simulation budget, like 100 or 50,100,200")
    return budgets


def _check_count(name: str, value: int, most: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise ValueError(f"{name} must be a whole number from 1 to {most:,}, got {value!r}")


