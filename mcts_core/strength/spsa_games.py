"""SPSA with arena games: fishtest's SPSA (:mod:`.spsa`) tunes C, and optionally a rule's second constant,
by playing real games.

Iteration k plays the arena's game pair k - 1 (games 2k - 2 and 2k - 1, the seats swapped, seeded from
(seed, pair) as every arena game). Head to head (the default, as fishtest's SPSA plays) our MCTS at the
plus side's values plays it against our MCTS at the minus side's: the result is the plus side's wins less
losses (-2 to 2). Against the opponent (``head_to_head=False``) it is played twice, by each side against
the plan's opponent, on the same dice and opponent seeds: the result is the plus side's wins less losses
less the minus side's (-4 to 4), and SPSA answers the grid's own question, the best C against that
opponent (where strength is not transitive the two can differ). For the same games head to head ends
nearer the best C (bench/bench_spsa.py, 100 seeds: ln C error RMS 0.13-0.21 against 0.23-0.29 on the
peaked curves): one pair measures the two sides' difference where the other way takes two. C is tuned as
ln C, a second constant (``tune_setting``, such as KataGo's or lc0's ``cpuct_base``) as the log of its
value, within the rule's range for it.

Each iteration is stored as it ends (:meth:`.result_store.ResultStore.save_spsa_step`) under the run's
settings: a run started again resumes after the last stored iteration and ends where an uninterrupted
run would (its flips come from (seed, k), its games from (seed, pair), its values are read back bit for
bit). Iterations are sequential; an iteration's pairs (one head to head, two against the opponent) play at
once on the arena's pool (local processes or a Dask cluster, kept open for the whole run), one pair per task.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from .. import defaults
from ..search.budget import check_budget
from ..selection import RULE_REGISTRY
from .arena import ArenaPlan, plan
from .arena_games import GameResult, GameTask, game_tasks
from .pools import interrupts_deferred, open_pool
from .schedule import POLL_SECONDS
from .spsa import SpsaParameter, SpsaStep, c_k, spsa_steps

if TYPE_CHECKING:
    from .result_store import ResultStore

MAX_ITERATIONS = 100_000
C_COLUMNS = ("k", "c_k", "theta", "plus", "minus", "result", "after")  # C's columns (c_k in ln C, the rest C)


@dataclass(frozen=True)
class SpsaPlan:
    """Checked SPSA settings: the arena's, the budget, the iterations and the tuned parameters (in log scale)."""

    arena: ArenaPlan
    simulations: int
    iterations: int
    parameters: tuple[SpsaParameter, ...]  # ln C first, then ln of ``setting``
    setting: str | None
    head_to_head: bool = True  # the plus side plays the minus side (else each plays the opponent)

    @property
    def games_per_iteration(self) -> int:
        """Games an iteration plays (:func:`games_per_iteration`)."""
        return games_per_iteration(self.head_to_head)

    def run_key(self) -> str:
        """What the run's iterations depend on, as canonical JSON: the key they are stored under."""
        key = self.arena.key()
        run = {"game": key.game, "moves": list(key.moves), "rule": key.rule, "opponent": key.opponent,
               "seed": key.seed, "simulations": self.simulations, "iterations": self.iterations,
               "parameters": [asdict(p) for p in self.parameters]}
        if self.head_to_head:  # the opponent plays no game: the key says so
            run.update(opponent=None, head_to_head=True)
        return json.dumps(run, sort_keys=True)

    def side(self, values: tuple[float, ...]) -> tuple[float, dict[str, Any]]:
        """The C and the rule's settings of a side at these (log-scale) values."""
        settings = dict(self.arena.settings)
        if self.setting is not None:
            settings[self.setting] = math.exp(values[1])
        return math.exp(values[0]), settings

    def tasks(self, k: int, values: tuple[float, ...], against: tuple[float, ...] | None = None) -> list[GameTask]:
        """Iteration k's pair (the arena's pair k - 1) for the side at these values, against the plan's
        opponent or, given, against our MCTS at the values ``against``."""
        c, settings = self.side(values)
        arena_plan = self.arena
        opponent_c, opponent_settings = (arena_plan.opponent_c, None) if against is None else self.side(against)
        return game_tasks(arena_plan.game, arena_plan.moves, arena_plan.rule, settings, c, opponent_c,
                          self.simulations, arena_plan.seed, arena_plan.players, [2 * k - 2, 2 * k - 1],
                          opponent_settings)

    def chunks(self, k: int, plus: tuple[float, ...], minus: tuple[float, ...]) -> list[list[GameTask]]:
        """Iteration k's games: head to head, one pair, plus against minus; else the plus side's pair,
        then the minus side's."""
        if self.head_to_head:
            return [self.tasks(k, plus, against=minus)]
        return [self.tasks(k, values) for values in (plus, minus)]


def games_per_iteration(head_to_head: bool) -> int:
    """2 head to head (the one pair the two sides play each other), else 4 (a pair for each side)."""
    return 2 if head_to_head else 4


def spsa_plan(game: Any, *, start_c: float = defaults.SPSA_START_C,
              c_range: Sequence[float] = defaults.SPSA_C_RANGE, iterations: int = defaults.SPSA_ITERATIONS,
              simulations: int = defaults.ARENA_SIMULATIONS, tune_setting: str | None = None,
              c_end: float = defaults.SPSA_C_END, r_end: float = defaults.SPSA_R_END, head_to_head: bool = True,
              **settings: Any) -> SpsaPlan:
    """Checks an SPSA run's settings; ``settings`` are :func:`.arena.plan`'s (moves, rule, settings, opponent,
    seed, workers, cluster, cluster_wait). C stays between the smallest of ``c_range`` above 0 and the largest
    (a grid's C values give its ends).

    Raises:
        ValueError: bad settings, in one sentence naming the value.
    """
    arena_plan = plan(game, **settings)
    if arena_plan.players != 2:
        raise ValueError(f"SPSA plays game pairs between two players; {arena_plan.game} has {arena_plan.players}")
    check_budget(simulations, None)
    if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"iterations must be a whole number from 1 to {MAX_ITERATIONS:,}, got {iterations!r}")
    above_0 = [float(c) for c in c_range if c > 0]
    low, high = (min(above_0), max(above_0)) if above_0 else (math.nan, math.nan)
    if not (len(above_0) >= 2 and low < high < math.inf):
        given = ", ".join(f"{c:g}" for c in c_range)
        raise ValueError(f"SPSA keeps C between two finite C values above 0, the smallest and the largest given; got {given}")
    if not low <= start_c <= high:
        raise ValueError(f"the start C {start_c:g} is outside SPSA's range {low:g} to {high:g}")
    if not (0 < c_end < math.inf and 0 < r_end < math.inf):
        raise ValueError(f"c_end and r_end must be finite numbers above 0, got {c_end:g} and {r_end:g}")
    parameters = [SpsaParameter("ln C", math.log(start_c), math.log(low), math.log(high), c_end, r_end)]
    if tune_setting is not None:
        parameters.append(_setting_parameter(arena_plan, tune_setting, c_end, r_end))
    return SpsaPlan(arena_plan, simulations, iterations, tuple(parameters), tune_setting, head_to_head)


def tunable_settings(rule: str) -> dict[str, str]:
    """The rule's constants besides C that SPSA can tune beside it (numbers with a range above 0), by name: their
    labels (KataGo's and lc0's cpuct_base, Leela Zero's logconst)."""
    return {one.name: one.label for one in RULE_REGISTRY[rule].settings
            if one.kind == "float" and one.name != "c" and (one.low or 0) > 0 and one.high is not None}


def _setting_parameter(arena_plan: ArenaPlan, name: str, c_end: float, r_end: float) -> SpsaParameter:
    """The rule's setting ``name`` as a second parameter, in log scale within the rule's range for it.

    Raises:
        ValueError: the rule has no such number with a range above 0.
    """
    rule = RULE_REGISTRY[arena_plan.rule]
    setting = next((one for one in rule.settings if one.name == name), None)
    tunable = tunable_settings(arena_plan.rule)
    if setting is None or setting.name not in tunable:
        offered = f"its tunable constants: {', '.join(tunable)}" if tunable else "it has no second constant to tune"
        raise ValueError(f"{rule.name} has no constant {name!r} SPSA can tune ({offered})")
    start = float(arena_plan.settings.get(name, setting.default))
    if not setting.low <= start <= setting.high:
        raise ValueError(f"{name} {start:g} is outside the range SPSA tunes it in, {setting.low:g} to {setting.high:g}")
    return SpsaParameter(f"ln {name}", math.log(start), math.log(setting.low), math.log(setting.high), c_end, r_end)


def spsa_run(spsa_settings: SpsaPlan, *, store: ResultStore | None = None,
             progress: Callable[[int, int], None] | None = None, should_stop: Callable[[], bool] | None = None,
             on_step: Callable[[SpsaStep], None] | None = None) -> list[SpsaStep]:
    """Runs the plan's iterations (the stored ones read back, the rest played), storing each as it ends.

    Args:
        progress: called as ``progress(iterations done, iterations)``, first before any game.
        should_stop: polled while games run; True ends the run after the last finished iteration.
        on_step: called with each iteration played here, as it ends.

    Returns:
        Every iteration done, from the first: all of them unless stopped.

    Raises:
        ValueError: an unreachable scheduler, or a cluster left without workers (the finished iterations
            are stored first).
        KeyboardInterrupt: after cancelling the games in flight (the finished iterations are stored).
    """
    from .cluster import NoLiveWorkers

    run = spsa_settings.run_key()
    steps = store.load_spsa_steps(run)[: spsa_settings.iterations] if store is not None else []
    iterations = spsa_settings.iterations
    if progress is not None:
        progress(len(steps), iterations)
    stop = should_stop or (lambda: False)
    if len(steps) == iterations or stop():
        return steps
    arena_plan = spsa_settings.arena
    pool = open_pool(arena_plan.workers, arena_plan.cluster, arena_plan.cluster_wait)
    try:
        with interrupts_deferred() as interrupted:
            def play_pair(k: int, plus: tuple[float, ...], minus: tuple[float, ...]) -> int:
                pairs = _both_played(pool, spsa_settings.chunks(k, plus, minus), lambda: stop() or interrupted())
                return sum(game.outcome for game in pairs[0]) - sum(game.outcome for pair in pairs[1:] for game in pair)

            start = steps[-1].after if steps else None
            try:
                for step in spsa_steps(spsa_settings.parameters, iterations, play_pair, seed=arena_plan.seed,
                                       start=start, first=len(steps) + 1):
                    steps.append(step)
                    if store is not None:
                        store.save_spsa_step(run, step)
                    if on_step is not None:
                        on_step(step)
                    if progress is not None:
                        progress(len(steps), iterations)
            except _Stopped:  # during an iteration's games: the run ends after the last finished one (Ctrl-C:
                pass  # KeyboardInterrupt as the block ends)
    except NoLiveWorkers as lost:
        kept = ("the finished iterations are stored and a rerun resumes from them" if store is not None
                else "without a result store the finished iterations are lost")
        raise ValueError(f"{lost}: {kept}; start workers with `dask worker {arena_plan.cluster}` and run again") from None
    finally:
        pool.close()
    return steps


class _Stopped(Exception):
    """Stop (or Ctrl-C) came during an iteration's games."""


def _both_played(pool: Any, chunks: list[list[GameTask]], stopped: Callable[[], bool]) -> list[list[GameResult]]:
    """The chunks' results in order, played at once on the pool.

    Raises:
        _Stopped: ``stopped()`` became True first (the chunks not finished are cancelled).
    """
    handles = {pool.submit(chunk): i for i, chunk in enumerate(chunks)}
    results: list[list[GameResult]] = [[] for _ in chunks]
    try:
        while handles:
            if stopped():
                raise _Stopped
            for handle, finished in pool.wait(POLL_SECONDS):
                results[handles.pop(handle)] = finished
    finally:
        pool.cancel(list(handles))
    return results


def spsa_rows(spsa_settings: SpsaPlan, steps: list[SpsaStep]) -> list[dict[str, float]]:
    """One row per iteration, :func:`spsa_columns`: c_k the perturbation in ln C (in the log of a second
    constant), the values as C (as the constant's value), the result the plus side's."""
    rows = []
    for step in steps:
        row: dict[str, float] = {"k": step.k}
        for i, parameter in enumerate(spsa_settings.parameters):
            prefix = "" if i == 0 else f"{spsa_settings.setting}_"
            row[f"{prefix}c_k"] = c_k(parameter, step.k, spsa_settings.iterations)
            row["theta" if i == 0 else spsa_settings.setting] = math.exp(step.theta[i])
            row[f"{prefix}plus"], row[f"{prefix}minus"] = math.exp(step.plus[i]), math.exp(step.minus[i])
            if i == 0:
                row["result"] = step.result
            row[f"{prefix}after"] = math.exp(step.after[i])
        rows.append(row)
    return rows


def spsa_columns(spsa_settings: SpsaPlan) -> tuple[str, ...]:
    """The columns of :func:`spsa_rows`, in order: C's (:data:`C_COLUMNS`), then a second constant's."""
    names = list(C_COLUMNS)
    if spsa_settings.setting is not None:
        name = spsa_settings.setting
        names += [f"{name}_c_k", name, f"{name}_plus", f"{name}_minus", f"{name}_after"]
    return tuple(names)
