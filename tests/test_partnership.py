"""Four-hand bezique in partnerships and S0's end-game duels.

S0's four-hand paragraph against BIC-4: who declares after a side's trick (the winner
then his partner; or the winner, who may pass the privilege), beziques pooled across
partners for a double or triple (A25), scores kept per partnership, and the end-game
as two duels (S0) or as four-card tricks (BIC-4, A26).  Stacked decks give exact legal
sets and scores; random games check the invariants.
"""

from __future__ import annotations

import random

import pytest

from bezique.errors import IllegalActionError, VariantError
from bezique.game import GameState, from_json, new_game, ruleset_for
from bezique.records.record import record_of, replay
from bezique.testing import (
    check_invariants,
    play_out,
    points_by_rule,
    random_conformance,
    refuse,
    scenario,
)

SEAT_0 = ["7C", "8C", "9C", "7D", "8D", "9D", "7S", "8S"]
SEAT_2 = ["7C", "8C", "9C", "KC", "QC", "9D", "7S", "8S"]
"""Seats 0 and 2 never win the tricks below; seat 2's marriage shows they never declare."""
STOCK = ["8S", "7S", "9S", "8D", "7H", "8H", "7H", "8H"]
"""Drawn by seats 1, 2, 3, 0 after the first trick, then again after the second."""


def texts(state: GameState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def partners_game(
    seat_1: list[str], seat_3: list[str], variant: str = "four-hand-partners"
) -> GameState:
    """Seat 1 (dealt first, so leading) and seat 3 are partners against seats 0 and 2."""
    game = scenario(variant, hands=[SEAT_0, seat_1, SEAT_2, seat_3], turn_up="9H", stock=STOCK)
    check_invariants(game)
    return game


def seat_1_wins_with_ace_of_trumps(game: GameState, low: str = "7C") -> None:
    play_out(game, ["play AH", f"play {low}", f"play {low}", f"play {low}"])
    check_invariants(game)


LEADER = ["AH", "AH", "KS", "QS", "9S", "9S", "TC", "TD"]
PARTNER = ["KD", "QD", "7C", "8C", "9C", "7D", "TS", "9D"]


# ------------------------------------------------------------------ who declares


def test_the_winner_then_his_partner_declare_before_the_draw_s0() -> None:
    game = partners_game(LEADER, PARTNER)
    seat_1_wins_with_ace_of_trumps(game)
    assert game.phase == "turn" and game.to_act == 1
    assert texts(game) == ["declare marriage KS QS", "draw"]
    game.apply("declare marriage KS QS")
    game.apply("draw")
    # No card drawn yet: the partner's turn comes first.
    assert game.phase == "turn" and game.to_act == 3 and len(game.stock) == 95
    assert texts(game) == ["declare marriage KD QD", "draw"]
    game.apply("declare marriage KD QD")
    game.apply("draw")
    check_invariants(game)
    assert game.phase == "play" and game.to_act == 1 and game.leader == 1
    assert points_by_rule(game, 1) == {"brisques": 10, "marriage": 20}
    assert points_by_rule(game, 3) == {"marriage": 20}
    assert game.scores == [0, 50] and game.hand_points == [0, 50]
    assert game.observation(0)["side_of"] == [0, 1, 0, 1]


def test_a_winner_with_nothing_to_declare_leaves_the_turn_to_his_partner() -> None:
    game = partners_game(["AH", "AH", "9S", "9S", "TC", "TD", "JC", "JH"], PARTNER)
    seat_1_wins_with_ace_of_trumps(game)
    assert game.phase == "turn" and game.to_act == 3
    assert texts(game) == ["declare marriage KD QD", "draw"]


def test_bicycle_winner_who_declares_keeps_the_privilege_from_his_partner() -> None:
    game = partners_game(LEADER, PARTNER, "four-hand-partners-bicycle")
    seat_1_wins_with_ace_of_trumps(game)
    play_out(game, ["declare marriage KS QS", "draw"])
    assert game.phase == "play" and game.to_act == 1 and len(game.stock) == 95 - 4
    assert game.scores == [0, 30]


def test_bicycle_winner_who_passes_gives_the_privilege_to_his_partner() -> None:
    game = partners_game(LEADER, PARTNER, "four-hand-partners-bicycle")
    seat_1_wins_with_ace_of_trumps(game)
    game.apply("draw")
    assert game.phase == "turn" and game.to_act == 3
    play_out(game, ["declare marriage KD QD", "draw"])
    assert points_by_rule(game, 3) == {"marriage": 20}
    assert game.scores == [0, 30]


# ------------------------------------------------------------------ shared beziques (A25)

BEZIQUE_LEADER = ["AH", "AH", "QS", "JD", "9S", "9S", "TC", "TD"]
BEZIQUE_PARTNER = ["QS", "JD", "7C", "8C", "9C", "7D", "8D", "9D"]


def partner_declared_a_bezique(variant: str = "four-hand-partners") -> GameState:
    """Seat 3 declares a bezique after seat 1's trick; seat 1 then wins a second trick."""
    game = partners_game(BEZIQUE_LEADER, BEZIQUE_PARTNER, variant)
    seat_1_wins_with_ace_of_trumps(game)
    assert texts(game) == ["declare bezique QS JD", "draw"]
    game.apply("draw")
    assert game.to_act == 3 and texts(game) == ["declare bezique QS JD", "draw"]
    play_out(game, ["declare bezique QS JD", "draw"])
    seat_1_wins_with_ace_of_trumps(game, "8C")
    return game


def test_a_double_bezique_may_take_the_partners_declared_bezique_s0() -> None:
    game = partner_declared_a_bezique()
    assert texts(game) == [
        "declare bezique QS JD",
        "declare double_bezique QS QS@ JD JD@",
        "draw",
    ]
    game.apply("declare double_bezique QS QS@ JD JD@")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 20, "double_bezique": 500}
    assert points_by_rule(game, 3) == {"bezique": 40}
    assert game.scores == [0, 560]
    # The partner's cards stay on his table, now declared in the double too.
    queen = next(c for c in game.hands[3] if game.on_table[c] and game.deck.card_text(c) == "QS")
    assert game.declared_classes(queen) == ["beziques.2"]
    assert from_json(game.to_json()) == game
    assert replay(record_of(game)).to_json() == game.to_json()


def test_the_partner_lends_whole_beziques_only_for_a_double_or_triple() -> None:
    game = partner_declared_a_bezique()
    with pytest.raises(IllegalActionError) as single:
        game.apply("declare bezique QS@ JD")
    assert "only a double or triple bezique" in str(single.value)
    with pytest.raises(IllegalActionError) as half:
        game.apply("declare double_bezique QS QS@ JD JD")
    assert "seat 1 has no JD in the concealed hand" in str(half.value)


def test_bicycle_beziques_count_only_from_one_hand() -> None:
    game = partner_declared_a_bezique("four-hand-partners-bicycle")
    assert texts(game) == ["declare bezique QS JD", "draw"]
    with pytest.raises(IllegalActionError) as info:
        game.apply("declare double_bezique QS QS@ JD JD@")
    assert "shared_beziques false" in str(info.value)
    assert info.value.rule == "declarations"


def test_a_triple_bezique_from_the_partners_double_and_an_own_bezique() -> None:
    partner = ["QS", "QS", "JD", "JD", "7C", "8C", "9C", "7D"]
    game = partners_game(BEZIQUE_LEADER, partner)
    seat_1_wins_with_ace_of_trumps(game)
    play_out(game, ["draw", "declare double_bezique QS QS JD JD", "draw"])
    seat_1_wins_with_ace_of_trumps(game, "8C")
    assert "declare triple_bezique QS QS@ QS@ JD JD@ JD@" in texts(game)
    game.apply("declare triple_bezique QS QS@ QS@ JD JD@ JD@")
    assert points_by_rule(game, 1) == {"brisques": 20, "triple_bezique": 1500}
    assert game.scores == [0, 2020]
    assert game.is_over() and game.winner == 1 and game.side_name(1) == "seats 1 and 3"


# ------------------------------------------------------------------ the partner's table (BIC-4)

TABLE_LEADER = ["AH", "AH", "AH", "TH", "JH", "QH", "TC", "TD"]
TABLE_PARTNER = ["KH", "QH", "7C", "8C", "9C", "7D", "8D", "9D"]


def partner_declared_a_royal_marriage(variant: str) -> GameState:
    """Seat 3 declares the royal marriage after seat 1's trick; seat 1 then wins again."""
    game = partners_game(TABLE_LEADER, TABLE_PARTNER, variant)
    seat_1_wins_with_ace_of_trumps(game)
    assert game.to_act == 3  # seat 1 had nothing to declare: his partner's turn at once
    play_out(game, ["declare royal_marriage KH QH", "draw"])
    seat_1_wins_with_ace_of_trumps(game, "8C")
    return game


def test_bicycle_a_sequence_may_take_the_partners_marriage_from_the_table() -> None:
    # BIC-4: cards of one's own hand with those the partner declared and left out.
    game = partner_declared_a_royal_marriage("four-hand-partners-bicycle")
    assert texts(game) == [
        "declare sequence AH TH KH@ QH JH",
        "declare sequence AH TH KH@ QH@ JH",
        "draw",
    ]
    game.apply("declare sequence AH TH KH@ QH@ JH")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 20, "sequence": 250}
    assert points_by_rule(game, 3) == {"royal_marriage": 40}
    assert game.scores == [0, 310]
    king = next(c for c in game.hands[3] if game.deck.card_text(c) == "KH")
    assert game.on_table[king] and game.declared_classes(king) == ["marriages.2"]
    assert replay(record_of(game)).to_json() == game.to_json()


def test_bicycle_nothing_the_partner_could_not_declare_himself() -> None:
    # BIC-4: his king, married, marries no other queen (the class rule, S0).
    game = partner_declared_a_royal_marriage("four-hand-partners-bicycle")
    refused = refuse(game, "declare royal_marriage KH@ QH")
    assert "class" in str(refused)
    assert "at least one card of his own" in str(refuse(game, "declare royal_marriage KH@ QH@"))


def test_s0_partners_lend_no_card_but_beziques() -> None:
    leader = ["AH", "AH", "AH", "TH", "JH", "QH", "KS", "QS"]
    game = partners_game(leader, TABLE_PARTNER)
    seat_1_wins_with_ace_of_trumps(game)
    play_out(game, ["draw", "declare royal_marriage KH QH", "draw"])
    seat_1_wins_with_ace_of_trumps(game, "8C")
    assert game.to_act == 1 and texts(game) == ["declare marriage KS QS", "draw"]
    refused = refuse(game, "declare sequence AH TH KH@ QH@ JH")
    assert "only a double or triple bezique" in str(refused)


# ------------------------------------------------------------------ S0's duels

DUEL_DEAL = {"deal": {"hand_size": 31, "packets": [31]}}
"""Hands so long that the first trick empties the stock: the end-game starts at once."""


def suit(letter: str, ranks: str) -> list[str]:
    """The cards of ``ranks`` (one letter each) in the suit ``letter``."""
    return [f"{rank}{letter}" for rank in ranks]


def duel_game(variant: str = "four-hand") -> GameState:
    """Seat 1 wins the first trick (the last before the stock is gone) with the ace of trumps."""
    seat_1 = ["AH", "KS", *suit("D", "AAATTTTKKKKQQQQJJJJ9999888877")]
    seat_2 = ["AS", "TS", "7S", *suit("C", "AAAATTTTKKKKQQQQJJJJ99998888")]
    seat_3 = [*suit("S", "AAATTTKKKQQQQJJJJ999988887"), "7S", "7S", "7D", "7D", "AD"]
    seat_0 = [*suit("H", "AAATTTTKKKKQQQQJJJJ999888877"), "7H", "7H", "7C"]
    game = scenario(
        variant,
        hands=[seat_0, seat_1, seat_2, seat_3],
        turn_up="9H",
        stock=["7C", "7C", "7C"],
        overrides=DUEL_DEAL,
    )
    play_out(game, ["play AH", "play 8C", "play 7D", "play 8H"])
    while game.phase == "turn":
        game.apply("draw")
    check_invariants(game)
    return game


def test_s0_duels_the_last_trick_winner_against_his_left_hand_adversary() -> None:
    game = duel_game()
    assert not game.stock_left() and game.trick_order == (1, 2)
    game.apply("play KS")
    # A two-hand end-game: seat 2 must follow and win; seats 3 and 0 wait.
    assert texts(game) == ["play AS", "play TS"]
    game.apply("play TS")
    assert game.to_act == 2 and game.trick_order == (2, 1)
    game.apply("play 7S")
    # Seat 1 has no spade and no trump left: any card.
    assert texts(game) == [f"play {r}D" for r in "ATKQJ987"] + ["play 7C"]
    rng = random.Random(1)
    while game.hands[1] or game.hands[2]:
        assert game.to_act in (1, 2)
        game.apply(rng.choice(game.legal_actions()))
        check_invariants(game)
    # Then the other two: seat 3, in the last trick winner's place, leads against seat 0.
    assert game.trick_order == (3, 0) and game.to_act == 3
    assert len(game.hands[3]) == len(game.hands[0]) == 31
    game.apply("play AS")
    # Seat 0 is void in spades and must trump: any heart.
    assert texts(game) == [f"play {r}H" for r in "ATKQJ987"]
    while game.hand_no == 0 and not game.is_over():
        assert game.to_act in (3, 0)
        game.apply(rng.choice(game.legal_actions()))
    assert replay(record_of(game)).to_json() == game.to_json()


def test_bicycle_end_game_plays_four_card_tricks() -> None:
    game = duel_game("four-hand-partners-bicycle")
    assert game.trick_order == (1, 2, 3, 0)
    play_out(game, ["play KS", "play AS"])
    # Seat 3 must beat the ace of spades if able: his own aces tie, so any spade.
    assert game.to_act == 3 and all(t.endswith("S") for t in texts(game))


def test_duels_need_four_players() -> None:
    with pytest.raises(VariantError) as info:
        new_game("three-hand", overrides={"endgame": {"mode": "duels"}})
    assert "needs players: 4" in str(info.value)


def test_partnerships_must_cover_every_seat() -> None:
    with pytest.raises(VariantError) as info:
        new_game("four-hand-partners", overrides={"partnerships": {"sides": [[0, 2], [1]]}})
    assert "every seat from 0 to 3 exactly once" in str(info.value)


# ------------------------------------------------------------------ random games


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["four-hand-partners", "four-hand-partners-bicycle"])
def test_random_partnership_games_conform(variant: str) -> None:
    assert random_conformance(variant, hands=300, seed=11) >= 300


@pytest.mark.slow
def test_random_four_hand_tricks_mode_conforms() -> None:
    rules = ruleset_for("four-hand", {"endgame": {"mode": "tricks"}})
    assert random_conformance(rules, hands=300, seed=5) >= 300


def test_a_claim_in_the_winners_turn_is_not_a_declaration_bicycle() -> None:
    game = partners_game(LEADER, PARTNER, "four-hand-partners-bicycle")
    seat_1_wins_with_ace_of_trumps(game)
    # Seat 2 draws before the winner; seat 1 claims the points, then passes without declaring.
    play_out(game, ["irregular drew_out_of_turn 2", "claim drew_out_of_turn add 1", "draw"])
    assert game.phase == "turn" and game.to_act == 3
    play_out(game, ["declare marriage KD QD", "draw"])
    assert game.scores == [0, 10 + 20 + 20]
    assert [len(h) for h in game.hands] == [8, 8, 8, 8]
