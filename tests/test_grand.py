"""Grand bezique (S0's four-pack game, also called Chinese), played from stacked decks.

S0 is the EB9 article's Grand section; A-numbers are the readings of the
bibliography (``bezique sources A24``).  Conventions of the scenarios: the dealer is seat 0,
so seat 1 leads the first trick; trumps are hearts (a ten of hearts is turned up).
Seat 1 holds low plain cards with no trump, ace, ten or combination (``JUNK``),
so seat 0 wins the first trick with a low trump and every trick it leads after
that; the stock gives seat 0 more low trumps and seat 1 more junk.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

import pytest
import yaml

from bezique.actions import Action, Kind
from bezique.commands.cli import main
from bezique.errors import IllegalActionError
from bezique.game import GameState, from_json, new_game
from bezique.plugins.grand import record
from bezique.plugins.ordinary import Combination, blocked, forms_combination, tables, this_turn
from bezique.records.record import record_of, replay
from bezique.testing import check_invariants, points_by_rule, scenario
from bezique.variant import load_variant

JUNK = ["7S", "8S", "9S", "7D", "8D", "9D", "7C", "8C", "9C"]
"""Seat 1's hand: no trump (hearts), no ace or ten, no combination."""
STOCK = ["7H", "7S", "8H", "8S", "9H", "9S", "7H", "7D", "8H", "8D", "9H", "9D"]
"""Seat 0 draws low trumps, seat 1 junk, while seat 0 wins the tricks."""
AGREED: dict[str, Any] = {
    "seven_of_trumps": {"turn_up_points": 10, "declare_points": 10, "exchange_points": 10},
    "last_trick": {"points": 10},
}
"""The house rule S0 allows: the sevens of trumps and the last trick count 10."""


def game(
    hand: Sequence[str],
    turn_up: str = "TH",
    stock: Sequence[str] = STOCK,
    overrides: Mapping[str, Any] | None = None,
) -> GameState:
    """Deal seat 0 ``hand`` and seat 1 the junk."""
    return scenario("grand", hands=[hand, JUNK], turn_up=turn_up, stock=stock, overrides=overrides)


def trick(state: GameState, mine: str, theirs: str) -> None:
    """Play one trick: seat 0 plays ``mine``, seat 1 ``theirs``, whoever leads."""
    first, second = (mine, theirs) if state.to_act == 0 else (theirs, mine)
    state.apply(f"play {first}")
    state.apply(f"play {second}")
    assert state.phase == "turn" and state.to_act == 0, "seat 0 should have won the trick"


def legal(state: GameState) -> set[str]:
    return {state.action_text(a) for a in state.legal_actions()}


def declarations(state: GameState) -> set[str]:
    return {t for t in legal(state) if t.startswith("declare")}


def refuse(state: GameState, text: str) -> str:
    """Assert that ``text`` is not legal, is refused, and leaves the state as it was."""
    assert text not in legal(state)
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply(text)
    assert state.to_json() == before
    return str(info.value)


def points(state: GameState, seat: int = 0) -> dict[str, int]:
    """The seat's points this hand by rule, leaving out rules that scored nothing."""
    return {rule: p for rule, p in points_by_rule(state, seat).items() if p}


# ---------------------------------------------------------------------- the variant


def test_variant_numbers() -> None:
    state = new_game("grand", seed=1)
    data = state.rules.data
    assert state.rules.variant.plugins == ("ordinary", "grand")
    assert (state.deck.packs, state.deck.size) == (4, 128)
    assert data["deal"]["hand_size"] == 9 and data["deal"]["packets"] == [3, 3, 3]
    assert [len(hand) for hand in state.hands] == [9, 9]
    assert len(state.stock) == 128 - 18 - 1 and state.turn_up >= 0
    assert state.rules.target == 3000 and data["game"]["target"] == 3000
    assert data["declarations"]["per_trick"] == "compound"
    combos = data["declarations"]["combinations"]
    assert combos["triple_bezique"] == {
        **combos["triple_bezique"],
        "points": 1500,
        "class": "beziques",
        "level": 3,
        "beziques": 3,
    }
    assert (combos["bezique"]["points"], combos["double_bezique"]["points"]) == (40, 500)
    sevens = data["seven_of_trumps"]
    assert [sevens[k] for k in ("turn_up_points", "declare_points", "exchange_points")] == [0] * 3
    assert data["last_trick"]["points"] == 0


def test_every_section_the_file_sets_cites_s0() -> None:
    raw = yaml.safe_load((files("bezique.variants") / "grand.yaml").read_text("utf-8"))
    assert raw["extends"] == "ordinary" and "S0" in raw["source"]
    for key, section in raw.items():
        if isinstance(section, dict):
            assert "S0" in section.get("source", ""), key
    for name, row in raw["declarations"]["combinations"].items():
        assert "S0" in row["source"], name
    assert "inference" in raw["declarations"]["combinations"]["triple_bezique"]["source"]


def test_simulate_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "grand", "--games", "3", "--seed", "1", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["variant"] == "grand" and stats["games"] == 3


# ---------------------------------------------------------------------- four of a kind


def test_four_aces_again_with_a_fifth_ace() -> None:
    state = game(["AS", "AH", "AD", "AC", "AD", "7H", "8H", "9H", "9C"])
    trick(state, "7H", "7S")
    assert len(declarations(state)) == 4  # any four of the five aces
    state.apply("declare four_aces AS AH AD AC")
    # All four are unplayed: the fifth ace makes no second four aces yet.
    message = refuse(state, "declare four_aces AH* AD AD* AC*")
    assert "four_aces whose cards are all unplayed" in message
    state.apply("draw")
    trick(state, "8H", "8S")
    assert not declarations(state)
    state.apply("draw")
    # One declared ace is played away; the fifth completes the other three again.
    trick(state, "AS*", "9S")
    assert declarations(state) == {"declare four_aces AH* AD AD* AC*"}
    state.apply("declare four_aces AH* AD AD* AC*")
    assert points(state) == {"four_aces": 200, "brisques": 10}
    assert state.scores == [210, 0]


def test_four_aces_again_only_with_the_three_left() -> None:
    # Declared: AS AH AD AC.  AS played away.  The new four aces must take AH AD AC
    # again: two fresh aces cannot stand in for declared ones still unplayed.
    state = game(["AS", "AH", "AD", "AC", "AS", "AH", "7H", "8H", "9H"])
    trick(state, "7H", "7S")
    state.apply("declare four_aces AS AH AD AC")
    state.apply("draw")
    trick(state, "AS*", "8S")
    assert declarations(state) == {
        "declare four_aces AS AH* AD* AC*",
        "declare four_aces AH AH* AD* AC*",
    }
    message = refuse(state, "declare four_aces AS AH AH* AD*")
    assert "AC, declared with AH in a four_aces, is still unplayed" in message


# ---------------------------------------------------------------------- marriages


@pytest.mark.parametrize(
    ("suit", "name", "value"), [("D", "marriage", 20), ("H", "royal_marriage", 40)]
)
def test_the_widow_marries_again_once_her_king_is_played(suit: str, name: str, value: int) -> None:
    king, queen = f"K{suit}", f"Q{suit}"
    state = game([king, queen, king, "7H", "8H", "9H", "7C", "8C", "9C"])
    trick(state, "7H", "7S")
    state.apply(f"declare {name} {king} {queen}")
    state.apply("draw")
    trick(state, "8H", "8S")
    # Her declared king is unplayed: a second husband now would be bigamy (A24).
    message = refuse(state, f"declare {name} {king} {queen}*")
    assert "bigamy" in message and "A24" in message
    state.apply("draw")
    trick(state, f"{king}*", "9D" if suit == "D" else "9S")
    assert f"declare {name} {king} {queen}*" in declarations(state)
    state.apply(f"declare {name} {king} {queen}*")
    assert points(state) == {name: 2 * value}


def test_a_married_queen_may_not_leave_her_king_for_a_widower() -> None:
    # Two royal marriages; one queen played away widows her king.  The other queen's
    # king is unplayed: marrying her to the widower is bigamy (A24), whatever cards.
    state = game(["KH", "QH", "KH", "QH", "7H", "8H", "9H", "7C", "8C"])
    trick(state, "7H", "7S")
    state.apply("declare royal_marriage KH QH")
    state.apply("draw")
    trick(state, "8H", "8S")
    state.apply("declare royal_marriage KH QH")
    state.apply("draw")
    trick(state, "QH*", "9S")
    message = refuse(state, "declare royal_marriage KH* QH*")
    assert "bigamy" in message and "A24" in message
    assert not declarations(state)


def test_a_queen_left_from_a_broken_sequence_is_no_widow() -> None:
    # Sequence declared; its ace played away.  The queen's king is still unplayed, so
    # she may not marry the second king (A24); once that king is played she may.
    state = game(["AH", "TH", "KH", "QH", "JH", "KH", "7H", "8H", "9H"])
    trick(state, "7H", "7S")
    state.apply("declare sequence AH TH KH QH JH")
    state.apply("draw")
    trick(state, "AH*", "8S")
    message = refuse(state, "declare royal_marriage KH QH*")
    assert "KH, declared with QH in a sequence, is still unplayed" in message
    # King and queen of the sequence, both declared before: no new card (A23).
    message = refuse(state, "declare royal_marriage KH* QH*")
    assert "never declared before" in message
    assert not declarations(state)
    state.apply("draw")
    trick(state, "KH*", "9S")
    state.apply("declare royal_marriage KH QH*")
    assert points(state) == {"sequence": 250, "royal_marriage": 40, "brisques": 10}


def test_married_pair_grows_into_a_sequence_not_with_a_new_queen() -> None:
    state = game(["TH", "KH", "QH", "JH", "QH", "AH", "7H", "8H", "9H"])
    trick(state, "7H", "7S")
    state.apply("declare royal_marriage KH QH")
    state.apply("draw")
    trick(state, "8H", "8S")
    assert "declare sequence AH TH KH* QH* JH" in declarations(state)
    message = refuse(state, "declare sequence AH TH KH* QH JH")
    assert "QH, declared with KH in a royal_marriage, is still unplayed" in message
    state.apply("declare sequence AH TH KH* QH* JH")
    assert points(state) == {"royal_marriage": 40, "sequence": 250}


# ---------------------------------------------------------------------- beziques


def test_bezique_again_after_its_knave_is_played() -> None:
    state = game(["QS", "JD", "JD", "7H", "8H", "9H", "7C", "8C", "9C"])
    trick(state, "7H", "7S")
    state.apply("declare bezique QS JD")
    message = refuse(state, "declare bezique QS* JD")
    assert "bezique whose cards are all unplayed" in message
    state.apply("draw")
    trick(state, "JD*", "9D")
    assert declarations(state) == {"declare bezique QS* JD"}
    state.apply("declare bezique QS* JD")
    assert points(state) == {"bezique": 80}


def test_single_double_then_triple_bezique() -> None:
    state = game(["QS", "QS", "QS", "JD", "JD", "JD", "7H", "8H", "9H"])
    trick(state, "7H", "7S")
    assert declarations(state) == {
        "declare bezique QS JD",
        "declare double_bezique QS QS JD JD",
        "declare triple_bezique QS QS QS JD JD JD",
    }
    state.apply("declare bezique QS JD")
    state.apply("draw")
    trick(state, "8H", "8S")
    # The new pair joins the first for the double; or it stays a single of its own (A14),
    # or two new pairs make a double without the first.
    assert declarations(state) == {
        "declare bezique QS JD",
        "declare double_bezique QS QS* JD JD*",
        "declare double_bezique QS QS JD JD",
        "declare triple_bezique QS QS QS* JD JD JD*",
    }
    state.apply("declare double_bezique QS QS* JD JD*")
    state.apply("draw")
    trick(state, "9H", "9S")
    assert declarations(state) == {
        "declare bezique QS JD",
        "declare triple_bezique QS QS* QS* JD JD* JD*",
    }
    state.apply("declare triple_bezique QS QS* QS* JD JD* JD*")
    # 40, then 500 more, then 1500 more (S0 footnote 3 by analogy: A15, A30).
    assert [(e.rule, e.points) for e in state.events if e.points] == [
        ("bezique", 40),
        ("double_bezique", 500),
        ("triple_bezique", 1500),
    ]
    assert state.scores == [2040, 0]


def test_triple_bezique_at_once_scores_1500_only() -> None:
    state = game(["QS", "QS", "QS", "JD", "JD", "JD", "7H", "8H", "9H"])
    trick(state, "7H", "7S")
    state.apply("declare triple_bezique QS QS QS JD JD JD")
    assert not declarations(state)
    assert state.scores == [1500, 0]


LADDER = {"additive": 1500, "difference": 1000}
"""What a third bezique added to a whole double scores under each declarations.bezique_ladder
reading: the three-hand game's switch, which Grand follows (A15, A30)."""
BEZIQUES = ["QS", "QS", "QS", "JD", "JD", "JD", "7H", "8H", "9H"]


def ladder_game(ladder: str, stock: Sequence[str] = STOCK) -> GameState:
    return game(BEZIQUES, stock=stock, overrides={"declarations": {"bezique_ladder": ladder}})


def test_grand_takes_the_additive_ladder_and_cites_it() -> None:
    assert load_variant("grand").data["declarations"]["bezique_ladder"] == "additive"
    raw = yaml.safe_load((files("bezique.variants") / "grand.yaml").read_text("utf-8"))
    source = raw["declarations"]["combinations"]["triple_bezique"]["source"]
    assert "bezique_ladder" in source and "A15" in source


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_single_double_then_triple(ladder: str) -> None:
    state = ladder_game(ladder)
    trick(state, "7H", "7S")
    state.apply("declare bezique QS JD")
    state.apply("draw")
    trick(state, "8H", "8S")
    state.apply("declare double_bezique QS QS* JD JD*")
    state.apply("draw")
    trick(state, "9H", "9S")
    state.apply("declare triple_bezique QS QS* QS* JD JD* JD*")
    check_invariants(state)
    assert [(e.rule, e.points) for e in state.events if e.points] == [
        ("bezique", 40),
        ("double_bezique", 500),
        ("triple_bezique", LADDER[ladder]),
    ]
    assert state.scores == [40 + 500 + LADDER[ladder], 0]


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_triple_at_once_and_as_a_double_on_a_single(ladder: str) -> None:
    state = ladder_game(ladder)
    trick(state, "7H", "7S")
    state.apply("declare triple_bezique QS QS QS JD JD JD")
    assert points(state) == {"triple_bezique": 1500}
    state = ladder_game(ladder)
    trick(state, "7H", "7S")
    state.apply("declare bezique QS JD")
    state.apply("draw")
    trick(state, "8H", "8S")
    state.apply("declare triple_bezique QS QS QS* JD JD JD*")
    assert points(state) == {"bezique": 40, "triple_bezique": 1500}


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_triple_again_once_its_double_is_broken(ladder: str) -> None:
    # Double, then the triple on it; a knave of the double is played away, which breaks
    # both; with a new knave the triple is declared again.  No double lies whole under
    # it, so it scores its full 1500 under either reading.
    stock = ["7H", "7S", "8H", "8S", "JD", "9S", *STOCK[6:]]
    state = ladder_game(ladder, stock)
    trick(state, "7H", "7S")
    state.apply("declare double_bezique QS QS JD JD")
    state.apply("draw")
    trick(state, "8H", "8S")
    state.apply("declare triple_bezique QS QS* QS* JD JD* JD*")
    assert points(state) == {"double_bezique": 500, "triple_bezique": LADDER[ladder]}
    state.apply("draw")
    trick(state, "JD*", "9S")
    double = next(cards for name, cards in record(state).combos[0] if name[0] == "d")
    assert state.played[-2] in double and not declarations(state)
    state.apply("draw")
    trick(state, "7H", "7D")
    assert declarations(state) == {"declare triple_bezique QS* QS* QS* JD JD* JD*"}
    state.apply("declare triple_bezique QS* QS* QS* JD JD* JD*")
    check_invariants(state)
    assert points(state) == {"double_bezique": 500, "triple_bezique": LADDER[ladder] + 1500}


def test_double_bezique_again_after_a_knave_is_played() -> None:
    state = game(["QS", "QS", "JD", "JD", "JD", "7H", "8H", "9H", "9C"])
    trick(state, "7H", "7S")
    state.apply("declare double_bezique QS QS JD JD")
    state.apply("draw")
    trick(state, "JD*", "9D")
    # The queens and knave left must come back together with the new knave: they do
    # not make a single bezique with it while they lie unplayed.
    assert declarations(state) == {"declare double_bezique QS* QS* JD JD*"}
    message = refuse(state, "declare bezique QS* JD")
    assert "declared with QS in a double_bezique, is still unplayed" in message
    state.apply("declare double_bezique QS* QS* JD JD*")
    assert points(state) == {"double_bezique": 1000}


def test_a_brand_new_pair_is_a_new_single() -> None:
    # A14: a pair neither of whose cards was ever in a bezique scores 40, and the
    # double from two live singles is then out of reach (no new card).
    state = game(["QS", "JD", "QS", "JD", "7H", "8H", "9H", "7C", "8C"])
    trick(state, "7H", "7S")
    state.apply("declare bezique QS JD")
    state.apply("draw")
    trick(state, "8H", "8S")
    state.apply("declare bezique QS JD")
    state.apply("draw")
    trick(state, "9H", "9S")
    assert not declarations(state)
    message = refuse(state, "declare double_bezique QS* QS* JD* JD*")
    assert "never declared before" in message
    assert points(state) == {"bezique": 80}


# ---------------------------------------------------------------------- sequence


def test_sequence_twice() -> None:
    state = game(["AH", "TH", "KH", "QH", "JH", "AH", "7H", "8H", "9H"])
    trick(state, "7H", "7S")
    state.apply("declare sequence AH TH KH QH JH")
    # A sequence's king and queen never marry afterwards (S0, A06)...
    assert "sequence whose cards are all unplayed" in refuse(
        state, "declare royal_marriage KH* QH*"
    )
    # ... and the duplicate ace must wait until a declared ace is played away.
    assert "sequence whose cards are all unplayed" in refuse(
        state, "declare sequence AH TH* KH* QH* JH*"
    )
    state.apply("draw")
    trick(state, "AH*", "8S")
    assert declarations(state) == {"declare sequence AH TH* KH* QH* JH*"}
    state.apply("declare sequence AH TH* KH* QH* JH*")
    assert points(state) == {"sequence": 500, "brisques": 10}
    assert state.scores == [510, 0]


# ---------------------------------------------------------------------- compound


def test_compound_declarations_share_a_card_across_classes() -> None:
    hand = ["KH", "QH", "KS", "KD", "KC", "7H", "8H", "9H", "9C"]
    state = game(hand)
    trick(state, "7H", "7S")
    state.apply("declare royal_marriage KH QH")
    assert "declare four_kings KS KH* KD KC" in declarations(state)
    state.apply("declare four_kings KS KH* KD KC")
    assert points(state) == {"royal_marriage": 40, "four_kings": 80}
    # Under the stricter `several` reading the king serves once a trick.
    state = game(hand, overrides={"declarations": {"per_trick": "several"}})
    trick(state, "7H", "7S")
    state.apply("declare royal_marriage KH QH")
    assert not declarations(state)
    assert "no card may serve in two" in refuse(state, "declare four_kings KS KH* KD KC")


# ---------------------------------------------------------------------- sevens, last trick


def play_to_the_end_of_the_stock(state: GameState) -> None:
    """Play the first legal card each time and never declare, until the stock is gone."""
    while state.stock_left():
        state.apply("draw" if state.phase == "turn" else state.legal_actions()[0])
    if state.phase == "turn":
        state.apply("pass")


@pytest.mark.parametrize(("overrides", "value"), [(None, 0), (AGREED, 10)])
def test_sevens_and_last_trick_count_only_by_agreement(
    overrides: Mapping[str, Any] | None, value: int
) -> None:
    state = game(["7H", "7H", "8H", "9H", "7C", "8C", "9C", "JS", "JC"], overrides=overrides)
    trick(state, "8H", "7S")
    assert {"exchange 7H", "show 7H"} <= legal(state)
    state.apply("exchange 7H")
    state.apply("show 7H")
    assert points_by_rule(state, 0) == {
        "seven_of_trumps.exchange_points": value,
        "seven_of_trumps.declare_points": value,
    }
    assert state.scores[0] == 2 * value
    before = state.scores[0] + state.scores[1]
    play_to_the_end_of_the_stock(state)
    last = [e for e in state.events if e.rule == "last_trick"]
    assert len(last) == 1 and last[0].points == value
    brisques = sum(e.points for e in state.events if e.rule == "brisques")
    assert sum(state.scores) == before + brisques + value


@pytest.mark.parametrize(("overrides", "value"), [(None, 0), (AGREED, 10)])
def test_a_seven_turned_up(overrides: Mapping[str, Any] | None, value: int) -> None:
    state = game(["8H", "9H", "7C", "8C", "9C", "JS", "JC", "8D", "9D"], "7H", overrides=overrides)
    assert state.scores == [value, 0]


# ---------------------------------------------------------------------- the game


def test_game_is_3000_up() -> None:
    state = new_game("grand", seed=11)
    rng = random.Random(11)
    passed_1000 = False
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
        # The first to reach 3000 wins at once (at_once, inherited); 1000 ends nothing.
        assert state.is_over() == (max(state.scores) >= 3000)
        passed_1000 = passed_1000 or max(state.scores) >= 1000
    assert passed_1000 and state.scores[state.winner] >= 3000


# ---------------------------------------------------------------------- an oracle


def oracle(state: GameState, made: list[tuple[str, tuple[int, ...]]]) -> set[str]:
    """Every declaration the Grand rules allow now, worked out from scratch.

    ``made``: the combinations the player to act has declared this hand.  Tried:
    every set of the player's cards of the right size; kept: those that form the
    combination, hold no card just taken in exchange, bring a card never declared
    (or, compound, first declared this turn), and, for each earlier combination of
    the same class sharing a card, either it has a card played away or it is lower,
    and then the new one takes every unplayed card of it that could fill a place.
    """
    if not state.stock_left():
        return set()
    seat = state.to_act
    rows = state.rules.data["declarations"]["combinations"]
    hand = state.hands[seat]
    declared = {c for _, cards in made for c in cards}
    fresh_now = set(this_turn(state).first_declared)
    barred = set(blocked(state))
    found: set[str] = set()
    for name, row in rows.items():
        size = len(row["ranks"]) if "ranks" in row else row.get("count") or 2 * row["beziques"]
        for cards in itertools.combinations(sorted(hand), size):
            combo = tables_combo(state, name)
            if not forms_combination(state, combo, cards) or barred & set(cards):
                continue
            if set(cards) <= declared and not fresh_now & set(cards):
                continue
            if not row.get("grows_in_one_trick", True) and entered_class_this_turn(
                rows, row["class"], cards, fresh_now, made
            ):
                continue  # S0 footnote 3: not built up after the same trick
            if all(fits(state, seat, name, cards, old, old_cards) for old, old_cards in made):
                found.add(state.action_text(Action(Kind.DECLARE, cards, name)))
    return found


def entered_class_this_turn(
    rows: dict[str, Any],
    class_name: str,
    cards: tuple[int, ...],
    fresh_now: set[int],
    made: list[tuple[str, tuple[int, ...]]],
) -> bool:
    """Whether a card of ``cards``, first declared this turn, is in a combination of the class."""
    return any(
        card in fresh_now and any(rows[o]["class"] == class_name and card in oc for o, oc in made)
        for card in cards
    )


def tables_combo(state: GameState, name: str) -> Combination:
    combo = tables(state).combination(state, name)
    assert combo is not None
    return combo


def fits(
    state: GameState,
    seat: int,
    name: str,
    cards: tuple[int, ...],
    old: str,
    old_cards: tuple[int, ...],
) -> bool:
    rows = state.rules.data["declarations"]["combinations"]
    if rows[old]["class"] != rows[name]["class"] or not set(cards) & set(old_cards):
        return True
    unplayed = [c for c in old_cards if c in state.hands[seat]]
    if len(unplayed) == len(old_cards) and rows[old]["level"] >= rows[name]["level"]:
        return False
    combo = tables_combo(state, name)
    for other in unplayed:
        if other in cards:
            continue
        for index in range(len(cards)):
            swapped = (*cards[:index], other, *cards[index + 1 :])
            if forms_combination(state, combo, swapped):
                return False  # a fresh card stands where an old partner could
    return True


@pytest.mark.slow
def test_legal_declarations_match_the_oracle() -> None:
    rng = random.Random(2024)
    rows = load_variant("grand").data["declarations"]["combinations"]
    classes = {name: row["class"] for name, row in rows.items()}
    checked = again = 0  # again: declarations with a card declared before in the same class
    for seed in range(10):
        state = new_game("grand", seed=seed)
        made: list[list[tuple[str, tuple[int, ...]]]] = [[], []]
        hand_no = 0
        while not state.is_over() and state.hand_no < 4:
            if state.hand_no != hand_no:
                made, hand_no = [[], []], state.hand_no
            legal_actions = state.legal_actions()
            if state.phase == "turn":
                seat = state.to_act
                texts = [state.action_text(a) for a in legal_actions]
                assert len(set(texts)) == len(texts)
                got = {t for t in texts if t.startswith("declare")}
                assert got == oracle(state, made[seat]), (seed, state.hand_no, state.tricks_done)
                checked += 1
            choices = [a for a in legal_actions if a.kind == Kind.DECLARE]
            action = rng.choice(choices if choices and rng.random() < 0.9 else legal_actions)
            if action.kind == Kind.DECLARE:
                again += any(
                    classes[old] == classes[action.combo] and set(cards) & set(action.cards)
                    for old, cards in made[state.to_act]
                )
                made[state.to_act].append((action.combo, action.cards))
            state.apply(action)
    assert checked > 500 and again > 30


# ---------------------------------------------------------------------- conformance


HANDS = 500
ROUND_TRIP_EVERY = 401


@pytest.mark.slow
def test_random_games_conform() -> None:
    """Random players (keen to declare) for at least 500 hands, checked throughout.

    ``check_invariants`` after every action; the JSON round trip every
    ``ROUND_TRIP_EVERY`` actions and at each game's end; ``replay(record_of(...))``
    equal to the state at each game's end.
    """
    rng = random.Random(3000)
    hands = games = actions = 0
    while hands < HANDS:
        state = new_game("grand", seed=rng.randrange(2**63))
        keen = games % 3 == 0
        while not state.is_over():
            legal_actions = state.legal_actions()
            assert legal_actions
            choices = [a for a in legal_actions if a.kind == Kind.DECLARE] if keen else []
            state.apply(rng.choice(choices or legal_actions))
            actions += 1
            check_invariants(state)
            if actions % ROUND_TRIP_EVERY == 0:
                data = state.to_json()
                assert from_json(json.loads(json.dumps(data))).to_json() == data
        assert state.scores[state.winner] >= 3000
        data = state.to_json()
        assert from_json(json.loads(json.dumps(data))).to_json() == data
        record = record_of(state)
        assert replay(json.loads(json.dumps(record))).to_json() == data
        hands += state.hand_no + 1
        games += 1
    assert hands >= HANDS


@pytest.mark.parametrize("per_trick", ["several", "one"])
def test_random_games_under_the_other_declaring_modes(per_trick: str) -> None:
    """The re-declaration rules under `several` and `one` (announcements): 30 hands each."""
    overrides = {"declarations": {"per_trick": per_trick}}
    rng = random.Random(per_trick)
    hands = 0
    kinds: set[Kind] = set()
    while hands < 30:
        state = new_game("grand", overrides=overrides, seed=rng.randrange(2**63))
        while not state.is_over():
            legal_actions = state.legal_actions()
            choices = [a for a in legal_actions if a.kind in (Kind.DECLARE, Kind.ANNOUNCE)]
            action = rng.choice(choices or legal_actions)
            kinds.add(action.kind)
            state.apply(action)
            check_invariants(state)
        assert replay(record_of(state)).to_json() == state.to_json()
        hands += state.hand_no + 1
    assert Kind.DECLARE in kinds and (per_trick == "several" or Kind.ANNOUNCE in kinds)
