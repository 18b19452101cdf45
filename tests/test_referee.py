"""The referee: irregularities at a real table and each preset's penalties (P01-P12, A28, A35).

S0's table (ordinary, eb1875): 200 for nine cards, 20 for drawing out of turn or playing
with seven, the injured player adding to his score or deducting from the offender's.
S3 (cards-encyclopedia) and S4 (modern-article): 100 and 10, to the opponent; S4's
revoke forfeits the remaining tricks only.  Stacked decks give exact cards and scores.
"""

from __future__ import annotations

import random

import pytest

from bezique.errors import IllegalActionError
from bezique.game import GameState, new_game
from bezique.record import record_of, replay
from bezique.testing import play_out, points_by_rule, scenario

DEALER = ["7C", "8C", "9C", "7D", "8D", "9D", "7S", "8S"]
ELDEST = ["AH", "AH", "9S", "9S", "JC", "TC", "TD", "8D"]
"""Seat 1 (the non-dealer) leads; neither hand can declare anything under hearts."""
STOCK = ["KS", "QD", "JS", "8H", "7H", "9D"]
"""After the first trick seat 1 draws KS and seat 0 QD; then JS and 8H."""


SHORT_STOCK = {"deal": {"hand_size": 31, "packets": [31]}}
"""Two hands of 31 cards leave one stock card: the end-game starts after one trick."""


def texts(state: GameState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def held(state: GameState, seat: int) -> list[str]:
    return sorted(state.deck.card_text(c) for c in state.hands[seat])


def game(variant: str = "ordinary") -> GameState:
    """Seat 0 deals; seat 1 leads; hearts are trumps."""
    return scenario(variant, hands=[DEALER, ELDEST], turn_up="9H", stock=STOCK)


def after_first_trick(variant: str = "ordinary") -> GameState:
    """Seat 1 wins the ace of hearts (10) and both have drawn: seat 1 KS, seat 0 QD."""
    state = game(variant)
    play_out(state, ["play AH", "play 7C"])
    assert state.phase == "play" and "KS" in held(state, 1) and "QD" in held(state, 0)
    return state


# ------------------------------------------------------------------ nine cards (P09)


def test_nine_cards_s0_deduct_200_and_no_draw_next_trick() -> None:
    state = after_first_trick()
    state.apply("irregular nine_cards 0")
    assert len(state.hands[0]) == 9 and "JS" in held(state, 0)
    state.apply("claim nine_cards deduct")
    assert state.scores == [-200, 10]
    assert points_by_rule(state, 0) == {"penalties.nine_cards": -200}
    play_out(state, ["play AH", "play 8C"])
    # Seat 1 draws 8H; seat 0 plays to this trick without drawing: eight cards each.
    assert len(state.hands[0]) == len(state.hands[1]) == 8
    assert "8H" in held(state, 1) and "7H" not in held(state, 0)


def test_nine_cards_s0_the_injured_may_add_200_instead() -> None:
    state = after_first_trick("eb1875")
    play_out(state, ["irregular nine_cards 0", "claim nine_cards add"])
    assert state.scores == [0, 210]


def test_nine_cards_s3_gives_the_opponent_100_only() -> None:
    state = after_first_trick("cards-encyclopedia")
    state.apply("irregular nine_cards 0")
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim nine_cards deduct")
    assert "choose one of add" in str(info.value) and info.value.rule == "penalties.nine_cards"
    state.apply("claim nine_cards add")
    assert state.scores == [0, 110]


def test_a_claim_after_the_next_card_is_too_late() -> None:
    state = after_first_trick()
    play_out(state, ["irregular nine_cards 0", "play AH"])
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim nine_cards add")
    assert "no such claim is open now" in str(info.value)
    assert state.scores == [0, 10]


def test_the_offender_cannot_claim_his_own_penalty() -> None:
    state = after_first_trick()
    state.apply("irregular nine_cards 0")
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim nine_cards add 0")
    assert "on the offender's side" in str(info.value)


def test_nine_cards_is_not_reported_in_the_end_game() -> None:
    state = new_game("ordinary", overrides=SHORT_STOCK, seed=3)
    while state.stock_left():
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError) as info:
        state.apply("irregular nine_cards 0")
    assert "only while the stock lasts" in str(info.value)


# ------------------------------------------------------------------ drawing (P05-P08)


def test_drawing_out_of_turn_in_the_winners_turn_s0() -> None:
    eldest = ["AH", "KH", "QH", "9S", "9S", "JC", "TC", "TD"]
    state = scenario("ordinary", hands=[DEALER, eldest], turn_up="9H", stock=STOCK)
    play_out(state, ["play AH", "play 7C"])
    assert state.phase == "turn" and state.to_act == 1
    state.apply("irregular drew_out_of_turn 0")
    assert "KS" in held(state, 0)  # he took the winner's card
    state.apply("claim drew_out_of_turn add")
    play_out(state, ["declare royal_marriage KH QH", "draw"])
    # The winner draws the next card; the offender does not draw again.
    assert "QD" in held(state, 1) and len(state.hands[0]) == len(state.hands[1]) == 8
    assert state.scores == [0, 10 + 20 + 40]


def test_drawing_out_of_turn_found_after_the_draw_swaps_the_cards_without_points() -> None:
    state = after_first_trick("cards-encyclopedia")
    state.apply("irregular drew_out_of_turn 0")
    assert "KS" in held(state, 0) and "QD" in held(state, 1)
    # The winner has drawn since: too late for points (S0 "before he draws").
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim drew_out_of_turn add")
    assert "no such claim is open now" in str(info.value)
    assert state.scores == [0, 10]


def test_the_winner_cannot_draw_out_of_turn() -> None:
    state = after_first_trick()
    with pytest.raises(IllegalActionError) as info:
        state.apply("irregular drew_out_of_turn 1")
    assert "won the trick and draws first" in str(info.value)


def test_the_winner_who_lifts_two_lets_the_adversary_choose() -> None:
    state = after_first_trick()
    state.apply("irregular drew_two 1")
    assert state.phase == "remedy" and state.to_act == 0
    assert texts(state) == ["claim drew_two take KS", "claim drew_two take QD"]
    with pytest.raises(IllegalActionError):
        state.apply("play 8C")
    state.apply("claim drew_two take KS")
    assert "KS" in held(state, 0) and "QD" in held(state, 1)
    assert state.phase == "play" and state.to_act == 1


def test_the_loser_who_lifts_two_gives_the_choice_at_the_next_draw() -> None:
    state = after_first_trick()
    state.apply("irregular drew_two 0")
    play_out(state, ["play AH", "play 8C"])
    # The draw waits: the player not in fault chooses of the next two cards.
    assert state.phase == "remedy" and state.to_act == 1
    assert texts(state) == ["claim drew_two take JS", "claim drew_two take 8H"]
    state.apply("claim drew_two take 8H")
    assert "8H" in held(state, 1) and "JS" in held(state, 0)
    assert state.phase == "play" and state.to_act == 1
    assert len(state.hands[0]) == len(state.hands[1]) == 8


def test_playing_with_seven_s0_twenty_and_two_cards_next_draw() -> None:
    state = after_first_trick()
    state.apply("irregular played_with_seven 0")
    assert len(state.hands[0]) == 7 and "QD" not in held(state, 0)
    state.apply("claim played_with_seven deduct")
    play_out(state, ["play AH", "play 8C"])
    # Seat 1 draws QD (put back on top), seat 0 then takes two: JS and 8H.
    assert "QD" in held(state, 1) and {"JS", "8H"} <= set(held(state, 0))
    assert len(state.hands[0]) == len(state.hands[1]) == 8
    assert state.scores == [-20, 20]


def test_playing_with_seven_s4_gives_ten_to_the_opponent() -> None:
    state = after_first_trick("modern-article")
    play_out(state, ["irregular played_with_seven 0", "claim played_with_seven add"])
    assert points_by_rule(state, 1) == {"penalties.played_with_seven": 10}


def test_both_holding_too_many_is_no_penalty_but_each_skips_a_draw() -> None:
    state = after_first_trick("cards-encyclopedia")
    state.apply("irregular both_too_many")
    assert len(state.hands[0]) == len(state.hands[1]) == 9
    play_out(state, ["play AH", "play 8C"])
    assert len(state.hands[0]) == len(state.hands[1]) == 8
    assert state.scores == [0, 20]
    with pytest.raises(IllegalActionError):
        state.apply("claim both_too_many add")


# ------------------------------------------------------------------ the deal (P01-P04)


def test_too_few_dealt_completed_from_the_stock() -> None:
    state = game()
    state.apply("irregular dealt_too_few 1 2")
    assert len(state.hands[1]) == 6 and state.phase == "remedy" and state.to_act == 1
    assert texts(state) == ["claim dealt_too_few complete", "claim dealt_too_few new_deal"]
    state.apply("claim dealt_too_few complete")
    assert held(state, 1) == sorted(ELDEST) and state.phase == "play"


def test_too_few_dealt_a_non_dealer_who_looked_cannot_have_a_new_deal() -> None:
    state = game()
    state.apply("irregular dealt_too_few 1 1 looked")
    assert texts(state) == ["claim dealt_too_few complete"]
    with pytest.raises(IllegalActionError):
        state.apply("claim dealt_too_few new_deal")


def test_a_fresh_deal_voids_the_hand_and_keeps_the_dealer() -> None:
    state = scenario("ordinary", hands=[DEALER, ELDEST], turn_up="7H", stock=STOCK)
    assert state.scores == [10, 0]  # a seven turned up scores for the dealer
    play_out(state, ["irregular exposed_card 9S", "claim exposed_card new_deal"])
    assert state.hand_no == 0 and state.dealer == 0 and state.phase == "play"
    assert held(state, 1) != sorted(ELDEST)
    assert points_by_rule(state, 0).get("penalties.new_deal", 0) == -10
    assert replay(record_of(state)).to_json() == state.to_json()


def test_an_exposed_card_may_be_played_on() -> None:
    state = game()
    play_out(state, ["irregular exposed_card 9S", "claim exposed_card play_on"])
    assert held(state, 1) == sorted(ELDEST) and texts(state)[0] == "play AH"


def test_deal_irregularities_are_too_late_once_play_begins() -> None:
    state = game()
    state.apply("play AH")
    with pytest.raises(IllegalActionError) as info:
        state.apply("irregular exposed_card 9S")
    assert "before the first card" in str(info.value)


def test_too_many_dealt_to_the_non_dealer_he_skips_a_draw() -> None:
    state = game()
    state.apply("irregular dealt_too_many 1 1")
    assert len(state.hands[1]) == 9 and "KS" in held(state, 1)
    play_out(state, ["play AH", "play 7C"])
    assert len(state.hands[1]) == len(state.hands[0]) == 8 and "QD" in held(state, 0)


def test_too_many_dealt_to_the_dealer_the_surplus_goes_back() -> None:
    state = game()
    state.apply("irregular dealt_too_many 0 1")
    assert state.phase == "remedy" and state.to_act == 1
    # The non-dealer draws one of the dealer's nine cards (KS came from the stock).
    assert texts(state) == [f"claim dealt_too_many return {c}" for c in held(state, 0)]
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim dealt_too_many return AS")
    assert "play waits for seat 1 to choose" in str(info.value) and state.phase == "remedy"
    state.apply("claim dealt_too_many return 7C")
    assert len(state.hands[0]) == 8 and "7C" not in held(state, 0)
    assert state.deck.card_text(state.stock[-1]) == "7C"


def test_too_many_dealt_to_a_dealer_who_looked_is_the_nine_card_penalty() -> None:
    state = game()
    play_out(state, ["irregular dealt_too_many 0 1 looked", "claim nine_cards add"])
    assert state.scores == [0, 200]


# ------------------------------------------------------------------ lead out of turn (P11)


def test_a_lead_out_of_turn_may_be_taken_back_before_it_is_played_to() -> None:
    state = game()
    play_out(state, ["irregular led_out_of_turn 0", "play 7C"])
    assert state.to_act == 1
    state.apply("claim led_out_of_turn take_back")
    assert "7C" in held(state, 0) and state.to_act == 1 and not state.trick
    assert texts(state)[0] == "play AH"


def test_a_lead_out_of_turn_played_to_stands() -> None:
    state = game()
    play_out(state, ["irregular led_out_of_turn 0", "play 7C", "play AH"])
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim led_out_of_turn take_back")
    assert "no such claim" in str(info.value)
    assert state.leader == 1 and state.scores == [0, 10]


# ------------------------------------------------------------------ revoke (P12)


def revoke_at_chance(
    variant: str, seed: int, chance: int = 0
) -> tuple[GameState, int, int, list[int]]:
    """Play randomly into the end-game; a player who can revoke does, at the ``chance``-th chance.

    Return the state just after the revoking card, the offender, how many score
    events there were when the end-game began, and the cards he had won before
    the revoke.
    """
    rng = random.Random(seed)
    state = new_game(variant, overrides=SHORT_STOCK, seed=seed)
    while state.stock_left():
        state.apply(rng.choice(state.legal_actions()))
    start = len(state.events)
    while True:
        seat = state.to_act
        if state.phase == "play" and state.trick:
            legal = state.rules.legal_plays(state, seat, state.hands[seat])
            chance -= len(legal) < len(state.hands[seat])
            if chance < 0:
                before = list(state.won[seat])
                state.apply(f"irregular revoke {seat}")
                revoking = state.legal_actions()
                assert revoking and all(a.cards[0] not in legal for a in revoking)
                state.apply(rng.choice(revoking))
                return state, seat, start, before
        state.apply(rng.choice(state.legal_actions()))


def finish_hand(state: GameState, seed: int, offender: int = -1) -> None:
    """Play the hand out at random; the offender's own points never rise after his revoke."""
    rng = random.Random(seed)
    while state.hand_no == 0 and not state.is_over():
        before = sum(e.points for e in state.events if e.player == offender)
        state.apply(rng.choice(state.legal_actions()))
        assert sum(e.points for e in state.events if e.player == offender) <= before


@pytest.mark.parametrize(
    ("variant", "seed", "chance"),
    [
        ("ordinary", 1, 0),
        ("ordinary", 2, 6),
        ("ordinary", 3, 9),
        ("three-hand", 1, 12),
        ("four-hand-partners-bicycle", 2, 12),
    ],
)
def test_a_revoke_gives_every_end_game_trick_to_the_adversary_s0(
    variant: str, seed: int, chance: int
) -> None:
    state, offender, start, _ = revoke_at_chance(variant, seed, chance)
    # Dealt 31 each and one trick played: the end-game's cards are all but the first trick's.
    endgame_brisques = 10 * sum(
        state.deck.card_text(c)[0] in "AT" for c in state.played[state.players :]
    ) + 10 * sum(state.deck.card_text(c)[0] in "AT" for h in state.hands for c in h)
    finish_hand(state, seed, offender)
    late = [e for e, h in zip(state.events, state.event_hands, strict=True) if h == 0][start:]
    kept = sum(e.points for e in late if e.player == offender and e.rule == "brisques")
    forfeits = [(e.player, e.points) for e in late if e.rule == "penalties.revoke"]
    # Two hands and S0's duels: his opponent; more cards a trick: the next opponent (A27).
    adversary = (offender + 1) % state.players
    assert forfeits == ([(offender, -kept), (adversary, kept)] if kept else [])
    assert sum(e.points for e in late if e.player == offender) == 0
    assert sum(e.points for e in late) == endgame_brisques


@pytest.mark.parametrize("seed", [1, 2])
def test_a_revoke_forfeits_the_remaining_tricks_s4(seed: int) -> None:
    state, offender, _, before = revoke_at_chance("modern-article", seed, chance=6)
    assert before  # he had won end-game tricks before the revoke: S4 lets him keep them
    finish_hand(state, seed)
    counted = 10 * sum(state.deck.card_text(c)[0] in "AT" for c in before)
    brisques = [
        e.points
        for e, h in zip(state.events, state.event_hands, strict=True)
        if h == 0 and e.player == offender and e.rule == "brisques"
    ]
    assert brisques == ([counted] if counted else [])


def test_no_revoke_without_a_card_that_breaks_the_duties() -> None:
    state = new_game("ordinary", overrides=SHORT_STOCK, seed=4)
    while state.stock_left():
        state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])  # a lead: nothing to revoke against
    seat = state.to_act
    with pytest.raises(IllegalActionError):
        state.apply(f"irregular revoke {1 - seat}")


def test_a_record_with_irregular_events_replays() -> None:
    state = after_first_trick()
    play_out(state, ["irregular nine_cards 0", "claim nine_cards deduct", "play AH", "play 8C"])
    record = record_of(state)
    assert "irregular nine_cards 0" in record["actions"]
    assert replay(record).to_json() == state.to_json()


# ------------------------------------------------------------------ refusals change nothing


@pytest.mark.parametrize(
    "text",
    [
        "irregular",
        "claim",
        "irregular nine_cards",
        "irregular nine_cards x",
        "irregular nine_cards ²",
        "irregular dealt_too_many 0 ²",
        "irregular dealt_too_many 1 30",
        "irregular bogus 1",
        "claim nine_cards add",
        "irregular revoke 0",
    ],
)
def test_a_refused_report_or_claim_leaves_the_game_as_it_was(text: str) -> None:
    state = game()
    state.apply("play AH")
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(text)
    assert state.to_json() == before
    assert replay(record_of(state)).to_json() == before


def test_after_the_draw_reports_do_not_reach_into_the_next_hand() -> None:
    state = new_game("ordinary", seed=5)
    while state.hand_no == 0:
        state.apply(state.legal_actions()[0])
    for text in ("irregular played_with_seven 0", "irregular drew_two 1"):
        with pytest.raises(IllegalActionError) as info:
            state.apply(text)
        assert "right after the draw" in str(info.value)


def test_a_seat_that_skipped_his_draw_did_not_play_with_seven_by_failing_to_draw() -> None:
    state = after_first_trick()
    play_out(state, ["irregular nine_cards 0", "play AH", "play 8C"])  # seat 0 skips this draw
    with pytest.raises(IllegalActionError) as info:
        state.apply("irregular played_with_seven 0")
    assert "did not draw at the last draw" in str(info.value)


def test_only_one_choice_at_the_next_draw_at_a_time() -> None:
    state = after_first_trick()
    state.apply("irregular drew_two 0")
    with pytest.raises(IllegalActionError) as info:
        state.apply("irregular drew_two 1")
    assert "already due" in str(info.value)


def test_the_offender_cannot_take_back_his_own_lead() -> None:
    state = game()
    play_out(state, ["irregular led_out_of_turn 0", "play 7C"])
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim led_out_of_turn take_back 0")
    assert "on the offender's side" in str(info.value)


def test_points_for_a_lead_out_of_turn_when_the_table_gives_them() -> None:
    state = scenario(
        "cards-encyclopedia",
        hands=[DEALER, ELDEST],
        turn_up="9H",
        stock=STOCK,
        overrides={"penalties": {"led_out_of_turn": 10}},
    )
    play_out(state, ["irregular led_out_of_turn 0", "play 7C", "play AH"])
    state.apply("claim led_out_of_turn add")
    assert state.scores == [0, 20]  # the ace of hearts' 10 and the penalty's 10


def test_a_lead_out_of_turn_in_a_duel_stays_in_the_duel() -> None:
    state = new_game("four-hand", overrides=SHORT_STOCK, seed=3)
    while state.stock_left():
        state.apply(state.legal_actions()[0])
    leader, other = state.trick_order
    outsider = next(s for s in range(4) if s not in (leader, other))
    with pytest.raises(IllegalActionError) as info:
        state.apply(f"irregular led_out_of_turn {outsider}")
    assert "a seat of the trick" in str(info.value)
    state.apply(f"irregular led_out_of_turn {other}")
    assert state.trick_order == (other, leader) and state.to_act == other
    state.apply(state.legal_actions()[0])
    state.apply(f"claim led_out_of_turn take_back {leader}")
    assert state.trick_order == (leader, other) and state.to_act == leader and not state.trick
