"""The shortcuts of the ordinary plugin's turn listing give what the plain rules give.

The declaring role's ``turn_actions`` skips ``form_refusal`` when nothing can be refused,
skips the de-duplication of forms when no two can be alike, and finds the
seven of trumps from the hand's bitboard.  These tests visit every trick
winner's turn of random games and compare each list with the plain way: every
form through the refusal, no two declarations alike by copy keys, and the
seven found by reading the hand in order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bezique.actions import Action, Kind
from bezique.game import TURN, GameState, new_game, ruleset_for
from bezique.plugins.ordinary import (
    Combination,
    OrdinaryDeclarations,
    announced,
    combination_forms,
    copy_groups,
    quick_tests,
    sevens_scored,
    tables,
    tables_of,
    this_turn,
)
from bezique.plugins.ordinary.forms import forms_of_single_copies
from bezique.rules.ruleset import Ruleset


def plain_role(rules: Ruleset) -> OrdinaryDeclarations:
    """The variant's declaring role, made to check every form (never skipping refusals)."""
    role = rules.declaring
    assert isinstance(role, OrdinaryDeclarations)

    class Plain(type(role)):  # type: ignore[misc]
        def refuses_nothing(self, state: GameState, player: int) -> bool:
            return False

    return Plain(rules)


VARIANTS = ["ordinary", "hoyle1909", "house-first-marriage", "grand", "three-hand", "polish"]
"""One of each way of declaring: several a trick, one a trick with announcements,
trumps by marriage, re-declaration, three hands, and the Polish game."""


def turns(name: str, games: int, seed: int) -> Iterator[GameState]:
    """Every state where a trick's winner is to act, in random games of ``name``."""
    rules = ruleset_for(name)
    rng = random.Random(seed)
    for game in range(games):
        state = new_game(rules, seed=seed + game)
        while not state.is_over():
            if state.phase == TURN:
                yield state
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])


def plain_sevens(state: GameState, player: int) -> list[Action]:
    """The seven of trumps' actions read off the hand: its first unscored seven of trumps."""
    t = tables(state)
    if not t.sevens_declared or state.trump < 0:
        return []
    seven = state.deck.face(t.seven_rank, state.trump)
    face_of = state.deck.card_face
    for card in state.hands[player]:
        if face_of[card] == seven and card not in sevens_scored(state):
            show = Action(Kind.SHOW, (card,))
            if state.turn_up >= 0 and face_of[state.turn_up] != seven:
                return [Action(Kind.EXCHANGE, (card,)), show]
            return [show]
    return []


@pytest.mark.parametrize("name", VARIANTS)
def test_turn_lists_match_the_plain_rules(name: str) -> None:
    visited = refusals_skipped = 0
    role = ruleset_for(name).declaring
    plain_turn = plain_role(ruleset_for(name))
    assert isinstance(role, OrdinaryDeclarations)
    for state in turns(name, games=6, seed=40):
        player = state.to_act
        fast = role.turn_actions(state, player)
        plain = plain_turn.turn_actions(state, player)  # never skips refusals
        assert fast == plain
        keys = [
            (a.combo, tuple(sorted(state.card_key[c] for c in a.cards)))
            for a in fast
            if a.kind in (Kind.DECLARE, Kind.ANNOUNCE)
        ]
        assert len(keys) == len(set(keys)), "two declarations alike by copy keys"
        assert role.seven_actions(state, player) == plain_sevens(state, player)
        visited += 1
        refusals_skipped += not (
            this_turn(state).scored or state.declared_bits & state.held[player]
        )
    assert visited > 50
    assert refusals_skipped > 10


@pytest.mark.parametrize("name", ["ordinary", "grand", "house-four-of-each-suit"])
def test_the_quick_yes_or_no_agrees_with_the_full_quick_test(name: str) -> None:
    # any_with keeps each card's verdict by the partners held: asked twice over
    # random hands, it must still say what possible() says.
    t = tables_of(ruleset_for(name))
    rng = random.Random(5)
    found = 0
    for trump in range(4):
        tests = quick_tests(t, trump)
        for _ in range(2):
            for _ in range(1500):
                hand = rng.sample(range(t.deck.size), 12)
                held = sum(1 << c for c in hand)
                fresh = sum(1 << c for c in hand[: rng.randrange(1, 5)])
                expected = bool(tests.possible(held, fresh))
                assert tests.any_with(held, fresh) == expected
                found += expected
    assert found > 500


def plain_forms(
    state: GameState, combos: list[Combination], player: int, apart: bool
) -> list[tuple[Combination, tuple[int, ...]]]:
    """Every form of ``combos`` from the hand's groups of interchangeable copies."""
    groups = copy_groups(state, state.hands[player], apart)
    found = []
    for combo in combos:
        found += combination_forms(state, combo, groups)
    return found


@pytest.mark.parametrize("name", VARIANTS)
def test_forms_read_off_the_bitboard_are_the_groups_own(name: str) -> None:
    # Where no face is held twice the forms are read off the bitboard; they must be
    # the forms the groups of interchangeable copies give, in the same order.
    read = grouped = 0
    roles = {}
    for apart in (False, True):

        class Role(OrdinaryDeclarations):
            table_cards_apart = apart

        roles[apart] = Role(ruleset_for(name))
    for state in turns(name, games=6, seed=41):
        player = state.to_act
        t = tables(state)
        combos = t.combinations(state)
        for apart in (False, True):
            expected = plain_forms(state, combos, player, apart)
            found = roles[apart].candidates(state, player, combos)
            assert found[: len(expected)] == expected  # then the announced forms still standing
            assert len(found) - len(expected) <= len(announced(state)[player])
        for combo in combos:
            single = forms_of_single_copies(t, combo, state.held[player])
            if single is None:
                grouped += 1
            elif single:
                read += 1
    assert read > 30
    assert grouped > 30
