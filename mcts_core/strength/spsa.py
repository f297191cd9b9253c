"""SPSA as fishtest tunes engine parameters: simultaneous perturbation, one game pair per iteration.

Every parameter is perturbed at once by +-c_k (each sign a fair coin), the side at theta + c_k flip
plays a game pair (seats swapped) against the side at theta - c_k flip, and every parameter moves by
R_k c_k result flip, result the plus side's wins less losses over the pair (-2 to 2). (Against a common
opponent instead, :mod:`.spsa_games`, result is the plus side's wins less losses less the minus side's
over the same seeds, -4 to 4.) The schedules
are fishtest's classic SPSA's (after Spall): c_k = c / k^gamma and
a_k = a / (A + k)^alpha for k = 1 .. N, R_k = a_k / c_k^2, alpha 0.602, gamma 0.101, A = N / 10,
where each parameter's c and a come from its ``c_end`` (the perturbation at the last iteration) and
``r_end`` (R at the last iteration): c = c_end N^gamma, a = r_end c_end^2 (A + N)^alpha. A parameter
is clipped to its range after each step.

C is tuned as ln C (its useful values span decades: a perturbation is the same relative change at
any C); a rule's second constant in its own scale. Pure: the games come from the caller's
``play_pair``. Spall (1998), https://doi.org/10.1109/9.661907.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

ALPHA = 0.602
GAMMA = 0.101
A_SHARE = 0.1  # A, the step's stability constant, as a share of the iterations


@dataclass(frozen=True)
class SpsaParameter:
    """One tuned value: its start, range and schedule ends (all in the scale it is tuned in)."""

    name: str
    start: float
    low: float
    high: float
    c_end: float
    r_end: float

    def __post_init__(self) -> None:
        if not self.low <= self.start <= self.high:
            raise ValueError(f"{self.name}: the start {self.start:g} is outside its range {self.low:g} to {self.high:g}")
        if not (self.c_end > 0 and self.r_end > 0):
            raise ValueError(f"{self.name}: c_end and r_end are above 0, got {self.c_end:g} and {self.r_end:g}")


@dataclass(frozen=True)
class SpsaStep:
    """Iteration k: the values before it, the two sides' values, the pair's result (plus side's W - L)
    and the values after it."""

    k: int
    theta: tuple[float, ...]
    plus: tuple[float, ...]
    minus: tuple[float, ...]
    result: int
    after: tuple[float, ...]


def c_k(parameter: SpsaParameter, k: int, iterations: int) -> float:
    """The perturbation at iteration k (1-based): c_end at the last."""
    return parameter.c_end * iterations ** GAMMA / k ** GAMMA


def a_k(parameter: SpsaParameter, k: int, iterations: int) -> float:
    """The step size at iteration k (1-based): r_end c_end^2 at the last."""
    stability = A_SHARE * iterations
    return parameter.r_end * parameter.c_end ** 2 * (stability + iterations) ** ALPHA / (stability + k) ** ALPHA


def spsa(parameters: Sequence[SpsaParameter], iterations: int, play_pair: Callable[[int, tuple, tuple], int],
         *, seed: int = 0, start: Sequence[float] | None = None, first: int = 1) -> list[SpsaStep]:
    """Runs iterations ``first`` .. ``iterations`` from ``start`` (the parameters' own starts by default).

    Args:
        play_pair: (k, plus values, minus values) -> how much better the plus side did over iteration k's
            games: its wins less losses over a pair against the minus side, or against a common opponent
            its wins less losses less the minus side's.
        seed: the flips' seed; iteration k's flips come from (seed, k) alone, so a run resumed at
            ``first`` with the values it had reached flips as the whole run would have.

    Raises:
        ValueError: no parameters, or fewer than 1 iteration.
    """
    return list(spsa_steps(parameters, iterations, play_pair, seed=seed, start=start, first=first))


def spsa_steps(parameters: Sequence[SpsaParameter], iterations: int, play_pair: Callable[[int, tuple, tuple], int],
               *, seed: int = 0, start: Sequence[float] | None = None, first: int = 1) -> Iterator[SpsaStep]:
    """:func:`spsa`'s steps one at a time, each as soon as its games are in (the caller may stop between them).

    Raises:
        ValueError: no parameters, or fewer than 1 iteration (on the first step asked for).
    """
    if not parameters or iterations < 1:
        raise ValueError("SPSA needs at least one parameter and one iteration")
    theta = tuple(start) if start is not None else tuple(p.start for p in parameters)
    for k in range(first, iterations + 1):
        flips = [random.Random(f"{seed}/{k}/{i}").choice((-1, 1)) for i in range(len(parameters))]
        shifts = [c_k(p, k, iterations) * flip for p, flip in zip(parameters, flips)]
        plus = tuple(value + shift for value, shift in zip(theta, shifts))
        minus = tuple(value - shift for value, shift in zip(theta, shifts))
        result = play_pair(k, plus, minus)
        after = tuple(min(max(value + a_k(p, k, iterations) / c_k(p, k, iterations) * result * flip, p.low), p.high)
                      for p, value, flip in zip(parameters, theta, flips))
        yield SpsaStep(k, theta, plus, minus, result, after)
        theta = after
