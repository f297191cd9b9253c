"""Synthetic score curves against C and games drawn from them, for the best C's coverage (bench_best_c and
tests/test_best_c_answer.py): each curve is a true score at every C, a draw share and the chance a pair's
second game copies the first. Curves, x = ln C - ln 1.6:

- ``quadratic``: the fit's own model, logistic(0.4 - 0.6 x^2), games won or lost;
- ``draws``: the same score with draws: a game is drawn w.p. d = 0.8 min(p, 1 - p), won w.p. p - d/2;
- ``paired``: games in pairs sharing a seed: both games of a pair have the same result w.p. 0.5;
- ``skewed``: logistic(0.4 - 0.5 |x|^1.5 - 0.3 x), peak 1.36, falling off faster below it;
- ``skewed_up``: logistic(0.4 - 0.5 |x|^1.5 + 0.3 x), peak 1.88, falling off faster above it;
- ``flat``: logistic(0.2 - 0.1 x^2), a curvature few games can see;
- ``plateau``: logistic(0.4 - 0.6 max(|x| - 0.5, 0)^2), every C from 0.97 to 2.64 best;
- ``edge``: logistic(0.4 - 0.6 (ln C - ln 6.3)^2), a peak between the default grid's last two C values.
"""

import math

from mcts_core.strength.best_c import ScorePoint


def logistic(x):
    return 1 / (1 + math.exp(-x))


def x(c, at=1.6):
    return math.log(c / at)


def quadratic(c):
    return logistic(0.4 - 0.6 * x(c) ** 2)


# name: (score at C, draw share, chance a pair's second game copies the first)
CURVES = {
    "quadratic": (quadratic, 0.0, 0.0),
    "draws": (quadratic, 0.4, 0.0),
    "paired": (quadratic, 0.0, 0.5),
    "skewed": (lambda c: logistic(0.4 - 0.5 * abs(x(c)) ** 1.5 - 0.3 * x(c)), 0.0, 0.0),
    "skewed_up": (lambda c: logistic(0.4 - 0.5 * abs(x(c)) ** 1.5 + 0.3 * x(c)), 0.0, 0.0),
    "flat": (lambda c: logistic(0.2 - 0.1 * x(c) ** 2), 0.0, 0.0),
    "plateau": (lambda c: logistic(0.4 - 0.6 * max(abs(x(c)) - 0.5, 0.0) ** 2), 0.0, 0.0),
    "edge": (lambda c: logistic(0.4 - 0.6 * x(c, 6.3) ** 2), 0.0, 0.0),
}


def true_best(score):
    """The range of C where the curve is highest (one C but on a plateau), searched over 0.01 to 100."""
    candidates = [math.exp(math.log(0.01) + (math.log(100) - math.log(0.01)) * i / 40000) for i in range(40001)]
    top = max(map(score, candidates))
    best = [c for c in candidates if score(c) >= top - 1e-12]
    return best[0], best[-1]


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


def score_points(rng, name, grid, games):
    """One trial: each C's games drawn from the curve ``name``, as the fit's points."""
    score, draw, same = CURVES[name]
    points = []
    for c in grid:
        mean, variance = play(rng, score(c), draw, same, games)
        points.append(ScorePoint(c, mean, games, variance))
    return points


def pair_result(rng, name, plus, minus):
    """Two games of MCTS at C = e^plus against MCTS at C = e^minus (no draws): the plus side's wins less
    losses. Its chance to win one is the logistic of the two C values' Elo difference against the curve's
    opponent (each C's score as Elo)."""
    score = CURVES[name][0]

    def logit(p):
        return math.log(p / (1 - p))

    p = 1 / (1 + math.exp(logit(score(math.exp(minus))) - logit(score(math.exp(plus)))))
    return sum(1 if rng.random() < p else -1 for _ in range(2))


def opponent_pairs_result(rng, name, plus, minus):
    """Two games of MCTS at C = e^plus and two at C = e^minus, all against the curve's opponent (no
    draws): the plus side's wins less losses less the minus side's (the app's SPSA, against an opponent)."""
    score = CURVES[name][0]

    def wins_less_losses(c):
        return sum(1 if rng.random() < score(c) else -1 for _ in range(2))

    return wins_less_losses(math.exp(plus)) - wins_less_losses(math.exp(minus))
