"""Command line: ``python -m mcts_core`` solves the puzzle read from stdin.

``python -m mcts_core sweep --c-min A --c-max B`` reads the same input (the header's C, if any, is
ignored; header-less input is fine) and prints where the selected path changes as C goes over
[A, B): one line per interval, ``c_from c_to path``, in order, floats in ``repr`` precision, a
breakpoint belonging to the interval it starts (see :mod:`mcts_core.sweep`). An empty path (a root
without children) would print as an empty last field, ``0.0 1.5 `` with the trailing space; input
with at least one playout always gives the root a child, so the CLI never prints one.

Bad input exits with status 2 and one line on stderr: ``error: line N: what is wrong``. Bad
arguments exit with status 2 and one line ``error: what is wrong``.
"""

from __future__ import annotations

import argparse
import sys

from .build import build_tree
from .formats.text import ParseError, decode_text, parse_playouts
from .numbers import parse_c
from .puzzle import solve
from .sweep import Interval, sweep


class _Parser(argparse.ArgumentParser):
    """argparse with the CLI's one-line error format."""

    def error(self, message: str):
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _c_argument(text: str) -> float:
    """A C given on the command line: a finite number >= 0."""
    try:
        return parse_c(text)
    except ValueError as error:  # argparse would name the function instead of saying this
        raise argparse.ArgumentTypeError(str(error)) from None


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(prog="python -m mcts_core", description="Solve the MCTS exercise from stdin.")
    parser.add_argument("--c", type=_c_argument, help="exploration constant (overrides the header's C)")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    sweep_parser = commands.add_parser(
        "sweep",
        description="Print the intervals of C over which the selected path is constant.",
        help="print `c_from c_to path` for each interval of C with one selected path",
        allow_abbrev=False,
    )
    sweep_parser.add_argument("--c-min", type=_c_argument, default=0.0, help="start of the C range (default 0)")
    sweep_parser.add_argument("--c-max", type=_c_argument, required=True, help="end of the C range (excluded)")
    arguments = parser.parse_args(argv)
    if arguments.command == "sweep" and not arguments.c_min < arguments.c_max:
        parser.error(
            f"--c-min must be smaller than --c-max, got {arguments.c_min!r} and {arguments.c_max!r}"
        )
    return arguments


def _format_intervals(intervals: list[Interval]) -> str:
    """``c_from c_to path`` lines; an empty path leaves an empty last field (``0.0 1.5 ``)."""
    return "".join(f"{part.c_from!r} {part.c_to!r} {part.path}\n" for part in intervals)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    arguments = _arguments(argv)
    try:
        text = decode_text(sys.stdin.buffer.read())
        if arguments.command == "sweep":
            tree = build_tree(parse_playouts(text))  # the header's C, if any, plays no part
            sys.stdout.write(_format_intervals(sweep(tree, arguments.c_min, arguments.c_max)))
        else:
            print(solve(text, c=arguments.c))
    except ParseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
