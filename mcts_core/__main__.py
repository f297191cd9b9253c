"""Command line: ``python -m mcts_core`` solves the puzzle read from stdin.

Bad input exits with status 2 and one line on stderr: ``error: line N: what is wrong``.
"""

from __future__ import annotations

import argparse
import math
import sys

from .playouts import ParseError, decode_text
from .puzzle import solve


class _Parser(argparse.ArgumentParser):
    """argparse with the CLI's one-line error format."""

    def error(self, message: str):
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _finite_c(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"C must be a finite number >= 0, got {text!r}")
    return value


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(prog="python -m mcts_core", description="Solve the MCTS exercise from stdin.")
    parser.add_argument("--c", type=_finite_c, help="exploration constant (overrides the header's C)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    arguments = _arguments(argv)
    try:
        text = decode_text(sys.stdin.buffer.read())
        print(solve(text, c=arguments.c))
    except ParseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
