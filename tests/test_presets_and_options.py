"""The source presets and the house-rule options, played from stacked decks.

Conventions as in test_ordinary_rules.py: the dealer is seat 0, so seat 1 leads;
seat 1 holds low plain cards and seat 0 wins the first trick with a low trump.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

import pytest
import yaml
from quick import quick_for_one
from stacked import through_stock

from bezique.errors import IllegalActionError
from bezique.game import GameState
from bezique.testing import play_out, points_by_rule, random_conformance, refuse, scenario
from bezique.variant import load_variant
from bezique.variant.registry import variant_files

JUNK = ["7S", "8S", "9S", "7D", "8D", "9D", "7C", "8C"]
PRESETS = ["eb1875", "hoyle1909", "cards-encyclopedia", "modern-article"]
HOUSE_RULES = [
    "house-swapped-bezique",
    "house-first-marriage",
    "house-carte-blanche",
    "house-brisques-at-end",
    "house-four-of-each-suit",
    "house-seven-on-play",
]


def game(
    variant: str,
    hands: Sequence[Sequence[str]],
    turn_up: str | None = "TH",
    stock: Sequence[str] = (),
    overrides: Mapping[str, Any] | None = None,
) -> GameState:
    return scenario(variant, hands=hands, turn_up=turn_up, stock=stock, overrides=overrides)


def legal(state: GameState) -> set[str]:
    return {state.action_text(a) for a in state.legal_actions()}


# ---------------------------------------------------------------------- presets


def test_presets_and_house_rules_are_listed() -> None:
    names = set(variant_files())
    assert {"ordinary", *PRESETS, *HOUSE_RULES} <= names


@pytest.mark.parametrize("name", PRESETS)
def test_every_section_a_preset_sets_cites_its_source(name: str) -> None:
    raw = yaml.safe_load((files("bezique.variants") / f"{name}.yaml").read_text("utf-8"))
    assert raw["extends"] == "ordinary"
    assert raw["source"]
    for key, section in raw.items():
        if isinstance(section, dict):
            assert section.get("source"), f"{name}: section {key} names no source"
            text = section["source"]
            assert name_code(name) in text or "inherit" in text, (name, key, text)


def name_code(name: str) -> str:
    return {"eb1875": "S0", "hoyle1909": "S2", "cards-encyclopedia": "S3"}.get(name, "S4")


@pytest.mark.parametrize(
    ("name", "per_trick", "last", "timing", "distinct"),
    [
        ("eb1875", "several", "stock_exhausting", "immediate", False),
        ("hoyle1909", "one", "final", "immediate", False),
        ("cards-encyclopedia", "one", "stock_exhausting", "immediate", False),
        ("modern-article", "one", "final", "end_of_hand", True),
    ],
)
def test_preset_readings(name: str, per_trick: str, last: str, timing: str, distinct: bool) -> None:
    data = load_variant(name).data
    assert data["declarations"]["per_trick"] == per_trick
    assert data["last_trick"]["which"] == last
    assert data["brisques"]["timing"] == timing
    assert data["declarations"]["combinations"]["four_kings"]["distinct_suits"] is distinct
    assert data["game"]["target"] == 1000


def test_eb1875_swaps_the_bezique_cards_under_spades() -> None:
    # S0 footnote 2: spades trumps, the bezique is Q-clubs J-hearts.
    hand = ["QS", "JD", "QC", "JH", "8S", "AD", "AC", "AH"]
    state = game("eb1875", [hand, ["7D", *JUNK[1:6], "7C", "8C"]], turn_up="9S")
    play_out(state, ["play 7D", "play 8S"])
    assert {t for t in legal(state) if "bezique" in t} == {"declare bezique JH QC"}


@pytest.mark.parametrize("variant", ["three-hand", "four-hand", "four-hand-partners", "grand"])
def test_s0s_other_games_swap_the_bezique_cards_as_eb1875(variant: str) -> None:
    # S0's three- and four-hand and Grand games are its ordinary game but for what they
    # name, so footnote 2 holds in them as in eb1875 (A11): spades trumps, the queen of
    # spades and knave of diamonds are no bezique, the queen of clubs and knave of hearts are.
    players = load_variant(variant).data["players"]
    extra = ["9C"] if variant == "grand" else []
    hands = [
        ["QS", "JD", "QC", "JH", "8S", "AD", "AC", "AH", *extra],
        ["7D", *JUNK[1:6], "7C", "8C", *extra],
        ["7H", "8H", "9H", "7C", "8C", "9C", "8D", "9D"],
        ["7H", "8H", "9H", "7C", "8C", "9C", "8D", "9D"],
    ][:players]
    state = game(variant, hands, turn_up="9S")
    play_out(state, ["play 7D", *["play 8D", "play 9D"][: players - 2], "play 8S"])
    assert state.to_act == 0 and state.phase == "turn"
    assert {t for t in legal(state) if "bezique" in t} == {"declare bezique JH QC"}
    refuse(state, "declare bezique QS JD")


def test_modern_article_wants_four_kings_of_four_suits() -> None:
    # S4 table: one of each suit (A16).
    two_hearts = ["KH", "KH", "KS", "KD", "9H", "7S", "8S", "9S"]
    state = game("modern-article", [two_hearts, JUNK])
    play_out(state, ["play 7D", "play 9H"])
    assert not any("four_kings" in t for t in legal(state))
    four_suits = ["KH", "KC", "KS", "KD", "9H", "7S", "8S", "9S"]
    state = game("modern-article", [four_suits, JUNK])
    play_out(state, ["play 7D", "play 9H", "declare four_kings KS KH KD KC"])
    assert state.scores == [80, 0]


def test_hoyle1909_scores_one_combination_a_trick() -> None:
    # Foster (A03, A05): four knaves and a marriage after one trick - one scores.
    hand = ["JS", "JH", "JD", "JC", "KC", "QC", "9H", "7S"]
    state = game("hoyle1909", [hand, JUNK])
    play_out(state, ["play 7D", "play 9H", "declare four_knaves JS JH JD JC"])
    assert "declare marriage KC QC" not in legal(state)
    assert "announce marriage KC QC" in legal(state)


# ---------------------------------------------------------------------- S2, S3, S4 read closely

SOURCE_PRESETS = ["hoyle1909", "cards-encyclopedia", "modern-article"]
FILLER = ["8H", "9C", "8C", "7C", "9S", "8S", "7S"]
"""Low cards that complete a hand to eight without a combination, beside JUNK's copies."""
TABLE = [
    (["KS", "QS"], "declare marriage KS QS", 20),
    (["KH", "QH"], "declare royal_marriage KH QH", 40),
    (["AH", "TH", "KH", "QH", "JH"], "declare sequence AH TH KH QH JH", 250),
    (["QS", "JD"], "declare bezique QS JD", 40),
    (["QS", "JD", "QS", "JD"], "declare double_bezique QS QS JD JD", 500),
    (["AS", "AH", "AD", "AC"], "declare four_aces AS AH AD AC", 100),
    (["KS", "KH", "KD", "KC"], "declare four_kings KS KH KD KC", 80),
    (["QS", "QH", "QD", "QC"], "declare four_queens QS QH QD QC", 60),
    (["JS", "JH", "JD", "JC"], "declare four_knaves JS JH JD JC", 40),
]
"""S2's score table, row by row (hearts trumps).  S3's table is lost and inherited with the
same figures; S4's has the same rows once A36 puts back the common marriage's 20."""


@pytest.mark.parametrize("name", SOURCE_PRESETS)
def test_source_presets_score_the_table_of_their_text(name: str) -> None:
    for cards, declaration, points in TABLE:
        state = game(name, [["9H", *cards, *FILLER][:8], JUNK])
        play_out(state, ["play 7D", "play 9H", declaration])
        assert state.scores == [points, 0], declaration
    # S2: the double scored on an earlier single is 500 additional, 540 in all.
    state = game(name, [["QS", "JD", "QS", "JD", "9H", "9H", "8H", "AS"], JUNK])
    play_out(state, ["play 7D", "play 9H", "declare bezique QS JD", "draw"])
    play_out(state, ["play 8H", "play 7S", "declare double_bezique QS QS* JD JD*"])
    assert points_by_rule(state, 0) == {"bezique": 40, "double_bezique": 500}


@pytest.mark.parametrize("name", SOURCE_PRESETS)
def test_source_presets_score_the_sevens_of_their_text(name: str) -> None:
    # S2, S3, S4: a seven turned up gives the dealer 10.
    state = game(name, [["8H", *JUNK[1:]], JUNK], turn_up="7H")
    assert points_by_rule(state, 0) == {"seven_of_trumps.turn_up_points": 10}
    # S2 and S4 (S3 inherits): the seven exchanged for the turn-up scores 10, the
    # duplicate seven 10 and nothing further.
    state = game(name, [["7H", "7H", "9H", *JUNK[3:]], JUNK])
    play_out(state, ["play 7D", "play 9H", "exchange 7H", "show 7H"])
    assert points_by_rule(state, 0) == {
        "seven_of_trumps.exchange_points": 10,
        "seven_of_trumps.declare_points": 10,
    }
    assert not any("7H" in text for text in legal(state) if not text.startswith("play"))


@pytest.mark.parametrize(
    ("name", "last_trick", "brisques_in_stock"),
    [("hoyle1909", 32, 120), ("cards-encyclopedia", 24, 120), ("modern-article", 32, 0)],
)
def test_source_presets_last_trick_and_brisques(
    name: str, last_trick: int, brisques_in_stock: int
) -> None:
    # S2: the 32nd trick scores 10 (S4 likewise once A36 restores the row; S3 is silent and
    # inherits S0's 24th).  S2's brisques score 10 each (their timing inherited: at once);
    # S4 counts them after the last trick.  Seat 1 wins every trick of the hand.
    end1 = ["AC", "AC", "TC", "TC", "KC", "KC", "QC", "QC"]
    end0 = ["7S", "8S", "7D", "8D", "7H", "8H", "9S", "9C"]
    hands, turn_up, stock, leads, follows = through_stock(end1, end0)
    state = game(name, hands, turn_up=turn_up, stock=stock)
    for lead, follow in zip(leads, follows, strict=True):
        play_out(state, [f"play {lead}", f"play {follow}"])
        while state.phase == "turn":
            state.apply("draw")
    assert state.tricks_done == 24
    last = {"last_trick": 10} if last_trick == 24 else {}
    brisques = {"brisques": brisques_in_stock} if brisques_in_stock else {}
    assert points_by_rule(state, 1) == {**brisques, **last}
    for card in end1:
        state.apply(f"play {card}")
        state.apply(state.legal_actions()[0])  # seat 0 follows as the duties let him
    first_hand = [
        (e.player, e.rule, e.points)
        for e, hand in zip(state.events, state.event_hands, strict=True)
        if hand == 0
    ]
    assert sum(p for seat, rule, p in first_hand if rule == "brisques" and seat == 1) == 160
    assert [(seat, p) for seat, rule, p in first_hand if rule == "last_trick"] == [(1, 10)]
    assert all(seat == 1 for seat, _, _ in first_hand)


def test_hoyle1909_four_knaves_of_any_suits_modern_article_of_four() -> None:
    # S2's own example: two knaves of spades and two of hearts make four knaves; S4 wants
    # one of each suit (A16).
    hand = ["JS", "JS", "JH", "JH", "9H", "8H", "9C", "8C"]
    state = game("hoyle1909", [hand, JUNK])
    play_out(state, ["play 7D", "play 9H", "declare four_knaves JS JS JH JH"])
    assert state.scores == [40, 0]
    state = game("modern-article", [hand, JUNK])
    play_out(state, ["play 7D", "play 9H"])
    assert not any("four_knaves" in text for text in legal(state))


def test_modern_article_four_kings_then_a_queen_married_to_one_of_them() -> None:
    # S4 scoring notes: four kings of four suits laid down, a queen added later marries one.
    hand = ["KS", "KH", "KD", "KC", "9H", "9H", "8H", "AS"]
    stock = ["QS", "9C", "7H", "9C"]  # seat 0 draws QS then 7H; seat 1 the nines of clubs
    state = game("modern-article", [hand, JUNK], stock=stock)
    play_out(state, ["play 7D", "play 9H", "declare four_kings KS KH KD KC", "draw"])
    play_out(state, ["play 9H", "play 7S"])
    assert legal(state) == {"declare marriage KS* QS", "draw"}
    state.apply("declare marriage KS* QS")
    assert points_by_rule(state, 0) == {"four_kings": 80, "marriage": 20}


# ---------------------------------------------------------------------- first marriage


def test_first_marriage_names_trumps_and_scores_royal() -> None:
    # S0 footnote 1 / EB1911: no turn-up; the first marriage declared names trumps.
    hand = ["KH", "QH", "KC", "QC", "AS", "9D", "8D", "7C"]
    state = game("house-first-marriage", [hand, JUNK], turn_up=None)
    assert (state.trump, state.turn_up) == (-1, -1)
    play_out(state, ["play 7D", "play 9D"])  # no trumps: the higher diamond wins
    assert state.to_act == 0
    marriages = {t for t in legal(state) if "marriage" in t}
    assert marriages == {"declare royal_marriage KH QH", "declare royal_marriage KC QC"}
    state.apply("declare royal_marriage KH QH")
    assert state.deck.suits[state.trump] == "H"
    assert state.scores == [40, 0]
    # the clubs marriage is now a plain marriage, and only one may share no card
    assert "declare marriage KC QC" in legal(state)


def test_first_marriage_no_seven_and_the_stock_drawn_to_the_end() -> None:
    hand = ["7H", "7S", "8S", "9S", "7D", "8D", "9D", "AC"]
    state = game("house-first-marriage", [hand, JUNK], turn_up=None)
    assert state.stock_left() == 64 - 16  # nothing is turned up
    play_out(state, ["play 7D", "play 8D"])
    assert state.phase == "play", "a seven of hearts gives no turn: sevens never score"
    assert state.stock_left() == 46
    while state.stock_left():  # the winner draws, then the loser takes the last card
        if state.phase == "turn":
            state.apply("draw")
        else:
            state.apply(state.legal_actions()[0])
    assert [len(h) for h in state.hands] == [8, 8]
    assert not any(e.rule.startswith("seven") for e in state.events)


def test_first_marriage_allows_quartets_before_trumps() -> None:
    hand = ["AS", "AH", "AD", "AC", "9D", "8D", "7C", "9C"]
    state = game("house-first-marriage", [hand, JUNK], turn_up=None)
    play_out(state, ["play 7D", "play 9D", "declare four_aces AS AH AD AC"])
    assert state.scores == [100, 0]
    assert state.trump == -1


# ---------------------------------------------------------------------- carte blanche


CARTE = ["AS", "TS", "9S", "8H", "7H", "AD", "9D", "7C"]


ANNOUNCE = "declare carte_blanche"


def blanche(state: GameState, seat: int) -> dict[str, int]:
    """The carte blanche points by rule of ``seat``."""
    return {r: p for r, p in points_by_rule(state, seat).items() if r.startswith("carte_blanche")}


def test_carte_blanche_is_announced_at_the_holders_choice_before_his_first_card() -> None:
    state = game("house-carte-blanche", [CARTE, JUNK])
    assert state.scores == [0, 0] and state.exposed == 0  # nothing of itself
    leader = state.to_act
    assert ANNOUNCE in legal(state)
    state.apply(ANNOUNCE)
    assert leader == 1 and blanche(state, 1) == {"carte_blanche": 50}
    assert bin(state.exposed).count("1") == 8  # his whole hand shown
    state.apply(next(a for a in state.legal_actions() if a.kind == 0))  # his lead
    other = state.to_act
    assert ANNOUNCE in legal(state)  # JUNK has no court card either; he declines it
    state.apply(next(a for a in state.legal_actions() if a.kind == 0))
    assert blanche(state, other) == {} and bin(state.exposed).count("1") == 8
    with_court = [*CARTE[:-1], "KC"]
    state = game("house-carte-blanche", [with_court, [*JUNK[:-1], "QC"]])
    assert ANNOUNCE not in legal(state)
    error = refuse(state, ANNOUNCE)
    assert error.rule == "carte_blanche" and "seat 1 holds QC" in str(error)


def test_carte_blanche_s4_reading() -> None:
    # S4: no A, T, K, Q or J, 50 from the opponent (A18): only seat 1's hand is blank.
    s4 = {"carte_blanche": {"ranks": ["A", "T", "K", "Q", "J"], "from_opponent": True}}
    state = game("house-carte-blanche", [CARTE, JUNK], overrides=s4)
    assert state.to_act == 1
    state.apply(ANNOUNCE)
    assert state.scores == [-50, 50]
    assert blanche(state, 0) == {"carte_blanche.from_opponent": -50}
    state.apply(next(a for a in state.legal_actions() if a.kind == 0))
    assert state.to_act == 0 and ANNOUNCE not in legal(state)  # aces and tens spoil it
    assert "without a card of the ranks A, T, K, Q, J" in str(refuse(state, ANNOUNCE))


def test_carte_blanche_in_three_hands_each_holder_before_his_own_first_card() -> None:
    three = scenario(
        "three-hand",
        hands=[CARTE, JUNK, ["AC", "TC", "9C", "8C", "7D", "AH", "TH", "9H"]],
        turn_up="KH",
        stock=[],
        overrides={"carte_blanche": {"enabled": True}},
    )
    order = []
    while len(three.trick) < 3 and three.tricks_done == 0:
        seat = three.to_act
        assert ANNOUNCE in legal(three)
        three.apply(ANNOUNCE)
        order.append(seat)
        three.apply(next(a for a in three.legal_actions() if a.kind == 0))
    assert sorted(order) == [0, 1, 2]
    assert all(blanche(three, seat) == {"carte_blanche": 50} for seat in range(3))
    # Taken from the opponent is S4's two-hand reading: refused with more players.
    with pytest.raises(Exception, match="from_opponent"):
        scenario(
            "three-hand",
            hands=[CARTE, JUNK, JUNK],
            overrides={"carte_blanche": {"enabled": True, "from_opponent": True}},
        )


def test_carte_blanche_off_in_ordinary() -> None:
    state = game("ordinary", [CARTE, JUNK])
    assert ANNOUNCE not in legal(state) and state.scores == [0, 0]
    error = refuse(state, ANNOUNCE)
    assert error.rule == "carte_blanche" and "no carte blanche" in str(error)


# ---------------------------------------------------------------------- seven on play


def test_seven_of_trumps_scores_when_played() -> None:
    # A12: the seven of trumps scores for whoever plays it, winning or not.
    state = game("house-seven-on-play", [["7H", "8S", *JUNK[2:]], ["AH", *JUNK[1:]]])
    play_out(state, ["play AH", "play 7H"])
    assert points_by_rule(state, 0) == {"seven_of_trumps.on_play": 10}
    assert not any(t.startswith(("show", "exchange")) for t in legal(state))


def test_seven_on_play_or_exchange_keeps_the_winners_exchange() -> None:
    # A12 (EW, BRIT): the seven scores when played, or a trick's winner may exchange it
    # for the turn-up instead, scoring 10; it is never shown.
    state = game("house-seven-on-play", [["8S", *JUNK[2:], "9H"], ["AS", "7H", *JUNK[2:]]])
    play_out(state, ["play AS", "play 8S"])
    assert {"exchange 7H", "show 7H"} & legal(state) == {"exchange 7H"}
    error = refuse(state, "show 7H")
    assert "is not shown: it scores when played or exchanged" in str(error)
    state.apply("exchange 7H")
    assert points_by_rule(state, 1) == {"brisques": 10, "seven_of_trumps.exchange_points": 10}
    assert "TH" in [state.deck.card_text(c) for c in state.hands[1]]
    assert state.deck.card_text(state.turn_up) == "7H"


def test_seven_on_play_alone_is_never_exchanged() -> None:
    # A12 (CAS): the seven scores when played; neither exchange nor show is offered.
    cas = {"seven_of_trumps": {"scoring": "on_play"}}
    hands = [["8S", *JUNK[2:], "9H"], ["AS", "7H", "KS", "QS", *JUNK[4:]]]
    state = game("ordinary", hands, overrides=cas)
    play_out(state, ["play AS", "play 8S"])
    assert legal(state) == {"declare marriage KS QS", "draw"}
    assert "scores when played (seven_of_trumps.scoring)" in str(refuse(state, "exchange 7H"))


def test_seven_played_in_the_end_game_scores_nothing_on_play() -> None:
    # A12: each seven scores at most once, never in the end-game.  Seat 1 wins every
    # trick of the stock (diamonds trumps); its own seven of diamonds, drawn last, is
    # played in the end-game, the other one while the stock lasted.
    end1 = ["7D", "7S", "8S", "9S", "7H", "8H", "9H", "7C"]
    end0 = ["9C", "8C", "7S", "8S", "9S", "7H", "8H", "9D"]
    hands, turn_up, stock, leads, follows = through_stock(end1, end0)
    state = game("house-seven-on-play", hands, turn_up=turn_up, stock=stock)
    for lead, follow in zip(leads, follows, strict=True):
        play_out(state, [f"play {lead}", f"play {follow}"])
        while state.phase == "turn":
            state.apply("draw")
    assert state.stock_left() == 0
    assert points_by_rule(state, 1)["seven_of_trumps.on_play"] == 10  # the other seven
    since = len(state.events)
    play_out(state, ["play 7D", "play 9D"])
    assert [e.rule for e in state.events[since:]] == []  # 9D wins: no brisque, no seven


# ---------------------------------------------------------------------- compound


def test_compound_declarations_share_cards_across_levels() -> None:
    # per_trick compound: royal marriage then sequence with the same king and queen.
    hand = ["AH", "TH", "KH", "QH", "JH", "9H", "7S", "8S"]
    state = game("ordinary", [hand, JUNK], overrides={"declarations": {"per_trick": "compound"}})
    play_out(state, ["play 7D", "play 9H", "declare royal_marriage KH QH"])
    state.apply("declare sequence AH TH KH* QH* JH")
    assert state.scores == [290, 0]
    with pytest.raises(IllegalActionError):
        state.apply("declare royal_marriage KH* QH*")


# ---------------------------------------------------------------------- conformance


OWN_CONFORMANCE = {"ordinary", "rubicon", "six-pack", "eight-pack"}
"""Variants whose own test plays them at length: ordinary (test_conformance.py), Rubicon
and six-pack (test_rubicon.py, 300 deals each), eight-pack (its distribution's tests)."""
ALL_VARIANTS = sorted(set(variant_files()) - OWN_CONFORMANCE)
ONE_DEAL_HANDS = 40
"""Hands played of a one-deal variant's house rule (Rubicon's family): each is a whole
game of 64 to 128 tricks, so 40 of them play as many tricks as 80 to 160 ordinary hands."""


@pytest.mark.parametrize("name", quick_for_one(ALL_VARIANTS, "house-first-marriage"))
def test_random_games_keep_the_invariants(name: str) -> None:
    """Every other registered variant and preset: 500 random hands (a one-deal game's
    house rule: 40), invariants after each action."""
    hands = ONE_DEAL_HANDS if "rubicon" in load_variant(name).data else 500
    assert random_conformance(name, hands=hands, seed=len(name)) >= hands


def test_compound_does_not_build_a_double_from_a_single_of_the_same_trick() -> None:
    # S0 footnote 3: the four bezique cards declared together score 500 only.
    hand = ["QS", "JD", "QS", "JD", "9H", "7S", "8S", "9S"]
    compound = {"declarations": {"per_trick": "compound"}}
    state = game("ordinary", [hand, JUNK], overrides=compound)
    play_out(state, ["play 7D", "play 9H", "declare bezique QS JD"])
    assert "declare double_bezique QS QS* JD JD*" not in legal(state)
    with pytest.raises(IllegalActionError, match="footnote 3"):
        state.apply("declare double_bezique QS QS* JD JD*")
    assert state.scores == [40, 0]
    state = game("ordinary", [hand, JUNK], overrides=compound)
    play_out(state, ["play 7D", "play 9H", "declare double_bezique QS QS JD JD"])
    assert state.scores == [500, 0]
