"""Peak memory of reading and building each kind of input, against the stated bound.

Every input is read as the command line and the app read it: its bytes, decoded (``decode_text``),
then ``read_input`` (parse and build), in a fresh process; for puzzle text also the app's
``annotated_values``. The process's peak resident memory (VmHWM, which includes the interpreter,
numpy and pyarrow) is compared with the bound :data:`mcts_core.inputs.memory_bound.MEMORY_PER_BYTE` x
the input's bytes + :data:`~mcts_core.inputs.memory_bound.MEMORY_BASE`; an input the bound refuses must be
refused with the memory sentence (a ParseError), before it is read.

Usage (from the repository root)::

    python bench/bench_memory.py                         # every case at every scale
    python bench/bench_memory.py --cases text,chain --scales 1,10
    python bench/bench_memory.py --code /tmp/old-checkout  # the same cases against another checkout
    python bench/bench_memory.py --time --code OLD --repeats 5 --cases text,log,dump
        # read + build seconds, old and new code alternated in one run (medians)

Inputs are generated (seeded) into a temporary cache. Nothing here is a test: numbers go into
bench/RESULTS.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_engines import kata_analyze_transcript, katago_response  # noqa: E402
CACHE = Path(tempfile.gettempdir()) / "mcts_bench_cache" / "memory"
LETTERS = "abcdefgh"


# --------------------------------------------------------------------------------------------------
# Inputs: each case writes its text for a scale (1 = a few MB) to a file.


def _playout_lines(count: int, seed: int, alphabet: str = LETTERS, longest: int = 49) -> list[str]:
    rng = random.Random(seed)
    return [f"{''.join(rng.choices(alphabet, k=rng.randint(1, longest)))} {round(rng.uniform(-99.99, 99.99), 2)}"
            for _ in range(count)]


def text_case(scale: int) -> str:
    """Puzzle text as bench_core makes it: 100,000 playouts per scale, words of 1..49 moves over 8 letters."""
    lines = _playout_lines(100_000 * scale, 1)
    return f"{len(lines)} 1.4\n" + "\n".join(lines) + "\n"


def upload_case(scale: int) -> str:
    """An upload as a user brings one (/tmp/inputs/make_inputs.py's ``playouts``): no header, words of
    1..49 moves over 8 letters, scores with 3 decimals; 100,000 playouts per scale (p200k.txt: scale 2)."""
    rng = random.Random(1)
    out = []
    for _ in range(100_000 * scale):
        word = "".join(rng.choices(LETTERS, k=rng.randint(1, 49)))
        out.append(f"{word} {rng.uniform(-50, 100):.3f}\n")
    return "".join(out)


def text_players_case(scale: int) -> str:
    """The same with a ``#players 2`` line and comments (the line-by-line reader)."""
    lines = _playout_lines(100_000 * scale, 2)
    return "#players 2\n# a two-player log\n" + "\n".join(lines) + "\n"


def text_unicode_case(scale: int) -> str:
    """Moves that are not ASCII (Greek letters), 100,000 playouts per scale."""
    lines = _playout_lines(100_000 * scale, 3, alphabet="αβγδεζηθ")
    return "\n".join(lines) + "\n"


def long_words_case(scale: int) -> str:
    """Playouts of 1,000 moves (the most a playout may have), 2,000 per scale (the issue's 191 MiB: 100)."""
    rng = random.Random(4)
    return "".join(f"{''.join(rng.choices(LETTERS, k=1000))} {round(rng.uniform(-50, 100), 3)}\n"
                   for _ in range(2_000 * scale))


def chain_case(scale: int) -> str:
    """A chain 10 x scale deep with 100 children at each node (94 ASCII moves and 6 others); the
    issue's input is scale 100 (1,000 deep, 100,000 playouts, 50 MB)."""
    kids = [chr(code) for code in range(33, 127)] + [chr(0xE0 + j) for j in range(6)]
    spine = kids[0]
    return "".join(f"{spine * depth}{kid} 1\n" for depth in range(10 * scale) for kid in kids)


def short_lines_case(scale: int) -> str:
    """Short lines, each creating a node: every 1-, 2- and 3-letter word over 94 characters in that
    order (the most nodes a byte of text can make), 100,000 lines per scale."""
    kids = [chr(code) for code in range(33, 127)]
    out, count = [], 100_000 * scale
    level = [""]
    while len(out) < count:
        level = [word + kid for word in level for kid in kids]
        out += [f"{word} 1" for word in level[: count - len(out)]]
    return "\n".join(out) + "\n"


def log_case(scale: int) -> str:
    """A JSON Lines log of plain simulations (bench_formats' form), 100,000 per scale."""
    lines = _playout_lines(100_000 * scale, 5)
    out = ['{"mcts_log": 1, "c": 1.4}']
    for line in lines:
        word, score = line.split()
        out.append(f'{{"path": {json.dumps(list(word))}, "score": {score}}}')
    return "\n".join(out) + "\n"


def engine_log_case(scale: int) -> str:
    """An OpenSpiel-style log (``search_log``): each expanded node's facts (player, 7 children with
    priors), then the simulation; 20,000 simulations per scale on a 7-way game."""
    rng = random.Random(6)
    out = ['{"mcts_log": 1, "players": 2, "ties": "first", "c": 2.0, "rule": "ucb1"}']
    expanded = {()}
    out.append(json.dumps({"node": [], "player": 0, "children": [f"m{k}" for k in range(7)],
                           "priors": {f"m{k}": 1 / 7 for k in range(7)}, "chance": False, "terminal": False}))
    for _ in range(20_000 * scale):
        path: tuple[str, ...] = ()
        while path in expanded and len(path) < 40:
            path += (f"m{rng.randrange(7)}",)
        if path not in expanded:
            expanded.add(path)
            names = [f"m{k}" for k in rng.sample(range(7), 7)]
            out.append(json.dumps({"node": list(path), "player": len(path) % 2, "children": names,
                                   "priors": {name: 1 / 7 for name in names}, "chance": False, "terminal": False}))
        score = rng.choice((1.0, -1.0, 0.0))
        out.append(json.dumps({"path": list(path), "returns": [score, -score]}))
    return "\n".join(out) + "\n"


def duct_log_case(scale: int) -> str:
    """A simultaneous-move log as ``search --algorithm duct`` writes one (oshi_zumo's bids): each new
    node's facts (simultaneous, 50 own moves per player), then the simulation's joint moves; 5,000
    simulations per scale."""
    rng = random.Random(9)
    bids = [f"Bid: {k}" for k in range(50)]
    out = ['{"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4, "rule": "ucb1", "algorithm": "duct"}']
    expanded: set[tuple] = set()
    for _ in range(5_000 * scale):
        path: list = []
        while tuple(map(tuple, path)) in expanded and len(path) < 30:
            path.append([rng.choice(bids[:8]), rng.choice(bids[:8])])
        expanded.add(tuple(map(tuple, path)))
        out.append(json.dumps({"node": path, "player": 0, "simultaneous": True, "moves": [bids, bids]}))
        score = rng.choice((1.0, -1.0, 0.0))
        out.append(json.dumps({"path": path, "returns": [score, -score]}))
    return "\n".join(out) + "\n"


def dump_case(scale: int) -> str:
    """A tree dump written by our own ``write_tree_json`` of a tree of about 45,000 nodes per scale."""
    import io

    sys.path.insert(0, str(ROOT))
    from mcts_core.inputs.formats.tree_json_writer import write_tree_json
    from mcts_core.inputs.loading import read_input

    tree = read_input(text_case(scale // 2) if scale > 1 else "\n".join(_playout_lines(50_000, 7)) + "\n").tree
    out = io.StringIO()
    write_tree_json(tree, out, c=1.4)
    return out.getvalue()


def engine_dump_case(scale: int) -> str:
    """A dump of many small nodes (a declared child is ``{"move": "m3", "visits": 0}``): 7 children at
    each of 10,000 x scale expanded nodes."""
    rng = random.Random(8)
    count = 10_000 * scale
    nodes = [{"move": None, "visits": count, "total": 0.0, "children": []}]
    frontier = [nodes[0]]
    while len(frontier) < count:
        node = frontier[rng.randrange(len(frontier))]
        if node.get("children"):
            continue
        node["children"] = [{"move": f"m{k}", "visits": 0} for k in range(7)]
        frontier += node["children"]
    return json.dumps({"mcts_tree": 1, "players": 2, "ties": "first", "root": nodes[0]})


def katago_case(scale: int) -> str:
    """KataGo analysis-engine responses (bench_engines' form): 20 per scale, each with all 362 moves
    searched, 15-move PVs with their visits, and the policy."""
    rng = random.Random(scale)
    return "\n".join(katago_response(rng, query_id=f"q{number}") for number in range(20 * scale)) + "\n"


def kata_analyze_case(scale: int) -> str:
    """A kata-analyze GTP transcript (bench_engines' form): 2,000 updates of 30 moves per scale."""
    return kata_analyze_transcript(random.Random(scale), 2000 * scale)


CASES = {
    "text": text_case,
    "upload": upload_case,
    "text #players": text_players_case,
    "text unicode": text_unicode_case,
    "long words": long_words_case,
    "chain": chain_case,
    "short lines": short_lines_case,
    "log": log_case,
    "engine log": engine_log_case,
    "duct log": duct_log_case,
    "dump": dump_case,
    "engine dump": engine_dump_case,
    "katago": katago_case,
    "kata-analyze": kata_analyze_case,
}


def input_file(case: str, scale: int) -> Path:
    """The case's input at ``scale``, generated once."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{case.replace(' ', '_').replace('#', '')}_{scale}.txt"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.write_text(CASES[case](scale), encoding="utf-8")
        tmp.replace(path)
    return path


# --------------------------------------------------------------------------------------------------
# One reading in a fresh process


def _vm_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise SystemExit(f"no {field} in /proc/self/status")


def worker(path: str, code: str, repeats: int) -> None:
    """Read ``path`` as the CLI and the app do (with ``code`` first on sys.path); print JSON."""
    sys.path.insert(0, code)
    import numpy  # noqa: F401  (the fast paths' libraries: counted in the start, not in the reading)
    import pyarrow  # noqa: F401
    import pyarrow.csv  # noqa: F401
    import pyarrow.json  # noqa: F401

    from mcts_core.common.input_rules import ParseError, decode_text
    from mcts_core.inputs import KEYWORDS, TEXT, annotated_values, input_kind, read_input

    start = _vm_kib("VmHWM")
    data = Path(path).read_bytes()
    result: dict = {"start_kib": start, "bytes": len(data)}
    seconds, wall = [], []
    for _ in range(repeats):
        begin, begin_wall = time.process_time(), time.perf_counter()
        try:
            text = decode_text(data)
            read = read_input(text)
            if input_kind(text) == TEXT:
                for keyword in KEYWORDS:
                    annotated_values(text, keyword)
            result["nodes"] = len(read.tree)
        except ParseError as error:
            result["error"] = str(error)
        seconds.append(time.process_time() - begin)
        wall.append(time.perf_counter() - begin_wall)
        text = read = None
    result["peak_kib"] = _vm_kib("VmHWM")
    result["seconds"], result["wall"] = seconds, wall
    result.update(_estimates(data))
    print(json.dumps(result))


def _estimates(data: bytes) -> dict:
    """The bound's estimates for this input (reading, then building), in bytes, if the code has them."""
    try:
        from mcts_core.inputs import memory_bound
        from mcts_core.inputs.loading import decoupled_moves
    except ImportError:  # older code: no bound
        return {}
    from mcts_core.common.input_rules import ParseError, decode_text
    from mcts_core.inputs import TREE, input_kind
    from mcts_core.inputs.formats.log import read_log
    from mcts_core.inputs.formats.text import parse_playouts

    text = decode_text(data)
    kind = input_kind(text)
    reading, need = memory_bound.reading_need(text, kind)
    out = {"read_need": need.bytes, "limit": reading.limit}
    if kind != TREE:
        try:
            playouts, log = (parse_playouts(text), None) if kind == "text" else read_log(text)
        except ParseError:
            return out
        out["build_need"] = memory_bound.building_need(reading, playouts, decoupled_moves(playouts, log))[0].bytes
    return out


def measure(path: Path, code: str, repeats: int = 1) -> dict:
    out = subprocess.run([sys.executable, __file__, "--worker", str(path), "--code", code, "--repeats", str(repeats)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


# --------------------------------------------------------------------------------------------------
# Reports


def bound_of(code: str) -> tuple[float, int] | None:
    """(bytes per input byte, base bytes) the checkout at ``code`` states, or None if it states none."""
    out = subprocess.run([sys.executable, "-c", "from mcts_core.inputs import memory_bound as m; "
                          "print(m.MEMORY_PER_BYTE, m.MEMORY_BASE)"],
                         cwd=code, capture_output=True, text=True)
    if out.returncode:
        return None
    per_byte, base = out.stdout.split()
    return float(per_byte), int(base)


def mib(kib_or_bytes: float, unit: int = 2**10) -> str:
    """An amount as megabytes (10^6 bytes, as the refusal sentences and the README say them)."""
    return f"{kib_or_bytes * unit / 1e6:,.0f} MB"


def memory_table(cases: list[str], scales: list[int], code: str) -> None:
    bound = bound_of(code)
    print(f"Code: {code}; bound: " + (f"{bound[0]:g} x input + {mib(bound[1], 1)}" if bound else "none stated"))
    print("\n| input | scale | size | peak RSS | (peak - start) / size | estimate: read / build | bound | within | "
          "result | CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|---:|")
    for case in cases:
        for scale in scales:
            path = input_file(case, scale)
            got = measure(path, code)
            size, peak = got["bytes"], got["peak_kib"] * 1024
            limit = bound[0] * size + bound[1] if bound else None
            refused = "error" in got
            result = (got["error"][:90] if refused else f"{got['nodes']:,} nodes").replace("|", "\\|")
            within = "-" if limit is None else ("yes" if peak <= limit else "**NO**")
            estimate = " / ".join(mib(got[key], 1) if key in got else "-" for key in ("read_need", "build_need"))
            print(f"| {case} | {scale} | {mib(size, 1)} | {mib(peak, 1)} | "
                  f"{(peak - got['start_kib'] * 1024) / size:.1f} | {estimate} | {mib(limit, 1) if limit else '-'} | "
                  f"{within} | {result} | {got['seconds'][0]:.2f} |", flush=True)


def time_table(cases: list[str], scales: list[int], old: str, new: str, repeats: int) -> None:
    """Read + build CPU seconds, old and new code alternated, each a fresh process per repetition."""
    print(f"Old: {old}; new: {new}; {repeats} alternated runs each, medians of read + build seconds (CPU: "
          "every thread's; wall: elapsed)")
    print("\n| input | scale | size | old CPU s | new CPU s | new / old | old wall s | new wall s | old peak | new peak |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for case in cases:
        for scale in scales:
            path = input_file(case, scale)
            runs: dict[str, list[dict]] = {"old": [], "new": []}
            for rep in range(repeats):
                for name in (("old", "new") if rep % 2 == 0 else ("new", "old")):
                    runs[name].append(measure(path, old if name == "old" else new))
            seconds = {name: statistics.median(run["seconds"][0] for run in got) for name, got in runs.items()}
            wall = {name: statistics.median(run["wall"][0] for run in got) for name, got in runs.items()}
            peaks = {name: max(run["peak_kib"] for run in got) for name, got in runs.items()}
            print(f"| {case} | {scale} | {mib(runs['new'][0]['bytes'], 1)} | {seconds['old']:.3f} | "
                  f"{seconds['new']:.3f} | {seconds['new'] / seconds['old']:.2f} | {wall['old']:.3f} | "
                  f"{wall['new']:.3f} | {mib(peaks['old'])} | {mib(peaks['new'])} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated: " + ", ".join(CASES))
    parser.add_argument("--scales", default="1,10,40", help="comma-separated scales (1 = a few MB)")
    parser.add_argument("--code", default=str(ROOT), help="the checkout to measure (the old one with --time)")
    parser.add_argument("--time", action="store_true", help="time --code against this checkout, alternated")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        worker(arguments.worker, arguments.code, arguments.repeats)
        return
    cases = arguments.cases.split(",")
    unknown = [case for case in cases if case not in CASES]
    if unknown:
        parser.error(f"unknown cases {unknown}; known: {', '.join(CASES)}")
    scales = [int(scale) for scale in arguments.scales.split(",")]
    print(f"Command: `{shlex.join(['python', 'bench/bench_memory.py', *sys.argv[1:]])}`  ")
    print(f"Date: {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {os.cpu_count()} shared cores, "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    if arguments.time:
        time_table(cases, scales, arguments.code, str(ROOT), arguments.repeats)
    else:
        memory_table(cases, scales, arguments.code)


if __name__ == "__main__":
    main()
