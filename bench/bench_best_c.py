"""Coverage of the fitted best C's 95 % interval on synthetic score curves (mcts_core.strength.best_c).

Each trial draws every C's games from a known score curve, fits, and asks whether the true best C
lies inside the reported interval. Compared: Fieller's interval (what best_c reports) against the
delta method's, and the dispersion best_c uses (the pairs' own, widened to the fit's Pearson
chi-square when larger) against the pairs' own alone. Curves:

- ``quadratic``: the model itself, logistic(0.4 - 0.6 (ln C - ln 1.6)^2), games won or lost;
- ``draws``: the same score with draws: a game is drawn w.p. d = 0.8 min(p, 1 - p), won w.p. p - d/2;
- ``paired``: games in pairs sharing a seed: both games of a pair have the same result w.p. 0.5;
- ``skewed``: not a quadratic in log C: logistic(0.4 - 0.5 |x|^1.5 - 0.3 x), x = ln C - ln 1.6,
  peaking at C = 1.36 (the model's shape is wrong: how far off is the fit, and does its lack-of-fit
  test say so?);
- ``flat``: logistic(0.2 - 0.1 (ln C - ln 1.6)^2), a curvature few games can see.

    python bench/bench_best_c.py [--trials 400] [--games 100] [--grid 0.1,0.5,1,1.4,2,4,10] [--curves skewed]
"""

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mcts_core.strength.best_c import FitError, ScorePoint, _fieller, fit_best_c  # noqa: E402

GRID = (0.1, 0.5, 1.0, 1.4, 2.0, 4.0, 10.0)
Z = 1.959963984540054


def logistic(x):
    return 1 / (1 + math.exp(-x))


CURVES = {
    "quadratic": (lambda c: logistic(0.4 - 0.6 * (math.log(c / 1.6)) ** 2), 1.6, 0.0, 0.0),
    "draws": (lambda c: logistic(0.4 - 0.6 * (math.log(c / 1.6)) ** 2), 1.6, 0.4, 0.0),
    "paired": (lambda c: logistic(0.4 - 0.6 * (math.log(c / 1.6)) ** 2), 1.6, 0.0, 0.5),
    "skewed": (lambda c: logistic(0.4 - 0.5 * abs(math.log(c / 1.6)) ** 1.5 - 0.3 * math.log(c / 1.6)), None, 0.0, 0.0),
    "flat": (lambda c: logistic(0.2 - 0.1 * (math.log(c / 1.6)) ** 2), 1.6, 0.0, 0.0),
}


def true_best(score):
    candidates = [math.exp(math.log(0.1) + (math.log(10) - math.log(0.1)) * i / 20000) for i in range(20001)]
    return max(candidates, key=score)


def play(rng, p, draw, same, games):
    """A C's (score, per-game variance from its pairs): pairs whose second game copies the first w.p. ``same``."""
    pair_scores = []
    for _ in range(games // 2):
        results = []
        for _ in range(2):
            if results and rng.random() < same:
                results.append(results[0])
                continue
            u, d = rng.random(), draw * 2 * min(p, 1 - p)
            results.append(1.0 if u < p - d / 2 else 0.5 if u < p + d / 2 else 0.0)
        pair_scores.append(sum(results) / 2)
    mean = sum(pair_scores) / len(pair_scores)
    return mean, 2 * sum((x - mean) ** 2 for x in pair_scores) / len(pair_scores)


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
    print("| curve | true best C | fits | peak inside the grid | Fieller (reported) | Fieller, pairs' dispersion only "
          "| delta method | median interval ends (reported) | median fitted best | misfit < 0.05 |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    for name in arguments.curves.split(","):
        score, best, draw, same = CURVES[name]
        best = best or true_best(score)
        counts = dict(fits=0, interior=0, fieller=0, pure=0, delta=0, misfit=0)
        lows, highs, bests = [], [], []
        start = time.perf_counter()
        for trial in range(arguments.trials):
            rng = random.Random(f"{name}/{trial}")
            points = []
            for c in grid:
                mean, variance = play(rng, score(c), draw, same, arguments.games)
                points.append(ScorePoint(c, mean, arguments.games, variance))
            try:
                fit = fit_best_c(points)
            except FitError:
                continue
            counts["fits"] += 1
            counts["misfit"] += fit.misfit < 0.05
            bests.append(fit.best)
            if not fit.interior:
                continue
            counts["interior"] += 1
            counts["fieller"] += fit.low <= best <= fit.high
            lows.append(fit.low)
            highs.append(fit.high)
            curve = fit.curve
            _, b1, b2 = curve.coefficients
            binomial = sum(p.games * p.score * (1 - p.score) for p in points)
            within = sum(p.games * p.game_variance for p in points) / binomial
            pure = [[value * within / fit.dispersion for value in row] for row in curve.covariance]
            low, high = (curve.c_of(t) for t in _fieller(b1, b2, pure, -b1 / (2 * b2), Z))
            counts["pure"] += low <= best <= high
            peak = -b1 / (2 * b2)
            gradient = (0.0, -1 / (2 * b2), b1 / (2 * b2 * b2))
            variance = sum(gradient[i] * curve.covariance[i][j] * gradient[j] for i in range(3) for j in range(3))
            low, high = (curve.c_of(peak + sign * Z * math.sqrt(variance)) for sign in (-1, 1))
            counts["delta"] += low <= best <= high
        lows.sort(), highs.sort(), bests.sort()
        n = counts["interior"] or 1
        print(f"| {name} | {best:.3g} | {counts['fits']} | {counts['interior']} | {counts['fieller'] / n:.1%} | "
              f"{counts['pure'] / n:.1%} | {counts['delta'] / n:.1%} | {lows[len(lows) // 2]:.3g} to "
              f"{highs[len(highs) // 2]:.3g} | {bests[len(bests) // 2]:.3g} | {counts['misfit'] / counts['fits']:.0%} |")
        print(f"<!-- {name}: {time.perf_counter() - start:.1f} s -->", file=sys.stderr)


if __name__ == "__main__":
    main()
