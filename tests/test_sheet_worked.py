"""The rule texts' worked examples entered on a score sheet, and the checks at their boundaries.

Each example is the source's own: the cards it names, entered as a player keeps them,
and the totals it gives (S0's 430 and 130 of Polish bezique, its 540 and 500 for a
double bezique built on a single or declared at once) or that its table gives.  Then
the checks a sheet makes beyond the cards' form, each refused and accepted at its
boundary: the one-new-card rule, the bezique ladder, carte blanche taken from the
opponent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from stacked import through_stock

from bezique.errors import BeziqueError, IllegalActionError
from bezique.sheet import Entry, Sheet, SheetError, sheet_text
from bezique.testing import scenario

NEW_CARD = "every declaration needs at least one card never declared before"
CLASS_RULE = "already declared in a combination of the same class"


def score(player: int, name: str, *cards: str, count: int = 1) -> Entry:
    return Entry("score", player, name, cards, count)


HEARTS = Entry("trumps", suit="H")
SPADES = Entry("trumps", suit="S")


def totals(
    variant: str, *entries: Entry, players: int = 2, house: Mapping[str, Any] | None = None
) -> list[int]:
    """The sides' totals of a sheet of ``entries`` under the ``house`` rule's overrides.

    Raise :class:`SheetError` if an entry is refused.
    """
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    return Sheet(variant, names, overrides=house, entries=entries).tally().scores


# ---------------------------------------------------------------------- S0, the ordinary game


def test_s0_knaves_then_bezique_then_queens_scores_all_three() -> None:
    # S0's declaring paragraph: four knaves (one of them the bezique knave), then the
    # bezique, then the queens added for four queens: 40 + 40 + 60 in its table
    assert totals(
        "ordinary",
        HEARTS,
        score(0, "four knaves", "JD", "JC", "JH", "JS"),
        score(0, "bezique", "QS", "JD"),
        score(0, "four queens", "QS", "QC", "QH", "QD"),
    ) == [140, 0]


def test_s0_a_bezique_of_cards_all_declared_before_is_refused_one_new_copy_lets_it_stand() -> None:
    # S0: once both quartets are declared, their knave and queen of the bezique may not
    # form it (no card of it new).  A sheet that names both copies of each in the
    # quartets leaves no new copy, so the bezique is refused ...
    both = (
        HEARTS,
        score(0, "four knaves", "JD", "JD", "JC", "JH"),
        score(0, "four queens", "QS", "QS", "QC", "QH"),
    )
    with pytest.raises(SheetError, match=rf"entries\[3\]: {NEW_CARD} \(declarations.new_card"):
        totals("ordinary", *both, score(0, "bezique", "QS", "JD"))
    # ... while with one knave of diamonds in the quartet the other may be the new card
    one = (HEARTS, score(0, "four knaves", "JD", "JC", "JH", "JS"), both[2])
    assert totals("ordinary", *one, score(0, "bezique", "QS", "JD")) == [140, 0]
    # a house rule without the rule scores it
    house = {"declarations": {"new_card_required": False}}
    assert totals("ordinary", *both, score(0, "bezique", "QS", "JD"), house=house) == [140, 0]


def test_the_new_card_rule_is_not_checked_where_a_combination_may_be_scored_later() -> None:
    # Rubicon scores one combination a trick, the others announced and scored later
    # with cards that may all be declared by then (F334): the sheet cannot tell, so it
    # does not refuse
    assert totals(
        "rubicon",
        HEARTS,
        score(0, "four knaves", "JD", "JD", "JC", "JH"),
        score(0, "four queens", "QS", "QS", "QC", "QH"),
        score(0, "bezique", "QS", "JD"),
    ) == [140, 0]


def test_s0_marriage_before_sequence_scores_both_but_not_after_it() -> None:
    # S0: the royal marriage first, then the other sequence cards added: 40 + 250
    assert totals(
        "ordinary",
        HEARTS,
        score(0, "royal marriage", "KH", "QH"),
        score(0, "sequence", "AH", "TH", "KH", "QH", "JH"),
    ) == [290, 0]
    # a sequence's king and queen may not then be married (both copies in sequences)
    with pytest.raises(SheetError, match=rf"entries\[3\]: KH was {CLASS_RULE}"):
        totals(
            "ordinary",
            HEARTS,
            score(0, "sequence", "AH", "TH", "KH", "QH", "JH"),
            score(0, "sequence", "AH", "TH", "KH", "QH", "JH"),
            score(0, "royal marriage", "KH", "QH"),
        )


def test_s0_the_bezique_queen_in_a_bezique_a_marriage_and_four_queens() -> None:
    # S0: the queen of spades may serve in each class once: 40 + 20 (spades not
    # trumps) + 60
    assert totals(
        "ordinary",
        HEARTS,
        score(0, "bezique", "QS", "JD"),
        score(0, "marriage", "KS", "QS"),
        score(0, "four queens", "QS", "QC", "QH", "QD"),
    ) == [120, 0]


def test_s0_a_double_bezique_added_to_a_single_scores_500_more_at_once_500() -> None:
    # S0 footnote 3: 500 on top of the single's 40; all four at once, 500 only
    single = score(0, "bezique", "QS", "JD")
    assert totals("ordinary", single, score(0, "double bezique", "QS", "QS", "JD", "JD")) == [
        540,
        0,
    ]
    assert totals("ordinary", score(0, "double bezique", "QS", "QS", "JD", "JD")) == [500, 0]


def test_s0_the_seven_of_trumps_turned_up_scores_for_the_dealer() -> None:
    # S0's table: 10 to the dealer for a seven turned up, 10 for one exchanged
    assert totals(
        "ordinary",
        score(1, "seven of trumps turned up"),
        score(0, "seven of trumps exchanged for the turn-up"),
    ) == [10, 10]


# ---------------------------------------------------------------------- the bezique ladder


def test_a_triple_bezique_built_on_a_double_scores_as_the_ladder_says() -> None:
    # S0 three-hand: the triple scores 1500.  Built on a double (500), the variant's
    # ladder adds 1500 more (additive, three-hand's file) or makes 1500 in all: the
    # difference, 1000 more (a house rule)
    double = score(0, "double bezique", "QS", "QS", "JD", "JD")
    triple = score(0, "triple bezique", "QS", "QS", "QS", "JD", "JD", "JD")
    assert totals("three-hand", double, triple, players=3) == [2000, 0, 0]
    difference = {"declarations": {"bezique_ladder": "difference"}}
    assert totals("three-hand", double, triple, players=3, house=difference) == [1500, 0, 0]
    # built on a single only, nothing is taken off (S0 footnote 3: the single is not)
    single = score(0, "bezique", "QS", "JD")
    assert totals("three-hand", single, triple, players=3, house=difference) == [1540, 0, 0]
    # nor declared at once
    assert totals("three-hand", triple, players=3, house=difference) == [1500, 0, 0]
    # without the cards the sheet cannot tell what the triple was built on: its table's
    bare = totals("three-hand", score(0, "double bezique"), score(0, "triple bezique"), players=3)
    assert bare == [2000, 0, 0]


def three_hand_doubles(*declarations: str) -> tuple[list[int], str]:
    """The game's bezique scores once seat 1 declares a double, then ``declarations``.

    Seat 1 holds three queens of spades and three knaves of diamonds and wins every
    trick with an ace of hearts (trumps), declaring the double after the first and
    each of ``declarations`` after one more; the text of the first refused, if any.
    """
    low = ["7C", "8C", "9C", "7D", "8D", "9D", "7S", "8S"]
    hand = ["QS", "QS", "QS", "JD", "JD", "JD", "AH", "AH"]
    stock = ["AH", "KD", "KS", "KC", "KD", "KS", "KH", "KH", "KH"]
    game = scenario("three-hand", hands=[low, hand, low], turn_up="9H", stock=stock)
    for action in ("play AH", "play 7C", "play 7C", "declare double_bezique QS QS JD JD"):
        game.apply(action)
    refused = ""
    for low_card, declaration in zip(("8C", "9C"), declarations, strict=False):
        for action in ("draw", "play AH", f"play {low_card}", f"play {low_card}"):
            game.apply(action)
        try:
            game.apply(declaration)
        except IllegalActionError as exc:
            refused = str(exc)
            break
    return [e.points for e in game.events if e.rule.endswith("bezique")], refused


DOUBLE = score(0, "double bezique", "QS", "QS", "JD", "JD")


def test_s0_three_hand_second_double_bezique_is_accepted_as_the_game_plays_it() -> None:
    # S0 three-hand: a double made of a bezique already in a double and a new one
    # scores 500 again.  With three packs only one copy of each card is fresh: the
    # sheet takes the old pair for the rest, as the game does.
    played, refused = three_hand_doubles("declare double_bezique QS QS* JD JD*")
    assert (played, refused) == ([500, 500], "")
    assert totals("three-hand", HEARTS, DOUBLE, DOUBLE, players=3) == [1000, 0, 0]
    # a third double would need a third fresh pair: the packs have none left
    with pytest.raises(SheetError, match=CLASS_RULE):
        totals("three-hand", HEARTS, DOUBLE, DOUBLE, DOUBLE, players=3)
    # the ordinary rules with three packs keep the class rule: the second is refused
    with pytest.raises(SheetError, match=CLASS_RULE):
        totals("ordinary", HEARTS, DOUBLE, DOUBLE, house={"cards": {"packs": 3}})


def test_s0_three_hand_second_double_needs_a_new_bezique_on_the_sheet_as_in_the_game() -> None:
    # The third copies declared as a single bezique first: no new pair is left, so a
    # second double is refused by the game (it offers the winner nothing to declare, and
    # play goes on) and by the sheet
    single = "declare bezique QS JD"
    played, refused = three_hand_doubles(single, "declare double_bezique QS* QS* JD* JD*")
    assert played == [500, 40] and "seat 1 must play a card to the trick" in refused
    bezique = score(0, "bezique", "QS", "JD")
    with pytest.raises(SheetError, match=CLASS_RULE):
        totals("three-hand", HEARTS, DOUBLE, bezique, DOUBLE, players=3)


# ---------------------------------------------------------------------- the last eight tricks


def end_game_turn(variant: str, end1: list[str]) -> list[str]:
    """What seat 1 may do after winning the first trick of the end-game (leading JC).

    Seat 1 wins every trick of the stock (:func:`through_stock`), declaring nothing,
    and holds ``end1`` when the stock is gone; seat 0 follows with the nine of clubs.
    """
    end0 = ["9C", "8C", "7S", "8S", "9S", "7H", "8H", "9D"]
    hands, turn_up, stock, leads, follows = through_stock(end1, end0)
    game = scenario(variant, hands=hands, turn_up=turn_up, stock=stock)
    for lead, follow in zip(leads, follows, strict=True):
        game.apply(f"play {lead}")
        game.apply(f"play {follow}")
        if game.phase == "turn":  # combinations and sevens left alone
            game.apply("draw")
    assert game.stock_left() == 0
    game.apply("play JC")
    game.apply("play 9C")
    return [game.action_text(a) for a in game.legal_actions()]


def test_declarations_after_the_stock_is_gone_are_accepted_where_the_game_plays_them() -> None:
    # S0 Polish section (A20c): declaring goes on through the last eight tricks; the
    # ordinary game (S0's last eight tricks) declares nothing then, with the four
    # knaves in hand
    polish = end_game_turn("polish", ["JC", "7S", "8S", "9S", "7H", "8H", "9H", "7C"])
    assert "declare four_knaves" in polish
    knaves = ["JC", "JS", "JH", "JD", "7H", "8H", "9H", "7C"]
    assert [t for t in end_game_turn("ordinary", knaves) if "declare" in t] == []
    gone = Entry("stock_gone")
    assert totals("polish", HEARTS, gone, score(0, "four knaves")) == [40, 0]
    with pytest.raises(SheetError, match="after the stock is gone"):
        totals("ordinary", HEARTS, gone, score(0, "four knaves", "JC", "JS", "JH", "JD"))
    # the brisques and the last trick are entered then in both
    last = [score(0, "last trick"), score(0, "brisques", count=2)]
    assert totals("ordinary", HEARTS, gone, *last) == [30, 0]


# ---------------------------------------------------------------------- carte blanche


def test_carte_blanche_is_paid_by_the_opponent_where_the_variant_says_so() -> None:
    # S4 gives a carte blanche 50 "from the opponent" (A18); the classical reading, 50
    # to its holder alone
    taken = {"carte_blanche": {"enabled": True, "from_opponent": True}}
    assert totals("ordinary", score(0, "carte blanche"), house=taken) == [50, -50]
    # said as what each player scored, not as the entry's sum (nought)
    sheet = Sheet("ordinary", ["Ann", "Bob"], overrides=taken, entries=[score(0, "carte blanche")])
    assert sheet_text(sheet).splitlines()[1] == (
        "  0  hand 1  Ann carte blanche  Ann +50 (carte blanche), "
        "Bob -50 (carte blanche, paid by each opponent)"
    )
    assert totals("house-carte-blanche", score(0, "carte blanche")) == [50, 0]
    # a game of three has no opponent to pay it: the variant's own check refuses it
    with pytest.raises(BeziqueError, match=r"carte_blanche\.from_opponent: .*with 3 players"):
        totals("three-hand", score(0, "carte blanche"), players=3, house=taken)
    held = {"carte_blanche": {"enabled": True}}
    assert totals("three-hand", score(0, "carte blanche"), players=3, house=held) == [50, 0, 0]


# ---------------------------------------------------------------------- S0, Polish bezique


def test_s0_polish_compound_declaration_scores_430() -> None:
    # S0 Polish: the king of trumps takes the queen of trumps, to three open kings,
    # three open queens and the ace, ten and knave of trumps: royal marriage 40, four
    # kings 80, four queens 60, sequence 250, "in all, 430"
    assert totals(
        "polish",
        HEARTS,
        score(0, "royal marriage", "KH", "QH"),
        score(0, "four kings", "KH", "KS", "KC", "KD"),
        score(0, "four queens", "QH", "QS", "QC", "QD"),
        score(0, "sequence", "AH", "TH", "KH", "QH", "JH"),
    ) == [430, 0]


def test_s0_polish_seven_exchanged_for_a_turned_up_ace_scores_130() -> None:
    # S0 Polish: the ace of spades turned up; the seven of trumps takes the ace of
    # hearts and is exchanged: 10 for the exchange, 10 for each ace (two brisques),
    # 100 for the four aces with two open ones, "in all, 130"
    assert totals(
        "polish",
        SPADES,
        score(1, "seven of trumps exchanged for the turn-up"),
        score(1, "brisques", count=2),
        score(1, "four aces", "AS", "AH", "AC", "AD"),
    ) == [0, 130]


# ---------------------------------------------------------------------- S4, the modern article


def test_s4_four_kings_of_each_suit_and_a_queen_added_for_a_marriage() -> None:
    # S4: four kings of different suits laid down, then a queen added to marry one of
    # them: 80 + 20 (spades not trumps)
    assert totals(
        "modern-article",
        HEARTS,
        score(0, "four kings", "KH", "KS", "KC", "KD"),
        score(0, "marriage", "KS", "QS"),
    ) == [100, 0]
    # S4's quartets are one of each suit; S0's are any four
    with pytest.raises(SheetError, match="KH KH KC KD do not form four kings"):
        totals("modern-article", score(0, "four kings", "KH", "KH", "KC", "KD"))
    assert totals("ordinary", score(0, "four kings", "KH", "KH", "KC", "KD")) == [80, 0]


# ---------------------------------------------------------------------- S0, Grand bezique


def test_s0_grand_four_aces_formed_again_and_a_widow_married_again() -> None:
    # S0 Grand: four aces declared, one played away, a fifth ace makes four aces again;
    # a queen whose king was played away marries another king: 100 twice, 20 twice
    # (hearts not trumps).  The sheet does not hold the cards played, so it lets the
    # same combination stand again (the class rule is not checked in Grand)
    assert totals(
        "grand",
        SPADES,
        score(0, "four aces", "AH", "AS", "AC", "AD"),
        score(0, "four aces", "AH", "AS", "AC", "AD"),
        score(0, "marriage", "KH", "QH"),
        score(0, "marriage", "KH", "QH"),
    ) == [240, 0]
