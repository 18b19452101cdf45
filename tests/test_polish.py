"""Rules tests of Polish (open) bezique, played from stacked decks, and its conformance.

Sources (the codes of the bibliography, ``bezique sources``): S0's Polish section is the
main source; the A-numbers are the bibliography's readings.

Conventions: the dealer is seat 0, so seat 1 leads the first trick; seat 1 is the
player whose open rows the scenarios build ("A" in S0's examples).  The stock is
named where the draws matter; the kernel draws without a turn when the trick's
winner has nothing to declare or exchange, so most tricks are just two plays.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from stacked import through_stock

from bezique.actions import Action, Kind
from bezique.errors import IllegalActionError
from bezique.game import GameState, from_json, new_game
from bezique.records.record import record_of, replay
from bezique.testing import check_invariants, points_by_rule, refuse, scenario

VARIANT = "polish"
RANKS = "ATKQJ987"
SUITS = "SHDC"


# ---------------------------------------------------------------------- helpers


def game(hands: Sequence[Sequence[str]], turn_up: str, stock: Sequence[str] = ()) -> GameState:
    """Deal Polish bezique from a stacked deck (seat 0 deals; hands[0] is the dealer's)."""
    return scenario(VARIANT, hands=hands, turn_up=turn_up, stock=stock)


def legal(state: GameState) -> set[str]:
    """The legal actions of the player to act, as texts."""
    return {state.action_text(a) for a in state.legal_actions()}


def act(state: GameState, *texts: str) -> None:
    """Apply actions, checking the invariants after each."""
    for text in texts:
        state.apply(text)
        check_invariants(state)
        check_polish_invariants(state)


def trick(state: GameState, lead: str, follow: str) -> None:
    """Play one trick: the player to act leads ``lead``, the other plays ``follow``."""
    assert state.phase == "play"
    act(state, f"play {lead}", f"play {follow}")


def open_texts(state: GameState, seat: int) -> list[str]:
    """A seat's open cards, sorted, as texts."""
    return sorted(state.deck.card_text(c) for c in state.places()[f"open-{seat}"])


def won_texts(state: GameState, seat: int) -> list[str]:
    """A seat's cards won in tricks and turned down, sorted, as texts."""
    return sorted(state.deck.card_text(c) for c in state.won[seat])


def turn_points(state: GameState, seat: int, since: int) -> dict[str, int]:
    """``seat``'s points by rule in the score events from index ``since`` on."""
    totals: Counter[str] = Counter()
    for event in state.events[since:]:
        if event.player == seat:
            totals[event.rule] += event.points
    return dict(totals)


def assert_replays(state: GameState) -> None:
    """The record of ``state`` replays to the same state, and the state round-trips."""
    data = state.to_json()
    assert from_json(json.loads(json.dumps(data))).to_json() == data
    record = record_of(state)
    json.dumps(record)
    assert replay(record).to_json() == data


def check_polish_invariants(state: GameState) -> None:
    """Open rows hold only open cards, face up; turned-down cards hold none; hands none face up."""
    deck = state.deck
    for seat in range(state.players):
        for card in state.places()[f"open-{seat}"]:
            assert is_scoring(state, card), deck.card_text(card)
            assert state.on_table[card]
        for card in state.won[seat]:
            assert not is_scoring(state, card), deck.card_text(card)
        for card in state.hands[seat]:
            assert not state.on_table[card] and not state.levels[card]


def is_scoring(state: GameState, card: int) -> bool:
    """Aces, kings, queens, knaves of any suit and tens of trumps go to the open rows."""
    rank = state.deck.ranks[state.deck.card_rank[card]]
    return rank in "AKQJ" or (rank == "T" and state.deck.card_suit[card] == state.trump)


# ---------------------------------------------------------------------- the variant


def test_variant_file() -> None:
    state = new_game(VARIANT, seed=1)
    data = state.rules.data
    assert data["plugins"] == ["ordinary", "polish"]
    assert data["game"]["target"] == 2000
    assert data["declarations"]["per_trick"] == "compound"
    assert data["brisques"]["timing"] == "immediate"
    for section in ("seven_of_trumps", "declarations", "brisques", "endgame", "game"):
        assert "Polish" in data[section]["source"], section
    assert state.places() == {"open-0": [], "open-1": []}


# ---------------------------------------------------------------------- S0's examples

KINGS_HANDS = [
    ["7D", "8C", "9S", "8S", "KS", "7C", "9D", "9C"],
    ["KS", "KD", "KC", "7S", "8H", "7H", "8D", "9H"],
]


def test_fourth_king_won_scores_80_for_kings() -> None:
    """S0: three open kings, a trick won with a king in it, 80 for kings."""
    state = game(KINGS_HANDS, turn_up="TH")
    trick(state, "KS", "7D")
    trick(state, "KD", "8C")
    trick(state, "KC", "9S")
    assert open_texts(state, 1) == ["KC", "KD", "KS"]
    assert state.scores == [0, 0]
    trick(state, "7S", "8S")  # seat 0 wins and leads the king
    trick(state, "KS", "8H")  # seat 1 trumps it
    assert state.phase == "turn" and state.to_act == 1
    assert legal(state) == {"declare four_kings", "draw"}
    act(state, "declare four_kings")
    assert legal(state) == {"draw"}
    assert points_by_rule(state, 1) == {"four_kings": 80}
    assert state.events[-1].detail == "KS KD KC KS"  # card ids: copy 0, then copy 1
    act(state, "draw")
    assert_replays(state)


HANDS_430 = [
    ["KD", "QS", "QC", "JH", "7C", "8S", "QH", "7D"],
    ["KS", "KC", "QD", "AH", "TH", "7S", "KH", "9C"],
]
STOCK_430 = ["8C", "KS"]
"""Seat 1 draws the 8C first; seat 0 the second king of spades."""


def before_430(marry: bool = False) -> GameState:
    """Seat 1's open rows: K K K, Q Q Q, A T J of trumps (hearts); seat 0 to lead the QH.

    With ``marry`` the two marriages the rows offered on the way are declared
    (KS QS after the second trick, KD QD and KC QC after the third); else omitted.
    """
    state = game(HANDS_430, turn_up="9H", stock=STOCK_430)
    trick(state, "KS", "KD")
    assert state.phase == "play"  # two kings: nothing to declare, so no turn
    trick(state, "KC", "QS")
    assert legal(state) == {"declare marriage", "draw"}
    act(state, *(["declare marriage"] if marry else []), "draw")
    trick(state, "QD", "QC")
    assert legal(state) == {"declare marriage", "draw"}
    if marry:  # two marriages of one class after one trick, sharing no card
        act(state, "declare marriage")
        assert legal(state) == {"declare marriage", "draw"}
        act(state, "declare marriage")
    act(state, "draw")
    trick(state, "AH", "JH")
    trick(state, "TH", "7C")
    trick(state, "7S", "8S")
    assert state.to_act == 0
    assert open_texts(state, 1) == sorted(["KS", "KD", "KC", "QS", "QD", "QC", "AH", "TH", "JH"])
    return state


def test_queen_of_trumps_won_with_the_king_scores_430() -> None:
    """S0: royal marriage 40, four kings 80, four queens 60, sequence 250, after one trick."""
    state = before_430()
    since = len(state.events)
    trick(state, "QH", "KH")
    assert legal(state) == {
        "declare royal_marriage",
        "declare four_kings",
        "declare four_queens",
        "declare sequence",
        "draw",
    }
    act(state, "declare royal_marriage")
    assert legal(state) == {
        "declare four_kings",
        "declare four_queens",
        "declare sequence",
        "draw",
    }
    act(state, "declare four_kings", "declare four_queens")
    assert legal(state) == {"declare sequence", "draw"}
    act(state, "declare sequence")
    assert legal(state) == {"draw"}
    assert turn_points(state, 1, since) == {
        "royal_marriage": 40,
        "four_kings": 80,
        "four_queens": 60,
        "sequence": 250,
    }
    assert sum(turn_points(state, 1, since).values()) == 430
    assert [e.detail for e in state.events[since:]] == [
        "KH QH",
        "KS KH KD KC",
        "QS QH QD QC",
        "AH TH KH QH JH",
    ]
    act(state, "draw")
    assert_replays(state)


def test_sequence_first_bars_the_royal_marriage() -> None:
    """The class rule inside one turn: a sequence's king and queen are never married after."""
    state = before_430()
    trick(state, "QH", "KH")
    act(state, "declare sequence")
    assert legal(state) == {"declare four_kings", "declare four_queens", "draw"}
    error = refuse(state, "declare royal_marriage")
    assert "same class" in str(error)


def test_ace_of_hearts_won_with_the_seven_and_exchanged_scores_130() -> None:
    """S0: A S turned up; A H led and won with the seven, exchanged: 10 + 10 + 10 + 100."""
    state = game(
        [
            ["8D", "9C", "9H", "AH", "7C", "8C", "9S", "8S"],
            ["AC", "AD", "8H", "7S", "7D", "9D", "8D", "7C"],
        ],
        turn_up="AS",
    )
    trick(state, "AC", "8D")
    trick(state, "AD", "9C")
    trick(state, "8H", "9H")
    assert open_texts(state, 1) == ["AC", "AD"]
    since = len(state.events)
    trick(state, "AH", "7S")
    assert state.to_act == 1
    assert legal(state) == {"exchange", "draw"}  # three open aces: no declaration yet
    act(state, "exchange")
    assert state.deck.card_text(state.turn_up) == "7S"
    assert open_texts(state, 1) == ["AC", "AD", "AH", "AS"]
    assert "7S" not in won_texts(state, 1)
    assert legal(state) == {"declare four_aces", "draw"}
    act(state, "declare four_aces")
    assert legal(state) == {"draw"}
    assert turn_points(state, 1, since) == {
        "seven_of_trumps.declare_points": 10,
        "brisques": 20,
        "four_aces": 100,
    }
    assert sum(turn_points(state, 1, since).values()) == 130
    act(state, "draw")
    assert_replays(state)


# ---------------------------------------------------------------------- the seven


SEVEN_HANDS = [
    ["9H", "8H", "7C", "8C", "9C", "8D", "8S", "7H"],
    ["7S", "8S", "9S", "7D", "7C", "8C", "9C", "8D"],
]


def test_seven_not_exchanged_scores_for_the_tricks_winner() -> None:
    state = game(SEVEN_HANDS, turn_up="TS")
    trick(state, "7S", "9H")  # seat 1 leads the seven of trumps and wins
    assert legal(state) == {"exchange", "draw"}
    assert points_by_rule(state, 1) == {"seven_of_trumps.declare_points": 10}
    act(state, "draw")
    assert state.deck.card_text(state.turn_up) == "TS"
    assert won_texts(state, 1) == ["7S", "9H"]
    assert points_by_rule(state, 1) == {"seven_of_trumps.declare_points": 10}


def test_exchanged_trump_ten_is_an_open_card_and_a_brisque() -> None:
    state = game(SEVEN_HANDS, turn_up="TS")
    trick(state, "7S", "9H")
    act(state, "exchange")
    assert open_texts(state, 1) == ["TS"]
    assert won_texts(state, 1) == ["9H"]
    assert points_by_rule(state, 1) == {"seven_of_trumps.declare_points": 10, "brisques": 10}
    assert legal(state) == {"draw"}
    error = refuse(state, "exchange")
    assert "seven of trumps" in str(error)


def test_exchanged_low_turn_up_is_turned_down() -> None:
    state = game(SEVEN_HANDS, turn_up="9S")
    trick(state, "8S", "8H")  # nothing to declare or exchange: no turn
    assert state.phase == "play" and state.to_act == 1
    trick(state, "7S", "7H")
    act(state, "exchange")
    assert open_texts(state, 1) == []
    assert won_texts(state, 1) == ["7H", "8H", "8S", "9S"]
    assert points_by_rule(state, 1) == {"seven_of_trumps.declare_points": 10}


def test_seven_lost_to_the_opponent_scores_for_him() -> None:
    state = game(SEVEN_HANDS, turn_up="TS")
    trick(state, "7S", "8S")  # seat 1 leads the seven of trumps; seat 0 wins with the eight
    assert state.to_act == 0
    assert legal(state) == {"exchange", "draw"}
    assert points_by_rule(state, 0) == {"seven_of_trumps.declare_points": 10}
    assert points_by_rule(state, 1) == {}


def test_turned_up_seven_scores_for_the_dealer_and_cannot_be_exchanged() -> None:
    state = game(SEVEN_HANDS, turn_up="7S")
    assert points_by_rule(state, 0) == {"seven_of_trumps.turn_up_points": 10}
    trick(state, "7S", "9H")  # the other seven of trumps: scores, but nothing to exchange
    assert state.phase == "play"
    assert points_by_rule(state, 1) == {"seven_of_trumps.declare_points": 10}


# ---------------------------------------------------------------------- declaring rules


def test_omitted_part_is_lost_until_a_new_trick_card_joins_it() -> None:
    """A20a: what is not declared before drawing waits for a new card of a later trick."""
    state = before_430()
    trick(state, "QH", "KH")
    act(state, "declare royal_marriage", "draw")
    # The rows still hold four kings, four queens and a sequence never declared, but a
    # trick with no scoring card in it offers nothing: no turn at all.
    trick(state, "9C", "7D")
    assert state.phase == "play" and state.to_act == 1
    # A fifth king joins: four kings again (three of the old ones are still fresh in
    # quartets), and a marriage with the queen of spades never married; the sequence and
    # the four queens stay lost (no card of this trick is in them).
    since = len(state.events)
    trick(state, "8C", "KS")
    assert legal(state) == {"declare four_kings", "declare marriage", "draw"}
    act(state, "declare four_kings", "declare marriage")
    assert turn_points(state, 1, since) == {"four_kings": 80, "marriage": 20}
    assert state.events[-1].detail == "QS KS"  # the new king (second copy: higher card id)
    assert_replays(state)


def test_fifth_king_and_a_married_queen_score_nothing() -> None:
    """S0: a queen once married is not married again; a fifth king makes no second four."""
    state = before_430(marry=True)
    assert points_by_rule(state, 1) == {"marriage": 60, "brisques": 20}
    trick(state, "QH", "KH")
    act(state, "declare royal_marriage", "declare four_kings", "draw")
    score = list(state.scores)
    trick(state, "9C", "7D")
    trick(state, "8C", "KS")  # the second king of spades: the queen of spades is married
    assert state.phase == "play"  # nothing to declare: no turn
    assert state.scores == score
    assert open_texts(state, 1).count("KS") == 2


BEZIQUE_HANDS = [
    ["QS", "JD", "JD", "7D", "8D", "9D", "7S", "8S"],
    ["9C", "8C", "QS", "7C", "9H", "8H", "9S", "9D"],
]


def before_two_beziques() -> GameState:
    """Seat 1 has won QS and JD (their bezique left undeclared) and wins QS JD again."""
    state = game(BEZIQUE_HANDS, turn_up="TH")
    trick(state, "9C", "QS")
    trick(state, "8C", "JD")
    assert legal(state) == {"declare bezique", "draw"}
    act(state, "draw")
    trick(state, "QS", "JD")
    assert legal(state) == {"declare bezique", "declare double_bezique", "draw"}
    return state


def test_single_then_double_bezique_after_one_trick() -> None:
    """S0 footnote 3: four bezique cards declared together score the double only, so a
    single declared after this trick cannot grow into the double after the same trick
    (unlike the royal marriage into the sequence of S0's 430 example)."""
    state = before_two_beziques()
    act(state, "declare bezique")
    assert state.events[-1].detail == "QS JD"
    # The other pair, sharing no card with the first, is a second single bezique.
    assert legal(state) == {"declare bezique", "draw"}
    with pytest.raises(IllegalActionError, match="footnote 3"):
        state.apply(Action(Kind.DECLARE, (), "double_bezique"))
    assert points_by_rule(state, 1) == {"bezique": 40}


def test_double_bezique_declared_alone_scores_500_and_ends_the_class() -> None:
    state = before_two_beziques()
    act(state, "declare double_bezique")
    assert legal(state) == {"draw"}
    assert points_by_rule(state, 1) == {"double_bezique": 500}


SWAPPED_HANDS = [
    ["QS", "JD", "QC", "JH", "7C", "8C", "7H", "8H"],
    ["AS", "AD", "AC", "TH", "7S", "8S", "9S", "9C"],
]


def test_diamonds_trumps_make_the_bezique_queen_of_clubs_and_knave_of_hearts() -> None:
    """S0's Polish section advises the bezique cards of footnote 2 (A11): with diamonds
    trumps the queen of spades and knave of diamonds are no bezique, the queen of clubs
    and knave of hearts are."""
    state = game(SWAPPED_HANDS, turn_up="9D")
    trick(state, "AS", "QS")
    trick(state, "AD", "JD")
    assert open_texts(state, 1) == ["AD", "AS", "JD", "QS"]
    assert state.phase == "play"  # nothing to declare: the draw was taken at once
    trick(state, "AC", "QC")
    assert state.phase == "play"
    trick(state, "TH", "JH")
    assert legal(state) == {"declare bezique", "draw"}
    act(state, "declare bezique")
    assert sorted(state.events[-1].detail.split()) == ["JH", "QC"]
    assert points_by_rule(state, 1) == {"brisques": 40, "bezique": 40}
    assert state.scores == [0, 80]


def test_nothing_is_declared_from_the_hand() -> None:
    """S0: three open queens and a queen in hand cannot score; a trick won with it can."""
    state = game(
        [
            ["QS", "QD", "7D", "KD", "7H", "9S", "7S", "8H"],
            ["9C", "8S", "QC", "8C", "QH", "7C", "9D", "8D"],
        ],
        turn_up="9H",
    )
    trick(state, "9C", "QS")
    trick(state, "8S", "QD")
    trick(state, "QC", "7D")
    assert open_texts(state, 1) == ["QC", "QD", "QS"]
    trick(state, "8C", "KD")
    assert "QH" in [state.deck.card_text(c) for c in state.hands[1]]
    assert legal(state) == {"declare marriage", "draw"}
    assert "open cards do not form four_queens" in str(refuse(state, "declare four_queens"))
    assert "from the hand" in str(refuse(state, "declare four_queens QH"))
    act(state, "declare marriage", "draw")
    trick(state, "QH", "8H")  # the queen played and won: now an open card
    assert legal(state) == {"declare four_queens", "draw"}
    act(state, "declare four_queens")
    assert points_by_rule(state, 1) == {"marriage": 20, "four_queens": 60}


def test_other_refusals_name_the_rule() -> None:
    state = before_430()
    trick(state, "QH", "KH")
    assert "never shown" in str(refuse(state, "show"))
    assert "nothing is announced" in str(refuse(state, "announce marriage"))
    assert "seven of trumps" in str(refuse(state, "exchange"))
    assert "not a combination" in str(refuse(state, "declare bigamy"))
    kings = [c for c in state.places()["open-1"] if state.deck.card_text(c)[0] == "K"]
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="names its combination only"):
        state.apply(Action(Kind.DECLARE, tuple(sorted(kings)), "four_kings"))
    assert state.to_json() == before


def test_brisques_score_as_soon_as_won() -> None:
    """S0: aces and tens score the moment they are won; plain tens are turned down."""
    state = game(
        [
            ["TS", "9C", "8C", "7C", "7D", "8D", "9D", "7H"],
            ["AS", "TH", "7S", "8S", "9S", "8H", "9H", "7S"],
        ],
        turn_up="JH",
    )
    trick(state, "AS", "TS")
    assert state.events[-1][:3] == (1, 20, "brisques")
    assert open_texts(state, 1) == ["AS"]
    assert won_texts(state, 1) == ["TS"]
    trick(state, "TH", "9C")  # a ten of trumps is an open card
    assert state.events[-1][:3] == (1, 10, "brisques")
    assert open_texts(state, 1) == ["AS", "TH"]
    assert won_texts(state, 1) == ["9C", "TS"]


# ---------------------------------------------------------------------- the end-game


def to_the_end_game(
    end1: Sequence[str], end0: Sequence[str]
) -> tuple[GameState, list[str], list[str]]:
    """Seat 1 wins every trick of the stock (:func:`through_stock`), declaring nothing.

    Returns the state once the stock is gone, and the cards seats 1 and 0 played.
    """
    hands, turn_up, stock, leads, follows = through_stock(end1, end0)
    state = game(hands, turn_up=turn_up, stock=stock)
    for lead, follow in zip(leads, follows, strict=True):
        trick(state, lead, follow)
        if state.phase == "turn":  # combinations and sevens left alone
            act(state, "draw")
    assert state.stock_left() == 0
    return state, leads, follows


def test_declarations_continue_in_the_last_eight_tricks() -> None:
    """S0: declaring goes on after the stock is gone; the open cards stay open (A20c, A20d)."""
    end1 = ["JC", "7S", "8S", "9S", "7H", "8H", "9H", "7C"]
    end0 = ["9C", "8C", "7S", "8S", "9S", "7H", "8H", "9D"]
    state, leads, follows = to_the_end_game(end1, end0)
    assert sorted(state.deck.card_text(c) for c in state.hands[1]) == sorted(end1)
    assert sorted(state.deck.card_text(c) for c in state.hands[0]) == sorted(end0)
    scoring = [c for c in [*leads, *follows] if c[0] in "AKQJ" or c in ("TD",)]
    assert open_texts(state, 1) == sorted(scoring)
    assert open_texts(state, 0) == []
    assert state.to_act == 1
    act(state, "play JC")
    assert legal(state) == {"play 9C", "play 8C"}  # follow suit (the ordinary duties)
    since = len(state.events)
    act(state, "play 9C")
    assert legal(state) == {"declare four_knaves", "pass"}
    act(state, "declare four_knaves")
    assert legal(state) == {"pass"}
    assert turn_points(state, 1, since) == {"four_knaves": 40}
    act(state, "pass")
    assert state.phase == "play" and state.to_act == 1
    assert_replays(state)


def test_a_seven_of_trumps_won_in_the_end_game_scores_nothing() -> None:
    """A12: a seven scores once, never in the end-game, though declaring goes on there."""
    end1 = ["7D", "7S", "8S", "9S", "7H", "8H", "9H", "7C"]
    end0 = ["9C", "8C", "7S", "8S", "9S", "7H", "8H", "9D"]
    state, _, _ = to_the_end_game(end1, end0)
    assert points_by_rule(state, 1)["seven_of_trumps.declare_points"] == 10  # the other seven
    since = len(state.events)
    act(state, "play 7D", "play 9D")  # seat 0 must win: the nine takes the seven
    assert state.events[since:] == []
    assert state.to_act == 0 and state.phase == "play"


# ---------------------------------------------------------------------- conformance


@pytest.mark.slow
def test_random_games_conform() -> None:
    """Random players: invariants after every action, JSON round trips, records replay.

    At least 500 hands.  ``check_invariants`` (every card in exactly one place,
    the open rows counted through ``state.places()``; hand sizes; scores equal to
    their events; a legal action while the game lasts) and the Polish invariants run
    after every action; the JSON round trip (``from_json`` replays the history) every
    200th action and at the end of each game; the record's replay at the end of each game.
    """
    rng = random.Random(2024)
    hands = games = endgame_declarations = 0
    rules: Counter[str] = Counter()
    while hands < 500:
        state = new_game(VARIANT, seed=rng.randrange(2**32))
        steps = 0
        while not state.is_over():
            actions = state.legal_actions()
            assert actions
            action = rng.choice(actions)
            if action.kind == Kind.DECLARE and not state.stock_left():
                endgame_declarations += 1
            state.apply(action)
            check_invariants(state)
            check_polish_invariants(state)
            steps += 1
            if steps % 200 == 0:
                data = state.to_json()
                assert from_json(data).to_json() == data
        for event in state.events:
            rules[event.rule] += 1
        assert_replays(state)
        assert max(state.scores) >= 2000
        hands += state.hand_no + 1
        games += 1
    assert endgame_declarations > 0
    assert {"four_aces", "sequence", "double_bezique", "brisques"} <= set(rules)
    assert "seven_of_trumps.declare_points" in rules
