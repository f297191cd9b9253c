"""Record real KataGo analysis-engine responses for the tests (not CI: it needs KataGo and a network).

Runs ``katago analysis`` once, on the CPU through OpenCL (pocl), with one search thread and a fixed
network symmetry (``nnRandomize = false``), so a search is deterministic: the queries of one
position with budgets 1, 2, 3, ... visits are the same search stopped one visit later each time, and
the child that gains the visit from one budget to the next is the one KataGo's selection picked.
Selection is made exact to KataGo's printed numbers by ``overrideSettings``:
``cpuctUtilityStdevScale`` 0 (the output has no utility spread), ``useUncertainty`` false (a visit's
weight is 1, so weights are visits), ``fpuParentWeightByVisitedPolicy`` false (the first-play value
starts from the root's utility, not a blend with the raw network's), ``useNoisePruning`` false and
``rootSymmetryPruning`` false (every move searched, none copied from a symmetric one), and
``wideRootNoise`` 0 (the analysis engine's default 0.04 adds a random bonus to root children).

Writes ``tests/data/engines/katago_budgets.jsonl`` (every budget of two 9x9 positions, White and
Black to move) and ``katago_during_search.jsonl`` (a 19x19 query of 300 visits with
``reportDuringSearchEvery``: 12 of its reports, evenly spaced, and its final response), each with ``includePolicy`` and ``includePVVisits``, each line KataGo's
own, in the order KataGo wrote them; and ``katago_genmove_analyze.txt``, the GTP engine's transcript
of a ``kata-genmove_analyze`` on the 9x9 White-to-move position (:data:`GTP_COMMANDS`).

Usage (KataGo 1.18.1's Linux AppImage and network from ``pip download --no-deps katrain==1.20.0``,
unzipped; Debian's ``ocl-icd-libopencl1`` and ``pocl-opencl-icd``)::

    APPIMAGE_EXTRACT_AND_RUN=1 nice -n 19 python bench/record_katago.py \\
        --katago /tmp/kg/katrain/KataGo/katago --model /tmp/kg/katrain/models/b10c384h6nbttflrs.bin.gz

KataGo's OpenCL tuner is skipped with a tune file of untuned defaults (``openclTunerFile``): tuning on
pocl took about 25 minutes and then crashed, and the defaults only cost speed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "engines"

# An untuned OpenCL parameter file: the version line, 8 FP16 switches off, 13 kernels at their defaults
# (a line with an unknown key keeps every default).
TUNE_FILE = "VERSION=13\n" + "0\n" * 8 + "UNTUNED=1\n" * 13

CONFIG = """\
reportAnalysisWinratesAs = BLACK
numAnalysisThreads = 1
numSearchThreads = 1
nnMaxBatchSize = 1
nnCacheSizePowerOfTwo = 18
nnRandomize = false
logToStderr = false
logAllResponses = false
openclTunerFile = {tune}
"""

EXACT = {
    "cpuctUtilityStdevScale": 0.0,
    "useUncertainty": False,
    "fpuParentWeightByVisitedPolicy": False,
    "useNoisePruning": False,
    "rootSymmetryPruning": False,
    "wideRootNoise": 0.0,
}

# 9x9 positions for the budgets (small lines, fast evaluations): name -> moves; three moves: White
# to move, four: Black to move.
POSITIONS = {
    "white": [["B", "E5"], ["W", "C4"], ["B", "G4"]],
    "black": [["B", "E5"], ["W", "C4"], ["B", "G4"], ["W", "D6"]],
}
OPENING = [["B", "Q16"], ["W", "D4"], ["B", "Q3"], ["W", "C16"], ["B", "R5"]]  # 19x19, White to move


def query(query_id: str, moves: list, visits: int, size: int = 9, **extra) -> dict:
    """One analysis query of the position after ``moves`` (Chinese rules, komi 7), with its policy."""
    return {"id": query_id, "moves": moves, "rules": "chinese", "komi": 7.0, "boardXSize": size,
            "boardYSize": size, "maxVisits": visits, "analysisPVLen": 5, "includePVVisits": True,
            "includePolicy": True, "overrideSettings": EXACT, **extra}


def run(katago: str, model: str, queries: list[dict]) -> list[str]:
    """KataGo's response lines to ``queries``, in the order it wrote them."""
    with tempfile.TemporaryDirectory() as folder:
        tune = Path(folder) / "tune.txt"
        tune.write_text(TUNE_FILE)
        config = Path(folder) / "analysis.cfg"
        config.write_text(CONFIG.format(tune=tune))
        text = "".join(json.dumps(q, separators=(",", ":")) + "\n" for q in queries)
        done = subprocess.run([katago, "analysis", "-config", str(config), "-model", model],
                              input=text, capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line.strip()]


GTP_COMMANDS = [  # the 9x9 "white" position, then a kata-analyze stream of a genmove (2 s apart)
    "boardsize 9", "komi 7", "play B E5", "play W C4", "play B G4",
    "kata-genmove_analyze W 200 rootInfo true pvVisits true", "quit",
]


def gtp_config(tune: Path) -> str:
    """The GTP engine's config: the analysis one (but winrates for the side to move, GTP's default), a
    200-visit genmove, the exact settings as keys."""
    exact = "".join(f"{name} = {str(value).lower()}\n" for name, value in EXACT.items())
    analysis_only = ("numAnalysisThreads = 1\n", "reportAnalysisWinratesAs = BLACK\n")
    config = CONFIG.format(tune=tune)
    for line in analysis_only:
        config = config.replace(line, "")
    return (config + exact
            + "maxVisits = 200\nrules = chinese\nlogAllGTPCommunication = false\nlogSearchInfo = false\n")


def run_gtp(katago: str, model: str) -> list[str]:
    """KataGo's GTP transcript (its standard output) for :data:`GTP_COMMANDS`."""
    with tempfile.TemporaryDirectory() as folder:
        tune = Path(folder) / "tune.txt"
        tune.write_text(TUNE_FILE)
        config = Path(folder) / "gtp.cfg"
        config.write_text(gtp_config(tune))
        done = subprocess.run([katago, "gtp", "-config", str(config), "-model", model],
                              input="\n".join(GTP_COMMANDS) + "\n", capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--katago", required=True, help="the katago program")
    parser.add_argument("--model", required=True, help="the network file")
    parser.add_argument("--budgets", type=int, default=80, help="budgets 1..N visits per position")
    parser.add_argument("--gtp-only", action="store_true", help="record only the GTP transcript")
    arguments = parser.parse_args()
    if not arguments.gtp_only:
        budgets = [query(f"{name}-{visits}", moves, visits) for name, moves in POSITIONS.items()
                   for visits in range(1, arguments.budgets + 1)]
        write("katago_budgets.jsonl", run(arguments.katago, arguments.model, budgets))
        during = query("during", OPENING, 300, size=19, reportDuringSearchEvery=1.0)
        write("katago_during_search.jsonl", thinned(run(arguments.katago, arguments.model, [during])))
    write("katago_genmove_analyze.txt", run_gtp(arguments.katago, arguments.model))


def thinned(lines: list[str], kept: int = 12) -> list[str]:
    """``kept`` of the reports made during the search, evenly spaced, then the final response: on
    this machine's CPU a second passes between few visits, so the search reports hundreds of times."""
    during, final = lines[:-1], lines[-1:]
    step = max(1, len(during) // kept)
    return during[step - 1::step][-kept:] + final


def write(name: str, lines: list[str]) -> None:
    (DATA / name).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
