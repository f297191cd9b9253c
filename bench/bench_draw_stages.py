"""CPU of each server-side stage of a new Explorer drawing (a node budget's change), this checkout
against another, alternated in one run (issue 38).

The stages the Explorer runs when the budget changes, on the bench's 200,000-playout upload (the
input ``bench_browser.py --drawings`` uploads): the drawn set (``visible_nodes``), the DOT text and
its layout (``render_tree``), graphviz's ``dot -Tsvg`` (its own process: the CPU of the child),
the tagging (``node_infos`` + ``tag_svg``), the hover lines (``DrawnValues``) and the hover texts
at the page's C. CPU time, so the machine's load counts far less than in wall times. Each budget is
drawn after a drawing at ``budget + 1`` (as the browser bench changes it), so a checkout that keeps
work between budgets shows it. "critical" is what the page waits for: where graphviz runs while
the hover values are made, the longer of the two, else their sum.

    python bench/bench_draw_stages.py --against /tmp/draw_main [--budgets 1500,5000] [--repeats 5]

Each checkout runs in its own process (``--worker``), rounds alternate old and new.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
STAGES = ("visible", "render_tree", "graphviz", "tag", "values", "hover")


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def worker(root: Path, log: Path, budgets: list[int]) -> None:
    """One drawing per budget (after one at budget + 1) with the checkout at ``root``; JSON to stdout."""
    sys.path.insert(0, str(root))
    from mcts_core import ROOT, Scoring, build_tree, parse_playouts, selected_nodes
    from mcts_core.analysis import DrawnValues
    from mcts_core.drawing import drawn_nodes, node_infos, render_tree, tag_svg, visible_nodes
    import mcts_core.drawing as drawing

    ours = hasattr(drawing, "start_svg") or hasattr(drawing, "dot_svg")  # this branch: graphviz runs while the hover values are made, lines kept
    tree = build_tree(parse_playouts(log.read_text()))
    scoring = Scoring(c=1.0)
    path = tuple(selected_nodes(tree, scoring))
    known: dict = {}

    def draw(budget: int) -> dict:
        clock = time.process_time
        times, t = {}, clock()
        visible = visible_nodes(tree, budget=budget)
        drawn = drawn_nodes(tree, visible, path, inspected=ROOT)
        times["visible"], t = clock() - t, clock()
        dot = render_tree(tree, drawn, direction="LR", tooltips=False, lines=(path,)).source
        times["render_tree"], t = clock() - t, clock()
        before = child_cpu()
        if hasattr(drawing, "dot_svg"):  # graphviz with its own font metrics
            raw = drawing.dot_svg(dot)
        elif ours:
            raw = drawing.start_svg(dot)()
        else:
            import graphviz

            raw = graphviz.Source(dot).pipe(format="svg")
        times["graphviz"], t = child_cpu() - before, clock()
        svg = tag_svg(raw if ours else raw.decode("utf-8"), node_infos(tree, drawn))  # the decoding counts
        times["tag"], t = clock() - t, clock()
        values = DrawnValues(tree, scoring, drawn, known) if ours else DrawnValues(tree, scoring, drawn)
        times["values"], t = clock() - t, clock()
        hover = {values.paths[node]: f"UCB1 {value:.6g} (rank {rank})" for node, (value, rank) in values.at(1.0).items()}
        times["hover"] = clock() - t
        side = times["values"] + times["hover"]
        waits = max(times["graphviz"], side) if ours else times["graphviz"] + side
        times["critical"] = times["visible"] + times["render_tree"] + waits + times["tag"]
        times["drawn"], times["svg_mb"], times["hovers"] = len(drawn), len(svg) / 1e6, len(hover)
        return times

    result = {}
    for budget in budgets:
        draw(budget + 1)
        result[budget] = draw(budget)
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="the other checkout (e.g. main exported)")
    parser.add_argument("--budgets", default="1500,5000")
    parser.add_argument("--repeats", type=int, default=5, help="rounds, each old then new (or new then old)")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--log", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    if args.worker:
        worker(args.worker, args.log, budgets)
        return
    sys.path.insert(0, str(HERE))
    from bench.harness.browser import playout_file

    tmp = Path(tempfile.mkdtemp(prefix="draw-stages-"))
    log = playout_file(tmp / "p200k.txt", 200_000, seed=99)  # bench_browser.py --drawings' upload
    print(f"load average at start: {os.getloadavg()}", flush=True)
    runs: dict[str, list[dict]] = {"new": [], "old": []}
    for k in range(args.repeats):
        order = [("new", HERE), ("old", args.against)]
        for name, root in order if k % 2 == 0 else reversed(order):
            out = subprocess.run(
                [sys.executable, __file__, "--against", str(args.against), "--budgets", args.budgets,
                 "--worker", str(root), "--log", str(log)],
                capture_output=True, text=True, check=True, cwd=root,
            ).stdout
            runs[name].append(json.loads(out.splitlines()[-1]))
            print(f"  round {k + 1} {name} done, load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"load average at end: {os.getloadavg()}")
    for budget in budgets:
        key = str(budget)
        first = runs["new"][0][key]
        print(f"\nbudget {budget} ({first['drawn']} drawn, SVG {first['svg_mb']:.2f} MB): CPU ms, median of {args.repeats} (min..max)")
        print("| stage | old | new |\n|---|---:|---:|")
        for stage in (*STAGES, "critical"):
            cells = []
            for name in ("old", "new"):
                values = [run[key][stage] * 1000 for run in runs[name]]
                cells.append(f"{statistics.median(values):.0f} ({min(values):.0f}..{max(values):.0f})")
            print(f"| {stage} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
