"""Perft counts: the legal actions 1, 2 and 3 actions below seeded positions of every variant.

As chess engines check their move generators against perft counts, ``tests/perft/perft.json``
holds, for positions of every registered variant (every file in ``variants/`` and the
third-party eight-pack), the number of legal actions at depth 1, 2 and 3 below it, summed
over the tree (``bezique.testing.perft``).  A position is a game of seed ``SEEDS`` after
``STEPS`` actions drawn at random (``random.Random(f"perft {variant} {seed}")``) among the
legal ones, in play and in a refereed game (seed 1); chance below it goes as the game's
seed and stock say.  ``tests/test_perft.py`` recomputes every count and compares.

The file changes only in a commit that changes a rule deliberately or fixes a defect in
what is legal, and that commit says which counts change and why; never to make the test
pass otherwise.  Regenerate it with::

    python tests/perft_counts.py
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bezique.game import GameState, new_game
from bezique.testing import perft
from bezique.variant import variant_summaries

PERFT = Path(__file__).resolve().parent / "perft" / "perft.json"
FORMAT = "bezique-perft/1"
SEEDS = (1, 2, 3)
REFEREED_SEEDS = (1,)
STEPS = (0, 9, 40, 120)
"""The numbers of random actions before each position (all in one game)."""
DEPTH = 3
MAX_LEAVES = 20_000
"""A position's count at the deepest depth may not exceed this (the file's bound on size)."""


def variants() -> list[str]:
    """Every registered variant, sorted (the shipped files and installed plugins' ones)."""
    return sorted(name for name, _ in variant_summaries())


def positions(variant: str, seed: int, refereed: bool) -> Iterator[tuple[int, GameState]]:
    """The positions of one game: after each number of random actions of :data:`STEPS`."""
    state = new_game(variant, seed=seed, referee=refereed)
    rng = random.Random(f"perft {variant} {seed}")
    played = 0
    for steps in STEPS:
        while played < steps and not state.is_over():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            played += 1
        yield steps, state


def counts(variant: str, seed: int, refereed: bool) -> dict[str, list[int]]:
    """For each position of :func:`positions`, its counts at depths 1 to :data:`DEPTH`."""
    found = {}
    for steps, state in positions(variant, seed, refereed):
        found[str(steps)] = [perft(state, depth) for depth in range(1, DEPTH + 1)]
        if found[str(steps)][-1] > MAX_LEAVES:
            raise AssertionError(f"{variant} seed {seed} after {steps}: more than {MAX_LEAVES}")
    return found


def games() -> Iterator[tuple[str, int, bool]]:
    """Every game the file holds: variant, seed, refereed."""
    for variant in variants():
        for seed in SEEDS:
            yield variant, seed, False
        for seed in REFEREED_SEEDS:
            yield variant, seed, True


def key(seed: int, refereed: bool) -> str:
    """The key of one game in a variant's entry: ``seed 1``, ``refereed seed 1``."""
    return f"{'refereed ' if refereed else ''}seed {seed}"


def perft_file() -> dict[str, Any]:
    """The whole file: its format, the positions' recipe and every count."""
    table: dict[str, dict[str, Any]] = {}
    for variant, seed, refereed in games():
        table.setdefault(variant, {})[key(seed, refereed)] = counts(variant, seed, refereed)
    return {"format": FORMAT, "steps": list(STEPS), "depth": DEPTH, "counts": table}


def main() -> int:
    """Write :data:`PERFT` again."""
    PERFT.parent.mkdir(exist_ok=True)
    data = perft_file()
    lines = ",\n".join(
        f"  {json.dumps(variant)}: {json.dumps(entry)}" for variant, entry in data["counts"].items()
    )
    head = json.dumps({k: v for k, v in data.items() if k != "counts"})
    PERFT.write_text(f'{head[:-1]}, "counts": {{\n{lines}\n}}}}\n', encoding="utf-8")
    print(PERFT.relative_to(PERFT.parent.parent.parent), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
