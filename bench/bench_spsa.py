"""SPSA's end point against the grid's fitted best C on the synthetic score curves, for the same games.

The grid plays ``--games`` games at each of the grid's C values against a fixed opponent (issue 52's
bench, bench/harness/score_curves.py); SPSA (mcts_core.strength.spsa, in ln C) spends the same games
two ways: head to head (fishtest's, ``--head-to-head``), pairs of MCTS at C+ against MCTS at C-, each
pair's expected score the logistic of the two C values' Elo difference against that opponent (the
curves' scores turned into Elo); and against the opponent (the app's default), a pair at C+ and a
pair at C- against it, half as many iterations. Reported over the seeds:
the median of ln(estimate / true best C) (bias) and its root mean square (spread, in ln C: 0.1 is a
10% error in C), for SPSA's last value, the local fit's best C, the best measured C, and the share of
estimates within 20% of the true best C. Curves with a plateau count an estimate on it as exact.

    python bench/bench_spsa.py [--seeds 100] [--games 100] [--r-end 0.05] [--c-end 0.2] [--curves skewed]
"""

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness.score_curves import CURVES, opponent_pairs_result, pair_result, score_points, true_best  # noqa: E402
from mcts_core.strength.best_c import FitError  # noqa: E402
from mcts_core.strength.local_peak import local_peak  # noqa: E402
from mcts_core.strength.spsa import SpsaParameter, spsa  # noqa: E402

GRID = (0.1, 0.5, 1.0, 1.4, 2.0, 4.0, 10.0)


def error(estimate, first, last):
    """ln(estimate / the nearest true best C): 0 on a plateau."""
    return 0.0 if first <= estimate <= last else math.log(estimate / (first if estimate < first else last))


def summary(errors):
    errors = sorted(errors)
    rms = math.sqrt(sum(e * e for e in errors) / len(errors))
    near = sum(abs(e) <= math.log(1.2) for e in errors) / len(errors)
    return f"{errors[len(errors) // 2]:+.2f} | {rms:.2f} | {near:.0%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--games", type=int, default=100, help="games per grid C; SPSA plays as many in all")
    parser.add_argument("--r-end", type=float, default=0.05)
    parser.add_argument("--c-end", type=float, default=0.2, help="the last perturbation, in ln C")
    parser.add_argument("--curves", default=",".join(CURVES))
    arguments = parser.parse_args()
    iterations = len(GRID) * arguments.games // 2
    parameter = SpsaParameter("ln C", 0.0, math.log(GRID[0]), math.log(GRID[-1]), arguments.c_end, arguments.r_end)
    print(f"{arguments.seeds} seeds; grid {', '.join(f'{c:g}' for c in GRID)} at {arguments.games} games per C; "
          f"SPSA head to head {iterations} pairs, against the opponent {iterations // 2} iterations of two pairs, "
          f"from C = 1, c_end {arguments.c_end:g}, r_end {arguments.r_end:g} (ln C)")
    print()
    print("| curve | true best C | SPSA head to head: median ln error | RMS | within 20% | SPSA against the opponent: "
          "median | RMS | within 20% | local fit: median | RMS | within 20% | best measured: median | RMS | within 20% |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in arguments.curves.split(","):
        first, last = true_best(CURVES[name][0])
        tuned, against, fitted, measured = [], [], [], []
        for seed in range(arguments.seeds):
            rng = random.Random(f"spsa/{name}/{seed}")
            steps = spsa([parameter], iterations, lambda k, plus, minus: pair_result(rng, name, plus[0], minus[0]),
                         seed=seed)
            tuned.append(error(math.exp(steps[-1].after[0]), first, last))
            rng = random.Random(f"spsa-opponent/{name}/{seed}")
            steps = spsa([parameter], iterations // 2,
                         lambda k, plus, minus: opponent_pairs_result(rng, name, plus[0], minus[0]), seed=seed)
            against.append(error(math.exp(steps[-1].after[0]), first, last))
            points = score_points(random.Random(f"{name}/{seed}"), name, GRID, arguments.games)
            try:
                fitted.append(error(local_peak(points).best, first, last))
            except FitError:
                pass
            measured.append(error(max(points, key=lambda point: point.score).c, first, last))
        truth = f"{first:.3g}" if first == last else f"{first:.3g} to {last:.3g}"
        print(f"| {name} | {truth} | {summary(tuned)} | {summary(against)} | {summary(fitted)} | {summary(measured)} |",
              flush=True)


if __name__ == "__main__":
    main()
