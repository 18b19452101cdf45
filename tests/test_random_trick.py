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

from bezique.actions import Action, Kind
from bezique.game import GAME_OVER, TURN, GameState, new_game, ruleset_for
from bezique.plugins.ordinary_trick import NextActions, compile_next_actions
from bezique.testing import check_random_trick, play_out, scenario
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


def test_the_next_list_is_offered_only_where_the_ordinary_plugin_alone_lists_turns() -> None:
    with pytest.raises(ValueError, match="polish"):
        compile_next_actions(ruleset_for("polish"))


def test_check_random_trick_refuses_a_variant_without_one() -> None:
    with pytest.raises(AssertionError, match="no plugin offers"):
        check_random_trick("polish", games=1)


def texts(state: GameState, actions: list[Action]) -> list[str]:
    """Actions as texts, in their order."""
    return [state.action_text(a) for a in actions]


@pytest.mark.parametrize(
    "name, overrides",
    [
        ("ordinary", None),
        ("hoyle1909", None),  # one combination a trick, the others announced
        ("house-first-marriage", None),  # trumps named by the first marriage
        ("ordinary", {"declarations": {"per_trick": "compound"}}),
        ("ordinary", {"declarations": {"new_card_required": False}}),
    ],
)
def test_the_list_after_each_turn_action_is_the_hooks_own(
    name: str, overrides: dict[str, Any] | None
) -> None:
    # At every trick winner's turn of random games, each listed action is applied
    # to a copy; the list made from the last one must be the hook's list afresh.
    rules = ruleset_for(name, overrides)
    next_actions = compile_next_actions(rules)
    rng = random.Random(3)
    tried = {kind: 0 for kind in Kind}
    for game in range(8):
        state = new_game(rules, seed=game)
        while not state.is_over():
            if state.phase == TURN:
                seat = state.to_act
                actions = rules.turn_actions(state, seat)
                for action in actions:
                    after = state.clone()
                    after.apply(action)
                    if after.phase != GAME_OVER:
                        assert next_actions(after, seat, action, actions) == (
                            rules.turn_actions(after, seat)
                        )
                        tried[action.kind] += 1
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
    assert tried[Kind.DECLARE] > 20
    assert tried[Kind.SHOW] + tried[Kind.EXCHANGE] > (20 if name != "house-first-marriage" else -1)


def first_trick_won(
    variant: str, seat0: list[str], seat1: list[str], turn_up: str, plays: list[str]
) -> tuple[GameState, NextActions, list[Action]]:
    """Seat 1 deals; ``plays`` give seat 0 the first trick (and may go on into his
    turn).  Return the state, the variant's next-list function and his turn actions."""
    state = scenario(variant, hands=[seat0, seat1], turn_up=turn_up, dealer=1)
    play_out(state, plays)
    return state, compile_next_actions(state.rules), state.rules.turn_actions(state, 0)


def test_the_seven_shown_or_exchanged_leaves_the_declarations_listed() -> None:
    # Trumps hearts (KH turned up).  Seat 0 wins the first trick holding both sevens
    # of hearts, the queen of hearts and the king and queen of spades.
    state, next_actions, actions = first_trick_won(
        "ordinary",
        ["7H", "7H", "QH", "KS", "QS", "AC", "9D", "8D"],
        ["9C", "8S", "7S", "9S", "8C", "7C", "7D", "9H"],
        "KH",
        ["play AC", "play 9C"],
    )
    assert texts(state, actions) == ["exchange 7H", "show 7H", "declare marriage KS QS"]
    state.apply(actions[1])  # the first seven shown: the second may be exchanged or shown
    shown = next_actions(state, 0, actions[1], actions)
    assert texts(state, shown) == ["exchange 7H", "show 7H", "declare marriage KS QS"]
    assert shown[0].cards != actions[0].cards
    assert shown == state.rules.turn_actions(state, 0)
    state.apply(shown[0])  # KH taken for the second may not join QH in this turn (A13)
    exchanged = next_actions(state, 0, shown[0], shown)
    assert texts(state, exchanged) == ["declare marriage KS QS"]
    assert exchanged == state.rules.turn_actions(state, 0)


def test_a_declared_card_leaves_its_twin_to_the_next_list() -> None:
    # Trumps clubs (9C turned up).  Seat 0 wins the first trick with both kings of
    # hearts, the queen of hearts and the other three kings.
    state, next_actions, actions = first_trick_won(
        "ordinary",
        ["KH", "KH", "QH", "KS", "KD", "KC", "AD", "9S"],
        ["9D", "8S", "7S", "8H", "8C", "7C", "7D", "9H"],
        "9C",
        ["play AD", "play 9D"],
    )
    marriage = actions[0]
    assert texts(state, [marriage]) == ["declare marriage KH QH"]
    state.apply(marriage)
    # Four kings may still be declared with the other king of hearts (S0: several
    # combinations after one trick, sharing no card).
    after = next_actions(state, 0, marriage, actions)
    assert texts(state, after) == ["declare four_kings KS KH KD KC"]
    assert not set(after[0].cards) & set(marriage.cards)
    assert after == state.rules.turn_actions(state, 0)


def test_the_seven_shown_after_a_declaration_keeps_the_announcements_listed() -> None:
    # hoyle1909 scores one combination a trick; the others may be announced.
    # Trumps hearts (KH turned up); seat 0 wins the first trick.
    state, next_actions, actions = first_trick_won(
        "hoyle1909",
        ["7H", "KS", "QS", "JD", "AC", "9D", "8D", "9S"],
        ["9C", "8S", "7S", "8H", "8C", "7C", "7D", "9H"],
        "KH",
        ["play AC", "play 9C", "declare marriage KS QS"],
    )
    assert texts(state, actions) == ["exchange 7H", "show 7H", "announce bezique QS* JD"]
    state.apply(actions[1])
    after = next_actions(state, 0, actions[1], actions)
    assert texts(state, after) == ["announce bezique QS* JD"]
    assert after == state.rules.turn_actions(state, 0)
