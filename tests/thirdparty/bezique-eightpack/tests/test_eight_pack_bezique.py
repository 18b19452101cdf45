"""Eight-pack bezique from stacked decks, written with bezique's public API only.

The rules are PAR's eight-pack column (the bibliography's points E01-E12), played over the Rubicon
game (trumps named by the first marriage or sequence, one deal the game, its settlement).
Conventions of the scenarios: seat 0 deals, so seat 1 leads the first trick; nothing is
turned up.  Seat 1 holds low plain cards of spades, diamonds and clubs (``JUNK``): no
court card, ace or ten, so no combination, and seat 0 wins the first trick with a nine
of spades and every trick it leads after that (no trumps yet, or none in seat 1's hand).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bezique.game import GameState, new_game
from bezique.testing import (
    check_random_games,
    points_by_rule,
    random_conformance,
    refuse,
    scenario,
)

JUNK = ["7S"] * 3 + ["8S"] * 2 + ["7D"] * 3 + ["8D"] * 2 + ["7C"] * 3 + ["8C"] * 2
"""Seat 1's fifteen cards: nothing scores with them."""
BEZIQUES = ["QS"] * 5 + ["JD"] * 5
"""Five queens of spades and five knaves of diamonds: the quintuple bezique."""
STOCK = ["9H", "7H"] * 6
"""Seat 0 draws nines of hearts, seat 1 sevens of hearts, while seat 0 wins the tricks."""


def game(hand: Sequence[str], stock: Sequence[str] = STOCK) -> GameState:
    """Deal seat 0 ``hand`` and seat 1 the junk; seat 0 deals."""
    return scenario("eight-pack", hands=[hand, JUNK], stock=stock)


def trick(state: GameState, mine: str, theirs: str) -> None:
    """Play one trick, seat 0 playing ``mine`` and seat 1 ``theirs``, whoever leads."""
    first, second = (mine, theirs) if state.to_act == 0 else (theirs, mine)
    state.apply(f"play {first}")
    state.apply(f"play {second}")


def legal(state: GameState) -> set[str]:
    """The legal actions, as text."""
    return {state.action_text(action) for action in state.legal_actions()}


def scored(state: GameState, seat: int = 0) -> dict[str, int]:
    """What the seat scored this hand, by rule, leaving out rules that scored nothing."""
    return {rule: points for rule, points in points_by_rule(state, seat).items() if points}


def finish(state: GameState) -> tuple[int, int]:
    """Play the deal out declaring nothing: each seat plays its first legal card.

    Return who won the last trick and how many cards it was played with.
    """
    while not state.is_over():
        texts = [state.action_text(action) for action in state.legal_actions()]
        ends = [text for text in texts if text in ("draw", "pass")]
        plays = [text for text in texts if text.startswith("play ")]
        held = sum(len(hand) for hand in state.hands)
        before = [len(won) for won in state.won]
        state.apply(ends[0] if ends else plays[0])
        if held == 1 and not state.trick:  # the trick of the deal's last two cards
            gained = [len(won) - was for won, was in zip(state.won, before, strict=True)]
            return gained.index(max(gained)), max(gained)
    raise AssertionError("the deal ended before its last trick")


# ---------------------------------------------------------------------- the variant


def test_eight_packs_fifteen_cards_no_turn_up() -> None:
    state = new_game("eight-pack", seed=1)
    assert (state.deck.packs, state.deck.size) == (8, 256)  # E01
    assert [len(hand) for hand in state.hands] == [15, 15]  # E02
    assert len(state.stock) == 256 - 30 and state.turn_up < 0 and state.trump < 0  # E03


def test_no_carte_blanche_in_eight_pack() -> None:
    # E04: hands without a king, queen or knave score nothing at the deal, nor as they draw
    # (six-pack scores each of these hands 250 at the deal, and again per card drawn).
    blank = ["9S"] * 3 + ["TS"] * 3 + ["AS"] * 3 + ["8H"] * 3 + ["AC"] * 3
    state = game(blank)
    assert state.events == []
    trick(state, "9S", "7S")
    state.apply("draw")  # seat 0 draws 9H, seat 1 7H: no court card
    trick(state, "TS", "7D")
    assert (scored(state, 0), scored(state, 1)) == ({}, {})


# ---------------------------------------------------------------------- the bezique ladder


def test_quintuple_bezique_built_up_in_steps() -> None:
    # A15 (additive): each level built on the one below scores its own full value on top.
    state = game([*BEZIQUES, "9S", "9S", "9S", "TS", "TS"])
    trick(state, "9S", "7S")
    state.apply("declare bezique QS JD")
    steps = [("9S", "7D", "double"), ("9S", "7C", "triple"), ("TS", "8D", "quadruple")]
    for step, (mine, theirs, name) in enumerate([*steps, ("TS", "8C", "quintuple")], 2):
        state.apply("draw")
        trick(state, mine, theirs)
        on_table = " ".join(["QS"] + ["QS*"] * (step - 1) + ["JD"] + ["JD*"] * (step - 1))
        state.apply(f"declare {name}_bezique {on_table}")
    assert [(e.rule, e.points) for e in state.events if e.points] == [
        ("bezique", 40),
        ("double_bezique", 500),
        ("triple_bezique", 1500),
        ("quadruple_bezique", 4500),
        ("quintuple_bezique", 9000),
    ]
    assert state.scores == [15540, 0]


def test_quintuple_bezique_at_once_scores_9000_only() -> None:
    state = game([*BEZIQUES, "9S", "9S", "9S", "TS", "TS"])
    trick(state, "9S", "7S")
    state.apply("declare quintuple_bezique QS QS QS QS QS JD JD JD JD JD")
    state.apply("draw")
    trick(state, "9S", "7D")
    # the ten cards lie on the table, scored once at the top of the ladder: nothing below it
    assert not any(text.startswith("declare") for text in legal(state))
    assert scored(state) == {"quintuple_bezique": 9000}


# ---------------------------------------------------------------------- trump quintets

QUINTET = ["AH"] * 5 + ["KH", "QH", "9S", "9S", "9S", "9C", "9C", "9C", "9D", "9D"]
"""Five aces of hearts, the marriage that makes hearts trumps, and plain nines."""


def test_trump_quintet_refused_before_trumps_are_fixed() -> None:
    # A37: four of a kind of any suits may be declared before trumps exist, a trump five not.
    state = game(QUINTET)
    trick(state, "9S", "7S")
    assert "declare four_aces AH AH AH AH" in legal(state)
    assert not any("trump" in text for text in legal(state))
    error = refuse(state, "declare five_trump_aces AH AH AH AH AH")
    assert (str(error), error.rule) == ("those cards do not form five_trump_aces", "declarations")


def test_five_trump_aces_score_2000_once_a_marriage_names_trumps() -> None:
    state = game(QUINTET)
    trick(state, "9S", "7S")
    state.apply("declare royal_marriage KH QH")  # A37: the first marriage names trumps, 40
    assert state.deck.suits[state.trump] == "H"
    state.apply("draw")
    trick(state, "9S", "7D")
    assert "declare five_trump_aces AH AH AH AH AH" in legal(state)
    state.apply("declare five_trump_aces AH AH AH AH AH")
    assert scored(state) == {"royal_marriage": 40, "five_trump_aces": 2000}


def test_a_fifth_trump_ace_on_four_trump_aces_adds_2000() -> None:
    # The five sit above the trump four in the class of fours (E09; A17's class rule).
    hand = ["AH"] * 4 + ["KH", "QH", "9S", "9S", "9S", "9C", "9C", "9C", "9D", "9D", "9D"]
    state = game(hand, stock=["AH", "9D", *STOCK])
    trick(state, "9S", "7S")
    state.apply("declare royal_marriage KH QH")
    state.apply("draw")  # seat 0 draws the fifth ace of hearts
    trick(state, "9S", "7D")
    state.apply("declare four_trump_aces AH AH AH AH")
    state.apply("draw")
    trick(state, "9S", "7C")
    state.apply("declare five_trump_aces AH AH* AH* AH* AH*")
    assert scored(state) == {"royal_marriage": 40, "four_trump_aces": 1000, "five_trump_aces": 2000}


@pytest.mark.parametrize(
    ("name", "rank", "four", "five"),
    [
        ("tens", "T", 900, 1800),
        ("kings", "K", 800, 1600),
        ("queens", "Q", 600, 1200),
        ("knaves", "J", 400, 800),
    ],
)
def test_the_trump_four_and_then_the_five_of_each_other_rank(
    name: str, rank: str, four: int, five: int
) -> None:
    # E08 and E09, PAR's eight-pack column: trump fours of tens 900, kings 800, queens
    # 600, knaves 400, and fives of them 1800, 1600, 1200, 800 (the aces are above).
    card = f"{rank}H"
    hand = [card] * 5 + ["KH", "QH", "9S", "9S", "9S", "9C", "9C", "9C", "9D", "9D"]
    state = game(hand)
    trick(state, "9S", "7S")
    state.apply("declare royal_marriage KH QH")
    state.apply("draw")
    trick(state, "9S", "7D")
    state.apply(f"declare four_trump_{name} {' '.join([card] * 4)}")
    state.apply("draw")
    trick(state, "9S", "7C")
    # the four on the table (named by its class and level, as the marriage's king or
    # queen is a card of the same face) and the fifth card from the hand
    state.apply(f"declare five_trump_{name} {card} {' '.join([f'{card}*quartets.2'] * 4)}")
    assert scored(state) == {
        "royal_marriage": 40,
        f"four_trump_{name}": four,
        f"five_trump_{name}": five,
    }


# ---------------------------------------------------------------------- the game's end


def test_the_last_trick_of_all_scores_250() -> None:
    state = game(["9S"] * 5 + ["9C"] * 5 + ["9D"] * 5)
    winner, cards = finish(state)
    # E10, R17: the last trick of the whole deal, the 128th: 113 with a draw, 15 after
    assert cards == 2 and sum(len(won) for won in state.won) == 256
    assert [(e.player, e.rule, e.points) for e in state.events if e.rule == "last_trick"] == [
        (winner, "last_trick", 250)
    ]


def settlement(state: GameState) -> list[tuple[int, str, int]]:
    """The events of the game's settlement: (seat, rule, points), in order."""
    return [(e.player, e.rule, e.points) for e in state.events if e.rule.startswith("rubicon.")]


def test_a_rubiconed_loser_with_nothing() -> None:
    state = game([*BEZIQUES, "9S", "9S", "9S", "TS", "TS"])
    trick(state, "9S", "7S")
    state.apply("declare quintuple_bezique QS QS QS QS QS JD JD JD JD JD")
    assert finish(state)[0] == 0
    # 9000 + 250 for the last trick, against 0: under the line of 5000 (E11).  The winner
    # adds the loser's 0 and 1500 for the rubicon (six-pack's, S17), and 10,750 loses its
    # 50 to the hundred below (R22): 10,700.
    assert settlement(state) == [
        (0, "rubicon.loser_added", 0),
        (0, "rubicon.rubicon", 1500),
        (0, "rubicon.rounding", -50),
    ]
    assert state.scores == [10700, 0] and state.winner == 0


def duel(five_kings: bool) -> GameState:
    """Seat 0 makes hearts trumps and scores 9040; seat 1 the trump fives, then the rest.

    Seat 0 holds the quintuple bezique and the royal marriage; seat 1 five aces, five tens
    and four kings of hearts.  Seat 0 wins the first trick and names trumps (40); seat 1
    trumps the next and wins two more with a drawn ace of spades and a declared ace of
    hearts, scoring five trump aces (2000), tens (1800) and, if ``five_kings``, kings (1600,
    the fifth king drawn); seat 0 wins the fifth trick and scores the quintuple (9000).
    The deal is then played out with nothing more declared.
    """
    hands = [
        [*BEZIQUES, "KH", "QH", "9S", "9S", "9S"],
        ["AH"] * 5 + ["TH"] * 5 + ["KH"] * 4 + ["7S"],
    ]
    stock = ["9C", "KH", "AS", "9C", "KH", "9C", "7S", "9C"]
    state = scenario("eight-pack", hands=hands, stock=stock)
    trick(state, "9S", "7S")
    state.apply("declare royal_marriage KH QH")
    state.apply("draw")
    trick(state, "9S", "KH")
    state.apply("declare five_trump_aces AH AH AH AH AH")
    state.apply("draw")
    trick(state, "9C", "AS")
    state.apply("declare five_trump_tens TH TH TH TH TH")
    state.apply("draw")
    trick(state, "9C", "AH*")
    if five_kings:
        state.apply("declare five_trump_kings KH KH KH KH KH")
    state.apply("draw")
    trick(state, "9S", "7S")
    state.apply("declare quintuple_bezique QS QS QS QS QS JD JD JD JD JD")
    assert scored(state) == {"royal_marriage": 40, "quintuple_bezique": 9000}
    assert finish(state)[0] == 1
    return state


def test_a_loser_of_5650_pays_his_total_and_the_winner_adds_1000() -> None:
    state = duel(five_kings=True)
    assert scored(state, 1) == {
        "five_trump_aces": 2000,
        "five_trump_tens": 1800,
        "five_trump_kings": 1600,
        "last_trick": 250,
        "rubicon.settled": -5650,
    }
    # 9040 against 5650, over the line: 9040 - 5650 + 1000 for the game (E11) = 4390,
    # rounded to the hundred below (R22): 4300; the loser's total is paid away.
    assert settlement(state) == [
        (0, "rubicon.loser_deducted", -5650),
        (0, "rubicon.game", 1000),
        (0, "rubicon.rounding", -90),
        (1, "rubicon.settled", -5650),
    ]
    assert state.scores == [4300, 0] and state.winner == 0


def test_a_loser_of_4050_is_under_the_eight_pack_line_of_5000() -> None:
    # Over six-pack's line of 3000 but under eight-pack's 5000 (E11): rubiconed.
    state = duel(five_kings=False)
    assert scored(state, 1) == {
        "five_trump_aces": 2000,
        "five_trump_tens": 1800,
        "last_trick": 250,
        "rubicon.settled": -4050,
    }
    # 9040 + 4050 + 1500 for the rubicon = 14,590, rounded to 14,500.
    assert settlement(state) == [
        (0, "rubicon.loser_added", 4050),
        (0, "rubicon.rubicon", 1500),
        (0, "rubicon.rounding", -90),
        (1, "rubicon.settled", -4050),
    ]
    assert state.scores == [14500, 0] and state.winner == 0


@pytest.mark.slow  # the quick run plays the eight-pack games of the conformance test below
@pytest.mark.parametrize("seed", [100, 200, 300])
def test_random_deals_keep_every_invariant(seed: int) -> None:
    # 300 deals in all, each a game: every card in one place, the scores their events',
    # a legal action while the game goes on, and each game's record replaying it.
    assert random_conformance("eight-pack", hands=100, seed=seed) == 100


@pytest.mark.parametrize("referee", [False, True])
def test_random_games_conform_at_every_action(referee: bool) -> None:
    # bezique's own random-simulation checks, as its shipped variants run them: at every
    # action a clone (and, at the first 24 and every 48th, the state saved and loaded
    # again) equal to the state and going on alike, the legal actions listed once each,
    # the deal within its length, and no seat's view showing a card it has not seen; the
    # refereed games with irregularities reported at random.
    games = check_random_games(
        "eight-pack", games=2, seed=8, referee=referee, thorough=24, every=48
    )
    assert all(state.is_over() for state in games)
