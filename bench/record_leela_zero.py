"""Record the real Leela Zero's outputs that the tests read: a search dump and an lz-analyze transcript.

    python bench/record_leela_zero.py [--leelaz /usr/games/leelaz] [--out tests/data/engines]

On the tiny random network of :mod:`bench.harness.leela_zero` (written to a temporary file), after
``play b D4``, ``play w Q16``, ``play b Q4``:
- ``leela_zero_dump.txt``: leelaz's whole stderr for ``genmove w`` then ``genmove b`` at 200 visits
  (two search dumps, each with its NN eval line);
- ``leela_zero_lz_analyze.txt``: the GTP transcript (each command, then the engine's response) of
  ``lz-analyze 1`` at 1,000 visits: one update a centisecond until the search stops.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness.leela_zero import leelaz_command, tiny_network  # noqa: E402

SETUP = ("play b D4", "play w Q16", "play b Q4")


def record_dump(leelaz: str, weights: str) -> str:
    """leelaz's stderr for two genmoves after :data:`SETUP`."""
    commands = "".join(f"{command}\n" for command in (*SETUP, "genmove w", "genmove b", "quit"))
    run = subprocess.run(leelaz_command(leelaz, weights, visits=200), input=commands, capture_output=True,
                         text=True, check=True)
    return run.stderr


def record_lz_analyze(leelaz: str, weights: str) -> str:
    """The transcript of ``lz-analyze 1`` after :data:`SETUP`, until the visit limit ends it."""
    engine = subprocess.Popen(leelaz_command(leelaz, weights, visits=1000), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    transcript = []
    for command in (*SETUP, "lz-analyze 1"):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()  # one command at a time: pending input would stop the analysis at once
        transcript.append(command + "\n")
        while (line := engine.stdout.readline()) not in ("\n", ""):  # a response ends with a blank line
            transcript.append(line)
        transcript.append("\n")
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait()
    return "".join(transcript)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leelaz", default="/usr/games/leelaz")
    parser.add_argument("--out", type=Path, default=Path("tests/data/engines"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        weights = str(Path(folder) / "tiny.txt")
        Path(weights).write_text(tiny_network())
        (args.out / "leela_zero_dump.txt").write_text(record_dump(args.leelaz, weights))
        (args.out / "leela_zero_lz_analyze.txt").write_text(record_lz_analyze(args.leelaz, weights))


if __name__ == "__main__":
    main()
