"""Example inputs for the app's "Load an example" menu (plain puzzle text)."""

from __future__ import annotations

import random

# The puzzle statement's example, as the statement prints it.
STATEMENT_EXAMPLE = "3 0.1\nbaa 30\nab 20\nbbb 4\n"

STATEMENT_EXAMPLE_EXPLAINED = (
    "# The puzzle statement's example: UCB1 picks a (mean 20) over b (mean 17) at C = 0.1.\n"
    + STATEMENT_EXAMPLE
)

C_FLIPS_CHOICE = """\
# a is well explored (5 visits, mean 10); b was tried once (mean 8).
# Small C exploits a; drag C past about 2.7 and exploration flips the choice to b.
6 0.5
a 10
b 8
aa 10
ab 10
aba 10
abb 10
"""

EXACT_TIE = """\
# a and b have identical statistics (2 visits, total 12): the UCB1 values are exactly equal,
# and the tie goes to the smaller move, a.
4 1
b 5
a 5
bb 7
aa 7
"""


def deep_tree(playouts: int = 400, seed: int = 7) -> str:
    """A deterministic deep tree: biased random words (a is likelier) with a hidden scoring rule."""
    rng = random.Random(seed)
    lines = [f"# {playouts} biased random playouts over moves a, b, c: a deep, lopsided tree.", f"{playouts} 1.4"]
    for _ in range(playouts):
        word = "".join(rng.choices("abc", weights=(6, 3, 1), k=rng.randint(6, 14)))
        score = 10 * word[:4].count("a") - 5 * word.count("c") + rng.uniform(-8, 8)
        lines.append(f"{word} {score:.1f}")
    return "\n".join(lines) + "\n"


EXAMPLES: dict[str, str] = {
    "Statement example": STATEMENT_EXAMPLE_EXPLAINED,
    "A larger C flips the choice": C_FLIPS_CHOICE,
    "Exact tie: the smaller move wins": EXACT_TIE,
    "Deep tree (400 playouts)": deep_tree(),
}
