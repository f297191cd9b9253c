"""The ``spsa`` command: C tuned by fishtest's SPSA with arena games (:mod:`mcts_core.strength.spsa_games`).

Prints CSV, a header naming the columns (:func:`~mcts_core.strength.spsa_columns`) and then one row per
iteration as it ends (the stored ones first, at once), floats in ``repr``; the end point goes to stderr
as ``spsa: C = ... after N iterations``. Iterations are stored in ``--store`` (default: the data
folder's ``arena.sqlite3``) unless ``--no-store``, so a rerun with the same settings resumes. Bad
arguments exit 2 with one line; Ctrl-C exits 130 with one line (the finished iterations stored).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from typing import Any

from .. import defaults
from .game_output import INTERRUPTED, progress_wanted, stopped


def run_spsa(arguments: argparse.Namespace, moves: list[Any], rule: str) -> int:
    """Runs ``spsa``; returns the exit status (ValueError: bad settings, for the caller's one line)."""
    from ..strength import ResultStore, spsa_columns, spsa_plan, spsa_rows, spsa_run

    if len(arguments.c_range) != 2:
        raise ValueError(f"--c-range takes two C values, LOW,HIGH, got {len(arguments.c_range)}")
    cluster = arguments.cluster if arguments.cluster is not None else os.environ.get(defaults.ARENA_CLUSTER_VARIABLE)
    checked = spsa_plan(arguments.game, start_c=arguments.start_c, c_range=tuple(arguments.c_range),
                        iterations=arguments.iterations, simulations=arguments.simulations,
                        tune_setting=arguments.tune_setting, c_end=arguments.c_end, r_end=arguments.r_end,
                        head_to_head=not arguments.against_opponent,
                        moves=moves, rule=rule, opponent=arguments.opponent, seed=arguments.seed,
                        workers=arguments.workers, cluster=cluster, cluster_wait=arguments.cluster_wait)
    store = None if arguments.no_store else ResultStore(arguments.store)  # opened once every setting is checked
    names = spsa_columns(checked)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(names)
    sys.stdout.flush()

    def write(steps: list) -> None:
        for row in spsa_rows(checked, steps):
            writer.writerow([row[name] for name in names])
        sys.stdout.flush()

    def progress(done: int, total: int) -> None:
        print(f"\rspsa: {done:,}/{total:,} iterations", end="", file=sys.stderr, flush=True)

    stored = store.load_spsa_steps(checked.run_key())[: checked.iterations] if store is not None else []
    write(stored)
    try:
        steps = spsa_run(checked, store=store, progress=progress if progress_wanted(arguments) else None,
                         on_step=lambda step: write([step]))
    except KeyboardInterrupt:
        kept = f"; finished iterations are stored in {store.path} and a rerun resumes" if store else ""
        stopped(arguments, f"interrupted{kept}")
        return INTERRUPTED
    if progress_wanted(arguments):
        print(file=sys.stderr)
    end = spsa_rows(checked, steps[-1:])[0]
    constant = f", {checked.setting} = {end[checked.setting + '_after']!r}" if checked.setting else ""
    print(f"spsa: C = {end['after']!r}{constant} after {len(steps):,} iterations", file=sys.stderr)
    return 0
