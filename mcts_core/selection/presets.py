"""Rule settings used by real contest bots, by names a user understands."""

from __future__ import annotations

import math

from .scoring import Scoring

RULE_PRESETS: dict[str, Scoring] = {
    # AlphaZero's c_init is 1.25; min-max Q because logged scores have no fixed scale.
    "AlphaZero PUCT (c = 1.25, min-max Q)": Scoring.of("puct", c=1.25, normalise="minmax"),
    # Smitsimax: the heuristic policy below a sample threshold, then UCB with a small C ramping up.
    # The write-up gives no numbers; these show the shape.
    "Smitsimax: policy below T = 20, C ramps to 1 by T2 = 200": Scoring.of(
        "sample_threshold", c=1.0, t=20, t2=200, c0=0.05, fallback="heuristic"
    ),
    # CodeCup 2022 (5th place): a random child below 1000 visits, then
    # mean + 34 H / sqrt(n) + sqrt(7 ln N) / sqrt(n), i.e. C = sqrt 7.
    "Contest bot: random below 1000 visits, then UCB + progressive bias (W = 34)": Scoring.of(
        "sample_threshold", c=math.sqrt(7), t=1000, t2=1000, c0=math.sqrt(7), fallback="random", w=34.0
    ),
    "Contest bot: UCB + progressive bias (W = 34, C = √7)": Scoring.of("progressive_bias", c=math.sqrt(7), w=34.0),
}
