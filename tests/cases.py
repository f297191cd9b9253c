"""Random puzzle inputs for agreement tests (seeded, so failures reproduce)."""

import random


def random_puzzle(rng: random.Random) -> str:
    """A puzzle input within the statement's limits, biased towards ties and shared prefixes."""
    alphabet = "abcdefghi"[: rng.randint(2, 9)]
    count = rng.randint(1, 499 if rng.random() < 0.2 else 60)
    max_length = rng.choice([2, 4, 8, 49])
    style = rng.choice(["decimal", "integer", "tiny-set"])
    pool = [f"{rng.choice(alphabet)}{''.join(rng.choices(alphabet, k=3))}" for _ in range(5)]
    lines = [f"{count} {_random_c(rng)}"]
    for _ in range(count):
        if rng.random() < 0.15:
            word = rng.choice(pool)  # duplicate playouts
        else:
            word = "".join(rng.choices(alphabet, k=rng.randint(1, max_length)))
        lines.append(f"{word} {_random_score(rng, style)}")
    return "\n".join(lines) + "\n"


def _random_c(rng: random.Random) -> str:
    return rng.choice(
        ["0", "0.0", "1", "1000", str(round(rng.uniform(0, 3), 3)), str(round(rng.uniform(0, 1000), 2))]
    )


def _random_score(rng: random.Random, style: str) -> str:
    if style == "decimal":
        return str(round(rng.uniform(-100.0, 100.0), rng.choice([0, 1, 2])))
    if style == "integer":
        return str(rng.randint(-100, 100))
    return rng.choice(["0", "1", "-1", "10", "0.1", "-0.1"])
