"""The ordinary plugin's compiled random trick plays exactly as the card-by-card kernel.

``GameState.playout`` hands whole tricks to the ruleset's compiled random trick
(``bezique_random_trick``) where a plugin offers one.  These tests play whole
games both ways from the same seeds and compare the states, for every preset
that offers it and for the switches the presets do not set.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique.game import new_game, ruleset_for
from bezique.testing import check_random_trick
from bezique.variant import variant_summaries

COMPILED = {
    "ordinary",
    "eb1875",
    "hoyle1909",
    "cards-encyclopedia",
    "modern-article",
    "house-brisques-at-end",
    "house-carte-blanche",
    "house-first-marriage",
    "house-four-of-each-suit",
    "house-swapped-bezique",
}
"""The registered two-hand variants of the ordinary plugin alone, but for the seven on play."""


def test_the_compiled_trick_is_offered_exactly_where_the_ordinary_plugin_alone_rules() -> None:
    offered = {name for name, _ in variant_summaries() if ruleset_for(name).random_trick}
    assert offered == COMPILED


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_whole_games_are_the_same_either_way(name: str) -> None:
    assert check_random_trick(name, games=25, seed=100) >= 25


@pytest.mark.parametrize(
    "overrides",
    [
        {"declarations": {"per_trick": "compound"}},
        {"declarations": {"new_card_required": False}},
        {"endgame": {"must_win": False}},
        {"endgame": {"follow_suit": False}},
        {"endgame": {"must_trump": False}},
        {"last_trick": {"which": "final", "points": 20}},
        {"game": {"check": "hand_end", "target": 600}},
        {"game": {"target": 300}},
        {"cards": {"packs": 4}},
        {"cards": {"packs": 3}, "deal": {"packets": [3, 3, 3], "hand_size": 9}},
    ],
    ids=lambda o: str(o),
)
def test_switches_the_presets_leave_alone_play_the_same(overrides: dict[str, Any]) -> None:
    assert check_random_trick("ordinary", games=15, seed=7, overrides=overrides) >= 15


def test_a_playout_of_some_hands_stops_where_the_card_by_card_one_does() -> None:
    rules = ruleset_for("ordinary")
    for seed in range(20):
        fast, slow = new_game(rules, seed=seed), new_game(rules, seed=seed)
        for _ in range(3):
            made = fast.playout(random.Random(seed), hands=1)
            assert made == slow.playout(random.Random(seed), hands=1, compiled=False)
            assert fast.to_json() == slow.to_json()
            assert fast.legal_actions() == slow.legal_actions()
            if fast.is_over():
                break


def test_a_game_played_out_from_the_middle_of_a_turn_agrees() -> None:
    rules = ruleset_for("ordinary")
    for seed in range(40):
        fast = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while fast.phase != "turn":  # the API to a trick winner's turn
            fast.apply(fast.legal_actions()[int(rng.random() * len(fast.legal_actions()))])
        slow = fast.clone()
        fast.playout(random.Random(seed), hands=None)
        slow.playout(random.Random(seed), hands=None, compiled=False)
        assert fast.to_json() == slow.to_json()


def test_no_compiled_trick_where_another_plugin_or_the_seven_on_play_may_change_a_hook() -> None:
    assert ruleset_for("polish").random_trick is None
    assert ruleset_for("three-hand").random_trick is None
    assert ruleset_for("house-seven-on-play").random_trick is None


def test_check_random_trick_refuses_a_variant_without_one() -> None:
    with pytest.raises(AssertionError, match="no plugin offers"):
        check_random_trick("polish", games=1)
