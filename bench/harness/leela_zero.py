"""Running the real Leela Zero (Debian's ``leelaz`` 0.17) on a tiny random network it can load.

Leela Zero ships no network. :func:`tiny_network` writes one in its v1 text format
(``Network::load_v1_network`` in src/Network.cpp): the version line ``1``; the input convolution
(18 input planes) as 4 lines (weights, biases, batch-norm means, variances); 8 such lines per
residual block (two convolutions); the policy head (a 1x1 convolution to 2 planes: 4 lines, then
the fully connected layer's 2x361x362 weights and 362 biases) and the value head (a 1x1
convolution to 1 plane: 4 lines, then 361x256 weights, 256 biases, 256 weights, 1 bias). The
policy's weights are 0 and its biases put most of the prior on a few points (so a search of a few
hundred visits branches among them and rarely meets an unvisited child the dump does not list);
the value head is random, so positions differ a little in value.
"""

from __future__ import annotations

import numpy as np

FILTERS = 8
BLOCKS = 1
INPUT_PLANES = 18
POINTS = 361
POLICY_OUTPUTS = POINTS + 1  # every point and pass
VALUE_LAYER = 256
# Policy logits of a few points (by Leela Zero's index; every other move's is 0): priors of about
# 34 %, 23 %, 17 %, 13 %, 8 % and 5 % on an empty board.
PEAKS = {288: 9.0, 72: 8.6, 60: 8.3, 300: 8.0, 180: 7.5, 306: 7.0}


def tiny_network(seed: int = 1) -> str:
    """A Leela Zero v1 network with :data:`BLOCKS` residual block of :data:`FILTERS` filters (module docstring)."""
    rng = np.random.default_rng(seed)
    lines = ["1"]

    def numbers(values) -> None:
        lines.append(" ".join(f"{value:.5g}" for value in values))

    def convolution(inputs: int, outputs: int, size: int, spread: float) -> None:
        numbers(rng.normal(0.0, spread, outputs * inputs * size * size))
        numbers(np.zeros(outputs))  # biases
        numbers(np.zeros(outputs))  # batch-norm means
        numbers(np.ones(outputs))  # batch-norm variances

    convolution(INPUT_PLANES, FILTERS, 3, 0.5)
    for _ in range(2 * BLOCKS):
        convolution(FILTERS, FILTERS, 3, 0.3)
    convolution(FILTERS, 2, 1, 0.5)
    numbers(np.zeros(2 * POINTS * POLICY_OUTPUTS))
    logits = np.zeros(POLICY_OUTPUTS)
    for index, logit in PEAKS.items():
        logits[index] = logit
    numbers(logits)
    convolution(FILTERS, 1, 1, 0.5)
    numbers(rng.normal(0.0, 1 / 19, POINTS * VALUE_LAYER))
    numbers(np.zeros(VALUE_LAYER))
    numbers(rng.normal(0.0, 0.01, VALUE_LAYER))
    numbers([0.0])
    return "\n".join(lines) + "\n"


def leelaz_command(leelaz: str, weights: str, *, seed: int = 7, visits: int = 1) -> list[str]:
    """One search thread on the CPU, seeded, ``visits`` visits a move, no pondering, no pruning, no resigning."""
    return [leelaz, "--gtp", "--cpu-only", "-t", "1", "-s", str(seed), "-v", str(visits), "--noponder",
            "--timemanage", "no_pruning", "-r", "0", "-w", weights]
