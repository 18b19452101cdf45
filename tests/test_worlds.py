"""A seat's view holds nothing it has not seen, and the worlds sampled from it agree with it.

* The view is a function of what the seat has seen: two games that differ only in
  cards the seat has not seen (another hand's unseen card swapped with a stock card,
  or two other hands' unseen cards swapped) give the same view, observation included.
* A view holds no game state: its slots hold plain data and the (public) rules.
* ``sample_world`` never places a card where the view proves it is not: the seat's
  own hand and every card seen in a hand are where they are; the world's hands and
  stock hold exactly the cards the real game's do, in hands of the real sizes; the
  turn-up, the table and the scores are the game's; the seat's legal actions are the
  game's; and in the end-game no card goes to a seat whose play showed it does not
  hold it (and the real hands never hold such a card: the inference is sound).

Positions are taken along random games of every shipped variant.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique.game import GameState, new_game
from bezique.pluginstate import write_extra, write_turn
from bezique.ruleset import Ruleset
from bezique.variant import variant_summaries
from bezique.views import View
from bezique.worlds import WorldSampler, sample_world

VARIANTS = [name for name, _ in variant_summaries()]
POSITIONS = 24
"""Positions checked per variant (along random games, every few actions)."""


def positions(variant: str, seed: int, count: int = POSITIONS) -> list[GameState]:
    """``count`` positions of random games of ``variant``, every few actions, to the end."""
    rng = random.Random(seed)
    found: list[GameState] = []
    state = new_game(variant, seed=seed)
    while len(found) < count:
        if state.is_over():
            state = new_game(variant, seed=rng.randrange(1 << 30))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        if rng.random() < 0.08 and not state.is_over():
            found.append(state.clone())
    return found


def swapped_unseen(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A copy of ``state`` where two cards ``seat`` has not seen trade places, or None."""
    view = state.view(seat)
    unseen = set(view.unseen)
    spots: list[tuple[list[int], int]] = []
    for other, hand in enumerate(state.hands):
        if other != seat:
            spots += [(hand, i) for i, card in enumerate(hand) if card in unseen]
    spots += [(state.stock, i) for i in range(len(state.stock))]
    for _ in range(20 if len(spots) > 1 else 0):
        (a, i), (b, j) = rng.sample(spots, 2)
        if a is b or state.deck.card_face[a[i]] == state.deck.card_face[b[j]]:
            continue
        twin = state.clone()
        places = {id(state.stock): twin.stock}
        places.update({id(h): t for h, t in zip(state.hands, twin.hands, strict=True)})
        ta, tb = places[id(a)], places[id(b)]
        ta[i], tb[j] = tb[j], ta[i]
        twin._count_hands()
        twin.mark_changed()
        return twin
    return None


def view_data(view: View) -> dict[str, Any]:
    """Everything a view holds, for comparing two views."""
    return {
        "known": view.known,
        "hidden": view.hidden,
        "unseen": view.unseen,
        "observation": view.observation,
        "fields": {
            key: write_turn(value)
            if key == "turn"
            else write_extra(value)
            if key == "extra"
            else value
            for key, value in view.position.items()
        },
    }


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_view_does_not_change_with_the_cards_its_seat_has_not_seen(variant: str) -> None:
    rng = random.Random(7)
    swaps = 0
    for state in positions(variant, 101):
        for seat in range(state.players):
            twin = swapped_unseen(state, seat, rng)
            if twin is None:
                continue
            swaps += 1
            assert twin.hands != state.hands or twin.stock != state.stock
            assert view_data(twin.view(seat)) == view_data(state.view(seat))
    assert swaps >= POSITIONS  # the positions had unseen cards to swap


def test_a_view_holds_plain_data_and_the_rules_only() -> None:
    state = positions("ordinary", 5, 1)[0]
    view = state.view(0)
    seen: set[int] = set()

    def walk(value: object) -> None:
        if id(value) in seen or isinstance(value, (Ruleset, str, int, float, bool)):
            return
        seen.add(id(value))
        assert not isinstance(value, GameState)
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                walk(item)
        elif hasattr(value, "__dict__"):
            walk(vars(value))
        elif hasattr(value, "__slots__"):
            for name in value.__slots__:
                walk(getattr(value, name, None))

    for name in View.__slots__:
        walk(getattr(view, name))


def check_world(state: GameState, seat: int, world: GameState, sampler: WorldSampler) -> None:
    """The checks of the module's docstring for one world of ``seat``'s view of ``state``."""
    view = sampler.view
    assert world.hands[seat] == state.hands[seat]
    for other in range(state.players):
        assert set(view.known[other]) <= set(world.hands[other])
        assert len(world.hands[other]) == len(state.hands[other])
        assert not set(world.hands[other]) & sampler.excluded[other]
        assert not set(state.hands[other]) & sampler.excluded[other]  # sound
    real = sorted([c for h in state.hands for c in h] + state.stock)
    assert sorted([c for h in world.hands for c in h] + world.stock) == real
    assert len(world.stock) == len(state.stock)
    assert (world.turn_up, world.trump, world.scores) == (state.turn_up, state.trump, state.scores)
    assert world.on_table == state.on_table and world.played == state.played
    assert (world.phase, world.to_act) == (state.phase, state.to_act)
    if state.to_act == seat:
        assert world.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("variant", VARIANTS)
def test_sampled_worlds_agree_with_the_view(variant: str) -> None:
    rng = random.Random(3)
    for state in positions(variant, 202):
        seat = state.to_act
        sampler = WorldSampler(state.view(seat))
        for _ in range(3):
            world = sampler.sample(rng)
            check_world(state, seat, world, sampler)
            world.playout(rng, 1)  # a world plays on to the hand's end


def test_the_end_game_inference_is_used_in_three_hand_play() -> None:
    """Late in three-hand hands, a seat that failed to follow is dealt no card of the suit."""
    rng = random.Random(9)
    excluded = 0
    for state in positions("three-hand", 303, 80):
        if state.stock_left():
            continue
        sampler = WorldSampler(state.view(state.to_act))
        excluded += sum(len(cards) for cards in sampler.excluded)
        check_world(state, state.to_act, sampler.sample(rng), sampler)
    assert excluded > 0


def test_in_the_two_hand_end_game_the_world_is_the_game() -> None:
    for state in positions("ordinary", 404, 80):
        if state.stock_left():
            continue
        world = sample_world(state.view(state.to_act), random.Random(1))
        assert [sorted(h) for h in world.hands] == [sorted(h) for h in state.hands]
