"""A view's observation, written from the view alone, is the game's observation of its seat.

:class:`~bezique.engine.views.View` writes its ``observation`` only when read, from what the
view holds (never the game's state): it must be :func:`~bezique.engine.views.observation` of
the state for the seat, for every seat (to act or not), in every phase.  Positions are
taken along a random game of every shipped variant to its end (the question before the
first lead of six-pack-lift, Polish open rows), along a stacked four-hand game where a
seat's legal declarations take his partner's declared cards (``QS@``), and in a refereed
game's remedies (whose choices name cards only the plugin shows).
"""

from __future__ import annotations

import random

import pytest

from bezique.game import GAME_OVER, GameState, new_game
from bezique.testing import scenario
from bezique.variant import variant_summaries

VARIANTS = [name for name, _ in variant_summaries()]
EVERY = 7
"""Positions checked along each game: every ``EVERY``-th, and the last."""


def assert_views_observe(state: GameState) -> None:
    """Every seat's view observes what the state shows the seat."""
    for seat in range(state.players):
        view = state.view(seat)
        assert view.observation == state.observation(seat), (state.phase, seat)
        assert view.observation is view.observation  # written once


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_views_observation_is_the_states(variant: str) -> None:
    rng = random.Random(variant)
    state = new_game(variant, seed=rng.randrange(1 << 30))
    phases = set()
    step = 0
    while not state.is_over():
        if step % EVERY == 0:
            assert_views_observe(state)
            phases.add(state.phase)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    assert_views_observe(state)
    assert state.phase == GAME_OVER and "play" in phases
    if variant == "six-pack-lift":
        assert "question" in phases


@pytest.mark.parametrize(
    "irregularity",
    ["irregular dealt_too_many 0 2", "irregular exposed_card {card}"],
)
def test_a_views_observation_is_the_states_in_a_refereed_games_remedy(
    irregularity: str,
) -> None:
    state = new_game("ordinary", seed=3, referee=True)
    assert_views_observe(state)
    state.apply(irregularity.format(card=state.deck.card_text(state.hands[0][0])))
    rng = random.Random(3)
    assert state.phase == "remedy"
    while state.phase == "remedy":  # the choices, as the plugin shows them
        assert_views_observe(state)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    for _ in range(40):
        assert_views_observe(state)
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_a_views_observation_is_the_states_with_a_partners_declared_cards() -> None:
    """Seat 3 declares a bezique; seat 1, his partner, may take it into a double."""
    state = scenario(
        "four-hand-partners",
        hands=[
            ["7C", "8C", "9C", "7D", "8D", "9D", "7S", "8S"],
            ["AH", "AH", "QS", "JD", "9S", "9S", "TC", "TD"],
            ["7C", "8C", "9C", "KC", "QC", "9D", "7S", "8S"],
            ["QS", "JD", "7C", "8C", "9C", "7D", "8D", "9D"],
        ],
        turn_up="9H",
        stock=["8S", "7S", "9S", "8D", "7H", "8H", "7H", "8H"],
    )
    for text in (
        *("play AH", "play 7C", "play 7C", "play 7C"),
        *("draw", "declare bezique QS JD", "draw"),
        *("play AH", "play 8C", "play 8C", "play 8C"),
    ):
        assert_views_observe(state)
        state.apply(text)
    assert_views_observe(state)
    assert "declare double_bezique QS QS@ JD JD@" in state.view(1).observation["legal"]
