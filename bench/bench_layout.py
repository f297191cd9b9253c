"""The picture's layout, three ways (issue 38): where the selected path's nodes land, and what it costs.

For each input (made here, as the issue's: 5,000 and 200,000 random playouts, our tic-tac-toe
``search`` log, an OpenSpiel MCTSBot connect-four log) and budget, the drawing the Explorer makes
(the budget's nodes, the selected path at the input's C, left to right when that is what the
page picks) is laid out by

- ``dot``: graphviz's ``dot`` on the DOT as before issue 38;
- ``dot+group``: the same with ``group=line`` on the path's nodes and ``weight=100`` on its edges
  (dot keeps a group's edges straight);
- ``ours``: :func:`mcts_core.drawing.layout.tree_layout` (Python) and graphviz drawing at those
  positions (``layout=nop2``), as the app does now.

Reported: the extent of the path's boxes (points, along x across; 12 px labels are 1 px a point) and whether it
fits the Explorer's picture at 1366x768 (about 857 x 245 px usable, left to right), graphviz's CPU
time (its process, so the machine's load does not count) and the Python time (process CPU) for the
DOT text and the layout.

    python bench/bench_layout.py [--budgets 300,1500,5000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import io
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mcts_core import Scoring, selected_nodes  # noqa: E402
from mcts_core.drawing.dot import drawn_nodes, fits_top_down, render_tree, visible_nodes  # noqa: E402
from mcts_core.inputs import read_input  # noqa: E402
from mcts_core.search import search  # noqa: E402
from bench.harness.browser import playout_file  # noqa: E402

PICTURE_1366 = (857, 245)  # px usable in the Explorer's left-to-right picture at 1366x768


def connect_four_log() -> str:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from mcts_core.adapters.openspiel import search_log

    game = pyspiel.load_game("connect_four")
    bot = mcts.MCTSBot(game, 2.0, 3000, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2))
    log = io.StringIO()
    search_log(bot, game.new_initial_state(), log)
    return log.getvalue()


def graphviz_run(dot: str, output: str) -> tuple[str, float]:
    """graphviz's output and the CPU seconds its process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(["dot", f"-T{output}"], input=dot.encode(), capture_output=True, check=True).stdout.decode()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def grouped(dot: str, path: list[int]) -> str:
    """The DOT with the path's nodes in one group and its edges weighted."""
    for node in path:
        dot = re.sub(rf"^(\s*n{node}) \[", r"\1 [group=line ", dot, flags=re.M)
    for parent, child in zip(path, path[1:]):
        dot = re.sub(rf"^(\s*n{parent} -> n{child})( \[|$)",
                     lambda m: m.group(1) + " [weight=100" + (" " if m.group(2) else "]"), dot, flags=re.M)
    return dot


def path_extent(plain: str, path: list[int]) -> tuple[float, float]:
    """(x, y) extent in points of the boxes of the path's nodes, from graphviz's plain output."""
    boxes = {}
    for line in plain.splitlines():
        parts = line.split()
        if parts and parts[0] == "node":
            x, y, w, h = (float(value) * 72 for value in parts[2:6])
            boxes[parts[1]] = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    mine = [boxes[f"n{node}"] for node in path]
    return max(b[2] for b in mine) - min(b[0] for b in mine), max(b[3] for b in mine) - min(b[1] for b in mine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="300,1500,5000")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    folder = Path(__import__("tempfile").mkdtemp())
    inputs = {
        "5,000 playouts": playout_file(folder / "p5k.txt", 5_000).read_text(),
        "tic-tac-toe search log": search("tic_tac_toe", scoring=Scoring(c=1.4), simulations=2000, seed=3).log,
        "OpenSpiel connect-four log": connect_four_log(),
        "200,000 playouts": playout_file(folder / "p200k.txt", 200_000).read_text(),
    }
    print("| input | budget | drawn | layout | path of n nodes: along x across (pt) | fits 1366x768 | graphviz CPU (svg) | Python CPU (DOT) |")
    print("|---|---:|---:|---|---|---|---:|---:|")
    for name, text in inputs.items():
        loaded = read_input(text)
        tree = loaded.tree
        path = selected_nodes(tree, Scoring(c=loaded.c if loaded.c is not None else 1.0))
        for budget in [int(b) for b in args.budgets.split(",")]:
            drawn = drawn_nodes(tree, visible_nodes(tree, budget=budget), path)
            direction = "TB" if fits_top_down(tree, drawn) else "LR"
            for how in ("dot", "dot+group", "ours"):
                python, cpu = [], []
                for _ in range(args.repeats):
                    started = time.process_time()
                    dot = render_tree(tree, drawn, direction=direction, tooltips=False,
                                      lines=(tuple(path),) if how == "ours" else None).source
                    if how == "dot+group":
                        dot = grouped(dot, path)
                    python.append(time.process_time() - started)
                    plain, seconds = graphviz_run(dot, "plain")
                    _, svg_seconds = graphviz_run(dot, "svg")
                    cpu.append(svg_seconds)
                along, across = path_extent(plain, path)
                if direction == "TB":
                    along, across = across, along
                fits = along <= PICTURE_1366[0] - 48 and across <= PICTURE_1366[1] - 48  # 24 px margins
                print(f"| {name} | {budget} | {len(drawn)} ({direction}) | {how} | {len(path)}: {along:,.0f} x {across:,.0f} | "
                      f"{'yes' if fits else 'no'} | {statistics.median(cpu) * 1000:,.0f} ms | "
                      f"{statistics.median(python) * 1000:,.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
