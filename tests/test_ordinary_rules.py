"""Rules tests of ordinary two-hand bezique, played from stacked decks.

Sources (the codes of the bibliography, ``bezique sources``): S0 is the EB9 article (the
main source), S2 Hoffmann's table; A-numbers are the bibliography's readings.

Conventions of most scenarios: the dealer is seat 0, so seat 1 leads the first
trick.  Trumps are hearts (a ten of hearts is turned up).  Seat 1 holds low
plain cards with neither trumps nor brisques nor combinations (``JUNK``), so
seat 0 wins every trick it wants with a low trump, and the stock is arranged so
that seat 0 draws the cards at even positions and seat 1 those at odd ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bezique.actions import Action, Kind
from bezique.game import GameState, new_game, ruleset_for
from bezique.plugins.ordinary import announced
from bezique.testing import play_out, points_by_rule, refuse, scenario, stacked_deck

RANKS = "ATKQJ987"
SUITS = "SHDC"
ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]

JUNK = ["7S", "8S", "9S", "7D", "8D", "9D", "7C", "8C"]
"""Seat 1's usual hand: no trump (hearts), no ace or ten, no combination."""
JUNK_DRAWS = ["9C", "9C", "7S", "8S", "9S", "7D", "8D", "9D", "7C", "8C"]
"""The other copies of low plain cards: what seat 1 draws in the usual scenarios."""

ONE_PER_TRICK: dict[str, Any] = {"declarations": {"per_trick": "one"}}


# ---------------------------------------------------------------------- helpers


def game(
    hands: Sequence[Sequence[str]],
    turn_up: str = "TH",
    stock: Sequence[str] = (),
    dealer: int = 0,
    overrides: Mapping[str, Any] | None = None,
) -> GameState:
    """Deal the ordinary game from a stacked deck."""
    return scenario(
        "ordinary", hands=hands, turn_up=turn_up, stock=stock, dealer=dealer, overrides=overrides
    )


def seat0_draws(mine: Sequence[str], theirs: Sequence[str] = JUNK_DRAWS) -> list[str]:
    """Stock order when seat 0 wins every trick: seat 0 draws ``mine``, seat 1 ``theirs``."""
    order: list[str] = []
    for index, card in enumerate(mine):
        order += [card, theirs[index]]
    return order


def legal(state: GameState) -> set[str]:
    """The legal actions of the player to act, as texts."""
    return {state.action_text(a) for a in state.legal_actions()}


def held(state: GameState, seat: int) -> list[str]:
    """A seat's cards, sorted, declared ones marked with ``*``."""
    return sorted(
        state.deck.card_text(c) + ("*" if state.on_table[c] else "") for c in state.hands[seat]
    )


def plays(cards: Sequence[str]) -> set[str]:
    """The play actions for the given card texts."""
    return {f"play {card}" for card in cards}


def scored(state: GameState) -> list[tuple[int, int, str]]:
    """Every score event so far, as (player, points, rule)."""
    return [(e.player, e.points, e.rule) for e in state.events]


def newest_card(state: GameState) -> Action:
    """Play the last card of the hand of the player to act (the one drawn last)."""
    return Action(Kind.PLAY, (state.hands[state.to_act][-1],))


def cycle(state: GameState, tricks: int) -> None:
    """Play ``tricks`` tricks in which each player plays the card he drew last, never declaring."""
    for _ in range(tricks):
        assert state.phase == "play"
        state.apply(newest_card(state))
        state.apply(newest_card(state))
        if state.phase == "turn":
            state.apply("draw")


def finish_hand(state: GameState) -> None:
    """Play the hand out: the first legal card each time, never declaring."""
    hand_no = state.hand_no
    while state.hand_no == hand_no and not state.is_over():
        if state.phase == "turn":
            state.apply("draw")
        else:
            state.apply(state.legal_actions()[0])


def full_stock(hands: Sequence[Sequence[str]], turn_up: str, last: str) -> list[str]:
    """The whole stock (47 cards, ``last`` drawn last) ordered so the leader wins every trick.

    The cards not dealt are laid out trumps first, then the plain suits, each from
    ace down, copies together.  Each trick of :func:`cycle` opposes the two cards
    drawn after the previous one, the leader's first, so the leader always holds
    the higher card, an identical one, a trump against a plain card, or a card
    of another plain suit.
    """
    rest = Counter({card: 2 for card in ALL_CARDS})
    rest.subtract([c for hand in hands for c in hand] + [turn_up, last])
    assert all(n >= 0 for n in rest.values())
    trump = turn_up[1]
    suits = [trump] + [s for s in SUITS if s != trump]
    middle = [r + s for s in suits for r in RANKS for _ in range(rest[r + s])]
    assert len(middle) % 2 == 0
    return [*middle, last]


def last_trick_deal(
    w_core: Sequence[str],
    l_core: Sequence[str],
    turn_up: str = "9H",
    last: str = "7C",
    overrides: Mapping[str, Any] | None = None,
) -> GameState:
    """Deal for a whole hand in which seat 0 (W) wins every trick while the stock lasts.

    W keeps ``w_core`` and seat 1 (L) keeps ``l_core`` (seven cards each) as long
    as :func:`cycle` plays; L leads the 7C to the first trick and W wins it with
    the 8C.  The last face-down card is ``last``, so once the stock is gone W
    holds ``w_core`` + ``last`` and L holds ``l_core`` + the turn-up.
    """
    hands = [[*w_core, "8C"], [*l_core, "7C"]]
    return game(hands, turn_up, full_stock(hands, turn_up, last), overrides=overrides)


def brisques_won(state: GameState, seat: int) -> int:
    """Aces and tens among the cards a seat has won this hand."""
    return sum(state.deck.card_text(c)[0] in "AT" for c in state.won[seat])


# ---------------------------------------------------------------------- the deal


def test_deal_is_three_two_three_starting_with_the_non_dealer() -> None:
    # S0 deal paragraph; S2: three to the adversary, three to the dealer, two each, three each.
    order = ALL_CARDS * 2
    state = new_game("ordinary", decks=[order], first_dealer=0)
    assert held(state, 1) == sorted(["AS", "TS", "KS", "8S", "7S", "KH", "QH", "JH"])
    assert held(state, 0) == sorted(["QS", "JS", "9S", "AH", "TH", "9H", "8H", "7H"])
    # The seventeenth card is turned up and fixes trumps (diamonds).
    assert state.deck.card_text(state.turn_up) == "AD"
    assert state.trump == SUITS.index("D")
    assert state.stock_left() == 48
    assert state.scores == [0, 0]


def test_stacked_scenario_deals_the_intended_hands_and_stock() -> None:
    # The test kit's stacked deck: the named hands, turn-up and first stock cards land as asked.
    hands = [["QS", "JD", "KS", "AH", "TH", "9C", "8C", "7D"], list(JUNK)]
    state = game(hands, "9H", ["AC", "TC"])
    assert [[state.deck.card_text(c) for c in hand] for hand in state.hands] == hands
    assert state.deck.card_text(state.turn_up) == "9H"
    assert [state.deck.card_text(c) for c in state.stock[-2:]] == ["TC", "AC"]
    assert state.dealer == 0


@pytest.mark.parametrize(("turn_up", "trump"), [("9C", "C"), ("9D", "D"), ("KS", "S")])
def test_turn_up_fixes_trumps(turn_up: str, trump: str) -> None:
    # S0 and S2: the card turned up after the deal names the trump suit.
    others = ["7S", "8S", "7D", "8D", "JS", "QD", "JD"]
    state = game([["8C", *others], ["AH", *others]], turn_up)
    assert state.trump == SUITS.index(trump)
    play_out(state, ["play AH", "play 8C"])
    # A small club wins an ace of hearts only when clubs are trumps.
    assert state.to_act == (0 if trump == "C" else 1)
    assert state.scores == ([10, 0] if trump == "C" else [0, 10])


@pytest.mark.parametrize("dealer", [0, 1])
def test_seven_turned_up_scores_ten_for_the_dealer(dealer: int) -> None:
    # S0 and S2 score tables: a seven of trumps turned up is 10 to the dealer.
    state = game([JUNK, ["KS", "QS", "KD", "QD", "AC", "TC", "JH", "9H"]], "7S", dealer=dealer)
    assert scored(state) == [(dealer, 10, "seven_of_trumps.turn_up_points")]
    assert state.scores[dealer] == 10
    assert state.scores[1 - dealer] == 0


def test_other_turn_up_scores_nothing() -> None:
    # S0 and S2: only the seven scores when turned up.
    state = game([JUNK, ["KS", "QS", "KD", "QD", "AC", "TC", "JH", "9H"]], "AS")
    assert state.events == []
    assert state.scores == [0, 0]


@pytest.mark.parametrize("dealer", [0, 1])
def test_non_dealer_leads_and_may_lead_any_card(dealer: int) -> None:
    # S0 and S2: the non-dealer leads to the first trick, with no restriction.
    hands = [["AS", "KD", "QD", "9C", "8C", "7H", "JH", "TS"], JUNK]
    state = game(hands, "TH", dealer=dealer)
    leader = 1 - dealer
    assert state.phase == "play"
    assert state.to_act == leader
    assert legal(state) == plays(hands[leader])


def test_dealer_alternates_between_hands() -> None:
    # S0: after each deal the previous non-dealer deals; the non-dealer always leads.
    rules = ruleset_for("ordinary")
    first = stacked_deck(rules, [JUNK, ["AS", "KD", "QD", "9C", "8C", "9H", "JH", "TS"]], "TH")
    second_hands = [["AC", "KC", "QC", "9S", "8S", "9H", "JH", "TD"], JUNK]
    second = stacked_deck(rules, second_hands, "7S", dealer=1)
    state = new_game(rules, decks=[first, second], first_dealer=0)
    assert (state.hand_no, state.dealer, state.to_act) == (0, 0, 1)
    finish_hand(state)
    assert (state.hand_no, state.dealer, state.to_act) == (1, 1, 0)
    assert [held(state, 0), held(state, 1)] == [sorted(h) for h in second_hands]
    # The seven turned up in the second hand scores for the new dealer, seat 1.
    assert points_by_rule(state, 1) == {"seven_of_trumps.turn_up_points": 10}
    assert points_by_rule(state, 0) == {}
    finish_hand(state)
    assert (state.hand_no, state.dealer, state.to_act) == (2, 0, 1)


# ---------------------------------------------------------------------- tricks

FILLER = ["7S", "8S", "7D", "8D", "9D", "7C", "8C"]


@pytest.mark.parametrize(
    ("lead", "follow", "winner", "points"),
    [
        ("KS", "AS", 0, 10),  # a higher card of the suit led wins
        ("AS", "KS", 1, 10),  # a lower card of the suit led loses
        ("AS", "9H", 0, 10),  # a trump beats a plain card, even an ace
        ("9S", "AC", 1, 10),  # a card of another plain suit loses, even an ace
        ("AS", "AS", 1, 20),  # identical cards: the leader wins
        ("9H", "9H", 1, 0),  # identical trumps: the leader wins
        ("9H", "KH", 0, 0),  # trump led, a higher trump wins
        ("KH", "AS", 1, 10),  # trump led, a plain card loses
    ],
)
def test_trick_winner(lead: str, follow: str, winner: int, points: int) -> None:
    # S0 and S2 on play: higher card of the suit led or a trump wins; ties go to the leader.
    state = game([[follow, *FILLER], [lead, *FILLER]])
    play_out(state, [f"play {lead}", f"play {follow}"])
    assert state.phase == "play"
    assert state.to_act == winner
    assert sorted(state.deck.card_text(c) for c in state.won[winner]) == sorted([lead, follow])
    assert state.won[1 - winner] == []
    expected = [0, 0]
    expected[winner] = points
    assert state.scores == expected


def test_second_player_may_play_any_card_while_the_stock_lasts() -> None:
    # S0: no duty to follow suit or to win; S2: he may even trump while holding the suit led.
    seat0 = ["AS", "QS", "9H", "7D", "8D", "9D", "7C", "8C"]
    state = game([seat0, ["KS", *FILLER]])
    state.apply("play KS")
    assert legal(state) == plays(seat0)
    state.apply("play 7D")  # neither follows nor wins, holding the ace of the suit led
    assert state.to_act == 1
    assert state.scores == [0, 0]


def test_winner_draws_first_then_the_loser() -> None:
    # S0: the trick's winner takes the top card of the stock, his adversary the next.
    state = game([["AS", *FILLER], ["KS", *FILLER]], stock=["AD", "9S"])
    play_out(state, ["play KS", "play AS"])
    assert state.deck.card_text(state.hands[0][-1]) == "AD"
    assert state.deck.card_text(state.hands[1][-1]) == "9S"
    state = game([["KS", *FILLER], ["AS", *FILLER]], stock=["AD", "9S"])
    play_out(state, ["play AS", "play KS"])
    assert state.deck.card_text(state.hands[1][-1]) == "AD"
    assert state.deck.card_text(state.hands[0][-1]) == "9S"
    assert state.stock_left() == 46


# ---------------------------------------------------------------------- who declares, when


def test_no_declaration_before_a_trick_is_won() -> None:
    # S0: only the winner of a trick declares, immediately after winning it.
    state = game([JUNK, ["KC", "QC", "7S", "8S", "9S", "7D", "8D", "9D"]])
    error = refuse(state, "declare marriage KC QC")
    assert error.rule == "declarations.after_winning"


def test_loser_of_a_trick_cannot_declare() -> None:
    # S0: the declaration belongs to the trick's winner; the loser's marriage must wait.
    seat0 = ["AS", "KC", "QC", "7D", "8D", "9D", "7C", "8C"]
    seat1 = ["9S", "KD", "QD", "7S", "8S", "9C", "7H", "8H"]
    state = game([seat0, seat1], stock=["JS", "JC"])
    play_out(state, ["play 9S", "play AS"])
    assert state.phase == "turn"
    assert state.to_act == 0
    assert legal(state) == {"declare marriage KC QC", "draw"}
    state.apply("draw")
    state.apply("play 7C")
    assert state.to_act == 1
    assert legal(state) == plays(["KD", "QD", "7S", "8S", "9C", "7H", "8H", "JC"])
    error = refuse(state, "declare marriage KD QD")
    assert error.rule == "declarations.after_winning"


def test_winner_declares_before_drawing_and_not_after() -> None:
    # S0: the declaration is made after winning and before drawing from the stock.
    seat0 = ["9H", "KC", "QC", "KD", "QD", "7S", "8S", "9S"]
    state = game([seat0, JUNK], stock=["JS", "9C"])
    play_out(state, ["play 7S", "play 9H"])
    assert legal(state) == {"declare marriage KC QC", "declare marriage KD QD", "draw"}
    state.apply("declare marriage KC QC")
    assert scored(state) == [(0, 20, "marriage")]
    state.apply("draw")
    assert state.phase == "play"
    assert held(state, 0) == sorted(["KC*", "QC*", "KD", "QD", "JS", "7S", "8S", "9S"])
    error = refuse(state, "declare marriage KD QD")
    assert error.rule == "declarations.after_winning"


def test_declaring_is_optional() -> None:
    # S0: a player need not declare although he wins a trick holding a combination.
    state = game([["9H", "KC", "QC", "7S", "8S", "9S", "7D", "8D"], JUNK])
    play_out(state, ["play 7S", "play 9H", "draw"])
    assert state.scores == [0, 0]
    assert state.phase == "play"
    assert not any(state.on_table)


@pytest.mark.parametrize(("other_king", "can_marry"), [("8D", False), ("KC", True)])
def test_card_just_played_cannot_be_declared(other_king: str, can_marry: bool) -> None:
    # S0: a card led or played cannot be declared; another copy in hand still can.
    seat0 = ["KC", "QC", other_king, "7S", "8S", "7D", "9D", "8H"]
    state = game([seat0, JUNK])
    play_out(state, ["play 7C", "play KC"])
    if can_marry:
        assert state.phase == "turn"
        assert legal(state) == {"declare marriage KC QC", "draw"}
    else:
        assert state.phase == "play"  # nothing to declare: the draw was automatic
        assert state.to_act == 0
        assert len(state.hands[0]) == 8


# ---------------------------------------------------------------------- S0 worked examples


def test_single_bezique_then_other_two_added_scores_540() -> None:
    # S0 footnote 3: 40 for the single, then 500 more when the second pair is added.
    seat0 = ["QS", "JD", "QS", "JD", "9H", "8H", "7C", "8C"]
    state = game([seat0, JUNK], stock=seat0_draws(["9H"]))
    play_out(state, ["play 7S", "play 9H"])
    assert legal(state) == {
        "declare bezique QS JD",
        "declare double_bezique QS QS JD JD",
        "draw",
    }
    state.apply("declare bezique QS JD")
    state.apply("draw")
    play_out(state, ["play 8H", "play 9C"])
    # The declared pair cannot make a second single bezique; the fresh pair could (A14).
    assert legal(state) == {
        "declare double_bezique QS QS* JD JD*",
        "declare bezique QS JD",
        "draw",
    }
    state.apply("declare double_bezique QS QS* JD JD*")
    assert scored(state) == [(0, 40, "bezique"), (0, 500, "double_bezique")]
    assert state.scores == [540, 0]


def test_second_pair_scored_as_a_single_gives_up_the_double() -> None:
    # A14 (F326): the fresh pair declared as a single of its own, while the first still
    # lies on the table, scores 40; the four cards, all declared, then make no double.
    seat0 = ["QS", "JD", "QS", "JD", "9H", "8H", "7C", "8C"]
    state = game([seat0, JUNK], stock=seat0_draws(["7H", "9H"]))
    play_out(state, ["play 7S", "play 9H", "declare bezique QS JD", "draw"])
    play_out(state, ["play 8H", "play 9C", "declare bezique QS JD", "draw"])
    play_out(state, ["play 9H", "play 9C"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare double_bezique QS* QS* JD* JD*")
    assert scored(state) == [(0, 40, "bezique"), (0, 40, "bezique")]
    assert state.scores == [80, 0]


def test_all_four_bezique_cards_at_once_score_500_only() -> None:
    # S0 footnote 3: the four bezique cards declared together are 500, never 540.
    seat0 = ["QS", "JD", "QS", "JD", "9H", "8H", "7C", "8C"]
    state = game([seat0, JUNK], stock=seat0_draws(["7H"]))
    play_out(state, ["play 7S", "play 9H"])
    state.apply("declare double_bezique QS QS JD JD")
    assert legal(state) == {"draw"}
    state.apply("draw")
    play_out(state, ["play 8H", "play 9C"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare bezique QS* JD*")
    assert points_by_rule(state, 0) == {"double_bezique": 500}


def test_four_knaves_and_a_marriage_after_the_same_trick() -> None:
    # S0: several combinations with no card in common may be declared to one trick.
    state = game([["JS", "JH", "JD", "JC", "KC", "QC", "9H", "8H"], JUNK])
    play_out(state, ["play 7S", "play 9H"])
    assert legal(state) == {"declare four_knaves JS JH JD JC", "declare marriage KC QC", "draw"}
    state.apply("declare four_knaves JS JH JD JC")
    assert legal(state) == {"declare marriage KC QC", "draw"}
    state.apply("declare marriage KC QC")
    assert legal(state) == {"draw"}
    assert scored(state) == [(0, 40, "four_knaves"), (0, 20, "marriage")]


def test_marriage_and_bezique_cannot_share_the_queen_after_one_trick() -> None:
    # S0: K and Q of spades with J of diamonds: bezique first, the marriage after another trick.
    seat0 = ["KS", "QS", "JD", "9H", "8H", "7C", "8C", "9C"]
    state = game([seat0, JUNK], stock=seat0_draws(["9H"], ["7D", "9D"]))
    play_out(state, ["play 7S", "play 9H"])
    assert legal(state) == {"declare bezique QS JD", "declare marriage KS QS", "draw"}
    state.apply("declare bezique QS JD")
    assert legal(state) == {"draw"}
    error = refuse(state, "declare marriage KS QS*")
    assert "same trick" in str(error)
    state.apply("draw")
    play_out(state, ["play 8H", "play 7D"])
    assert legal(state) == {"declare marriage KS QS*", "draw"}
    state.apply("declare marriage KS QS*")
    assert scored(state) == [(0, 40, "bezique"), (0, 20, "marriage")]


def test_knaves_then_bezique_then_queens_all_score() -> None:
    # S0: declare the knaves, then the bezique, then add three queens for four queens.
    seat0 = ["JS", "JH", "JD", "JC", "QS", "QH", "QD", "9H"]
    state = game([seat0, JUNK], stock=seat0_draws(["8H", "QC"]))
    play_out(state, ["play 7S", "play 9H"])
    assert legal(state) == {"declare four_knaves JS JH JD JC", "declare bezique QS JD", "draw"}
    state.apply("declare four_knaves JS JH JD JC")
    assert legal(state) == {"draw"}
    state.apply("draw")
    play_out(state, ["play 8H", "play 9C"])
    assert legal(state) == {"declare bezique QS JD*", "draw"}
    state.apply("declare bezique QS JD*")
    state.apply("draw")
    play_out(state, ["play JH*", "play 9C"])  # a declared knave wins the trick from the table
    assert legal(state) == {"declare four_queens QS* QH QD QC", "draw"}
    state.apply("declare four_queens QS* QH QD QC")
    assert points_by_rule(state, 0) == {"four_knaves": 40, "bezique": 40, "four_queens": 60}


def test_knaves_and_queens_first_make_the_bezique_impossible() -> None:
    # S0: once the J♦ is in four knaves and the Q♠ in four queens, no bezique of them both.
    seat0 = ["JS", "JH", "JD", "JC", "QS", "QH", "QD", "9H"]
    state = game([seat0, JUNK], stock=seat0_draws(["QC", "7H"]))
    play_out(state, ["play 7S", "play 9H", "declare four_knaves JS JH JD JC", "draw"])
    play_out(state, ["play JH*", "play 9C"])
    assert legal(state) == {"declare four_queens QS QH QD QC", "declare bezique QS JD*", "draw"}
    play_out(state, ["declare four_queens QS QH QD QC", "draw"])
    play_out(state, ["play QH*", "play 9C"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    error = refuse(state, "declare bezique QS* JD*")
    assert "never declared" in str(error)
    assert points_by_rule(state, 0) == {"four_knaves": 40, "four_queens": 60}


def test_bezique_queen_in_three_classes_but_never_twice_in_one() -> None:
    # S0: the Q♠ may be in bezique, marriage and four queens, but in no second bezique or marriage.
    seat0 = ["QS", "JD", "KS", "QH", "QD", "QC", "7H", "9H"]
    state = game([seat0, JUNK], stock=seat0_draws(["8H", "9H", "JD", "KS"]))
    play_out(state, ["play 7S", "play 9H"])
    assert legal(state) == {
        "declare bezique QS JD",
        "declare marriage KS QS",
        "declare four_queens QS QH QD QC",
        "exchange 7H",
        "show 7H",
        "draw",
    }
    play_out(state, ["declare bezique QS JD", "draw", "play 8H", "play 9C"])
    assert legal(state) == {
        "declare marriage KS QS*",
        "declare four_queens QS* QH QD QC",
        "exchange 7H",
        "show 7H",
        "draw",
    }
    play_out(state, ["declare marriage KS QS*", "draw", "play 9H", "play 9C"])
    assert legal(state) == {"declare four_queens QS* QH QD QC", "exchange 7H", "show 7H", "draw"}
    play_out(state, ["declare four_queens QS* QH QD QC", "draw"])
    assert points_by_rule(state, 0) == {"bezique": 40, "marriage": 20, "four_queens": 60}
    # A fresh J♦ cannot make a second single bezique with the Q♠ already in one.
    play_out(state, ["play QD*", "play 7S"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare bezique QS* JD")
    # A fresh K♠ cannot marry the Q♠ a second time.
    play_out(state, ["draw", "play QC*", "play 8S"])
    assert held(state, 0) == sorted(["QS*", "JD*", "KS*", "QH*", "7H", "JD", "KS"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare marriage KS QS*")
    assert state.scores == [120, 0]


def test_queen_in_four_queens_cannot_join_a_second_four_queens() -> None:
    # S0: a queen that has been in one set of four queens cannot be in another.
    seat0 = ["QS", "QH", "QD", "QC", "7H", "9H", "8H", "JH"]
    state = game([seat0, JUNK], stock=seat0_draws(["QH", "QD", "QC"]))
    play_out(state, ["play 7S", "play 9H", "declare four_queens QS QH QD QC", "draw"])
    play_out(state, ["play 8H", "play 9C", "draw", "play JH", "play 9C", "draw"])
    play_out(state, ["play QH*", "play 7S"])
    assert held(state, 0) == sorted(["QS*", "QD*", "QC*", "7H", "QH", "QD", "QC"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare four_queens QS* QH QD QC")
    refuse(state, "declare four_queens QD* QH QD QC")
    assert points_by_rule(state, 0) == {"four_queens": 60}


def test_fifth_king_does_not_score_four_kings_again() -> None:
    # S0 (the ordinary rule restated under Polish bezique): a king added to four declared
    # kings, one of them played away, gives no second score for kings.
    seat0 = ["KS", "KH", "KD", "KC", "9H", "8H", "7H", "JC"]
    state = game([seat0, JUNK], stock=seat0_draws(["KD"]))
    play_out(state, ["play 7S", "play 9H", "declare four_kings KS KH KD KC", "draw"])
    play_out(state, ["play KD*", "play 9C"])
    assert held(state, 0) == sorted(["KS*", "KH*", "KC*", "KD", "8H", "7H", "JC"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare four_kings KS* KH* KD KC*")
    assert state.scores == [80, 0]


def test_fresh_bezique_pair_after_the_first_is_broken() -> None:
    # A14: once a card of the first bezique is played, a pair of fresh cards is a new
    # single bezique, but the remaining declared card cannot join a second one.
    seat0 = ["QS", "JD", "9H", "8H", "7H", "7C", "8C", "JC"]
    state = game([seat0, JUNK], stock=seat0_draws(["QS", "JD"]))
    play_out(state, ["play 7S", "play 9H", "declare bezique QS JD", "draw"])
    play_out(state, ["play QS*", "play 9C"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare bezique QS JD*")
    play_out(state, ["draw", "play 8H", "play 9C"])
    assert legal(state) == {"declare bezique QS JD", "exchange 7H", "show 7H", "draw"}
    state.apply("declare bezique QS JD")
    assert scored(state) == [(0, 40, "bezique"), (0, 40, "bezique")]


def test_royal_marriage_then_sequence_scores_250_more() -> None:
    # S0: marry the trump king and queen first, then add the other three for sequence.
    seat0 = ["AH", "TH", "KH", "QH", "JH", "9S", "7D", "8D"]
    state = game([seat0, JUNK], "9H", seat0_draws(["8H"]))
    play_out(state, ["play 7S", "play 9S"])
    assert legal(state) == {
        "declare royal_marriage KH QH",
        "declare sequence AH TH KH QH JH",
        "draw",
    }
    play_out(state, ["declare royal_marriage KH QH", "draw", "play 8H", "play 9C"])
    assert legal(state) == {"declare sequence AH TH KH* QH* JH", "draw"}
    state.apply("declare sequence AH TH KH* QH* JH")
    assert scored(state) == [(0, 40, "royal_marriage"), (0, 250, "sequence")]


def test_sequence_then_marriage_is_refused() -> None:
    # S0: after a trump sequence its king and queen can no longer be married (nor the king
    # to a fresh queen, A06).
    seat0 = ["AH", "TH", "KH", "QH", "JH", "7H", "9S", "7D"]
    state = game([seat0, JUNK], "9H", seat0_draws(["QH"]))
    play_out(state, ["play 7S", "play 9S", "declare sequence AH TH KH QH JH", "draw"])
    play_out(state, ["play JH*", "play 9C"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare royal_marriage KH* QH*")
    refuse(state, "declare royal_marriage KH* QH")
    assert scored(state) == [(0, 250, "sequence")]


def test_declaration_needs_a_card_never_declared() -> None:
    # S0: every declaration puts down at least one card not declared before; kings and
    # queens declared as quartets cannot then be married.
    seat0 = ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "9H"]
    state = game([seat0, JUNK], stock=seat0_draws(["QC", "7H"]))
    play_out(state, ["play 7S", "play 9H", "declare four_kings KS KH KD KC", "draw"])
    play_out(state, ["play KH*", "play 9C"])
    assert "declare marriage KC* QC" in legal(state)
    play_out(state, ["declare four_queens QS QH QD QC", "draw", "play QH*", "play 9C"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    error = refuse(state, "declare marriage KC* QC*")
    assert "never declared" in str(error)
    refuse(state, "declare marriage KD* QD*")
    assert points_by_rule(state, 0) == {"four_kings": 80, "four_queens": 60}


def test_four_of_a_kind_may_hold_duplicates() -> None:
    # S0 and S2: any four aces (or others) count, duplicates included.
    state = game([["AS", "AS", "AH", "AD", "9H", "7C", "8C", "9C"], JUNK])
    play_out(state, ["play 7S", "play 9H"])
    assert legal(state) == {"declare four_aces AS AS AH AD", "draw"}
    state.apply("declare four_aces AS AS AH AD")
    assert state.scores == [100, 0]


@pytest.mark.parametrize(
    ("hand", "text", "points"),
    [
        (["KC", "QC"], "declare marriage KC QC", 20),
        (["KH", "QH"], "declare royal_marriage KH QH", 40),
        (["QS", "JD"], "declare bezique QS JD", 40),
        (["KS", "KH", "KD", "KC"], "declare four_kings KS KH KD KC", 80),
        (["QS", "QH", "QD", "QC"], "declare four_queens QS QH QD QC", 60),
        (["JS", "JH", "JD", "JC"], "declare four_knaves JS JH JD JC", 40),
        (["AS", "AH", "AD", "AC"], "declare four_aces AS AH AD AC", 100),
        (["AH", "TH", "KH", "QH", "JH"], "declare sequence AH TH KH QH JH", 250),
    ],
)
def test_score_table(hand: list[str], text: str, points: int) -> None:
    # S0 and S2 score tables (bezique 40 and double 500, per A01).
    fill = ["7C", "8C", "9C", "7D", "8D"]
    state = game([[*hand, "9H", *fill][:8], JUNK])  # the combination, a trump, low cards
    play_out(state, ["play 7S", "play 9H", text])
    assert state.scores == [points, 0]


SWAPPED_BEZIQUE = {"declarations": {"bezique_cards": {"S": ["QC", "JH"], "D": ["QC", "JH"]}}}


@pytest.mark.parametrize(
    ("turn_up", "swap", "pair"),
    [
        ("9C", False, "QS JD"),
        ("9H", False, "QS JD"),
        ("9S", False, "QS JD"),
        ("9D", False, "QS JD"),
        ("9C", True, "QS JD"),
        ("9H", True, "QS JD"),
        ("9S", True, "JH QC"),
        ("9D", True, "JH QC"),
    ],
)
def test_bezique_pair_by_trumps(turn_up: str, swap: bool, pair: str) -> None:
    # S0's score table and S2: the bezique is Q♠ J♦ whatever the trumps (the base file).
    # S0 footnote 2, an option its own text says some players refuse (A11): with spades
    # or diamonds trumps the bezique becomes Q♣ J♥.
    trump = turn_up[1]
    hand = ["QS", "JD", "QC", "JH", f"8{trump}", "AS", "AD", "AC"]
    overrides = SWAPPED_BEZIQUE if swap else None
    state = game(
        [hand, ["7S", "8S", "7D", "8D", "7C", "8C", "9C", "9D"]], turn_up, overrides=overrides
    )
    lead = "7D" if trump == "C" else "7C"
    play_out(state, [f"play {lead}", f"play 8{trump}"])
    assert state.to_act == 0
    beziques = {t for t in legal(state) if t.startswith("declare bezique")}
    assert beziques == {f"declare bezique {pair}"}


def test_bezique_cards_follow_the_variant_table() -> None:
    # The pair is read from the variant's table (here S0 footnote 2 set by an override).
    state = game(
        [["QC", "JH", "QS", "JD", "9S", "7C", "8C", "9C"], JUNK], "TS", overrides=SWAPPED_BEZIQUE
    )
    play_out(state, ["play 7S", "play 9S"])
    assert legal(state) == {"declare bezique JH QC", "draw"}


# ---------------------------------------------------------------------- declared cards


def test_declared_cards_stay_playable_from_the_table() -> None:
    # S0: declared cards lie face up but remain part of the hand and can be led or played.
    seat0 = ["QS", "JD", "QS", "9H", "7C", "8C", "9C", "7D"]
    state = game([seat0, JUNK], stock=seat0_draws(["8D"]))
    play_out(state, ["play 7S", "play 9H", "declare bezique QS JD", "draw"])
    assert legal(state) == plays(["QS", "QS*", "JD*", "7C", "8C", "9C", "7D", "8D"])
    state.apply("play QS*")
    assert held(state, 0) == sorted(["QS", "JD*", "7C", "8C", "9C", "7D", "8D"])
    state.apply("play 9C")
    assert state.to_act == 0  # the Q♠ from the table won the trick


def test_declared_card_may_be_played_as_follower() -> None:
    # S0: declared cards may be played to the adversary's lead too.
    seat0 = ["KC", "QC", "9H", "7S", "8S", "7D", "8D", "9D"]
    state = game([seat0, JUNK], stock=["8H", "9C", "JS", "9C", "JC", "9S"])
    play_out(state, ["play 9S", "play 9H", "declare marriage KC QC", "draw", "play 8H", "play 9C"])
    play_out(state, ["play 7S", "play 8S"])  # seat 1 wins this one, draws first and leads
    state.apply("play 7C")
    assert legal(state) == plays(["KC*", "QC*", "8S", "7D", "8D", "9D", "JS", "9S"])
    state.apply("play KC*")
    assert state.to_act == 0
    assert sorted(state.deck.card_text(c) for c in state.won[0][-2:]) == ["7C", "KC"]
    assert "QC*" in held(state, 0)
    assert "KC*" not in held(state, 0)


# ---------------------------------------------------------------------- declarations per trick


def test_several_mode_has_no_announcing() -> None:
    # S0: all disjoint combinations score at once, so nothing is left to announce.
    state = game([["JS", "JH", "JD", "JC", "KC", "QC", "9H", "8H"], JUNK])
    play_out(state, ["play 7S", "play 9H", "declare four_knaves JS JH JD JC"])
    refuse(state, "announce marriage KC QC")


def test_one_mode_second_combination_is_announced_then_scored_after_next_trick() -> None:
    # A05 (Foster, S3, S4): one score per trick; a second combination is shown, scored later.
    state = game(
        [["JS", "JH", "JD", "JC", "KC", "QC", "9H", "8H"], JUNK],
        stock=seat0_draws(["KS"]),
        overrides=ONE_PER_TRICK,
    )
    play_out(state, ["play 7S", "play 9H"])
    assert legal(state) == {"declare four_knaves JS JH JD JC", "declare marriage KC QC", "draw"}
    state.apply("declare four_knaves JS JH JD JC")
    assert legal(state) == {"announce marriage KC QC", "draw"}
    error = refuse(state, "declare marriage KC QC")
    assert "one combination" in str(error)
    state.apply("announce marriage KC QC")
    assert state.scores == [40, 0]
    assert held(state, 0) == sorted(["JS*", "JH*", "JD*", "JC*", "KC*", "QC*", "8H"])
    play_out(state, ["draw", "play 8H", "play 9C"])
    assert legal(state) == {"declare marriage KC* QC*", "draw"}
    state.apply("declare marriage KC* QC*")
    assert scored(state) == [(0, 40, "four_knaves"), (0, 20, "marriage")]


def test_one_mode_announced_combination_lapses_when_one_of_its_cards_is_played() -> None:
    # A05: an announced combination scores only while all its cards are still on the table.
    state = game(
        [["JS", "JH", "JD", "JC", "KC", "QC", "9H", "7H"], JUNK],
        stock=seat0_draws(["8D"]),
        overrides=ONE_PER_TRICK,
    )
    play_out(state, ["play 7S", "play 9H", "declare four_knaves JS JH JD JC"])
    play_out(state, ["announce marriage KC QC", "draw", "play QC*", "play 9C"])
    assert state.to_act == 0
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare marriage KC* QC")
    assert state.scores == [40, 0]


def test_one_mode_exchanging_the_seven_does_not_use_up_the_declaration() -> None:
    # A13: the exchange of the seven is no declaration of a combination.
    state = game([["KC", "QC", "7H", "9H", *FILLER[:4]], JUNK], overrides=ONE_PER_TRICK)
    play_out(state, ["play 9S", "play 9H", "exchange 7H"])
    assert legal(state) == {"declare marriage KC QC", "draw"}
    state.apply("declare marriage KC QC")
    assert scored(state) == [(0, 10, "seven_of_trumps.exchange_points"), (0, 20, "marriage")]


def test_one_mode_announced_combination_lapses_when_the_stock_is_exhausted() -> None:
    # A38: announced but unscored combinations die with the stock.
    state = last_trick_deal(
        ["JS", "JH", "JD", "JC", "KC", "QC", "9S"],
        ["TS", "8S", "QS", "KD", "8D", "7D", "JH"],
        overrides=ONE_PER_TRICK,
    )
    play_out(state, ["play 7C", "play 8C", "declare four_knaves JS JH JD JC"])
    play_out(state, ["announce marriage KC QC", "draw"])
    cycle(state, 22)
    # The winner of the trick that empties the stock could still score it ...
    state.apply(newest_card(state))
    state.apply(newest_card(state))
    assert legal(state) == {"declare marriage KC* QC*", "draw"}
    # ... but once he has drawn it is gone.
    state.apply("draw")
    assert state.stock_left() == 0
    assert announced(state) == [[], []]
    assert held(state, 0) == sorted(["JS", "JH", "JD", "JC", "KC", "QC", "9S", "7C"])
    play_out(state, ["play JH", "play 9H"])
    assert (state.phase, state.to_act) == ("play", 0)
    refuse(state, "declare marriage KC QC")
    assert "marriage" not in points_by_rule(state, 0)


def test_one_mode_scores_one_announced_combination_per_trick() -> None:
    # A05 (Foster): announced combinations are scored one per trick won.
    seat0 = ["KC", "QC", "KD", "QD", "KS", "QS", "9H", "8H"]
    state = game([seat0, JUNK], stock=seat0_draws(["7H", "9H"]), overrides=ONE_PER_TRICK)
    play_out(state, ["play 7S", "play 9H", "declare marriage KC QC"])
    assert legal(state) == {"announce marriage KD QD", "announce marriage KS QS", "draw"}
    play_out(state, ["announce marriage KD QD", "announce marriage KS QS", "draw"])
    play_out(state, ["play 8H", "play 9C"])
    assert legal(state) == {
        "declare marriage KD* QD*",
        "declare marriage KS* QS*",
        "exchange 7H",
        "show 7H",
        "draw",
    }
    state.apply("declare marriage KD* QD*")
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    refuse(state, "declare marriage KS* QS*")
    play_out(state, ["draw", "play 9H", "play 9C"])
    assert "declare marriage KS* QS*" in legal(state)
    state.apply("declare marriage KS* QS*")
    assert scored(state) == [(0, 20, "marriage")] * 3


# ---------------------------------------------------------------------- the seven of trumps


def test_seven_exchanged_for_the_turn_up() -> None:
    # S0 and S2: after winning, the seven of trumps may be exchanged for the turn-up, for 10.
    state = game([["7H", "9H", *FILLER[:6]], JUNK], "KH")
    play_out(state, ["play 9S", "play 9H"])
    assert legal(state) == {"exchange 7H", "show 7H", "draw"}
    state.apply("exchange 7H")
    assert scored(state) == [(0, 10, "seven_of_trumps.exchange_points")]
    assert state.deck.card_text(state.turn_up) == "7H"
    assert held(state, 0) == sorted(["KH", *FILLER[:6]])
    assert legal(state) == {"draw"}


def test_seven_shown_scores_ten_and_stays_in_the_hand() -> None:
    # S0: a declared seven is shown only, not left on the table; S2: it scores 10.
    state = game([["7H", "9H", *FILLER[:6]], JUNK], "KH", seat0_draws(["8H"]))
    play_out(state, ["play 9S", "play 9H", "show 7H"])
    assert scored(state) == [(0, 10, "seven_of_trumps.declare_points")]
    assert not any(state.on_table)
    assert state.deck.card_text(state.turn_up) == "KH"
    assert legal(state) == {"draw"}
    # The same seven scores no second time after a later trick.
    play_out(state, ["draw", "play 8H", "play 9C"])
    assert state.phase == "play"
    assert state.scores == [10, 0]


def test_second_seven_is_shown_after_the_first_is_exchanged() -> None:
    # S0 and S2: the duplicate seven scores 10 too, shown, never exchanged for a seven.
    state = game([["7H", "7H", "9H", *FILLER[:5]], JUNK], "KH")
    play_out(state, ["play 9S", "play 9H", "exchange 7H"])
    assert legal(state) == {"show 7H", "draw"}
    refuse(state, "exchange 7H")
    state.apply("show 7H")
    assert state.scores == [20, 0]
    assert legal(state) == {"draw"}


def test_second_seven_shown_after_a_later_trick() -> None:
    # S0: the second seven, drawn later, is shown since the turn-up is now a seven.
    state = game([["7H", "9H", *FILLER[:6]], JUNK], "KH", seat0_draws(["7H", "8H"]))
    play_out(state, ["play 9S", "play 9H", "exchange 7H", "draw"])
    play_out(state, ["play KH", "play 9C"])
    assert legal(state) == {"show 7H", "draw"}
    state.apply("show 7H")
    assert state.scores == [20, 0]


def test_no_exchange_when_a_seven_is_turned_up() -> None:
    # S0 and A04: with a seven turned up (10 to the dealer) the other seven is only shown.
    state = game([["7H", "9H", *FILLER[:6]], JUNK], "7H")
    assert state.scores == [10, 0]
    play_out(state, ["play 9S", "play 9H"])
    assert legal(state) == {"show 7H", "draw"}
    error = refuse(state, "exchange 7H")
    assert "seven" in str(error)
    state.apply("show 7H")
    assert state.scores == [20, 0]


def test_card_taken_by_the_exchange_cannot_be_declared_in_the_same_turn() -> None:
    # A13 (EW): the card taken from the turn-up is not declared in the same turn.
    state = game([["7H", "QH", "9H", *FILLER[:5]], JUNK], "KH", seat0_draws(["8H"]))
    play_out(state, ["play 9S", "play 9H", "exchange 7H"])
    assert legal(state) == {"draw"}
    error = refuse(state, "declare royal_marriage KH QH")
    assert "exchange" in str(error)
    play_out(state, ["draw", "play 8H", "play 9C"])
    assert legal(state) == {"declare royal_marriage KH QH", "draw"}
    state.apply("declare royal_marriage KH QH")
    assert state.scores == [50, 0]


def test_seven_exchange_and_a_declaration_in_the_same_turn() -> None:
    # A13: exchanging and declaring after the same trick are both allowed.
    state = game([["7H", "KC", "QC", "9H", *FILLER[:4]], JUNK], "KH")
    play_out(state, ["play 9S", "play 9H"])
    assert legal(state) == {"exchange 7H", "show 7H", "declare marriage KC QC", "draw"}
    play_out(state, ["declare marriage KC QC", "exchange 7H"])
    assert state.scores == [30, 0]


def test_seven_of_trumps_played_to_a_trick_scores_nothing() -> None:
    # S0 (A12): the seven scores when declared or exchanged after a won trick, not when played.
    state = game([["7H", *FILLER], ["7H", *FILLER]], "KH")
    play_out(state, ["play 7H", "play 8S"])
    assert state.to_act == 1
    play_out(state, ["play 7S", "play 7H"])
    assert state.to_act == 0
    assert state.scores == [0, 0]


def test_seven_shown_only_by_the_trick_winner() -> None:
    # S0: the seven is declared or exchanged after winning a trick, never before.
    state = game([JUNK, ["7H", "9H", *FILLER[:6]]], "KH")
    refuse(state, "show 7H")
    refuse(state, "exchange 7H")


# ---------------------------------------------------------------------- the last trick


LT_W = ["9S", "AS", "QS", "TS", "9C", "KC", "QC"]
"""W's cards kept through the stock (no trump, no diamond)."""
LT_L = ["TS", "8S", "QS", "KD", "8D", "7D", "JH"]
"""L's cards kept through the stock (no club)."""
LT_BRISQUES = 13
"""Aces and tens in the stock that W wins in tricks 2-24: all but W's A♠ T♠ and L's T♠."""

ENDGAME = [
    ("play AS", "play 8S"),  # W: nothing beats the ace
    ("play TS", "play QS"),  # W: L's ten would only tie
    ("play QS", "play TS"),  # L must win with the ten, and leads from now on
    ("play KD", "play 9S"),  # W has no diamond and no trump: any card
    ("play 8D", "play 9C"),
    ("play 7D", "play KC"),
    ("play JH", "play QC"),
    ("play 9H", "play 7C"),  # L wins the thirty-second trick
]
"""The last eight tricks from W: LT_W + 7C against L: LT_L + 9H, W leading."""


def play_endgame(state: GameState) -> None:
    """Play the eight scripted tricks of :data:`ENDGAME`."""
    for lead, follow in ENDGAME:
        play_out(state, [lead, follow])


def hand_events(state: GameState, hand: int = 0) -> list[tuple[int, int, str]]:
    """The score events of one hand, as (player, points, rule)."""
    return [
        (e.player, e.points, e.rule)
        for e, h in zip(state.events, state.event_hands, strict=True)
        if h == hand
    ]


def test_cycle_setup_seat0_wins_every_trick_while_the_stock_lasts() -> None:
    # Check of the helper behind the following tests: brisques scored by the winner at once.
    state = last_trick_deal(LT_W, LT_L)
    cycle(state, 23)
    assert state.stock_left() == 2
    assert state.to_act == 0
    assert state.won[1] == []
    assert brisques_won(state, 0) == LT_BRISQUES
    assert state.scores == [10 * LT_BRISQUES, 0]


def test_second_player_still_free_in_the_stock_exhausting_trick() -> None:
    # S0: the duties of the end-game start only after the stock is exhausted.
    state = last_trick_deal(LT_W, LT_L)
    cycle(state, 23)
    state.apply(newest_card(state))
    l_cards = [state.deck.card_text(c) for c in state.hands[1]]
    assert legal(state) == plays(l_cards)


def test_stock_exhausting_trick_scores_ten_and_its_winner_still_declares() -> None:
    # S0 footnote 5 and the last-trick paragraph: the trick that empties the stock is the
    # last trick (10); its winner may declare, then takes the last card, the loser the turn-up.
    state = last_trick_deal(LT_W, LT_L)
    cycle(state, 23)
    state.apply(newest_card(state))
    state.apply(newest_card(state))
    assert state.scores == [10 * LT_BRISQUES + 10, 0]
    assert scored(state)[-1] == (0, 10, "last_trick")
    assert state.last_trick_winner == 0
    assert state.phase == "turn"
    assert legal(state) == {"declare marriage KC QC", "draw"}
    state.apply("declare marriage KC QC")
    assert state.scores == [10 * LT_BRISQUES + 30, 0]
    state.apply("draw")
    assert state.stock_left() == 0
    assert held(state, 0) == sorted([*LT_W, "7C"])
    assert held(state, 1) == sorted([*LT_L, "9H"])
    assert state.to_act == 0  # the winner of the last trick leads the end-game
    play_endgame(state)
    # The thirty-second trick (won by L) scores nothing special in this reading.
    assert [r for _, _, r in hand_events(state)].count("last_trick") == 1
    assert hand_events(state)[-1] != (1, 10, "last_trick")


def test_exchanged_seven_goes_to_the_loser_of_the_last_trick() -> None:
    # S0 and A04: the last trick's winner may still exchange the seven; the loser then takes it.
    w_core = ["7H", "AS", "QS", "TS", "9C", "KC", "QC"]
    state = last_trick_deal(w_core, LT_L)
    cycle(state, 23)
    state.apply(newest_card(state))
    state.apply(newest_card(state))
    assert legal(state) == {"exchange 7H", "show 7H", "declare marriage KC QC", "draw"}
    state.apply("exchange 7H")
    assert scored(state)[-1] == (0, 10, "seven_of_trumps.exchange_points")
    state.apply("draw")
    assert held(state, 0) == sorted(["9H", "AS", "QS", "TS", "9C", "KC", "QC", "7C"])
    assert held(state, 1) == sorted([*LT_L, "7H"])
    assert state.stock_left() == 0


def test_final_mode_the_thirty_second_trick_scores_ten() -> None:
    # S2: the last trick is the thirty-second; the twenty-fourth scores nothing special.
    state = last_trick_deal(LT_W, LT_L, overrides={"last_trick": {"which": "final"}})
    cycle(state, 24)
    assert state.stock_left() == 0
    assert state.scores == [10 * LT_BRISQUES, 0]
    assert "last_trick" not in [r for _, _, r in scored(state)]
    play_endgame(state)
    events = hand_events(state)
    assert [e for e in events if e[2] == "last_trick"] == [(1, 10, "last_trick")]
    # W: 13 + A♠ + T♠ in brisques; L: the T♠ of trick 27 and the last trick.
    assert sum(p for who, p, _ in events if who == 0) == 150
    assert sum(p for who, p, _ in events if who == 1) == 20


# ---------------------------------------------------------------------- after the stock


def at_endgame() -> GameState:
    """W (seat 0) has won the last trick and drawn: W holds LT_W + 7C, L holds LT_L + 9H."""
    state = last_trick_deal(LT_W, LT_L)
    cycle(state, 23)
    state.apply(newest_card(state))
    state.apply(newest_card(state))
    play_out(state, ["declare marriage KC QC", "draw"])
    return state


def test_declared_cards_return_to_the_hands_when_the_stock_is_exhausted() -> None:
    # S0: cards declared and not played are taken back into the hands for the last eight.
    state = at_endgame()
    assert not any(state.on_table)
    assert legal(state) == plays([*LT_W, "7C"])


def test_no_declarations_once_the_stock_is_exhausted() -> None:
    # S0: all declarations cease after the last trick (F325: none once the stock is gone).
    state = last_trick_deal(LT_W, LT_L)
    cycle(state, 24)
    assert state.stock_left() == 0
    # W still holds the undeclared marriage K♣ Q♣ and wins the next trick with the A♠.
    play_out(state, ["play AS", "play 8S"])
    assert state.to_act == 0
    assert state.phase == "play"
    refuse(state, "declare marriage KC QC")
    assert legal(state) == plays(["9S", "QS", "TS", "9C", "KC", "QC", "7C"])


@pytest.mark.parametrize(
    ("lead", "answers"),
    [
        ("9S", ["TS", "QS"]),  # must follow and must win when able
        ("AS", ["TS", "8S", "QS"]),  # must follow; cannot win, so any card of the suit
        ("QS", ["TS"]),  # an identical queen would not win: the ten must be played
        ("TS", ["TS", "8S", "QS"]),  # an identical ten cannot win either
        ("9C", ["JH", "9H"]),  # void in the suit led: must trump
    ],
)
def test_endgame_duties_of_the_second_player(lead: str, answers: list[str]) -> None:
    # S0 on the last eight tricks: follow suit, win if able, trump when void and able.
    state = at_endgame()
    state.apply(f"play {lead}")
    assert legal(state) == plays(answers)
    wrong = next(c for c in [*LT_L, "9H"] if c not in answers)
    error = refuse(state, f"play {wrong}")
    assert "follow suit" in str(error)


def test_endgame_void_without_trumps_may_play_anything() -> None:
    # S0: with neither the suit led nor a trump, the second player plays any card.
    state = at_endgame()
    play_out(state, ["play 9C", "play 9H", "play KD"])  # L trumps, then leads a diamond
    assert state.to_act == 0
    assert legal(state) == plays(["9S", "AS", "QS", "TS", "KC", "QC", "7C"])
    state.apply("play 7C")
    play_out(state, ["play JH"])  # L leads a trump: W has none
    assert legal(state) == plays(["9S", "AS", "QS", "TS", "KC", "QC"])


def test_endgame_trump_led_must_be_headed_if_possible() -> None:
    # S0: the duty to win applies to trumps led as well.
    state = last_trick_deal(["9S", "AS", "QS", "TS", "9H", "KC", "QC"], LT_L)
    cycle(state, 24)
    assert held(state, 1) == sorted([*LT_L, "9H"])
    state.apply("play 9H")
    assert legal(state) == plays(["JH"])  # the other 9♥ would not win


def test_endgame_the_trick_winner_leads() -> None:
    # S0: the winner of each of the last eight tricks leads to the next.
    state = at_endgame()
    play_out(state, ["play 9S", "play QS"])
    assert state.to_act == 1
    assert legal(state) == plays(["TS", "8S", "KD", "8D", "7D", "JH", "9H"])


# ---------------------------------------------------------------------- brisques and the game


def test_brisques_score_at_once_by_default() -> None:
    # S0 footnote 4: aces and tens are best scored as soon as they are won, 10 each.
    state = game([["AS", *FILLER], ["TS", *FILLER]])
    play_out(state, ["play TS", "play AS"])
    assert scored(state) == [(0, 20, "brisques")]


def test_brisques_at_once_over_a_whole_hand() -> None:
    # S0 footnote 4 and the table: 10 for each ace or ten, to the winner of its trick.
    state = last_trick_deal(LT_W, LT_L)
    cycle(state, 24)
    assert state.scores == [10 * LT_BRISQUES + 10, 0]
    play_endgame(state)
    events = hand_events(state)
    assert events[-3:] == [(0, 10, "brisques"), (0, 10, "brisques"), (1, 10, "brisques")]
    assert sum(p for who, p, _ in events if who == 0) == 160
    assert sum(p for who, p, _ in events if who == 1) == 10


def test_brisques_at_the_end_of_the_hand() -> None:
    # S0 footnote 4: some count aces and tens only when the hand is over.
    overrides = {"brisques": {"timing": "end_of_hand"}}
    state = last_trick_deal(LT_W, LT_L, overrides=overrides)
    cycle(state, 24)
    assert state.scores == [10, 0]  # the last trick only
    play_endgame(state)
    assert hand_events(state) == [
        (0, 10, "last_trick"),
        (0, 150, "brisques"),
        (1, 10, "brisques"),
    ]


PRECEDENCE_W = ["TS", "TS", "TD", "TD", "TC", "TC", "9S"]
"""W wins every trick while the stock lasts, taking only the A♥ A♥ T♥ T♥ in brisques."""
PRECEDENCE_L = ["AS", "AS", "AD", "AD", "AC", "AC", "9D"]
"""L's aces take W's tens in the end-game: W must follow with them or lead them."""


def precedence_game(both_over: str) -> GameState:
    """Play a hand where both pass the target (50) at its end, the last-trick winner lower."""
    overrides = {
        "brisques": {"timing": "end_of_hand"},
        "game": {"target": 50, "check": "at_once", "both_over": both_over},
    }
    state = last_trick_deal(PRECEDENCE_W, PRECEDENCE_L, overrides=overrides)
    cycle(state, 24)
    assert state.last_trick_winner == 0
    assert state.scores == [10, 0]  # only the last trick scores while the brisques wait
    finish_hand(state)
    assert state.phase == "game_over"
    assert state.hand_no == 0
    # W: last trick 10 + four brisques; L: twelve brisques (its six aces and W's six tens).
    assert scored(state)[-2:] == [(0, 40, "brisques"), (1, 120, "brisques")]
    assert [brisques_won(state, 0), brisques_won(state, 1)] == [4, 12]
    assert state.scores == [50, 120]
    return state


def test_end_of_hand_brisques_both_over_last_trick_winner_wins() -> None:
    # S0 footnote 4: when both score out by the brisques counted at the end, the winner of
    # the last trick has precedence, even with the lower total.
    assert precedence_game("last_trick_winner").winner == 0


def test_end_of_hand_brisques_both_over_higher_score_wins() -> None:
    # The alternative switch (A10): the higher total wins.
    assert precedence_game("higher_score").winner == 1


def test_game_ends_at_once_when_the_target_is_reached() -> None:
    # S0: the game is won by the first to reach the target (here 20, brisques scored at once).
    state = game([["AS", *FILLER], ["TS", *FILLER]], overrides={"game": {"target": 20}})
    play_out(state, ["play TS", "play AS"])
    assert state.phase == "game_over"
    assert state.winner == 0
    assert state.legal_actions() == []
    error = refuse(state, "play 7S")
    assert error.rule == "game.target"


def test_game_ends_at_once_on_a_declaration() -> None:
    # S0: a declaration reaching the target wins at once too.
    state = game([["QS", "JD", "9H", *FILLER[:5]], JUNK], overrides={"game": {"target": 40}})
    play_out(state, ["play 7S", "play 9H", "declare bezique QS JD"])
    assert (state.phase, state.winner, state.scores) == ("game_over", 0, [40, 0])


def test_hand_end_check_waits_for_the_end_of_the_hand() -> None:
    # The hand_end switch (A10): the target is only looked at when the hand is over.
    overrides = {"game": {"target": 20, "check": "hand_end"}}
    state = last_trick_deal(LT_W, LT_L, overrides=overrides)
    cycle(state, 24)
    assert state.scores == [10 * LT_BRISQUES + 10, 0]
    assert (state.phase, state.winner) == ("play", -1)
    play_endgame(state)
    assert (state.phase, state.winner, state.hand_no) == ("game_over", 0, 0)
    assert state.scores == [160, 10]


ONE_DEAL = {"game": {"end": "one_deal", "target": None, "check": "at_once"}}
"""Ordinary bezique made a game of one deal (game.end, R20), its target deleted."""


def test_a_game_of_one_deal_ends_with_its_hand_whatever_the_scores() -> None:
    # game.end: one_deal: no score ends it mid-hand (check at_once is not read), the hand's
    # end does, the higher total winning: the same deal as the hand_end test above.
    state = last_trick_deal(LT_W, LT_L, overrides=ONE_DEAL)
    assert state.rules.target is None and state.rules.one_deal
    cycle(state, 24)
    assert state.scores == [10 * LT_BRISQUES + 10, 0]
    assert (state.phase, state.winner) == ("play", -1)
    play_endgame(state)
    assert (state.phase, state.winner, state.hand_no) == ("game_over", 0, 0)
    assert state.scores == [160, 10]
    assert refuse(state, "draw").rule == "game.target"


def test_the_same_deal_to_a_target_goes_on_to_another_hand() -> None:
    # The default game.end (target, 1000): the same hand ends nothing.
    state = last_trick_deal(LT_W, LT_L)
    cycle(state, 24)
    play_endgame(state)
    assert (state.phase, state.winner, state.hand_no) == ("play", -1, 1)  # the next is dealt
    assert state.scores == [160, 10]


def test_equal_highest_totals_after_one_deal_draw() -> None:
    from bezique.engine.state import DRAWN_GAME

    state = last_trick_deal(LT_W, LT_L, overrides=ONE_DEAL)
    state.scores[:] = [200, 200]
    assert state.rules.game_winner(state, False) == -1
    assert state.rules.game_winner(state, True) == DRAWN_GAME
    state.scores[:] = [200, 210]
    assert state.rules.game_winner(state, True) == 1


def test_at_once_check_ends_the_game_mid_hand() -> None:
    # S0: the first to reach the target wins; W's A♥ A♥ trick reaches 20.
    overrides = {"game": {"target": 20, "check": "at_once"}}
    state = last_trick_deal(LT_W, LT_L, overrides=overrides)
    cycle(state, 1)
    assert state.scores == [0, 0]
    state.apply(newest_card(state))
    state.apply(newest_card(state))
    assert (state.phase, state.winner, state.scores) == ("game_over", 0, [20, 0])
    assert state.tricks_done == 2


@pytest.mark.parametrize("variant", ["ordinary", "three-hand", "six-pack", "eight-pack"])
def test_faces_of_folds_every_pack_onto_the_faces(variant: str) -> None:
    from bezique.plugins.ordinary.combinations import tables_of
    from bezique.rules.ruleset import ruleset_for

    t = tables_of(ruleset_for(variant))
    deck = t.deck
    for card in range(deck.size):
        assert t.faces_of(1 << card) == 1 << deck.card_face[card]
    everything = (1 << deck.size) - 1
    assert t.faces_of(everything) == (1 << deck.faces) - 1
    last_copies = sum(1 << card for card in range(deck.size - deck.faces, deck.size))
    assert t.faces_of(last_copies) == (1 << deck.faces) - 1
