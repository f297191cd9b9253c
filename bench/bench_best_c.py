"""Coverage of the best C's 95 % intervals on synthetic score curves (mcts_core.strength: best_c,
best_set, local_peak).

Each trial draws every C's games from a known score curve, fits, and asks whether the true best C
lies inside each reported interval. Compared: the quadratic's Fieller interval (what best_c reports;
coverage over the trials whose quadratic peaks inside the grid, as issue 36 measured it, then over
every trial), the delta method's, the quadratic with the pairs' own dispersion alone, the model-free
range of best_set, the local fit of local_peak, and the answer best_c_answer reports (the local fit's
interval, or the model-free range when the quadratic's shape is wrong; every trial: an open end holds
whatever lies past it, which is what "cannot tell yet" says; "found": both ends closed and the shape
right). The curves: bench/harness/score_curves.py.

    python bench/bench_best_c.py [--trials 400] [--games 100] [--grid 0.1,0.5,1,1.4,2,4,10] [--curves skewed]
"""

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mcts_core.strength.best_c import FitError, _fieller, fit_best_c  # noqa: E402
from mcts_core.strength.best_c_answer import BestCAnswer  # noqa: E402
from mcts_core.strength.local_peak import local_peak  # noqa: E402
from bench.harness.score_curves import CURVES, score_points, true_best  # noqa: E402

GRID = (0.1, 0.5, 1.0, 1.4, 2.0, 4.0, 10.0)
Z = 1.959963984540054


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else math.nan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=400)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--grid", default=",".join(f"{c:g}" for c in GRID), help="C values, comma-separated")
    parser.add_argument("--curves", default=",".join(CURVES), help="which curves, comma-separated")
    arguments = parser.parse_args()
    grid = [float(c) for c in arguments.grid.split(",")]
    print(f"{arguments.trials} trials per curve, {arguments.games} games per C, C grid {', '.join(f'{c:g}' for c in grid)}")
    print()
    print("| curve | true best C | quadratic peaks inside | Fieller (issue 36) | Fieller, every trial | pairs' dispersion only "
          "| delta method | median quadratic best | quadratic misfit < 0.05 | quadratic peak outside the local interval "
          "| model-free range | median range | local fit | median local best | answer | found | answer when found "
          "| median answer |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for name in arguments.curves.split(","):
        first, last = true_best(CURVES[name][0])

        def holds(low, high):
            return low <= last and high >= first

        counts = dict(interior=0, fieller=0, pure=0, delta=0, misfit=0, outside=0, set=0, local=0, answer=0, found=0,
                      found_held=0)
        bests, local_bests, ranges, locals_ = [], [], [], []
        start = time.perf_counter()
        for trial in range(arguments.trials):
            points = score_points(random.Random(f"{name}/{trial}"), name, grid, arguments.games)
            try:
                peak = local_peak(points)
            except FitError:
                peak = None
            if peak is not None:
                found = peak.best_set
                counts["set"] += holds(found.low, found.high)
                ranges.append((found.high / found.low if found.low > 0 else math.inf, f"{found.low:.3g} to {found.high:.3g}"))
                counts["local"] += holds(peak.low, peak.high)
                local_bests.append(peak.best)
            try:
                fit = fit_best_c(points)
            except FitError as error:
                fit = error
            if peak is not None:
                answer = BestCAnswer(fit, peak, tuple(grid))
                low, high = answer.interval
                counts["answer"] += holds(low, high)
                counts["found"] += answer.found
                counts["found_held"] += answer.found and holds(low, high)
                locals_.append((high / low if low > 0 else math.inf, f"{low:.3g} to {high:.3g}"))
            if isinstance(fit, FitError):
                continue
            counts["misfit"] += fit.misfit < 0.05
            bests.append(fit.best)
            counts["outside"] += peak is not None and not peak.low <= fit.best <= peak.high
            if not fit.interior:
                continue
            counts["interior"] += 1
            counts["fieller"] += holds(fit.low, fit.high)
            curve = fit.curve
            _, b1, b2 = curve.coefficients
            binomial = sum(p.games * p.score * (1 - p.score) for p in points)
            within = sum(p.games * p.game_variance for p in points) / binomial
            pure = [[value * within / fit.dispersion for value in row] for row in curve.covariance]
            low, high = (curve.c_of(t) for t in _fieller(b1, b2, pure, -b1 / (2 * b2), Z))
            counts["pure"] += holds(low, high)
            peak_t = -b1 / (2 * b2)
            gradient = (0.0, -1 / (2 * b2), b1 / (2 * b2 * b2))
            variance = sum(gradient[i] * curve.covariance[i][j] * gradient[j] for i in range(3) for j in range(3))
            low, high = (curve.c_of(peak_t + sign * Z * math.sqrt(variance)) for sign in (-1, 1))
            counts["delta"] += holds(low, high)
        n, inside = arguments.trials, counts["interior"] or 1
        truth = f"{first:.3g}" if first == last else f"{first:.3g} to {last:.3g}"
        when_found = f"{counts['found_held'] / counts['found']:.1%}" if counts["found"] else "-"
        print(f"| {name} | {truth} | {counts['interior']} | {counts['fieller'] / inside:.1%} | {counts['fieller'] / n:.1%} "
              f"| {counts['pure'] / inside:.1%} | {counts['delta'] / inside:.1%} | {median(bests):.3g} "
              f"| {counts['misfit'] / n:.0%} | {counts['outside'] / n:.0%} | {counts['set'] / n:.1%} "
              f"| {median(ranges)[1] if ranges else '-'} | {counts['local'] / n:.1%} | {median(local_bests):.3g} "
              f"| {counts['answer'] / n:.1%} | {counts['found'] / n:.0%} | {when_found} "
              f"| {median(locals_)[1] if locals_ else '-'} |", flush=True)
        print(f"<!-- {name}: {time.perf_counter() - start:.1f} s -->", file=sys.stderr)


if __name__ == "__main__":
    main()
