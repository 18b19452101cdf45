"""Perft counts: the legal actions 1, 2 and 3 actions below seeded positions are as stored.

``tests/perft/perft.json`` is written by ``tests/perft_counts.py``, whose docstring says
how the positions are chosen and when the file may change.  Every count is recomputed
here; a change in what is legal anywhere in the trees (a card, a declaration, a draw,
the end of a hand) changes some count.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from perft_counts import DEPTH, FORMAT, PERFT, STEPS, counts, games, key, variants
from quick import quick_for_one

from bezique.game import new_game
from bezique.testing import perft


def _stored() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PERFT.read_text(encoding="utf-8"))
    return data


def test_the_file_holds_every_variant_and_game() -> None:
    data = _stored()
    assert (data["format"], data["steps"], data["depth"]) == (FORMAT, list(STEPS), DEPTH)
    assert sorted(data["counts"]) == variants()
    stored = {(v, k) for v, entry in data["counts"].items() for k in entry}
    assert stored == {(v, key(seed, refereed)) for v, seed, refereed in games()}


@pytest.mark.parametrize("variant", quick_for_one(variants()))
def test_perft_counts_are_unchanged(variant: str) -> None:
    entry = _stored()["counts"][variant]
    for name, seed, refereed in games():
        if name == variant:
            assert counts(variant, seed, refereed) == entry[key(seed, refereed)], key(
                seed, refereed
            )


def test_perft_counts_the_leaves_of_the_tree() -> None:
    state = new_game("ordinary", seed=1)
    assert perft(state, 0) == 1
    assert perft(state, 1) == len(state.legal_actions()) == 8  # the leader's eight cards
    # Each lead is answered by any of the other seat's eight cards.
    assert perft(state, 2) == 64
    below = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        below += perft(child, 2)
    assert perft(state, 3) == below
    assert state.history == []  # the tree is walked on copies
