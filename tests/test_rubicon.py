"""Rubicon bezique (the Portland Club's four-pack game), played from stacked decks.

R-numbers are the bibliography's numbered points of Rubicon, R-C numbers its conflicts and
A-numbers its readings (``bezique sources R18``).  Conventions: seat 1 deals, so
seat 0 leads; seat 1 holds low cards of spades, diamonds and clubs (``JUNK``) and plays a
card of another suit than the one led, so seat 0 wins every trick it leads with hearts
(or with any card while no trump exists).  Seat 0 draws first: the stock's cards at even
places are his, at odd places seat 1's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bezique.commands.cli import main
from bezique.game import GameState
from bezique.plugins.rubicon import brisques_counted, settle
from bezique.records.record import load_record, replay
from bezique.testing import points_by_rule, random_conformance, refuse, scenario
from bezique.variant import load_variant

JUNK = ["7S", "8S", "9S", "7D", "8D", "9D", "7C", "8C", "9C"]
"""Seat 1's hand: no heart, no ace or ten, no combination (a carte blanche, though)."""
HEARTS = ["8H", "7S", "9H", "8S", "7H", "9S", "8H", "7D", "9H", "8D", "7H", "9D"]
"""Seat 0 draws low hearts to lead, seat 1 more junk."""
SUITS = "SHDC"


def game(
    hand: Sequence[str],
    variant: str = "rubicon",
    stock: Sequence[str] = HEARTS,
    overrides: Mapping[str, Any] | None = None,
) -> GameState:
    """Seat 1 deals; seat 0 holds ``hand``, seat 1 the junk."""
    return scenario(variant, hands=[hand, JUNK], stock=stock, dealer=1, overrides=overrides)


def win_trick(state: GameState, lead: str) -> None:
    """Seat 0 leads ``lead``; seat 1 answers with a junk card of another suit; seat 0 wins."""
    assert state.to_act == 0 and state.phase == "play"
    state.apply(f"play {lead}")
    hand = [state.deck.card_text(c) for c in state.hands[1]]
    other = next(c for c in hand if c[1] not in (lead[1], "H"))
    state.apply(f"play {other}")
    assert state.to_act == 0, "seat 0 should have won the trick"


def end_turn(state: GameState) -> None:
    """Seat 0 ends his turn and draws (the kernel draws at once when he may declare nothing)."""
    if state.phase == "turn":
        state.apply("draw")
    assert state.phase == "play" and state.to_act == 0


def faces(text: str) -> list[str]:
    """An action text's verb, combination and sorted cards (``*`` kept, not the classes)."""
    verb, *rest = text.split()
    if verb != "declare":
        return [text]
    return [verb, rest[0], *sorted(card[:3] if "*" in card else card for card in rest[1:])]


def declare(state: GameState, text: str) -> None:
    """Apply the legal declaration that names ``text``'s cards (declared ones starred)."""
    found = [t for t in legal(state) if faces(t) == faces(text)]
    assert len(found) == 1, (text, sorted(legal(state)))
    state.apply(found[0])


def legal(state: GameState) -> set[str]:
    return {state.action_text(a) for a in state.legal_actions()}


def scored(state: GameState, seat: int = 0) -> dict[str, int]:
    return points_by_rule(state, seat)


# ---------------------------------------------------------------- trumps (R05, A37)


def test_no_card_is_turned_up_and_the_first_marriage_names_trumps() -> None:
    state = game(["KH", "QH", "KS", "QS", "AS", "TD", "7H", "8C", "9C"])
    assert state.trump == -1 and state.turn_up == -1
    win_trick(state, "7H")
    # Before trumps exist a marriage in any suit is the royal one (R06, F334).
    assert {"declare royal_marriage KH QH", "declare royal_marriage KS QS"} <= legal(state)
    assert not any(t.startswith("declare marriage") for t in legal(state))
    declare(state, "declare royal_marriage KH QH")
    assert state.trump == SUITS.index("H")
    assert scored(state) == {"royal_marriage": 40}
    end_turn(state)
    win_trick(state, "8H")
    assert "declare royal_marriage KS QS" not in legal(state)
    declare(state, "declare marriage KS QS")
    assert scored(state) == {"royal_marriage": 40, "marriage": 20}


def test_a_sequence_before_any_marriage_names_trumps() -> None:
    state = game(["AH", "TH", "KH", "QH", "JH", "AS", "7H", "8C", "9C"])
    win_trick(state, "7H")
    declare(state, "declare sequence AH TH KH QH JH")
    assert state.trump == SUITS.index("H")
    assert scored(state) == {"sequence": 250}


def test_under_the_first_marriage_only_reading_no_sequence_comes_first() -> None:
    state = game(["AH", "TH", "KH", "QH", "JH", "AS", "7H", "8C", "9C"], "rubicon-marriage-trumps")
    win_trick(state, "7H")
    assert "declare royal_marriage KH QH" in legal(state)
    assert not any(t.startswith("declare sequence") for t in legal(state))
    refuse(state, "declare sequence AH TH KH QH JH")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare sequence AH TH KH* QH* JH")  # 250 on the marriage, as ever
    assert scored(state) == {"royal_marriage": 40, "sequence": 250}


def test_a_bezique_and_a_quartet_score_before_trumps_exist() -> None:
    state = game(["QS", "JD", "AS", "AS", "AH", "AC", "7H", "8H", "9C"])
    win_trick(state, "7H")
    declare(state, "declare bezique QS JD")
    assert state.trump == -1
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare four_aces AS AS AH AC")
    assert state.trump == -1
    assert scored(state) == {"bezique": 40, "four_aces": 100}


def test_one_combination_scores_for_each_trick_won() -> None:
    state = game(["QS", "JD", "AS", "AS", "AH", "AC", "7H", "8H", "9C"])
    win_trick(state, "7H")
    declare(state, "declare bezique QS JD")
    error = refuse(state, "declare four_aces AS AS AH AC")
    assert "only one combination may be scored for each trick won" in str(error)


def test_the_plain_suit_sequence_scores_150() -> None:
    state = game(["KH", "QH", "AS", "TS", "KS", "QS", "JS", "7H", "8C"])
    win_trick(state, "7H")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare plain_sequence AS TS KS QS JS")
    assert scored(state) == {"royal_marriage": 40, "plain_sequence": 150}


# ---------------------------------------------------------------- carte blanche (R09, R-C1)

BLANK = ["AS", "TS", "9S", "AH", "TH", "9H", "AD", "TD", "7H"]
"""No king, queen or knave."""
BLANK_STOCK = ["8H", "JS", "9H", "8S", "KH", "9S", "7H", "7D", "9H", "8D"]
"""Seat 0 draws 8H, 9H (carte blanche again twice), then KH (it stops), then 7H, 9H;
seat 1's first draw is a knave, which stops his."""


ANNOUNCE = "declare carte_blanche"


def shown(state: GameState) -> list[str]:
    """The cards shown (exposed) in the seats' hands, as text, sorted."""
    return sorted(
        state.deck.card_text(c) for hand in state.hands for c in hand if (state.exposed >> c) & 1
    )


def test_a_blank_hand_may_be_announced_before_its_first_card_and_then_shows_and_scores() -> None:
    state = game(BLANK, stock=BLANK_STOCK)
    assert state.events == [] and shown(state) == []  # nothing scores of itself (F334, A19)
    assert ANNOUNCE in legal(state)  # seat 0 leads: before the first card is played
    state.apply(ANNOUNCE)
    assert scored(state) == {"carte_blanche": 50} and scored(state, 1) == {}
    assert shown(state) == sorted(BLANK)
    assert ANNOUNCE not in legal(state)  # once
    error = refuse(state, ANNOUNCE)
    assert error.rule == "carte_blanche" and "has shown his carte blanche" in str(error)
    state.apply("play 7H")
    assert ANNOUNCE in legal(state)  # seat 1, blank too, before his own first card
    state.apply("declare carte_blanche")
    assert scored(state, 1) == {"carte_blanche": 50}
    assert shown(state) == sorted([c for c in BLANK if c != "7H"] + JUNK)


def test_a_carte_blanche_declined_by_playing_scores_nothing_and_shows_nothing() -> None:
    state = game(BLANK, stock=BLANK_STOCK)
    state.apply("play 7H")  # seat 0 declines by playing
    state.apply("play 7S")  # seat 1 too
    assert state.events == [] and shown(state) == []
    end_turn(state)
    assert ANNOUNCE not in legal(state)  # never offered again, not even for 8H drawn
    error = refuse(state, ANNOUNCE)
    assert error.rule == "carte_blanche"
    assert "before the holder plays his first card of the hand" in str(error)
    for lead in ["9H", "8H"]:
        win_trick(state, lead)
        end_turn(state)
    assert scored(state) == {} and shown(state) == []


def test_a_hand_with_a_court_card_is_refused_the_announcement_in_the_rules_words() -> None:
    state = game(["KH", *BLANK[1:]], stock=BLANK_STOCK)
    assert ANNOUNCE not in legal(state)
    error = refuse(state, ANNOUNCE)
    assert error.rule == "carte_blanche"
    assert "without a card of the ranks K, Q, J" in str(error) and "holds KH" in str(error)


def test_the_announcement_is_refused_in_the_winners_turn() -> None:
    state = game(["AS", "AH", "AD", "AC", "TS", "9S", "TD", "7H", "9H"], stock=BLANK_STOCK)
    state.apply(ANNOUNCE)
    win_trick(state, "7H")
    end_turn(state)  # 8H drawn: offered before his next card, not in a turn
    win_trick(state, "9H")  # declined by playing; four aces to declare: a turn
    assert state.phase == "turn"
    error = refuse(state, ANNOUNCE)
    assert error.rule == "carte_blanche" and "when he is to play a card" in str(error)


def test_carte_blanche_is_announced_again_for_each_blank_card_drawn_until_a_court_card() -> None:
    state = game(BLANK, stock=BLANK_STOCK)
    state.apply(ANNOUNCE)
    drawn_offers = []
    for lead in ["7H", "9H", "8H", "TH", "AH"]:
        win_trick(state, lead)
        end_turn(state)
        drawn_offers.append(ANNOUNCE in legal(state))
        if drawn_offers[-1]:
            state.apply(ANNOUNCE)
    # 8H and 9H keep the hand blank, KH ends it; the 7H and 9H drawn after are not offered.
    assert drawn_offers == [True, True, False, False, False]
    assert [e.detail for e in state.events if e.rule == "carte_blanche.drawn"] == ["8H", "9H"]
    # Brisques won on the way do not score until the game's end (R18).
    assert scored(state) == {"carte_blanche": 50, "carte_blanche.drawn": 100}
    assert scored(state, 1) == {}  # seat 1 never announced his


def test_a_drawn_card_declined_scores_nothing_and_the_next_is_offered_again() -> None:
    state = game(BLANK, stock=BLANK_STOCK)
    state.apply(ANNOUNCE)
    win_trick(state, "7H")
    end_turn(state)
    assert ANNOUNCE in legal(state)  # 8H drawn
    win_trick(state, "9H")  # declined by playing; 9H drawn
    end_turn(state)
    assert ANNOUNCE in legal(state)
    state.apply(ANNOUNCE)
    assert [e.detail for e in state.events if e.rule == "carte_blanche.drawn"] == ["9H"]
    assert "8H" not in shown(state) and "9H" in shown(state)


def test_the_opponent_is_offered_a_drawn_card_before_his_next_card() -> None:
    # Seat 1 (blank: JUNK) announces at his first card; he then draws 8S (blank), offered
    # when he is next to play, after seat 0's lead.
    stock = ["8H", "8S", "9H", "JS", "7H", "9S"]
    state = game(BLANK, stock=stock)
    state.apply("play 7H")
    state.apply(ANNOUNCE)
    state.apply("play 7S")
    end_turn(state)
    assert ANNOUNCE not in legal(state)  # seat 0 declined at the deal: no repeat for him
    state.apply("play 8H")
    assert ANNOUNCE in legal(state)
    state.apply(ANNOUNCE)
    assert [(e.player, e.points, e.detail) for e in state.events] == [
        (1, 50, " ".join(JUNK)),
        (1, 50, "8S"),
    ]


def test_carte_blanche_once_is_announced_only_at_the_deal() -> None:
    state = game(BLANK, "rubicon-carte-blanche-once", stock=BLANK_STOCK)
    state.apply(ANNOUNCE)
    for lead in ["7H", "9H", "8H"]:
        win_trick(state, lead)
        end_turn(state)
        assert ANNOUNCE not in legal(state)
    assert scored(state) == {"carte_blanche": 50}


def test_under_s4s_reading_aces_and_tens_spoil_a_carte_blanche() -> None:
    state = game(BLANK, "rubicon-carte-blanche-aces", stock=BLANK_STOCK)
    assert ANNOUNCE not in legal(state)
    assert "without a card of the ranks A, T, K, Q, J" in str(refuse(state, ANNOUNCE))
    state.apply("play 7H")
    state.apply(ANNOUNCE)  # seat 1's sevens, eights and nines are blank even so
    assert scored(state) == {} and scored(state, 1) == {"carte_blanche": 50}


def test_carte_blanche_from_the_opponent_takes_the_points_from_him_each_time() -> None:
    state = game(BLANK, stock=BLANK_STOCK, overrides={"carte_blanche": {"from_opponent": True}})
    state.apply(ANNOUNCE)
    win_trick(state, "7H")
    end_turn(state)
    state.apply(ANNOUNCE)
    assert scored(state) == {"carte_blanche": 50, "carte_blanche.drawn": 50}
    assert scored(state, 1) == {"carte_blanche.from_opponent": -100}
    assert state.scores == [100, -100]


def test_the_announcement_round_trips_through_text_ids_records_and_saved_states() -> None:
    from bezique.game import from_json
    from bezique.records.record import record_of

    state = game(BLANK, stock=BLANK_STOCK)
    action = state.parse_action(ANNOUNCE)
    assert state.action_text(action) == ANNOUNCE and action in state.legal_actions()
    ids = state.legal_action_ids()
    assert len(set(ids)) == len(ids)
    state.apply(action)
    win_trick(state, "7H")
    end_turn(state)
    state.apply(ANNOUNCE)
    copy = from_json(json.loads(json.dumps(state.to_json())))
    assert copy == state and copy.events == state.events
    again = replay(json.loads(json.dumps(record_of(state))), "record")
    assert again.events == state.events


# ---------------------------------------------------------------- re-forming (R16, R-C4, R-C5)


def test_four_aces_form_again_with_a_fifth_once_one_is_played_away() -> None:
    state = game(["AS", "AS", "AH", "AC", "AD", "7H", "QS", "JD", "KD"])
    win_trick(state, "7H")
    declare(state, "declare four_aces AS AS AH AC")
    end_turn(state)
    win_trick(state, "8H")  # the four is whole: no four with the fifth ace yet
    assert legal(state) == {"declare bezique QS JD", "draw"}
    end_turn(state)
    win_trick(state, "AH*")  # a declared ace played away breaks the four
    declare(state, "declare four_aces AS* AS* AC* AD")
    assert scored(state) == {"four_aces": 200}


MARRIED_AND_FOUR = ["KH", "QH", "KH", "KS", "KD", "KC", "7H", "QS", "JD"]
"""A royal marriage, then four kings with the other king of hearts (and a bezique kept, so
that the turn after the married king is played away opens)."""


def _widowed(variant: str) -> GameState:
    """Royal marriage KH QH, four kings with the other KH, then the married king played."""
    state = game(MARRIED_AND_FOUR, variant)
    win_trick(state, "7H")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare four_kings KH KS KD KC")
    end_turn(state)
    married = next(t for t in legal(state) if t.startswith("play KH") and "marriages" in t)
    state.apply(married)
    state.apply("play 7S")
    assert state.to_act == 0 and state.phase == "turn"
    return state


def test_a_widowed_queen_may_not_marry_a_declared_king_without_a_new_card() -> None:
    state = _widowed("rubicon")
    assert not any(t.startswith("declare royal_marriage") for t in legal(state))
    error = refuse(state, "declare royal_marriage KH* QH*")
    assert "at least one card never declared before" in str(error)


def test_wk_r_re_pairs_declared_cards_without_a_card_from_the_hand() -> None:
    state = _widowed("rubicon-repair")
    declare(state, "declare royal_marriage KH* QH*")
    assert scored(state) == {"royal_marriage": 80, "four_kings": 80}


TWO_COUPLES = ["KH", "QH", "KH", "QH", "7H", "QS", "JD", "9C", "8C"]
"""Two royal marriages of hearts (a bezique kept, so that the turns open)."""


def _a_couple_and_a_widower(variant: str) -> GameState:
    """Royal marriage KH QH twice, then one of the married queens played away.

    One king is widowed; the other king and queen are still a marriage, both unplayed.
    """
    state = game(TWO_COUPLES, variant)
    win_trick(state, "7H")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "QH*")
    assert state.phase == "turn" and scored(state) == {"royal_marriage": 80}
    return state


def test_a_married_queen_may_not_leave_her_king_for_a_widower_a24() -> None:
    # F334 and S0 (A23) with Grand's widow rule (A24): her king is unplayed, so a
    # second husband is bigamy, and it would bring no card from the hand besides.
    state = _a_couple_and_a_widower("rubicon")
    assert legal(state) == {"declare bezique QS JD", "draw"}
    error = refuse(state, "declare royal_marriage KH* QH*")
    assert "bigamy" in str(error) and "A24" in str(error)


def test_wk_r_lets_a_married_queen_leave_her_king_for_a_widower() -> None:
    # WK-R (R-C4): a partner is taken from a marriage on the table to marry the
    # widowed king, with no card from the hand; the royal marriage scores 40 again.
    state = _a_couple_and_a_widower("rubicon-repair")
    assert legal(state) == {"declare royal_marriage KH* QH*", "declare bezique QS JD", "draw"}
    declare(state, "declare royal_marriage KH* QH*")
    assert scored(state) == {"royal_marriage": 120}
    # The queen is now married to both kings, none of the three played: no widow is
    # left, so after the next trick neither king may marry her again.
    end_turn(state)
    win_trick(state, "9H")
    assert not any("marriage" in t for t in legal(state))
    error = refuse(state, "declare royal_marriage KH* QH*")
    assert "bigamy" in str(error) and "A24" in str(error)


@pytest.mark.parametrize("variant", ["rubicon", "rubicon-repair"])
def test_the_widower_still_marries_a_queen_from_the_hand(variant: str) -> None:
    hand = ["KH", "QH", "KH", "QH", "QH", "7H", "QS", "JD", "9C"]
    state = game(hand, variant)
    win_trick(state, "7H")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "QH*")
    assert "declare royal_marriage KH* QH" in legal(state)  # the widow rule (A24)
    declare(state, "declare royal_marriage KH* QH")
    assert scored(state) == {"royal_marriage": 120}


def test_a_married_queen_joins_a_sequence_unless_wk_r_bars_it() -> None:
    hand = ["AH", "TH", "KH", "QH", "JH", "7H", "QS", "JD", "9C"]  # the bezique keeps the turn open
    state = game(hand)
    win_trick(state, "7H")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare sequence AH TH KH* QH* JH")
    assert scored(state) == {"royal_marriage": 40, "sequence": 250}
    barred = game(hand, "rubicon-married-queen")
    win_trick(barred, "7H")
    declare(barred, "declare royal_marriage KH QH")
    end_turn(barred)
    win_trick(barred, "8H")
    assert not any(t.startswith("declare sequence") for t in legal(barred))
    error = refuse(barred, "declare sequence AH TH KH* QH* JH")
    assert "joins no sequence" in str(error) and "R-C5" in str(error)


def test_wk_r_bars_a_once_married_queen_from_a_sequence_after_her_king_is_played() -> None:
    hand = ["AH", "TH", "KH", "QH", "JH", "KH", "7H", "QS", "JD"]
    state = game(hand, "rubicon-married-queen")
    win_trick(state, "7H")
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    married = next(t for t in legal(state) if t.startswith("play KH*"))
    win_trick(state, married.removeprefix("play "))  # the marriage is broken
    assert not any(t.startswith("declare sequence") for t in legal(state))
    error = refuse(state, "declare sequence AH TH KH QH* JH")
    assert "joins no sequence" in str(error)
    plain = game(hand)
    win_trick(plain, "7H")
    declare(plain, "declare royal_marriage KH QH")
    end_turn(plain)
    married = next(t for t in legal(plain) if t.startswith("play KH*"))
    win_trick(plain, married.removeprefix("play "))
    declare(plain, "declare sequence AH TH KH QH* JH")
    assert scored(plain) == {"royal_marriage": 40, "sequence": 250}


def test_a_broken_sequence_forms_again_but_gives_no_lower_marriage() -> None:
    # F334 (R14): a card never scores again in a lower combination of its class; R16
    # lets the sequence itself be formed again with a new king for the one played away.
    hand = ["AH", "TH", "KH", "QH", "JH", "KH", "7H", "QS", "JD"]
    state = game(hand)
    win_trick(state, "7H")
    declare(state, "declare sequence AH TH KH QH JH")
    end_turn(state)
    king = next(t for t in legal(state) if t.startswith("play KH*"))
    win_trick(state, king.removeprefix("play "))
    assert "declare royal_marriage KH QH*" not in {t.split("*")[0] for t in legal(state)}
    assert not any(t.startswith("declare royal_marriage") for t in legal(state))
    error = refuse(state, "declare royal_marriage KH QH*")
    assert "never scores again in a lower one of its class" in str(error)
    declare(state, "declare sequence AH* TH* KH QH* JH*")
    assert scored(state) == {"sequence": 500}


# ---------------------------------------------------------------- the bezique ladder (R12, A15)

FOUR_PAIRS = ["QS", "JD", "QS", "JD", "QS", "JD", "QS", "JD", "7H"]


def _ladder_in_steps(overrides: Mapping[str, Any] | None = None) -> GameState:
    state = game(FOUR_PAIRS, overrides=overrides)
    steps = [
        "declare bezique QS JD",
        "declare double_bezique JD* JD QS* QS",
        "declare triple_bezique JD* JD* JD QS* QS* QS",
        "declare quadruple_bezique JD* JD* JD* JD QS* QS* QS* QS",
    ]
    for lead, step in zip(["7H", "8H", "9H", "7H"], steps, strict=True):
        win_trick(state, lead)
        declare(state, step)
        end_turn(state)
    return state


def test_the_bezique_ladder_built_up_in_steps_adds_each_level_in_full() -> None:
    assert scored(_ladder_in_steps()) == {
        "bezique": 40,
        "double_bezique": 500,
        "triple_bezique": 1500,
        "quadruple_bezique": 4500,
    }


def test_the_bezique_ladder_by_difference_scores_each_level_less_the_one_below() -> None:
    state = _ladder_in_steps({"declarations": {"bezique_ladder": "difference"}})
    assert scored(state) == {
        "bezique": 40,
        "double_bezique": 500,
        "triple_bezique": 1000,
        "quadruple_bezique": 3000,
    }


def test_quadruple_bezique_declared_at_once_scores_4500_only() -> None:
    state = game(FOUR_PAIRS)
    win_trick(state, "7H")
    declare(state, "declare quadruple_bezique QS QS QS QS JD JD JD JD")
    assert scored(state) == {"quadruple_bezique": 4500}


def test_four_tens_score_only_by_agreement() -> None:
    hand = ["TS", "TS", "TH", "TC", "7H", "8C", "QS", "JD", "8D"]  # the bezique opens the turn
    plain = game(hand)
    win_trick(plain, "7H")
    assert legal(plain) == {"declare bezique QS JD", "draw"}
    agreed = game(hand, "rubicon-four-tens")
    win_trick(agreed, "7H")
    declare(agreed, "declare four_tens TS TS TH TC")
    assert scored(agreed) == {"four_tens": 90}


# ---------------------------------------------------------------- the game's end (R17-R24)


def _finished(variant: str, seed: int) -> GameState:
    from bezique.game import new_game

    state = new_game(variant, seed=seed)
    state.playout(random.Random(seed))
    return state


def test_the_last_trick_of_all_scores_50_and_one_deal_is_the_game() -> None:
    state = _finished("rubicon", 7)
    assert state.is_over() and state.hand_no == 0
    last = [(e.player, e.points) for e in state.events if e.rule == "last_trick"]
    assert last == [(state.last_trick_winner, 50)]
    # 128 cards (R01): 110 in the stock, 55 tricks drawn after, then nine more (R03).
    assert sum(len(w) for w in state.won) == 128


BIC_R = load_variant("rubicon").data["rubicon"]


def _settled(winner: int, loser: int, counted: int = 0, **changes: Any) -> int:
    """The winner's settled score under the BIC-R section, with ``changes``."""
    rules = {**BIC_R, **changes}
    result = settle(winner, loser, counted, rules)
    return winner + sum(points for points, _, _ in result.winner_events)


def test_the_settlement_without_a_rubicon_takes_the_loser_off_and_adds_500() -> None:
    assert _settled(2350, 1220) == 1600  # 2350 - 1220 + 500 = 1630, fractions dropped


def test_a_rubicon_adds_the_losers_total_1000_and_320_for_the_brisques() -> None:
    assert _settled(2350, 880) == 4500  # 2350 + 880 + 1000 + 320 = 4550
    # SPEC: about 7000 with the loser's points, then thirteen hundred for the game.
    assert _settled(6100, 900) == 8300


def test_the_fm_and_par_rubicon_adds_no_320() -> None:
    no_bonus = load_variant("rubicon-no-brisques-bonus").data["rubicon"]
    assert _settled(2350, 880, brisques_bonus=no_bonus["brisques_bonus"]) == 4200


def test_rounding_each_total_first_then_the_final_score() -> None:
    stage = load_variant("rubicon-round-totals").data["rubicon"]["rounding"]
    assert _settled(2350, 1220, rounding=stage) == 1600  # 2300 - 1200 + 500
    assert _settled(2350, 880, rounding=stage) == 4400  # 2300 + 800 + 1000 + 320, dropped again


def test_brisques_count_only_to_break_a_tie_or_to_save_a_rubicon() -> None:
    assert not brisques_counted([1500, 1020], [240, 80], 1000)  # no one is rubiconed
    assert not brisques_counted([1500, 900], [240, 80], 1000)  # 980: still rubiconed
    assert brisques_counted([1500, 940], [240, 80], 1000)  # 1020: saved
    assert brisques_counted([1200, 1200], [150, 170], 1000)  # a tie
    # Saved: both count them, 1740 against 1020: 1740 - 1020 + 500 = 1220.
    assert _settled(1740, 1020, 320) == 1200
    # A tie broken by the brisques, 1370 against 1350: 520.
    assert _settled(1370, 1350, 320) == 500


def test_the_320_replaces_brisques_counted_for_a_tie_that_leaves_a_rubicon() -> None:
    # 800 each; brisques 100 and 60 counted: 900 against 860, rubiconed (A22b).
    assert _settled(900, 860, 160) == 2900  # 900 + 860 + 1000 + 320 - 160 = 2920


def _worked(w0: int, l0: int, wb: int, lb: int, section: dict[str, Any]) -> tuple[int, str]:
    """The winner's settled score and the branch taken, worked out from the BIC-R text.

    Totals ``w0`` >= ``l0`` before brisques, and each side's brisque points.
    """
    line, step = section["line"], section["rounding"]["to"]
    counted = w0 == l0 or l0 < line <= l0 + lb
    hi, lo = (w0 + wb, l0 + lb) if counted else (w0, l0)
    hi, lo = max(hi, lo), min(hi, lo)
    if hi == lo:
        return 0, "drawn"
    rubiconed = lo < line
    if section["rounding"]["stage"] == "totals":
        hi, lo = hi - hi % step, lo - lo % step
    if rubiconed:
        bonus = section["brisques_bonus"] - (
            wb + lb if counted and section["brisques_bonus"] else 0
        )
        total = hi + lo + section["rubicon_bonus"] + bonus
        branch = "rubicon"
    else:
        total, branch = hi - lo + section["game_bonus"], "saved" if counted else "game"
    return (total - total % step if total - total % step > 0 else total), branch


@pytest.mark.parametrize(
    "variant", ["rubicon", "rubicon-no-brisques-bonus", "rubicon-round-totals"]
)
def test_finished_games_settle_as_the_rule_reads_on_every_branch(variant: str) -> None:
    # Random players score little (a hundred or two), so a line of 150 makes games of
    # every kind: rubiconed, clear of the line, and saved by the brisques.
    from bezique.game import new_game

    line = {"rubicon": {"line": 150}}
    section = {**load_variant(variant).data["rubicon"], "line": 150}
    branches: set[str] = set()
    for seed in range(40):
        state = new_game(variant, seed=seed, overrides=line)
        state.playout(random.Random(seed))
        before = [0, 0]
        for event in state.events:
            if not event.rule.startswith("rubicon.") and event.rule != "brisques":
                before[event.player] += event.points
        brisques = [10 * sum(state.deck.card_text(c)[0] in "AT" for c in won) for won in state.won]
        high = 0 if before[0] >= before[1] else 1
        total, branch = _worked(
            before[high], before[1 - high], brisques[high], brisques[1 - high], section
        )
        branches.add(branch)
        if branch == "drawn":
            assert state.winner == -1
            continue
        assert state.scores[state.winner] == total and state.scores[1 - state.winner] == 0
        counted = [e.points for e in state.events if e.rule == "brisques"]
        assert counted == (
            [b for b in brisques if b] if branch == "saved" or before[0] == before[1] else []
        )
    assert {"rubicon", "game", "saved"} <= branches


def test_a_rubicon_variant_for_three_players_is_refused() -> None:
    from bezique.errors import BeziqueError

    with pytest.raises(BeziqueError, match="two players"):
        scenario("rubicon", hands=[JUNK, JUNK, JUNK], overrides={"players": 3})


@pytest.mark.slow
def test_random_games_keep_every_invariant() -> None:
    # The house-rule files play 40 deals each in test_presets_and_options.py.
    assert random_conformance("rubicon", hands=300, seed=13) >= 300


# ---------------------------------------------------------------- six-pack (S01-S17)

JUNK12 = [*JUNK, "7S", "7D", "7C"]
"""Seat 1's twelve cards: no heart, ace, ten or combination."""


def six(hand: Sequence[str], variant: str = "six-pack") -> GameState:
    return scenario(variant, hands=[hand, JUNK12], stock=HEARTS, dealer=1)


def test_six_pack_fours_in_trumps_wait_for_trumps_then_score_1000() -> None:
    hand = ["AH", "AH", "AH", "AH", "KH", "QH", "7H", "QS", "JD", "7D", "8D", "9D"]
    state = six(hand)
    win_trick(state, "7H")
    assert not any(t.startswith("declare four_trump_aces") for t in legal(state))
    declare(state, "declare royal_marriage KH QH")
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare four_trump_aces AH AH AH AH")
    assert scored(state) == {"royal_marriage": 40, "four_trump_aces": 1000}
    # The four in trumps is the higher four of the class: the same aces are not then
    # four aces of any suit (A17): the next turn offers only the bezique.
    end_turn(state)
    win_trick(state, "9H")
    assert legal(state) == {"declare bezique QS JD", "draw"}


def test_six_pack_carte_blanche_scores_250_at_the_deal_and_for_each_blank_draw() -> None:
    hand = ["AS", "TS", "9S", "AH", "TH", "9H", "AD", "TD", "7H", "8H", "9C", "8C"]
    state = scenario("six-pack", hands=[hand, JUNK12], stock=BLANK_STOCK, dealer=1)
    state.apply(ANNOUNCE)
    win_trick(state, "7H")
    end_turn(state)
    state.apply(ANNOUNCE)
    assert scored(state) == {"carte_blanche": 250, "carte_blanche.drawn": 250}


def test_six_pack_trump_bezique_pairs_the_queen_of_trumps_with_the_other_colour() -> None:
    hand = ["QH", "JC", "QS", "JD", "KH", "7H", "8C", "9C", "7D", "8D", "9D", "AS"]
    fixed = six(hand)
    win_trick(fixed, "7H")
    assert "declare bezique QS JD" in legal(fixed)
    paired = six(hand, "six-pack-trump-bezique")
    win_trick(paired, "7H")
    assert not any("bezique" in t for t in legal(paired))  # no trumps, no bezique pair
    declare(paired, "declare royal_marriage KH QH")
    end_turn(paired)
    win_trick(paired, "8H")
    assert "declare bezique QS JD" not in legal(paired)
    declare(paired, "declare bezique QH* JC")
    assert scored(paired) == {"royal_marriage": 40, "bezique": 40}


def test_six_pack_settles_with_1000_for_the_game_and_a_rubicon_under_3000() -> None:
    section = load_variant("six-pack").data["rubicon"]
    no_rubicon = settle(5230, 3110, 0, section)
    assert not no_rubicon.rubiconed
    assert 5230 + sum(p for p, _, _ in no_rubicon.winner_events) == 3100  # 5230-3110+1000
    rubicon = settle(5230, 2990, 0, section)
    assert rubicon.rubiconed
    assert 5230 + sum(p for p, _, _ in rubicon.winner_events) == 9700  # 5230+2990+1500


def test_six_pack_last_trick_scores_250_and_no_brisque_counts() -> None:
    state = _finished("six-pack", 3)
    assert [(e.player, e.points) for e in state.events if e.rule == "last_trick"] == [
        (state.last_trick_winner, 250)
    ]
    assert not [e for e in state.events if e.rule == "brisques"]
    assert sum(len(w) for w in state.won) == 192


@pytest.mark.slow
def test_six_pack_random_games_keep_every_invariant() -> None:
    assert random_conformance("six-pack", hands=300, seed=17) >= 300


def test_equal_totals_after_the_brisques_make_a_drawn_game_with_no_bonus() -> None:
    from bezique.engine.state import DRAWN_GAME

    state = game(["KH", "QH", "KS", "QS", "AS", "TD", "7H", "8C", "9C"])
    state.scores[:] = [1250, 1250]  # as if the hand were played out, no brisque won
    assert state.rules.game_winner(state, False) == -1  # one deal: decided at its end
    assert state.rules.game_winner(state, True) == DRAWN_GAME
    state._end_hand()  # the kernel's end of a hand: its scores, the winner, the settlement
    assert state.is_over() and state.winner == -1
    assert state.legal_actions() == [] and state.scores == [1250, 1250]
    assert not [e for e in state.events if e.rule.startswith("rubicon.")]


def test_rounding_never_takes_the_winners_whole_score() -> None:
    # R22: fractions go unless they decide the winner; 1250 against 1210 with no game
    # bonus leaves 40, which rounding to the hundred would make a score of nothing.
    assert _settled(1250, 1210, game_bonus=0) == 40
    assert _settled(1250, 1210) == 500


def test_a_carte_blanche_scores_again_for_each_card_of_a_refereed_double_draw() -> None:
    # Seat 0 reported as not having drawn after the first trick takes two cards at the
    # next draw, which the referee carries out: each card drawn is shown and scores (P08).
    stock = ["8H", "JS", "9H", "8S", "7H", "9S", "KH", "7D", "9H", "8D"]
    state = scenario("rubicon", hands=[BLANK, JUNK], stock=stock, dealer=1, referee=True)
    state.apply(ANNOUNCE)
    win_trick(state, "7H")
    state.apply("draw")
    state.apply("irregular played_with_seven 0")
    assert len(state.hands[0]) == 8
    win_trick(state, "9H")
    before = len([e for e in state.events if e.rule == "carte_blanche.drawn"])
    state.apply("draw")
    state.apply(ANNOUNCE)  # both cards drawn are shown, each scoring
    drawn = [e.detail for e in state.events if e.rule == "carte_blanche.drawn"][before:]
    assert drawn == ["8H", "9H"] and len(state.hands[0]) == 9


@pytest.mark.parametrize("variant", ["rubicon", "six-pack"])
def test_the_command_line_simulates_saves_replays_validates_and_benches(
    variant: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    args = ["simulate", "--variant", variant, "--games", "4", "--seed", "5", "--json"]
    assert main([*args, "--save", str(folder)]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["hands_per_game"] == 1.0 and stats["games"] == 4
    for number, path in enumerate(sorted(folder.glob("*.json"))):
        assert main(["replay", str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        state = replay(load_record(path), str(path))
        assert replayed["scores"] == state.scores and replayed["over"]
        assert min(state.scores) == 0 or state.winner == -1, number  # the loser is settled
    assert sum(stats["wins"]) + stats["drawn"] == 4
    file = str(Path(__file__).parent.parent / "variants" / f"{variant}.yaml")
    assert main(["validate", file]) == 0
    assert capsys.readouterr().out == f"{file}: ok\n"
    assert main(["bench", "--variant", variant, "--deals", "2", "--json"]) == 0
    bench = json.loads(capsys.readouterr().out)
    assert bench["variant"] == variant and bench["deals"] == 2 and bench["decisions"] > 0


def test_wk_r_re_pairs_only_a_card_that_has_been_married() -> None:
    # Four kings and four queens on the table: no marriage of theirs without a new
    # card, as neither has been in a marriage (R-C4 is a re-pairing, not a free-for-all).
    hand = ["KH", "KS", "KD", "KC", "QH", "QS", "QD", "QC", "7H"]
    state = game(hand, "rubicon-repair")
    win_trick(state, "7H")
    declare(state, "declare four_kings KH KS KD KC")
    end_turn(state)
    win_trick(state, "8H")
    declare(state, "declare four_queens QH QS QD QC")
    end_turn(state)
    win_trick(state, "9H")
    # Nothing to declare: the kernel drew at once, and seat 0 leads again.
    assert state.phase == "play" and len(state.hands[0]) == 9
    assert all(t.startswith("play") for t in legal(state))


def test_six_pack_lift_asks_the_non_dealer_to_guess_the_packet_before_play() -> None:
    from bezique.game import new_game
    from bezique.plugins.lift import lift_state

    state = new_game("six-pack-lift", seed=4)
    assert state.phase == "question" and state.to_act == 1 - state.dealer
    assert legal(state) == {f"choose lift {n}" for n in range(20, 29)}
    lifted = lift_state(state)
    assert lifted is not None
    state.apply(f"choose lift {lifted.packet}")  # a right guess
    assert state.phase == "play" and len(state.hands[0]) == len(state.hands[1]) == 12
    lift = [(e.player, e.points, e.rule) for e in state.events if e.rule.startswith("lift")]
    exact = [(state.dealer, 250, "lift.exact")] if lifted.packet == 24 else []
    assert sorted(lift) == sorted([*exact, (1 - state.dealer, 150, "lift.guessed")])


def test_the_heuristic_announces_a_carte_blanche_and_the_search_may_choose_it() -> None:
    from bezique.players import decide, player_for

    state = game(BLANK, stock=BLANK_STOCK)
    heuristic = player_for("heuristic")
    assert state.action_text(decide(heuristic, state, random.Random(0))) == ANNOUNCE
    state.apply(ANNOUNCE)
    win_trick(state, "7H")
    end_turn(state)
    assert state.action_text(decide(heuristic, state, random.Random(0))) == ANNOUNCE
    search = player_for("search:iterations=30")
    assert decide(search, state, random.Random(1)) in state.legal_actions()
