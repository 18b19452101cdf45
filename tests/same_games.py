"""Fingerprints of seeded random games of every variant, to compare before and after a change.

A change that should leave the rules alone (a faster search, say) must leave every game
the same.  This script plays, for every registered variant, ``--deals`` deals of seeded
games by the public API (every list of legal actions, in order, goes into the
fingerprint, with each choice and the scores) and as many random playouts of the fast
path (their histories and scores), and prints one fingerprint a variant.  Run it on the
commit before and on the change, with ``PYTHONHASHSEED=0``, and compare::

    PYTHONHASHSEED=0 python tests/same_games.py > before.txt   # on the commit before
    PYTHONHASHSEED=0 python tests/same_games.py > after.txt    # on the change
    diff before.txt after.txt                                  # no output: the same games

It writes nothing but its output.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Callable

from bezique.game import GameState, new_game
from bezique.variant import variant_summaries


def variants() -> list[str]:
    """Every registered variant, sorted (the shipped files and installed plugins' ones)."""
    return sorted(name for name, _ in variant_summaries())


def fingerprint(variant: str, deals: int, seed: int) -> str:
    """The fingerprint of ``deals`` API deals and ``deals`` playouts of ``variant``."""
    digest = hashlib.sha256()
    rng = random.Random(f"same games {variant} {seed}")
    for deal in range(deals):
        state = new_game(variant, seed=seed * 1000 + 2 * deal)
        _api_deal(state, rng, digest.update)
        fast = new_game(variant, seed=seed * 1000 + 2 * deal + 1)
        fast.playout(rng)
        digest.update(repr([str(action) for action in fast.history]).encode())
        digest.update(repr(list(fast.scores)).encode())
    return digest.hexdigest()[:16]


def _api_deal(state: GameState, rng: random.Random, update: Callable[[bytes], None]) -> None:
    """Play one deal by ``legal_actions()``/``apply()``, every list given to ``update``."""
    hand = state.hand_no
    while not state.is_over() and state.hand_no == hand:
        legal = state.legal_actions()
        update(repr([str(action) for action in legal]).encode())
        state.apply(legal[rng.randrange(len(legal))])
    update(repr(list(state.scores)).encode())


def main(argv: list[str] | None = None) -> int:
    """Print ``VARIANT FINGERPRINT`` for every registered variant."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6, help="deals of each kind (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="the games' seed (default 1)")
    args = parser.parse_args(argv)
    for variant in variants():
        print(variant, fingerprint(variant, args.deals, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
