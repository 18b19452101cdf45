"""A plugin's typed state of the hand: kept in the state, copied, saved, compared, shown.

The ordinary plugin keeps the sevens scored (``OrdinaryHand``), Grand its record of
declarations (``GrandRecord``), Polish the open rows (``PolishHand``), multihand S0's
duels, and for one turn the card taken for the seven (``ExchangeBlock``); the kernel's
one table of fields copies them in ``clone`` and writes them in ``to_json`` (saved states
of the layout before typed states are mapped to the present one).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from bezique.engine.state import PluginState
from bezique.game import from_json, new_game
from bezique.plugins.grand import GrandRecord, record
from bezique.plugins.ordinary import OrdinaryHand, announced, blocked, sevens_scored
from bezique.plugins.ordinary.hand import NOT_DRAWN
from bezique.plugins.polish import PolishHand, hand
from bezique.testing import play_out, scenario


def played(variant: str, seed: int, actions: int) -> Any:
    game = new_game(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_announced_combinations_are_the_plugins_and_lapse_with_the_stock() -> None:
    game = scenario(
        "hoyle1909",
        hands=[
            ["KS", "QS", "JD", "AS", "7C", "8C", "9C", "TD"],
            ["KH", "QH", "JS", "JH", "JC", "9D", "8D", "7S"],
        ],
        turn_up="9H",
    )
    game.apply("play JS")
    game.apply("play AS")
    game.apply("declare bezique QS JD")  # one combination scores a trick (hoyle1909)
    game.apply("announce marriage KS QS*")
    assert announced(game) == [[("marriage", (game.hands[0][0], game.hands[0][1]))], []]
    saved = game.to_json()
    assert "pending" not in saved
    assert saved["extra"]["pending"] == [[["marriage", list(announced(game)[0][0][1])]], []]
    copy = game.clone()
    announced(copy)[0].clear()
    assert announced(game)[0] and copy != game
    assert from_json(saved) == game


def test_a_seven_turned_up_is_kept_as_scored() -> None:
    game = scenario(
        "ordinary",
        hands=[
            ["AS", "AS", "KS", "KS", "QS", "QS", "JS", "JS"],
            ["8C"] * 2 + ["9C"] * 2 + ["TC"] * 2 + ["AC"] * 2,
        ],
        turn_up="7H",
    )
    dealt = OrdinaryHand([game.turn_up], [[], []], [False, False], [NOT_DRAWN, NOT_DRAWN])
    assert game.plugin_state("ordinary", OrdinaryHand) == dealt
    assert sevens_scored(game) == [game.turn_up]
    assert game.to_json()["extra"] == {"sevens_scored": [game.turn_up], "pending": [[], []]}


def test_a_clone_copies_the_plugin_states() -> None:
    game = played("polish", 3, 60)
    copy = game.clone()
    assert copy == game
    assert hand(copy) is not hand(game) and hand(copy) == hand(game)
    assert hand(copy).rows[0] is not hand(game).rows[0]
    hand(copy).rows[0].append(99)
    sevens_scored(copy).append(98)
    assert 99 not in hand(game).rows[0] and 98 not in sevens_scored(game)
    assert copy != game  # equality reads the plugin states through the JSON form


def test_polish_rows_are_saved_in_the_earlier_layout_and_shown_as_places() -> None:
    game = played("polish", 3, 60)
    rows = hand(game)
    extra = game.to_json()["extra"]
    assert extra == {
        "places": {"open-0": rows.rows[0], "open-1": rows.rows[1]},
        "polish_new": rows.new,
        "polish_seven": rows.seven,
        "sevens_scored": sevens_scored(game),
        "pending": [[], []],
    }
    assert game.places() == {"open-0": rows.rows[0], "open-1": rows.rows[1]}
    shown = game.observation(1)["places"]
    assert shown["open-0"] == [game.deck.card_text(c) for c in rows.rows[0]]
    assert from_json(game.to_json()) == game


def test_grand_record_round_trip() -> None:
    game = played("grand", 5, 120)
    book = record(game)
    assert isinstance(book, GrandRecord)
    assert game.to_json()["extra"]["grand"] == {
        "declared": book.declared,
        "combos": [[[name, cards] for name, cards in seat] for seat in book.combos],
    }
    assert from_json(game.to_json()) == game


def test_plugin_state_checks_its_type_and_presence() -> None:
    game = new_game("ordinary", seed=1)
    with pytest.raises(TypeError, match="holds a OrdinaryHand, not"):
        game.plugin_state("ordinary", PolishHand)
    with pytest.raises(KeyError):
        game.plugin_state("polish", PolishHand)


@dataclass
class Counter(PluginState):
    """A third party's state: a count, saved under its own key."""

    count: int = 0

    def copy(self) -> Counter:
        return Counter(self.count)

    def to_json(self) -> dict[str, Any]:
        return {"counter": self.count}


def test_a_third_party_state_is_copied_written_and_dropped() -> None:
    game = new_game("ordinary", seed=1)
    game.set_plugin_state("counter", Counter(3))
    copy = game.clone()
    copy.plugin_state("counter", Counter).count += 1
    assert game.to_json()["extra"]["counter"] == 3
    assert copy.to_json()["extra"]["counter"] == 4
    game.drop_plugin_state("counter")
    assert "counter" not in game.to_json()["extra"]


def test_the_card_taken_for_the_seven_is_kept_for_that_turn_only() -> None:
    # A13: the turn-up taken in exchange for the seven is not declared in the same turn.
    game = scenario(
        "ordinary",
        hands=[
            ["7H", "QH", "AS", "AD", "8C", "9C", "8D", "9D"],
            ["7C", "7D", "8S", "9S", "7S", "JC", "JS", "TC"],
        ],
        turn_up="KH",
        dealer=1,
    )
    play_out(game, ["play AS", "play 7S", "exchange 7H"])
    king = game.hands[0][-1]
    assert blocked(game) == [king]
    assert [game.action_text(a) for a in game.legal_actions()] == ["draw"]
    assert game.to_json()["turn"] == {
        "declared": [],
        "scored": 0,
        "first_declared": [],
        "blocked": [king],
    }
    assert game.clone() == game
    # Saved before typed states: 'pending' at the top, the block third in 'turn'.
    old = game.to_json()
    old["pending"] = old["extra"].pop("pending")
    old["turn"] = [[], 0, [king], []]  # declared, scored, blocked, first declared
    assert from_json(old) == game
    play_out(game, ["draw", "play AD", "play 7D"])
    assert blocked(game) == []
    assert game.to_json()["turn"] == {}
    assert [game.action_text(a) for a in game.legal_actions()] == [
        "declare royal_marriage KH QH",
        "draw",
    ]


def test_a_turn_state_needs_a_turn() -> None:
    game = new_game("ordinary", seed=1)
    with pytest.raises(ValueError, match="no turn is under way"):
        game.set_turn_state("counter", Counter(1))
