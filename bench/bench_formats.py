"""Reading real-engine formats: a JSON Lines log against the same playouts as puzzle text, and a tree dump.

Usage (from the repository root)::

    python bench/bench_formats.py                         # 1,000,000 simulations, 100,000-node dump
    python bench/bench_formats.py --simulations 200000 --repeats 3

* Log vs text: the same seeded playouts (bench_core's synthetic log: words of 1..49 moves over 8
  letters, scores with two decimals) written as puzzle text and as a JSON Lines log
  (``{"path": [...], "score": x}`` per line), each read and built with ``read_input``; repetitions
  interleaved (text, log, text, log, ...), medians and their ratio (target: log <= 3x text).
* Facts first vs last (``--facts N``): the log with N node facts (who moves, children) on
  nodes its simulations reach, once before every simulation and once after them all (a bot that
  dumps its facts at the end); both build the same tree, timed like the rest.
* Tree dump: a tree of about 100,000 nodes (built from a synthetic log, then written by our own
  ``write_tree_json``) read back with ``read_input`` (target: < 1 s).

Nothing here is a test: numbers go into bench/RESULTS.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_core import make_text  # noqa: E402
from mcts_core.inputs.formats.tree_json_writer import write_tree_json  # noqa: E402
from mcts_core.inputs.loading import read_input  # noqa: E402


def as_log(text: str) -> str:
    """The playouts of puzzle ``text`` as a JSON Lines log (header with the same C)."""
    lines = text.splitlines()
    count, c = lines[0].split()
    out = [json.dumps({"mcts_log": 1, "c": float(c)})]
    for line in lines[1:]:
        word, score = line.split()
        out.append(f'{{"path": {json.dumps(list(word))}, "score": {score}}}')
    return "\n".join(out) + "\n"


def timed(text: str) -> tuple[float, int]:
    gc.collect()
    start = time.perf_counter()
    read = read_input(text)
    seconds = time.perf_counter() - start
    return seconds, len(read.tree)


def time_fact_order(log: str, count: int, repeats: int) -> None:
    """The log with ``count`` facts before its simulations, then after them: read + build times."""
    import random

    header, *records = log.splitlines()
    header = header.replace('{"mcts_log": 1', '{"mcts_log": 1, "players": 2')  # facts say who moves
    rng = random.Random(5)
    paths = [json.loads(record)["path"][:2] for record in rng.sample(records, count)]
    facts = [json.dumps({"node": path, "player": rng.randint(0, 1), "children": list("abcd")}) for path in paths]
    texts = {"facts first": "\n".join([header, *facts, *records]), "facts last": "\n".join([header, *records, *facts])}
    times = {name: [] for name in texts}
    nodes = {}
    for rep in range(repeats):
        for name in (list(texts) if rep % 2 == 0 else list(texts)[::-1]):
            seconds, nodes[name] = timed(texts[name])
            times[name].append(seconds)
    assert len(set(nodes.values())) == 1, nodes
    print(f"\n{count:,} facts (players, children) with the same simulations: {nodes['facts first']:,} nodes")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.2f} | all {[round(t, 2) for t in values]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1_000_000)
    parser.add_argument("--dump-playouts", type=int, default=130_000, help="playouts of the tree to dump")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--facts", type=int, default=0, help="also time a log with this many node facts, first and last")
    arguments = parser.parse_args()

    text = make_text(arguments.simulations, 2024)
    log = as_log(text)
    read_input(make_text(20_000, 1))  # pay the imports once, outside the timings
    read_input(as_log(make_text(20_000, 1)))
    times = {"text": [], "log": []}
    nodes = {}
    for rep in range(arguments.repeats):
        for name in (["text", "log"] if rep % 2 == 0 else ["log", "text"]):
            seconds, count = timed(text if name == "text" else log)
            times[name].append(seconds)
            nodes[name] = count
    assert nodes["text"] == nodes["log"], nodes
    text_s, log_s = statistics.median(times["text"]), statistics.median(times["log"])
    print(f"{arguments.simulations:,} simulations ({len(text) / 1e6:.1f} MB text, {len(log) / 1e6:.1f} MB log), "
          f"{nodes['text']:,} nodes; medians of {arguments.repeats}")
    print("| input | read + build (s) | ratio to text |\n|---|---:|---:|")
    print(f"| puzzle text | {text_s:.2f} | 1.00 |")
    print(f"| JSON Lines log | {log_s:.2f} | {log_s / text_s:.2f} |")
    print(f"all text: {[round(t, 2) for t in times['text']]}, all log: {[round(t, 2) for t in times['log']]}")

    if arguments.facts:
        time_fact_order(log, arguments.facts, arguments.repeats)

    tree = read_input(make_text(arguments.dump_playouts, 7)).tree
    out = io.StringIO()
    write_tree_json(tree, out, c=1.4)
    dump = out.getvalue()
    dump_times = [timed(dump)[0] for _ in range(arguments.repeats)]
    print(f"\ntree dump: {len(tree):,} nodes, {len(dump) / 1e6:.1f} MB; read: median {statistics.median(dump_times):.2f} s "
          f"(all {[round(t, 2) for t in dump_times]})")


if __name__ == "__main__":
    main()
