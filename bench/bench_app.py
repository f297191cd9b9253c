"""AppTest rerun time after a C change, at 500, 20k and 200k playouts (target: flat in input size).

Parsing and building are cached by content, so a C change should only pay for the C-dependent
work (selection along one path, one node's table, the drawing of a capped tree). This measures
the wall time of a C typed into the Exact C box (``c_exact``, which commits as a release of the
live slider does; median of several reruns, alternating two C values, the sizes interleaved
round-robin) and, separately, the time spent inside the script itself; ``--inspect`` measures a
new inspected node typed into the node box instead (a click on the picture commits the same way).
``--budget`` draws that many nodes (the page's default is 300). With ``--profile`` it prints the
top of a cProfile of the script thread for the largest size.

    python bench/bench_app.py [--sizes 500 20000 200000] [--reruns 15] [--budget 1500] [--inspect] [--profile]

Not a timed test: results go to bench/RESULTS.md by hand.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from streamlit.runtime.scriptrunner import script_runner  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402
from streamlit.testing.v1 import app_test as app_test_module  # noqa: E402

from bench.harness.apptest import NavigationPagesManager, set_c  # noqa: E402  (the AppTest workaround, see its docstring)

C_VALUES = (10.0, 20.0)  # multiples of the slider step for these inputs (max 500, step 0.5)
INSPECTED = ("a", "b", "ab", "ba", "c", "cd")  # nodes every input here has (words over abcdefgh)


def playout_text(count: int, *, seed: int = 11, moves: str = "abcdefgh", max_len: int = 49) -> str:
    """Header-less playouts: random words of 1..max_len moves, decimal scores in [0, 100)."""
    rng = random.Random(seed)
    lines = [
        f"{''.join(rng.choices(moves, k=rng.randint(1, max_len)))} {rng.uniform(0, 100):.3f}" for _ in range(count)
    ]
    return "\n".join(lines) + "\n"


class ScriptClock:
    """Wraps the function the script thread runs the page in: wall time per run, optional cProfile."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.profile: cProfile.Profile | None = None
        self._original = script_runner.exec_func_with_error_handling

    def install(self) -> None:
        def timed(func, ctx):
            profile = self.profile
            start = time.perf_counter()
            if profile is not None:
                profile.enable()
            try:
                return self._original(func, ctx)
            finally:
                if profile is not None:
                    profile.disable()
                self.seconds.append(time.perf_counter() - start)

        script_runner.exec_func_with_error_handling = timed


def load(size: int, budget: int | None) -> tuple[AppTest, dict]:
    """An AppTest of app.py with ``size`` playouts typed into the text area and one C change done."""
    app_test_module.PagesManager = NavigationPagesManager
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=600)
    app.run()
    text = playout_text(size)
    start = time.perf_counter()
    app.text_area(key="playouts").input(text).run()
    seconds = time.perf_counter() - start
    assert not app.exception, app.exception
    assert f"The tree of **{size:,}** playouts" in app.caption[0].value, app.caption[0].value
    if budget is not None:
        app.session_state["budget"] = budget
    set_c(app, C_VALUES[1])  # warm-up: first C change, caches filled
    return app, {"size": size, "bytes": len(text), "load": seconds, "wall": [], "inside": []}


def measure(
    sizes: list[int], reruns: int, clock: ScriptClock, profiled: set[int], sort: str, budget: int | None, inspect: bool
) -> list[dict]:
    """Interleave the sizes' reruns (round-robin) so that load from other work hits them alike."""
    apps = [load(size, budget) for size in sizes]
    profiles = {size: cProfile.Profile() for size in profiled}
    for index in range(reruns):
        c = C_VALUES[index % 2]
        node = INSPECTED[index % len(INSPECTED)]
        for app, result in apps:
            clock.profile = profiles.get(result["size"])
            start = time.perf_counter()
            if inspect:
                app.text_input(key="inspect").input(node).run()
            else:
                set_c(app, c)
            result["wall"].append(time.perf_counter() - start)
            result["inside"].append(clock.seconds[-1])
            clock.profile = None
            assert not app.exception
            assert app.text_input(key="inspect").value == node if inspect else app.session_state["c"] == c
    results = []
    for _app, result in apps:
        report = None
        if result["size"] in profiles:
            stream = io.StringIO()
            pstats.Stats(profiles[result["size"]], stream=stream).sort_stats(sort).print_stats(30)
            report = stream.getvalue()
        results.append(
            result
            | {
                "wall": statistics.median(result["wall"]),
                "inside": statistics.median(result["inside"]),
                "profile": report,
            }
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 20_000, 200_000])
    parser.add_argument("--reruns", type=int, default=15)
    parser.add_argument("--budget", type=int, help="nodes drawn (default: the page's, 300)")
    parser.add_argument("--inspect", action="store_true", help="measure a new inspected node instead of a C change")
    parser.add_argument("--profile", action="store_true", help="cProfile the script thread at the largest size")
    parser.add_argument("--profile-all", action="store_true", help="cProfile the script thread at every size")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key for the profile (e.g. tottime)")
    args = parser.parse_args()
    clock = ScriptClock()
    clock.install()
    profiled = set(args.sizes) if args.profile_all else {max(args.sizes)} if args.profile else set()
    results = measure(args.sizes, args.reruns, clock, profiled, args.sort, args.budget, args.inspect)
    change = "new inspected node" if args.inspect else "C change"
    for result in results:
        print(
            f"{result['size']:>8,} playouts ({result['bytes'] / 1e6:5.2f} MB): first load {result['load']:6.2f} s; "
            f"{change}: median {result['wall'] * 1000:7.1f} ms wall, {result['inside'] * 1000:7.1f} ms in the script"
        )
    base = results[0]
    print(f"\n| playouts | input MB | first load (s) | {change} rerun, wall (ms) | in script (ms) | ratio to smallest (wall) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['size']:,} | {r['bytes'] / 1e6:.2f} | {r['load']:.2f} | {r['wall'] * 1000:.1f} | "
            f"{r['inside'] * 1000:.1f} | {r['wall'] / base['wall']:.2f}x |"
        )
    for r in results:
        if r["profile"]:
            print(f"\ncProfile of the script thread, {r['size']:,} playouts, {args.reruns} runs:\n{r['profile']}")


if __name__ == "__main__":
    main()
