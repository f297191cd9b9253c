"""Cost of the SPRT's exact LLR (mcts_core.strength.llr) per update, and of a whole test fed pair by pair.

The arena computes the LLR of all pairs so far after every pair (the stop rule), again when it
makes the row (to replay fishtest's overshoot estimate) and again for the page's LLR chart. This
measures one LLR on pentanomials of several sizes in both Elo models, and SprtTest fed a seeded
sequence of pairs. With ``--fishtest PATH`` (a fishtest checkout's ``server`` folder; needs scipy)
the same LLRs by fishtest's own code are timed beside ours.

    python bench/bench_llr.py [--fishtest /tmp/fishtest/server] [--repeats 5]
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mcts_core.strength.elo import SprtSettings  # noqa: E402
from mcts_core.strength.llr import llr_logistic, llr_normalized  # noqa: E402
from mcts_core.strength.sprt import SprtTest  # noqa: E402

CASES = {  # name: pentanomial
    "6 pairs, 2 empty bins [0,0,1,1,4]": [0, 0, 1, 1, 4],
    "27 pairs [9,1,14,0,3]": [9, 1, 14, 0, 3],
    "500 pairs [40,110,200,110,40]": [40, 110, 200, 110, 40],
    "93,868 pairs (fishtest's example)": [10789, 19328, 33806, 19402, 10543],
}


def per_call(function, *arguments, repeats):
    """Median seconds per call over ``repeats`` timed batches of calls lasting about 0.2 s each."""
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < 0.05:
        function(*arguments)
        calls += 1
    batch = max(1, calls * 4)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(batch):
            function(*arguments)
        times.append((time.perf_counter() - start) / batch)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fishtest", help="a fishtest checkout's server folder: time fishtest's LLR too")
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    theirs = {}
    if arguments.fishtest:
        sys.path.insert(0, arguments.fishtest)
        from fishtest.stats import LLRcalc

        theirs = {"logistic": LLRcalc.LLR_logistic, "normalized": LLRcalc.LLR_normalized}
    ours = {"logistic": llr_logistic, "normalized": llr_normalized}
    print("| pentanomial | model | ours per LLR | fishtest's per LLR |")
    print("|---|---|---:|---:|")
    for name, counts in CASES.items():
        for model, exact in ours.items():
            mine = per_call(exact, 0.0, 50.0, counts, repeats=arguments.repeats)
            other = (f"{per_call(theirs[model], 0.0, 50.0, list(counts), repeats=arguments.repeats) * 1e6:,.0f} µs"
                     if theirs else "")
            print(f"| {name} | {model} | {mine * 1e6:,.0f} µs | {other} |")
    print()
    print("| SPRT fed pair by pair (elo0 0, elo1 50, no verdict checked) | model | pairs | total | per pair |")
    print("|---|---|---:|---:|---:|")
    rng = random.Random(36)
    for pairs in (100, 1000, 10000):
        bins = rng.choices(range(5), [1, 2, 4, 2, 1], k=pairs)
        for model in ours:
            test = SprtTest(SprtSettings(elo0=0.0, elo1=50.0, model=model))
            start = time.perf_counter()
            for pair in bins:
                test.add(pair)
            total = time.perf_counter() - start
            print(f"| balanced pairs (1:2:4:2:1) | {model} | {pairs:,} | {total:.2f} s | {total / pairs * 1e6:,.0f} µs |")


if __name__ == "__main__":
    main()
