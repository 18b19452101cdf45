"""A seat's view holds nothing it has not seen, and the worlds sampled from it agree with it.

* The view is a function of what the seat has seen: two games that differ only in
  two cards the seat has not seen, swapped in the deck before the deal (the same
  actions replayed), give the same view, compared attribute by attribute down to
  the plugins' states and their caches, observation included.
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

import pytest

from bezique.actions import Kind
from bezique.engine.views import View
from bezique.errors import PluginError
from bezique.game import GameState, new_game
from bezique.players.worlds import WorldSampler, sample_world, shuffle
from bezique.rules.ruleset import Ruleset, ruleset_for
from bezique.variant import variant_summaries

VARIANTS = [name for name, _ in variant_summaries()]
POSITIONS = 16
"""Positions checked per variant (along random games, every few actions)."""
TWINS = 8
"""Positions with a twin checked per variant."""


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


def dealt_twins(variant: str, seed: int, count: int) -> list[tuple[GameState, GameState, int]]:
    """Positions of the first hand of random games, each with a twin and a seat.

    The twin is another game: the same deck but for two cards the seat has not seen
    by then (in other hands or the stock), swapped in the deck before the deal, with
    the same actions replayed through ``apply``.  Twins whose public record differs
    (a carte blanche shown in one only, a play the swap made illegal) are left out:
    the seat could tell those apart.
    """
    rules = ruleset_for(variant)
    rng = random.Random(seed)
    found: list[tuple[GameState, GameState, int]] = []
    while len(found) < count:
        order = list(range(rules.deck.size))
        rng.shuffle(order)
        state = GameState(rules, seed=rng.randrange(1 << 30), decks=[order])
        steps = rng.randrange(1, 120)
        while steps and not state.is_over() and state.hand_no == 0:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps -= 1
        if state.is_over() or state.hand_no != 0:
            continue
        seat = rng.randrange(state.players)
        twin = _twin(state, order, seat, rng)
        if twin is not None:
            found.append((state, twin, seat))
    return found


def _twin(state: GameState, order: list[int], seat: int, rng: random.Random) -> GameState | None:
    """``state``'s game with two cards ``seat`` has not seen swapped in the deck, or None."""
    unseen = list(state.view(seat).unseen)
    if len(unseen) < 2:
        return None
    a, b = rng.sample(unseen, 2)
    if state.deck.card_face[a] == state.deck.card_face[b]:
        return None
    swapped = [b if card == a else a if card == b else card for card in order]
    twin = GameState(state.rules, seed=state.seed, decks=[swapped])
    for action in state.history:
        if action not in twin.legal_actions():  # (not even another copy of the card)
            return None
        twin.apply(action)
    if twin.events != state.events or twin.phase != state.phase or twin.to_act != state.to_act:
        return None
    return twin


def deep(value: object, depth: int = 0) -> object:
    """Everything ``value`` holds, as nested plain data (objects by their attributes)."""
    assert depth < 40
    if isinstance(value, Ruleset):
        return "rules"
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return sorted((repr(k), deep(v, depth + 1)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [deep(item, depth + 1) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(item) for item in value)
    names = list(getattr(value, "__dict__", {})) + [
        name for cls in type(value).__mro__ for name in getattr(cls, "__slots__", ())
    ]
    fields = {name: getattr(value, name) for name in names if hasattr(value, name)}
    return [type(value).__name__, deep(fields, depth + 1)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_view_does_not_change_with_the_cards_its_seat_has_not_seen(variant: str) -> None:
    for state, twin, seat in dealt_twins(variant, 101, TWINS):
        assert twin.hands != state.hands or twin.stock != state.stock
        view, twin_view = state.view(seat), twin.view(seat)
        assert twin_view.observation == view.observation  # (written when first read)
        assert deep(twin_view) == deep(view)


def test_a_view_holds_plain_data_and_the_rules_only() -> None:
    state = positions("ordinary", 5, 1)[0]
    view = state.view(0)
    assert view.observation  # (written when first read, then kept in a slot)
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

    # (the compiled build, setup.py, lists a compiled class's attributes in __mypyc_attrs__)
    names = getattr(View, "__slots__", ()) or getattr(View, "__mypyc_attrs__", ())
    assert names
    for name in names:
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


def test_the_worlds_shuffle_is_the_generators() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 7, 24, 64, 100):
            mine, theirs = list(range(size)), list(range(size))
            drawn, reference = random.Random(seed), random.Random(seed)
            shuffle(mine, drawn)
            reference.shuffle(theirs)
            assert mine == theirs
            assert drawn.random() == reference.random()


def test_a_throwaway_world_keeps_no_copy_and_is_left_broken_by_a_failure() -> None:
    game = new_game("ordinary", seed=3)
    sampler = WorldSampler(game.view(game.to_act))
    kept, thrown = sampler.sample(random.Random(1)), sampler.sample(random.Random(1))
    thrown._unrestored()
    play = next(a for a in thrown.legal_actions() if a.kind == Kind.PLAY)

    def fail(card: int) -> None:
        raise KeyboardInterrupt

    before = kept.to_json()
    for world in (kept, thrown):
        world._play = fail  # type: ignore[method-assign]
        with pytest.raises(KeyboardInterrupt):
            world.apply(play)
        del world._play
    assert kept.to_json() == before
    kept.apply(play)  # restored: it goes on
    with pytest.raises(PluginError, match="throwaway state"):
        thrown.apply(play)
