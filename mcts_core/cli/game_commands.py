"""The ``search`` and ``arena`` commands of ``python -m mcts_core`` (arguments parsed by ``__main__``).

* ``search`` writes the JSON Lines MCTS log to stdout as the search runs (``--solve``: with the
  MCTS-Solver's proven outcomes; defaults from :mod:`mcts_core.defaults`). With ``--algorithm duct``
  or ``--algorithm smitsimax`` it searches a simultaneous-move game (``oshi_zumo``, ``goofspiel``,
  ``matrix_rps``...) with decoupled UCT or Smitsimax and writes the simultaneous log
  (:mod:`mcts_core.search.decoupled_search`); ``--rule`` may then also be ``regret_matching`` or
  ``exp3`` (C is their exploration γ), and ``--moves`` a JSON array whose joint moves are arrays,
  one move per player: ``--moves '[["Bid: 3", "Bid: 5"]]'``.
* ``arena`` prints CSV, a header line first naming each column, one row per budget and C in the
  order given (:func:`mcts_core.strength.columns` lists the columns for the game's number of
  players). Finished games are stored in the data folder
  (:func:`mcts_core.inputs.data_folder.data_folder`) unless ``--no-store``: a rerun with the same
  settings prints them at once and plays only the rest. ``--cluster`` (or the environment
  variable named in :mod:`mcts_core.defaults`) runs the games on a Dask cluster, which exits 2
  with one line once the cluster has had no live worker for ``--cluster-wait`` seconds (default
  60), the finished games stored; ``--sprt`` stops each C at its SPRT's verdict; ``--tune`` runs
  successive halving over the C values (and says on stderr the best C fitted over every C's
  games); ``--fit`` fits the score against log C per budget (:mod:`mcts_core.strength.best_c_answer`):
  its columns last, and the best C in words on stderr (as the ``fit`` command writes them).

``--moves`` takes action ids or names separated by spaces (a token of digits is an action id), or
a JSON array for names with spaces in them: ``--moves '["roll", "Roll 3"]'``. Progress goes to
stderr when stderr is a terminal or with ``--progress``. Bad arguments exit with status 2 and one
line ``error: ...`` on stderr; Ctrl-C exits with status 130 and one line on stderr.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from typing import Any

from .. import defaults
from ..common import StoreError
from .game_output import INTERRUPTED, progress_wanted, stopped



def run(arguments: argparse.Namespace) -> int:
    """Runs the ``search``, ``arena`` or ``spsa`` command; returns the exit status."""
    if arguments.command == "search" and getattr(arguments, "algorithm", "sequential") != "sequential":
        return _run_simultaneous(arguments)
    from ..search.games import SimultaneousGameError

    try:
        from ..selection import DEFAULT_RULE, Scoring
        from ..search.games import parse_moves

        moves = parse_moves(arguments.moves)
        rule = arguments.rule or DEFAULT_RULE
        if arguments.command == "search":
            return _search(arguments, moves, Scoring(rule, _search_c(rule, arguments.c)))
        if arguments.command == "spsa":
            from .spsa_command import run_spsa

            return run_spsa(arguments, moves, rule)
        return _arena(arguments, moves, rule)
    except SimultaneousGameError as error:
        option = ": search it with --algorithm duct or --algorithm smitsimax" if arguments.command == "search" else ""
        print(f"error: {error}{option}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # before the work started (the commands catch it while they work)
        stopped(arguments, "interrupted")
        return INTERRUPTED
    except (ValueError, StoreError) as error:  # StoreError: the arena's result store cannot be used (--no-store avoids it)
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader left (``| head``): stop quietly, as the Python docs advise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _search_c(rule: str, c: float | None) -> float:
    """The search's C: ``--c``, else the live search's default (a simultaneous-only rule's γ: the rule's)."""
    from ..selection import RULE_REGISTRY

    if c is not None:
        return c
    spec = RULE_REGISTRY[rule]
    return spec.defaults["c"] if spec.simultaneous_only else defaults.SEARCH_C


def _budget(arguments: argparse.Namespace) -> int | None:
    """``--simulations``, else the default budget when no ``--seconds`` is given either."""
    if arguments.simulations is None and arguments.seconds is None:
        return defaults.SEARCH_SIMULATIONS
    return arguments.simulations


def _search(arguments: argparse.Namespace, moves: list[Any], scoring: Any) -> int:
    from ..search.sequential_search import search

    def progress(done: int, total: int | None) -> None:
        of = f"/{total:,}" if total is not None else ""
        print(f"\rsearch: {done:,}{of} simulations", end="", file=sys.stderr, flush=True)

    try:
        result = search(
            arguments.game, moves=moves, scoring=scoring, simulations=_budget(arguments),
            seconds=arguments.seconds, seed=arguments.seed, out=sys.stdout, solve=arguments.solve,
            progress=progress if progress_wanted(arguments) else None,
        )
    except KeyboardInterrupt:
        sys.stdout.flush()
        stopped(arguments, "interrupted: the log holds the simulations written so far")
        return INTERRUPTED
    if progress_wanted(arguments):
        print(file=sys.stderr)
    if result.simulations == 0:
        print("search: no simulation finished in time (a random game from this position did not end), so the log "
              "holds none", file=sys.stderr)
    if result.sampled:
        print(f"search: the position is a chance node; the search drew {', '.join(result.sampled)} (seed "
              f"{arguments.seed}) and searched the position after it, the log's root", file=sys.stderr)
    return 0


def _arena(arguments: argparse.Namespace, moves: list[Any], rule: str) -> int:
    from .. import defaults
    from ..strength import ResultStore, SprtSettings, arena, check_grid, columns, parse_budgets, plan
    from ..strength.best_c import check_fit
    from ..strength.best_c_answer import ANSWER_COLUMNS, answer_cells, answers_by_budget, describe_answer
    from ..strength.tuner import games_each, tune

    progress_line = False  # a progress line is on stderr, without its line end yet

    def progress(done: int, total: int) -> None:
        nonlocal progress_line
        progress_line = True
        print(f"\rarena: {done:,}/{total:,} games", end="", file=sys.stderr, flush=True)

    budgets = parse_budgets(arguments.simulations)
    cluster = arguments.cluster if arguments.cluster is not None else os.environ.get(defaults.ARENA_CLUSTER_VARIABLE)
    sprt = SprtSettings(elo0=arguments.sprt_elo0, elo1=arguments.sprt_elo1, alpha=arguments.sprt_alpha,
                        beta=arguments.sprt_beta, model=arguments.sprt_model) if arguments.sprt else None
    if arguments.tune and (sprt is not None or len(budgets) > 1):
        raise ValueError("--tune finds the best C at one budget: give one --simulations and no --sprt")
    shared = dict(moves=moves, rule=rule, opponent=arguments.opponent, seed=arguments.seed,
                  workers=arguments.workers, cluster=cluster, cluster_wait=arguments.cluster_wait)
    checked = plan(arguments.game, **shared)
    check_grid(checked, [float(c) for c in arguments.c_values], arguments.games, budgets[:1] if arguments.tune else budgets)
    players = checked.players  # all checked before the store is opened: bad input leaves no file behind
    if arguments.fit:
        check_fit(checked.game, players, arguments.c_values)
    store = None if arguments.no_store else ResultStore()
    shown = progress if progress_wanted(arguments) else None
    extra: dict[float, tuple[int, int]] = {}
    try:
        if arguments.tune:
            def round_done(number: int, rounds: int, ranked: list) -> None:
                kept = ", ".join(f"{row.c:g}" for row in ranked[: -(-len(ranked) // 2)])
                print(f"\ntune: round {number}/{rounds} done, {games_each(ranked)} games per C; "
                      f"best so far C = {ranked[0].c:g}; going on: {kept}", file=sys.stderr, flush=True)

            result = tune(arguments.game, c_values=arguments.c_values, games=arguments.games, simulations=budgets[0],
                          store=store, progress=shown, on_round=round_done, **shared)
            rows = result.rows
            extra = {row.c: (result.rounds[row.c], int(result.best is not None and row.c == result.best.c))
                     for row in rows}
            if result.best is not None:
                print(f"tune: best C = {result.best.c:g} after {result.games:,} games", file=sys.stderr)
        else:
            rows = arena(arguments.game, c_values=arguments.c_values, games=arguments.games, simulations=budgets,
                         sprt=sprt, store=store, progress=shown, **shared)
    except KeyboardInterrupt:
        kept = f"; finished games are stored in {store.path} and a rerun resumes" if store else ""
        stopped(arguments, f"interrupted{kept}")
        return INTERRUPTED
    except ValueError:  # a cluster left without workers: its sentence goes on a line of its own
        if progress_line:
            print(file=sys.stderr)
        raise
    if progress_wanted(arguments):
        print(file=sys.stderr)
    answers = answers_by_budget(rows) if players == 2 and (arguments.fit or arguments.tune) else {}
    for simulations, answer in answers.items():  # the tuner always says what the fit over its rows finds
        where = "tune: fitted over every C's games" if arguments.tune else f"fit: {simulations:,} simulations"
        print(f"{where}: {describe_answer(answer)}", file=sys.stderr)
    names = columns(players, sprt is not None)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([*names, *(("round", "best") if arguments.tune else ()), *(ANSWER_COLUMNS if arguments.fit else ())])
    for row in rows:
        writer.writerow([getattr(row, column) for column in names] + list(extra.get(row.c, ()))
                        + (answer_cells(answers.get(row.simulations), row.c) if arguments.fit else []))
    return 0


def parse_joint_moves(text: str) -> list[Any]:
    """``--moves`` for a simultaneous game: a JSON array whose joint moves are arrays (one move per
    player, ids or names) and chance outcomes ids or names; or space-separated chance outcomes.

    Raises:
        ValueError: text that is none of these.
    """
    import json

    text = text.strip()
    if not text.startswith("["):
        return [int(token) if token.isascii() and token.isdigit() else token for token in text.split()]
    try:
        moves = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"--moves: not a valid JSON array: {error.msg} (column {error.colno})") from None

    def plain(value: Any) -> bool:
        return isinstance(value, (int, str)) and not isinstance(value, bool)

    if not isinstance(moves, list) or not all(
        plain(move) or (isinstance(move, list) and all(plain(own) for own in move)) for move in moves
    ):
        raise ValueError("--moves: a JSON array of joint moves (arrays, one move per player) and chance outcomes")
    return moves


def _run_simultaneous(arguments: argparse.Namespace) -> int:
    """``search --algorithm duct|smitsimax``: the simultaneous log on stdout."""
    from ..selection import DEFAULT_RULE
    from ..simultaneous.rules import JointScoring
    from ..search.decoupled_search import search_simultaneous

    def progress(done: int, total: int | None) -> None:
        of = f"/{total:,}" if total is not None else ""
        print(f"\rsearch: {done:,}{of} simulations", end="", file=sys.stderr, flush=True)

    try:
        if arguments.solve:
            raise ValueError("--solve proves outcomes in the sequential search only (leave out --algorithm "
                             f"{arguments.algorithm})")
        moves = parse_joint_moves(arguments.moves)
        rule = arguments.rule or DEFAULT_RULE
        scoring = JointScoring(rule, _search_c(rule, arguments.c))
        search_simultaneous(
            arguments.game, algorithm=arguments.algorithm, moves=moves, scoring=scoring,
            simulations=_budget(arguments), seconds=arguments.seconds, seed=arguments.seed, out=sys.stdout,
            progress=progress if progress_wanted(arguments) else None,
        )
    except KeyboardInterrupt:
        sys.stdout.flush()
        stopped(arguments, "interrupted: the log holds the simulations written so far")
        return INTERRUPTED
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if progress_wanted(arguments):
        print(file=sys.stderr)
    return 0
