"""A test kit for rules and plugin authors: stacked decks and scenario games.

``stacked_deck`` writes the deck order that deals given hands, turns up a given
card and leaves a given stock, so a test states a position in the words of a
rulebook example rather than as 64 cards::

    game = scenario(
        "ordinary",
        hands=[["QS", "JD", "KS", ...], [...]],   # seat 0, seat 1
        turn_up="9H",
        stock=["AH", "7C"],                       # drawn in this order
    )

The other cards follow the named stock in a fixed order.  ``play_out`` applies
a list of action texts, ``refuse`` asserts that an action is refused and changes
nothing, ``check_invariants`` asserts what must hold after any
action of any variant, and ``random_conformance`` plays random games of a
variant checking them after every action.

The random-simulation conformance of :mod:`bezique.simulation.conformance` is offered here too:
``check_random_games`` plays seeded random games of a variant (refereed ones with
irregularities reported at random) checking, at every action, the invariants, the
legal actions listed without repeats, clones and saved copies against the state, the
game's length against ``game_length_bound``, and that no seat's view shows a card it
has not seen (``check_views``, ``SeenCards``); ``perft`` counts the legal actions some
actions deep below a position, for a regression file.  A plugin author runs them over
his own variant::

    from bezique.testing import check_random_games

    def test_random_games_conform() -> None:
        check_random_games("eight-pack", games=2, seed=1)
        check_random_games("eight-pack", games=2, seed=2, referee=True)
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bezique.errors import BeziqueError, IllegalActionError
from bezique.game import GameState, new_game, ruleset_for
from bezique.records.record import record_of, replay
from bezique.rules.ruleset import Ruleset
from bezique.simulation.conformance import (
    TABLE_CLAIMS,
    TABLE_REPORTS,
    GameLength,
    SeenCards,
    check_invariants,
    check_legal_actions,
    check_random_games,
    check_round_trip,
    check_views,
    game_length_bound,
    note_table_action,
    perft,
    random_table_action,
)
from bezique.variant import Variant

__all__ = [
    "TABLE_CLAIMS",
    "TABLE_REPORTS",
    "GameLength",
    "SeenCards",
    "check_invariants",
    "check_legal_actions",
    "check_random_games",
    "check_round_trip",
    "check_views",
    "game_length_bound",
    "note_table_action",
    "perft",
    "play_out",
    "points_by_rule",
    "random_conformance",
    "random_table_action",
    "refuse",
    "scenario",
    "stacked_deck",
]


def stacked_deck(
    rules: Ruleset,
    hands: Sequence[Sequence[str]],
    turn_up: str | None = None,
    stock: Sequence[str] = (),
    dealer: int = 0,
) -> list[str]:
    """Return the deck order (card texts, top first) that deals ``hands``.

    ``hands[seat]`` are the cards seat ``seat`` is dealt, in any order; the deal
    follows the variant's packets, starting left of ``dealer``.  ``turn_up`` is
    the card turned up after the deal (omit it where trumps are not turned up);
    ``stock`` lists the next cards drawn, in order.  Every other card follows.
    """
    deck = rules.deck
    data = rules.data
    players = rules.players
    size = data["deal"]["hand_size"]
    if len(hands) != players or any(len(h) != size for h in hands):
        raise BeziqueError(f"stacked_deck needs {players} hands of {size} cards")
    remaining = Counter({face: deck.packs for face in range(deck.faces)})
    queues = [[_take(deck.parse_face(c), remaining, deck) for c in hand] for hand in hands]
    order: list[int] = []
    for packet in data["deal"]["packets"]:
        for offset in range(1, players + 1):
            seat = (dealer + offset) % players
            order.extend(queues[seat][:packet])
            del queues[seat][:packet]
    if turn_up is not None:
        order.append(_take(deck.parse_face(turn_up), remaining, deck))
    order.extend(_take(deck.parse_face(c), remaining, deck) for c in stock)
    for face in range(deck.faces):
        order.extend([face] * remaining[face])
    return [deck.face_text(face) for face in order]


def _take(face: int, remaining: Counter[int], deck: Any) -> int:
    if remaining[face] <= 0:
        raise BeziqueError(f"stacked_deck: more than {deck.packs} of {deck.face_text(face)}")
    remaining[face] -= 1
    return face


def scenario(
    variant: str | os.PathLike[str] | Variant | Ruleset = "ordinary",
    *,
    hands: Sequence[Sequence[str]],
    turn_up: str | None = None,
    stock: Sequence[str] = (),
    dealer: int = 0,
    overrides: Mapping[str, Any] | None = None,
    seed: int = 0,
    referee: bool = False,
) -> GameState:
    """Start a game whose first hand is dealt as :func:`stacked_deck` describes.

    ``referee`` makes it a refereed game (see :func:`bezique.game.new_game`).
    """
    rules = ruleset_for(variant, overrides)
    order = stacked_deck(rules, hands, turn_up, stock, dealer)
    return new_game(rules, decks=[order], first_dealer=dealer, seed=seed, referee=referee)


def play_out(state: GameState, actions: Iterable[str]) -> GameState:
    """Apply each action text in turn; return the state for chaining."""
    for text in actions:
        state.apply(text)
    return state


def refuse(state: GameState, text: str) -> IllegalActionError:
    """Assert that the action ``text`` is refused and leaves the state exactly as it was.

    Return the error, whose message and ``rule`` a test may check further.
    """
    before = state.to_json()
    try:
        state.apply(text)
    except IllegalActionError as error:
        if state.to_json() != before:
            raise AssertionError(f"{text!r} was refused but changed the state") from error
        return error
    raise AssertionError(f"{text!r} was accepted")


def points_by_rule(state: GameState, player: int) -> dict[str, int]:
    """Return ``player``'s points in the current hand, added up by rule."""
    totals: dict[str, int] = {}
    for hand, event in zip(state.event_hands, state.events, strict=True):
        if hand == state.hand_no and event.player == player:
            totals[event.rule] = totals.get(event.rule, 0) + event.points
    return totals


def random_conformance(
    variant: str | os.PathLike[str] | Variant | Ruleset, *, hands: int = 500, seed: int = 0
) -> int:
    """Play random games of ``variant`` until ``hands`` hands are over; return how many.

    After every action :func:`check_invariants` holds, and at each game's end its
    record replays to the identical state.  Raise ``AssertionError`` otherwise.
    """
    rules = ruleset_for(variant)
    rng = random.Random(seed)
    played = 0
    game_seed = seed
    while played < hands:
        state = new_game(rules, seed=game_seed)
        game_seed += 1
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            check_invariants(state)
        if replay(record_of(state)).to_json() != state.to_json():
            raise AssertionError(f"game {game_seed - 1}: its record replays differently")
        played += state.hand_no + 1
    return played
