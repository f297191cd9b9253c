"""How fast engines' analyses are read and drawn: a 19x19 KataGo response with all 362 moves and its
policy, and a long kata-analyze transcript (their memory: bench_memory.py's ``katago`` and
``kata-analyze`` cases).

Each input is generated (seeded) in KataGo's documented format; ``read_input`` (read every analysis,
build the shown one's tree) is timed in this process, the median of several runs; for the response,
also its picture as the Explorer first makes it: the drawn nodes at the default budget (300), the
DOT, graphviz's SVG and its tags (``ui/picture/tree_view.py``'s layout, without Streamlit).

``--browser`` also uploads the response in Debian's chromium (``/usr/bin/chromium``) to our server
and times, in the page, from the upload's last byte sent (the uploader's request done) to the new
picture's nodes in the page and one frame painted: what a user waits for once the file is sent.

Usage (from the repository root)::

    python bench/bench_engines.py
    python bench/bench_engines.py --repeats 20 --updates 2000
    python bench/bench_engines.py --browser --repeats 5

Nothing here is a test: numbers go into bench/RESULTS.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcts_core.drawing import render_tree, visible_nodes  # noqa: E402
from mcts_core.drawing.graphviz_run import dot_svg  # noqa: E402
from mcts_core.drawing.tagged_svg import node_infos, tag_svg  # noqa: E402
from mcts_core.inputs.loading import read_input  # noqa: E402

LETTERS = "ABCDEFGHJKLMNOPQRST"


def points(size: int = 19) -> list[str]:
    """Every point of the board, as KataGo names it, then pass."""
    return [f"{LETTERS[x]}{size - y}" for y in range(size) for x in range(size)] + ["pass"]


def katago_response(rng: random.Random, pv_length: int = 15, query_id: str = "bench") -> str:
    """One analysis-engine response line: all 362 moves searched (as after a long search), each with a
    PV and pvVisits, ``rootInfo`` and ``includePolicy``'s policy."""
    names = points()
    policy = [rng.random() for _ in names]
    mass = sum(policy)
    policy = [prior / mass for prior in policy]
    infos, total = [], 0
    for order, (name, prior) in enumerate(sorted(zip(names, policy), key=lambda item: -item[1])):
        visits = max(1, int(prior * 100_000))
        total += visits
        winrate = rng.uniform(0.3, 0.7)
        pv = [name] + rng.sample(names[:-1], pv_length)
        infos.append({"edgeVisits": visits, "edgeWeight": float(visits), "lcb": winrate - 0.01, "move": name,
                      "order": order, "prior": prior, "pv": pv,
                      "pvEdgeVisits": [visits] + sorted((rng.randint(1, visits) for _ in pv[1:]), reverse=True),
                      "pvVisits": [visits] + sorted((rng.randint(1, visits) for _ in pv[1:]), reverse=True),
                      "scoreLead": rng.uniform(-5, 5), "scoreMean": 0.0, "scoreSelfplay": 0.0, "scoreStdev": 20.0,
                      "utility": 2 * winrate - 1, "utilityLcb": 2 * winrate - 1.02, "visits": visits,
                      "weight": float(visits), "winrate": winrate})
    root = {"currentPlayer": "B", "scoreLead": 0.5, "utility": 0.01, "visits": total + 1, "winrate": 0.5,
            "weight": float(total + 1)}
    return json.dumps({"id": query_id, "isDuringSearch": False, "moveInfos": infos, "policy": policy,
                       "rootInfo": root, "turnNumber": 42}, separators=(",", ":"))


def kata_analyze_transcript(rng: random.Random, updates: int, moves: int = 30, pv_length: int = 15) -> str:
    """A GTP transcript of one ``kata-analyze`` with ``updates`` update lines of ``moves`` moves each."""
    names = points()[:-1]
    lines = ["= "]
    for update in range(1, updates + 1):
        records = []
        for order, name in enumerate(names[:moves]):
            winrate = rng.uniform(0.3, 0.7)
            pv = " ".join([name] + rng.sample(names, pv_length))
            records.append(f"info move {name} visits {update * (moves - order)} edgeVisits {update * (moves - order)} "
                           f"utility {2 * winrate - 1:.6g} winrate {winrate:.6g} scoreMean 0.5 scoreStdev 20 "
                           f"scoreLead 0.5 scoreSelfplay 0.6 prior {rng.random() / moves:.6g} lcb {winrate - 0.01:.6g} "
                           f"utilityLcb -0.1 weight {update * (moves - order)} order {order} pv {pv}")
        lines.append(" ".join(records) + f" rootInfo visits {update * moves * moves} utility 0.01 winrate 0.5")
    return "\n".join(lines) + "\n\n"


def timed(text: str, repeats: int) -> float:
    """The median seconds ``read_input(text)`` takes."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        read_input(text)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def opened_and_drawn(text: str, repeats: int) -> tuple[float, int]:
    """The median seconds from the text to the Explorer's tagged SVG (read, the drawn nodes, DOT,
    graphviz, tags), and how many nodes are drawn."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        tree = read_input(text).tree
        drawn = visible_nodes(tree, budget=300)
        dot = render_tree(tree, drawn, tooltips=False).source
        tag_svg(dot_svg(dot), node_infos(tree, drawn))
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), len(drawn)


# The tree pictures' SVGs, in the page and in components' shadow roots.
PICTURES = """() => [document, ...[...document.querySelectorAll('*')].filter(e => e.shadowRoot).map(e => e.shadowRoot)]
    .flatMap(root => [...root.querySelectorAll('div.tv-root svg')])"""
# The drawn nodes on the page now are marked; a new drawing's are new elements (the picture keeps its
# SVG element and replaces what is inside). Gives up after a minute (NaN).
MARK_PICTURES = f"() => ({PICTURES})().forEach(svg => svg.querySelectorAll('g.node').forEach(g => g.dataset.old = '1'))"
NEW_PICTURE_PAINTED = f"""() => new Promise(done => {{
    const until = performance.now() + 60000;
    const shown = () => ({PICTURES})().some(svg => svg.querySelector('g.node:not([data-old])'));
    const check = () => shown() ? requestAnimationFrame(() => setTimeout(() => done(performance.now()), 0))
                      : performance.now() > until ? done(NaN) : setTimeout(check, 2);
    check();
}})"""


def in_the_browser(repeats: int) -> list[float]:
    """Seconds from each upload of a response like :func:`katago_response`'s (another search each time:
    read and drawn anew) being sent to its picture shown and painted, in chromium on our server."""
    import tempfile

    from playwright.sync_api import sync_playwright

    from bench.harness.browser import open_app, wait_for_graph
    from bench.harness.server import CHROMIUM_ARGS, REPO, start_streamlit, stop_streamlit

    folder = Path(tempfile.mkdtemp())
    process, url = start_streamlit(Path("app.py"), folder / "server.log", cwd=REPO)
    seconds = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            open_app(page, url)
            wait_for_graph(page)
            for number in range(repeats):
                file = folder / f"katago_{number}.jsonl"
                # Another search each time: a drawing the page has not had (the same SVG is kept, not redrawn).
                file.write_text(katago_response(random.Random(1000 + number), query_id=f"bench{number}"))
                page.evaluate(MARK_PICTURES)  # the picture on the page now is the old one
                with page.expect_response(lambda r: "/_stcore/upload_file" in r.url, timeout=60_000) as sent:
                    page.locator('.st-key-upload input[type="file"]').set_input_files(file)
                sent.value.finished()
                start = page.evaluate("performance.now()")
                painted = page.evaluate(NEW_PICTURE_PAINTED)
                seconds.append((painted - start) / 1000)
            browser.close()
    finally:
        stop_streamlit(process)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--updates", type=int, default=2000)
    parser.add_argument("--browser", action="store_true", help="also time the response's upload to its picture")
    arguments = parser.parse_args()
    rng = random.Random(48)
    response = katago_response(rng)
    print(f"KataGo response, 362 moves + policy ({len(response):,} bytes): "
          f"read_input median {timed(response, arguments.repeats) * 1000:.0f} ms")
    drawn_in, drawn = opened_and_drawn(response, arguments.repeats)
    print(f"  read and drawn ({drawn} nodes at the default budget, tagged SVG): median {drawn_in * 1000:.0f} ms")
    if arguments.browser:
        times = in_the_browser(arguments.repeats)
        print(f"  in chromium, upload sent -> picture painted: median {statistics.median(times) * 1000:.0f} ms, "
              f"max {max(times) * 1000:.0f} ms (n = {len(times)})")
    transcript = kata_analyze_transcript(rng, arguments.updates)
    print(f"kata-analyze transcript, {arguments.updates:,} updates of 30 moves ({len(transcript):,} bytes): "
          f"read_input median {timed(transcript, max(1, arguments.repeats // 5)) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
