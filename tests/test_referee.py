"""The referee: irregularities at a real table and each preset's penalties (P01-P12, A28, A35).

S0's table (ordinary, eb1875): 200 for nine cards, 20 for drawing out of turn or playing
with seven, the injured player adding to his score or deducting from the offender's.
S3 (cards-encyclopedia) and S4 (modern-article): 100 and 10, to the opponent; S4's
revoke forfeits the remaining tricks only.  Stacked decks give exact cards and scores.
"""

from __future__ import annotations

import json
import random
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from bezique.errors import IllegalActionError, RecordError
from bezique.game import GameState, from_json, new_game, ruleset_for
from bezique.hookspecs import hookimpl
from bezique.records.record import RECORD_FORMAT, record_of, replay
from bezique.rules import ruleset
from bezique.testing import play_out, points_by_rule, refuse, scenario
from bezique.variant import registry

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


def game(
    variant: str = "ordinary", *, referee: bool = False, overrides: dict[str, Any] | None = None
) -> GameState:
    """Seat 0 deals; seat 1 leads; hearts are trumps."""
    return scenario(
        variant,
        hands=[DEALER, ELDEST],
        turn_up="9H",
        stock=STOCK,
        overrides=overrides,
        referee=referee,
    )


def after_first_trick(
    variant: str = "ordinary", overrides: dict[str, Any] | None = None
) -> GameState:
    """Seat 1 wins the ace of hearts (10) and both have drawn: seat 1 KS, seat 0 QD."""
    state = game(variant, overrides=overrides)
    play_out(state, ["play AH", "play 7C"])
    assert state.phase == "play" and "KS" in held(state, 1) and "QD" in held(state, 0)
    return state


# ------------------------------------------------------------------ nine cards (P09)


def test_nine_cards_s0_deduct_200_and_no_draw_next_trick() -> None:
    state = after_first_trick()
    state.apply("irregular overdrew 0")  # he took JS too, unnoticed
    assert len(state.hands[0]) == 9 and "JS" in held(state, 0)
    state.apply("irregular nine_cards 0")  # found: the hand as it is, no card moves
    assert len(state.hands[0]) == 9 and state.deck.card_text(state.stock[-1]) == "8H"
    state.apply("claim nine_cards deduct")
    assert state.scores == [-200, 10]
    assert points_by_rule(state, 0) == {"penalties.nine_cards": -200}
    play_out(state, ["play AH", "play 8C"])
    # Seat 1 draws 8H; seat 0 plays to this trick without drawing: eight cards each.
    assert len(state.hands[0]) == len(state.hands[1]) == 8
    assert "8H" in held(state, 1) and "7H" not in held(state, 0)


def test_nine_cards_s0_the_injured_may_add_200_instead() -> None:
    state = after_first_trick("eb1875")
    play_out(state, ["irregular overdrew 0", "irregular nine_cards 0", "claim nine_cards add"])
    assert state.scores == [0, 210]


def test_nine_cards_s3_gives_the_opponent_100_only() -> None:
    state = after_first_trick("cards-encyclopedia")
    play_out(state, ["irregular overdrew 0", "irregular nine_cards 0"])
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim nine_cards deduct")
    assert "choose one of add" in str(info.value) and info.value.rule == "penalties.nine_cards"
    state.apply("claim nine_cards add")
    assert state.scores == [0, 110]


def test_a_claim_after_the_next_card_is_too_late() -> None:
    state = after_first_trick()
    play_out(state, ["irregular overdrew 0", "irregular nine_cards 0", "play AH"])
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim nine_cards add")
    assert "no such claim is open now" in str(info.value)
    assert state.scores == [0, 10]


def test_the_offender_cannot_claim_his_own_penalty() -> None:
    state = after_first_trick()
    play_out(state, ["irregular overdrew 0", "irregular nine_cards 0"])
    with pytest.raises(IllegalActionError) as info:
        state.apply("claim nine_cards add 0")
    assert "on the offender's side" in str(info.value)


def test_a_hand_of_his_number_in_the_end_game_is_not_nine_cards() -> None:
    state = new_game("ordinary", overrides=SHORT_STOCK, seed=3)
    while state.stock_left():
        state.apply(state.legal_actions()[0])
    error = refuse(state, "irregular nine_cards 0")
    assert "seat 0 holds 31 cards, 31 being his number now: not a card too many" in str(error)
    assert error.rule == "penalties.nine_cards"


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


PORTLAND = {"penalties": {"seen_cards": "shown"}}
"""The Portland Club's laws 28-30 for cards seen while drawing (HMR; Rubicon's setting)."""


def shown_to(state: GameState, seat: int, other: int) -> list[str]:
    """The cards of ``other``'s hand that ``seat`` has seen."""
    return sorted(state.deck.card_text(c) for c in state.view(seat).known[other])


def test_portland_law_28_the_winner_who_sees_two_shows_his_own() -> None:
    state = after_first_trick(overrides=PORTLAND)
    assert shown_to(state, 0, 1) == []
    state.apply("irregular drew_two 1")
    # No choice: each keeps the card he drew, and each has seen the other's.
    assert state.phase == "play" and state.to_act == 1
    assert "KS" in held(state, 1) and "QD" in held(state, 0)
    assert shown_to(state, 0, 1) == ["KS"] and shown_to(state, 1, 0) == ["QD"]
    assert state.scores == [0, 10]


def test_portland_law_29_the_loser_puts_the_winners_card_back_and_shows_his_own() -> None:
    eldest = ["AH", "KH", "QH", "9S", "9S", "JC", "TC", "TD"]
    state = scenario(
        "ordinary", hands=[DEALER, eldest], turn_up="9H", stock=STOCK, overrides=PORTLAND
    )
    play_out(state, ["play AH", "play 7C"])
    state.apply("irregular drew_out_of_turn 0")
    assert "KS" not in held(state, 0) and len(state.hands[0]) == 7  # the card went back
    assert "no such claim is open now" in str(refuse(state, "claim drew_out_of_turn add"))
    play_out(state, ["declare royal_marriage KH QH", "draw"])
    assert "KS" in held(state, 1) and "QD" in held(state, 0)
    assert shown_to(state, 1, 0) == ["QD"] and shown_to(state, 0, 1) == ["KH", "KS", "QH"]
    assert state.scores == [0, 10 + 40]


def test_portland_law_29_is_too_late_once_the_winner_has_drawn() -> None:
    state = after_first_trick(overrides=PORTLAND)
    state.apply("irregular drew_out_of_turn 0")
    assert "KS" in held(state, 0) and "QD" in held(state, 1)  # the cards stay as drawn
    assert "no such claim is open now" in str(refuse(state, "claim drew_out_of_turn add"))


def test_rubicon_follows_the_portland_laws_and_the_two_pack_game_s0() -> None:
    assert ruleset_for("rubicon").data["penalties"]["seen_cards"] == "shown"
    assert "seen_cards" not in ruleset_for("ordinary").data["penalties"]


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


@pytest.mark.parametrize(
    ("variant", "nine", "drew", "seven", "deduct"),
    [
        ("eb1875", 200, 20, 20, True),  # S0 penalties paragraph
        ("hoyle1909", 100, 10, 10, False),  # S3 and EW stand in for S2's lost text (A28)
        ("cards-encyclopedia", 100, 10, 10, False),  # S3
        ("modern-article", 100, 10, 10, False),  # S4 (no figure for drawing out of turn)
    ],
)
def test_each_preset_claims_its_own_sources_figures(
    variant: str, nine: int, drew: int, seven: int, deduct: bool
) -> None:
    # A28: S0 gives 200, 20 and 20, added or deducted at the injured player's choice;
    # S3, EW and S4 give 100 and 10, added to the opponent's score only.
    eldest = ["AH", "KH", "QH", "9S", "9S", "JC", "TC", "TD"]
    state = scenario(variant, hands=[DEALER, eldest], turn_up="9H", stock=STOCK)
    play_out(state, ["play AH", "play 7C", "irregular drew_out_of_turn 0"])
    if not deduct:
        assert "choose one of add" in str(refuse(state, "claim drew_out_of_turn deduct"))
    state.apply("claim drew_out_of_turn add")
    assert points_by_rule(state, 1)["penalties.drew_out_of_turn"] == drew
    state = after_first_trick(variant)
    play_out(state, ["irregular played_with_seven 0", "claim played_with_seven add"])
    assert points_by_rule(state, 1) == {"penalties.played_with_seven": seven, **brisque(variant)}
    state = after_first_trick(variant)
    play_out(state, ["irregular overdrew 0", "irregular nine_cards 0", "claim nine_cards add"])
    assert points_by_rule(state, 1) == {"penalties.nine_cards": nine, **brisque(variant)}
    assert points_by_rule(state, 0) == {}
    if deduct:  # or taken off the offender's score instead
        state = after_first_trick(variant)
        play_out(state, ["irregular overdrew 0", "irregular nine_cards 0"])
        state.apply("claim nine_cards deduct")
        assert points_by_rule(state, 0) == {"penalties.nine_cards": -nine}


def brisque(variant: str) -> dict[str, int]:
    """Seat 1's ace of hearts of the first trick: 10 at once, or nothing yet (S4 at the end)."""
    return {} if variant == "modern-article" else {"brisques": 10}


def test_both_holding_too_many_is_no_penalty_but_each_skips_a_draw() -> None:
    state = after_first_trick("cards-encyclopedia")
    play_out(state, ["irregular overdrew 1", "irregular overdrew 0", "irregular both_too_many"])
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
    actions = ["irregular overdrew 0", "irregular nine_cards 0", "claim nine_cards deduct"]
    play_out(state, [*actions, "play AH", "play 8C"])
    record = record_of(state)
    assert record["actions"][2:5] == actions
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
    # Seat 0 skips this draw.
    play_out(state, ["irregular overdrew 0", "irregular nine_cards 0", "play AH", "play 8C"])
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


# ------------------------------------------------------------------ a card short (P08)


def test_a_short_hands_claim_survives_the_opponents_lead() -> None:
    state = after_first_trick()
    play_out(state, ["irregular played_with_seven 0", "play AH"])
    # The lead was seat 1's; seat 0 has not yet played with his seven cards.
    state.apply("claim played_with_seven add")
    assert state.scores == [0, 10 + 20]


def test_a_short_hand_is_claimed_once_he_has_played_with_seven_s0() -> None:
    state = after_first_trick()
    play_out(state, ["irregular played_with_seven 1", "play AH"])  # the winner leads with seven
    state.apply("claim played_with_seven deduct")
    play_out(state, ["play 8C"])
    # His next draw: he takes two, KS (put back) and JS; then seat 0 takes 8H.
    assert {"KS", "JS"} <= set(held(state, 1)) and "8H" in held(state, 0)
    assert len(state.hands[0]) == len(state.hands[1]) == 8
    assert state.scores == [0, 10 - 20 + 10]


def test_a_short_hand_is_claimed_at_the_winners_draw_s4() -> None:
    state = game("modern-article", referee=True)
    play_out(state, ["play AH", "play 7C", "draw", "irregular played_with_seven 0"])
    play_out(state, ["play AH", "play 8C"])  # seat 0 follows with seven cards; seat 1 wins
    assert state.phase == "turn" and state.to_act == 1
    state.apply("claim played_with_seven add")
    assert state.scores == [0, 10]  # S4 counts the brisques at the end
    state.apply("draw")
    assert "QD" in held(state, 1) and {"JS", "8H"} <= set(held(state, 0))
    assert len(state.hands[0]) == len(state.hands[1]) == 8


def test_a_short_hands_claim_lapses_at_his_next_draw() -> None:
    state = game(referee=True)
    play_out(state, ["play AH", "play 7C", "draw", "irregular played_with_seven 0"])
    play_out(state, ["play AH", "play 8C", "draw"])
    error = refuse(state, "claim played_with_seven add")
    assert "no such claim is open now" in str(error)


def test_a_lead_out_of_turn_standing_leaves_the_short_hands_claim_to_his_draw() -> None:
    state = game(referee=True)
    play_out(state, ["play AH", "play 7C", "draw", "irregular played_with_seven 0"])
    play_out(state, ["irregular led_out_of_turn 0", "play 8C", "play AH", "draw"])
    assert len(state.hands[0]) == len(state.hands[1]) == 8
    assert "no such claim is open now" in str(refuse(state, "claim played_with_seven add"))


# ------------------------------------------------------------------ nine cards found (P09, 11.2)


def test_a_dealt_surplus_found_after_the_first_trick_s0() -> None:
    state = game()
    state.apply("irregular dealt_too_many 0 1 unnoticed")
    assert held(state, 0) == sorted([*DEALER, "KS"]) and state.phase == "play"
    play_out(state, ["play AH", "play 7C"])
    # Nobody noticed: each draws as usual, seat 1 QD and seat 0 JS.
    assert [len(h) for h in state.hands] == [9, 8] and "JS" in held(state, 0)
    hands, stock = held(state, 0), list(state.stock)
    state.apply("irregular nine_cards 0")
    assert held(state, 0) == hands and state.stock == stock
    state.apply("claim nine_cards deduct")
    assert state.scores == [-200, 10]
    play_out(state, ["play AH", "play 8C"])
    # Seat 1 draws 8H; seat 0 plays to this trick without drawing.
    assert len(state.hands[0]) == len(state.hands[1]) == 8 and "8H" in held(state, 1)
    assert state.deck.card_text(state.stock[-1]) == "7H"


def test_a_dealt_surplus_found_two_tricks_later_s0_plays_a_trick_without_drawing() -> None:
    state = game()
    state.apply("irregular dealt_too_many 0 1 unnoticed")  # seat 0, the dealer, took KS too
    play_out(state, ["play AH", "play 7C", "play AH", "play 8C"])
    # Seat 1 won both aces (10 each) and drew QD, 8H; seat 0 drew JS, 7H as usual.
    assert [len(h) for h in state.hands] == [9, 8] and state.scores == [0, 20]
    assert {"KS", "JS", "7H"} <= set(held(state, 0))
    play_out(state, ["irregular nine_cards 0", "claim nine_cards deduct"])
    assert state.scores == [-200, 20]
    assert points_by_rule(state, 0) == {"penalties.nine_cards": -200}
    play_out(state, ["play 9S", "play 9C"])
    # Seat 1 wins and draws 9D; seat 0 plays this trick without drawing: eight each.
    assert [len(h) for h in state.hands] == [8, 8] and "9D" in held(state, 1)
    stock = len(state.stock)
    play_out(state, ["play 9S", "play 9D"])  # back to his number, he draws again
    assert [len(h) for h in state.hands] == [8, 8] and len(state.stock) == stock - 2


def test_a_surplus_dealt_to_the_non_dealer_found_two_tricks_later_s3() -> None:
    state = game("cards-encyclopedia")
    state.apply("irregular dealt_too_many 1 1 unnoticed")  # seat 1 took KS too
    play_out(state, ["play AH", "play 7C", "play AH", "play 8C"])
    assert [len(h) for h in state.hands] == [8, 9] and state.scores == [0, 20]
    state.apply("irregular nine_cards 1")
    assert "choose one of add" in str(refuse(state, "claim nine_cards deduct"))
    state.apply("claim nine_cards add")
    assert state.scores == [100, 20]  # S3: the opponent adds 100
    play_out(state, ["play 9S", "play 9C"])  # seat 1 wins and plays it without drawing
    assert [len(h) for h in state.hands] == [8, 8] and "9D" not in held(state, 1)


def test_nine_cards_against_the_seat_holding_his_number_is_refused() -> None:
    state = game()
    play_out(state, ["irregular dealt_too_many 0 1 unnoticed", "play AH", "play 7C"])
    play_out(state, ["play AH", "play 8C"])
    error = refuse(state, "irregular nine_cards 1")  # seat 0 holds the nine, seat 1 eight
    assert str(error) == (
        "nine_cards: seat 1 holds 8 cards, 8 being his number now: not a card too many.  "
        "The penalty is for the player found, at any time of the play, holding more cards "
        "than his number while the others hold theirs (P09); seat 0 holds more than his number"
    )
    assert error.rule == "penalties.nine_cards"
    play_out(state, ["irregular nine_cards 0", "claim nine_cards add"])  # the right report
    assert state.scores == [0, 220]


def test_an_overdraw_found_a_trick_later_s3() -> None:
    state = after_first_trick("cards-encyclopedia")
    state.apply("irregular overdrew 1")
    # The winner lifted KS and QD and kept both; the loser then took the next card, JS.
    assert {"KS", "QD"} <= set(held(state, 1)) and "JS" in held(state, 0)
    assert "QD" not in held(state, 0) and [len(h) for h in state.hands] == [8, 9]
    play_out(state, ["play AH", "play 8C"])  # unnoticed: seat 1 draws 8H, seat 0 7H
    state.apply("irregular nine_cards 1")
    state.apply("claim nine_cards add")
    assert state.scores == [100, 10 + 10]
    play_out(state, ["play 9S", "play 9C"])  # seat 1 wins and plays it without drawing
    assert len(state.hands[0]) == len(state.hands[1]) == 8 and "9D" in held(state, 0)


def test_a_surplus_of_two_skips_two_draws_s4() -> None:
    state = game("modern-article")
    play_out(state, ["irregular dealt_too_many 1 2 unnoticed", "play AH", "play 7C"])
    play_out(state, ["irregular nine_cards 1", "claim nine_cards add"])
    assert state.scores == [100, 0]  # S4 counts the brisques at the end
    play_out(state, ["play AH", "play 8C", "play 9S", "play 9C"])
    assert [len(h) for h in state.hands] == [8, 8]


def test_a_surplus_found_in_the_end_game_costs_the_points_and_ends_the_hand_early() -> None:
    state = game()
    state.apply("irregular dealt_too_many 0 1 unnoticed")
    while state.stock_left():
        state.apply(state.legal_actions()[0])
    # He drew the last card of the stock too: two cards more than seat 1 as the end-game begins.
    assert [len(h) for h in state.hands] == [9, 7] and state.to_act == 0
    play_out(state, ["irregular nine_cards 0", "claim nine_cards add"])
    assert points_by_rule(state, 1)["penalties.nine_cards"] == 200
    for _ in range(13):
        state.apply(state.legal_actions()[0])
    assert state.hand_no == 0 and [len(h) for h in state.hands] == [2, 1]
    state.apply(state.legal_actions()[0])  # seat 1 plays his last card: none for the next trick
    assert state.hand_no == 1 and state.phase == "play"


def test_nine_cards_takes_the_hand_as_it_is_the_other_must_hold_his_number() -> None:
    state = after_first_trick()
    play_out(state, ["irregular overdrew 1", "irregular overdrew 0"])
    error = refuse(state, "irregular nine_cards 1")
    assert "seat 0 holds 9 cards" in str(error) and "both_too_many" in str(error)
    state.apply("irregular both_too_many")  # as they are: no card moves, no points (S3)
    assert [len(h) for h in state.hands] == [9, 9]
    play_out(state, ["play AH", "play 8C"])
    assert [len(h) for h in state.hands] == [8, 8]


def test_a_hand_a_card_short_is_not_nine_cards() -> None:
    state = after_first_trick()
    state.apply("irregular played_with_seven 0")
    error = refuse(state, "irregular nine_cards 0")
    assert "seat 0 holds 7 cards" in str(error)


def test_a_known_surplus_is_not_found_again() -> None:
    state = game()
    state.apply("irregular dealt_too_many 1 1")  # the non-dealer skips his next draw (A35)
    error = refuse(state, "irregular nine_cards 1")
    assert "skips a draw" in str(error)


def test_the_old_nine_cards_report_still_draws_one_too_many_with_a_warning() -> None:
    old = after_first_trick()
    with pytest.warns(DeprecationWarning, match="irregular overdrew 0"):
        old.apply("irregular nine_cards 0")
    new = after_first_trick()
    play_out(new, ["irregular overdrew 0", "irregular nine_cards 0"])
    assert old.hands == new.hands and old.stock == new.stock
    play_out(old, ["claim nine_cards deduct", "play AH", "play 8C"])
    assert old.scores == [-200, 20] and [len(h) for h in old.hands] == [8, 8]
    with pytest.warns(DeprecationWarning):
        assert replay(record_of(old)).to_json() == old.to_json()


def test_overdrawing_is_reported_right_after_the_draw() -> None:
    state = game()
    error = refuse(state, "irregular overdrew 0")
    assert "right after the draw" in str(error)


# ------------------------------------------------------------------ the winner's draw (P05)


def test_a_refereed_game_stops_before_the_winners_draw_s0() -> None:
    state = game(referee=True)
    play_out(state, ["play AH", "play 7C"])
    # Seat 1 has nothing to declare, but in a refereed game his draw waits.
    assert state.phase == "turn" and state.to_act == 1 and texts(state) == ["draw"]
    state.apply("irregular drew_out_of_turn 0")
    assert "KS" in held(state, 0)
    state.apply("claim drew_out_of_turn add")
    state.apply("draw")
    assert "QD" in held(state, 1) and len(state.hands[0]) == len(state.hands[1]) == 8
    assert state.scores == [0, 10 + 20]


def test_an_unrefereed_game_draws_at_once() -> None:
    state = game()
    play_out(state, ["play AH", "play 7C"])
    assert state.phase == "play" and state.to_act == 1 and texts(state)[0] == "play AH"


def test_a_refereed_game_keeps_its_stops_in_records_states_and_copies() -> None:
    state = game(referee=True)
    play_out(state, ["play AH", "play 7C", "draw", "play AH", "play 8C"])
    record = record_of(state)
    assert record["referee"] is True and record["actions"][2] == "draw"
    assert replay(record).to_json() == state.to_json()
    assert from_json(state.to_json()) == state and state.clone() == state
    assert from_json(state.to_json()).legal_actions() == state.legal_actions()
    # A record without the key is an unrefereed game, as before.
    assert "referee" not in record_of(after_first_trick())
    plain = dict(record, actions=["play AH", "play 7C", "play AH", "play 8C"])
    del plain["referee"]
    assert replay(plain).phase == "play"


def test_a_saved_state_from_before_the_referee_flag_loads_unrefereed() -> None:
    saved = after_first_trick().to_json()
    del saved["referee"]
    state = from_json(saved)
    play_out(state, ["play AH", "play 8C"])
    assert state.phase == "play"


class NoStop:
    """A house plugin that lets the draw follow at once even at a real table."""

    @hookimpl
    def bezique_wait_before_draw(self) -> bool:
        return False


@pytest.fixture
def house_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh registry: the plugins registered here go away after the test."""
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())


def test_the_stop_before_the_draw_is_the_referee_plugins_answer(
    tmp_path: Path, house_registry: None
) -> None:
    # The kernel keeps only that the game is at a table; the referee asks for the stop,
    # and a plugin listed after it that answers otherwise is heard first.
    registry.register_plugin("no-stop", NoStop())
    path = tmp_path / "house-no-stop.yaml"
    path.write_text(
        "name: house-no-stop\nextends: ordinary\nsummary: No stop.\n"
        "plugins: [ordinary, referee, no-stop]\n",
        encoding="utf-8",
    )
    for variant, stops in (("ordinary", True), (str(path), False)):
        state = game(variant, referee=True)
        play_out(state, ["play AH", "play 7C"])
        assert state.at_table and state.phase == ("turn" if stops else "play")
        assert texts(state)[0] == "draw" if stops else "KS" in held(state, 1)  # drawn at once


def test_the_referee_attribute_is_deprecated_for_at_table() -> None:
    for refereed in (True, False):
        state = game(referee=refereed)
        with pytest.warns(DeprecationWarning, match="GameState.at_table"):
            assert state.referee is refereed is state.at_table
        assert state.to_json()["referee"] is refereed  # the saved key is as it always was


@pytest.mark.parametrize("variant", ["ordinary", "four-hand-partners", "polish"])
def test_random_refereed_games_stop_at_every_draw(variant: str) -> None:
    rng = random.Random(7)
    state = new_game(variant, seed=7, referee=True)
    stops = 0
    while state.hand_no == 0:
        was_trick, stock = len(state.trick) == len(state.trick_order) - 1, state.stock_left()
        state.apply(rng.choice(state.legal_actions()))
        if was_trick and stock and state.phase == "play" and state.hand_no == 0:
            pytest.fail("a trick ended and the winner drew without a stop")
        stops += state.phase == "turn" and texts(state) in (["draw"], ["pass"])
    assert stops > 0
    assert replay(record_of(state)).to_json() == state.to_json()


# ------------------------------------------------------------------ no penalty table (11.12)


NO_TABLE: dict[str, Any] = {"penalties": None}


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        ("deal", "irregular dealt_too_few 1 2"),
        ("deal", "irregular dealt_too_many 0 1"),
        ("deal", "irregular dealt_too_many 0 1 looked"),
        ("deal", "irregular dealt_too_many 1 1 unnoticed"),
        ("deal", "irregular exposed_card 9S"),
        ("deal", "irregular led_out_of_turn 0"),
        ("drawn", "irregular nine_cards 0"),
        ("drawn", "irregular overdrew 0"),
        ("drawn", "irregular both_too_many"),
        ("drawn", "irregular played_with_seven 0"),
        ("drawn", "irregular drew_out_of_turn 0"),
        ("drawn", "irregular drew_two 1"),
        ("drawn", "claim nine_cards add"),
    ],
)
def test_without_a_penalty_table_a_report_changes_nothing(moment: str, text: str) -> None:
    state = game(overrides=NO_TABLE) if moment == "deal" else after_first_trick(overrides=NO_TABLE)
    error = refuse(state, text)
    assert "no penalty table" in str(error) and error.rule.startswith("penalties")


def test_without_a_penalty_table_no_revoke_is_accepted_and_play_goes_on() -> None:
    state = new_game("ordinary", overrides={**SHORT_STOCK, **NO_TABLE}, seed=2)
    while state.stock_left() or not state.trick:
        state.apply(state.legal_actions()[0])
    seat = state.to_act
    assert len(state.rules.legal_plays(state, seat, state.hands[seat])) < len(state.hands[seat])
    refuse(state, f"irregular revoke {seat}")
    history = len(state.history)
    state.apply(state.legal_actions()[0])
    assert len(state.history) == history + 1


def test_a_standalone_variant_without_penalties_refuses_reports(tmp_path: Path) -> None:
    text = files("bezique.variants").joinpath("ordinary.yaml").read_text(encoding="utf-8")
    start = text.index("\npenalties:")
    end = text.find("\n\n", start + 1) % (len(text) + 1)
    path = tmp_path / "no-penalties.yaml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    state = scenario(path, hands=[DEALER, ELDEST], turn_up="9H", stock=STOCK)
    play_out(state, ["play AH", "play 7C"])
    assert "no penalty table" in str(refuse(state, "irregular nine_cards 0"))


def test_a_record_overriding_the_penalties_away_is_refused_at_the_report() -> None:
    record = record_of(after_first_trick(overrides=NO_TABLE))
    record["actions"] += ["irregular nine_cards 0", "claim nine_cards add"]
    with pytest.raises(RecordError) as info:
        replay(record)
    assert "action 2 ('irregular nine_cards 0'" in str(info.value)
    assert "no penalty table" in str(info.value)


# ------------------------------------------------------------------ refusals, remedies (11.13)


def test_a_dealers_surplus_is_returned_as_the_claims_cards() -> None:
    state = game()
    state.apply("irregular dealt_too_many 0 3")
    # One choice a card (11), not one a set of three (165).
    assert texts(state) == [f"claim dealt_too_many return {c}" for c in held(state, 0)]
    state.apply("claim dealt_too_many return 7C 8C")
    assert state.phase == "remedy" and state.to_act == 1
    assert texts(state) == [f"claim dealt_too_many return {c}" for c in held(state, 0)]
    state.apply("claim dealt_too_many return KS")
    assert state.phase == "play" and held(state, 0) == sorted([*DEALER[2:], "QD", "JS"])
    assert [state.deck.card_text(c) for c in state.stock[-3:]] == ["7C", "8C", "KS"]  # KS on top


@pytest.mark.parametrize(
    "text",
    [
        "claim dealt_too_many return AS",
        "claim dealt_too_many return 7C 7C",
        "claim dealt_too_many return 7C 8C 9C",
        "claim dealt_too_many return",
        "claim dealt_too_many keep 7C",
        "claim nine_cards add",
        "play 7C",
        "irregular nine_cards 0",
    ],
)
def test_a_wrong_return_of_the_surplus_changes_nothing(text: str) -> None:
    state = game()
    state.apply("irregular dealt_too_many 0 2")
    error = refuse(state, text)
    if text.startswith("claim"):
        assert "play waits for seat 1 to choose: claim dealt_too_many return CARD" in str(error)


def test_a_huge_surplus_in_grand_is_bounded() -> None:
    state = new_game("grand", seed=3)
    state.apply("irregular dealt_too_many 0 35")
    faces = {state.deck.card_text(c) for c in state.hands[0]}
    assert len(state.legal_actions()) == len(faces) <= state.deck.faces
    cards = [state.deck.card_text(c) for c in state.hands[0][:35]]
    record = record_of(state)
    record["actions"].append("claim dealt_too_many return " + " ".join(cards))
    done = replay(record)
    assert done.phase == "play" and len(done.hands[0]) == 9


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    "moment",
    ["deal", "drawn", "turn", "remedy", "claim open", "end-game"],
)
@pytest.mark.parametrize(
    "text",
    [
        "irregular nine_cards 0",
        "irregular nine_cards 1",
        "irregular overdrew 1",
        "irregular both_too_many",
        "irregular played_with_seven 1",
        "irregular drew_out_of_turn 1",
        "irregular dealt_too_many 0 1 unnoticed looked",
        "irregular dealt_too_many 0 99",
        "irregular revoke 1",
        "claim played_with_seven add",
        "claim drew_two take QD",
        "claim led_out_of_turn take_back",
    ],
)
def test_any_refusal_leaves_the_state_as_it_was(moment: str, text: str) -> None:
    if moment == "end-game":
        state = new_game("ordinary", overrides=SHORT_STOCK, seed=3)
        while state.stock_left():
            state.apply(state.legal_actions()[0])
    elif moment == "deal":
        state = game(referee=True)
    else:
        state = game(referee=True)
        play_out(state, ["play AH", "play 7C"])
        if moment != "turn":
            state.apply("draw")
        if moment == "remedy":
            state.apply("irregular drew_two 1")
        elif moment == "claim open":
            play_out(state, ["irregular overdrew 1", "irregular nine_cards 1"])
    before = state.to_json()
    try:
        state.apply(text)
    except IllegalActionError:
        assert state.to_json() == before
    else:  # accepted: play goes on, and the record replays to the same game
        while state.hand_no == 0 and not state.is_over() and state.legal_actions():
            state.apply(state.legal_actions()[-1])
        assert replay(record_of(state)).to_json() == state.to_json()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    ("variant", "overrides", "referee", "seed", "hands"),
    [
        ("modern-article", None, False, 1, 2),
        ("ordinary", None, True, 2, 2),
        ("cards-encyclopedia", None, False, 3, 2),
        ("three-hand", None, True, 4, 2),
        ("four-hand-partners", None, True, 5, 2),
        ("grand", None, False, 6, 2),
    ],
)
def test_reports_at_random_refuse_cleanly_or_play_on(
    variant: str, overrides: dict[str, object] | None, referee: bool, seed: int, hands: int
) -> None:
    reports = [
        "irregular nine_cards {s}",
        "irregular overdrew {s}",
        "irregular both_too_many",
        "irregular played_with_seven {s}",
        "irregular drew_out_of_turn {s}",
        "irregular drew_two {s}",
        "irregular led_out_of_turn {s}",
        "irregular revoke {s}",
        "claim nine_cards add",
        "claim played_with_seven deduct",
        "claim drew_out_of_turn add",
    ]
    accepted = 0
    rng = random.Random(seed)
    state = new_game(variant, overrides=overrides, seed=seed, referee=referee)
    while state.hand_no < hands and not state.is_over():
        if rng.random() < 0.2:
            text = rng.choice(reports).format(s=rng.randrange(state.players))
            before = state.to_json()
            try:
                state.apply(text)
                accepted += 1
            except IllegalActionError:
                assert state.to_json() == before, text
            continue
        state.apply(rng.choice(state.legal_actions()))
        cards = [c for h in state.hands for c in h] + [c for w in state.won for c in w]
        cards += state.trick + state.stock + ([state.turn_up] if state.turn_up >= 0 else [])
        assert sorted(cards) == list(range(state.deck.size))
        assert sum(e.points for e in state.events) == sum(state.scores)
    assert accepted >= 3
    assert replay(record_of(state)).to_json() == state.to_json()


def test_the_record_schema_describes_the_referee_key() -> None:
    from bezique.records.record import check_record, record_schema

    assert record_schema()["properties"]["referee"]["type"] == "boolean"
    record = record_of(new_game("ordinary", seed=1, referee=True))
    assert record["format"] == RECORD_FORMAT and record["referee"] is True
    check_record(record)


@pytest.mark.parametrize("seed", range(4))
def test_the_last_trick_scores_when_an_unnoticed_surplus_leaves_an_odd_stock(seed: int) -> None:
    """S0 fn 5: the trick after which the stock is gone scores 10, odd stock or not."""
    rng = random.Random(seed)
    state = new_game("ordinary", seed=seed, referee=True)
    state.apply("irregular dealt_too_many 0 1 unnoticed")
    assert state.stock_left() % 2 == 1
    while state.hand_no == 0:
        state.apply(rng.choice(state.legal_actions()))
    last = [
        event.points
        for event, hand in zip(state.events, state.event_hands, strict=True)
        if hand == 0 and event.rule == "last_trick"
    ]
    assert last == [10]


def test_a_surplus_found_in_the_end_game_is_penalised_once() -> None:
    """S0 P09: the penalty is for being found with too many, not again at every trick."""
    rng = random.Random(0)
    state = new_game("ordinary", seed=0, referee=True)
    overdrawn = 0
    while state.stock_left() or state.phase != "play" or state.trick:
        at_a_lead = state.phase == "play" and not state.trick
        if overdrawn < 2 and at_a_lead and state.tricks_done == (3, 6)[overdrawn]:
            state.apply("irregular overdrew 0")
            overdrawn += 1
            continue
        state.apply(rng.choice(state.legal_actions()))
    assert [len(hand) for hand in state.hands] == [10, 8]
    before = list(state.scores)
    play_out(state, ["irregular nine_cards 0", "claim nine_cards add"])
    assert state.scores == [before[0], before[1] + 200]
    while state.trick or state.phase != "play":
        state.apply(rng.choice(state.legal_actions()))
    state.apply(rng.choice(state.legal_actions()))
    while state.trick or state.phase != "play":
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalActionError) as info:
        state.apply("irregular nine_cards 0")
    assert "found already: the penalty is once" in str(info.value)


# ------------------------------------------------------------------ what the chooser sees


def test_the_chooser_of_the_dealers_surplus_does_not_see_the_dealers_cards() -> None:
    """A regression: the non-dealer's observation listed a choice for each of the dealer's cards."""
    state = game()
    state.apply("irregular dealt_too_many 0 2")
    assert state.phase == "remedy" and state.to_act == 1
    view = state.observation(1)
    assert view["legal"] == [
        "claim dealt_too_many return CARD... (from 1 to 2 of seat 0's concealed cards)"
    ]
    seen = set(held(state, 1)) | set(view["played"]) | {view["turn_up"]}
    hidden = set(held(state, 0)) - seen
    assert len(hidden) == 9 and not any(card in json.dumps(view) for card in hidden)
    # The seat to act's legal actions still name them: whoever records the game says which.
    assert texts(state) == [f"claim dealt_too_many return {c}" for c in held(state, 0)]
    state.apply("claim dealt_too_many return 7C")
    assert state.observation(1)["legal"] == [
        "claim dealt_too_many return CARD... (from 1 to 1 of seat 0's concealed cards)"
    ]
    state.apply("claim dealt_too_many return 8C")
    assert state.phase == "play" and "legal" in state.observation(1)


def test_other_remedies_are_shown_as_they_are() -> None:
    state = game()
    state.apply("irregular exposed_card 9S")
    assert (
        state.observation(1)["legal"]
        == texts(state)
        == [
            "claim exposed_card new_deal",
            "claim exposed_card play_on",
        ]
    )
