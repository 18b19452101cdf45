"""Three-hand and four-hand (individual) bezique: S0's section on three and four players.

Stacked decks give exact scores and exact legal sets for the triple bezique (declared at
once, a double added to a single, a third bezique added to a double: A15), the second
double bezique, the three-player end-game discard (A26, A34), the draw order (A32) and
the deal's rotation; random games check the invariants of both variants.
"""

from __future__ import annotations

import random
from importlib.resources import files

import pytest
import yaml

from bezique.actions import Kind
from bezique.errors import IllegalActionError
from bezique.game import GameState, from_json, new_game
from bezique.records.record import record_of, replay
from bezique.testing import check_invariants, points_by_rule, scenario
from bezique.variant import load_variant

LOW = ["7C", "8C", "9C", "7D", "8D", "9D", "7S", "8S"]
"""A hand that wins nothing and declares nothing under hearts."""


def texts(state: GameState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def beziques_hand(*extra: str) -> list[str]:
    return ["QS", "QS", "QS", "JD", "JD", "JD", *extra]


def won_first_trick(
    hand: list[str], stock: tuple[str, ...] = (), ladder: str | None = None
) -> GameState:
    """Seat 1 leads an ace of hearts (trumps) that seats 2 and 0 cannot beat.

    ``ladder`` sets ``declarations.bezique_ladder`` (the preset's reading if None).
    """
    overrides = {"declarations": {"bezique_ladder": ladder}} if ladder else None
    game = scenario(
        "three-hand", hands=[LOW, hand, LOW], turn_up="9H", stock=stock, overrides=overrides
    )
    check_invariants(game)
    game.apply("play AH")
    game.apply("play 7C")
    game.apply("play 7C")
    check_invariants(game)
    return game


def win_next_trick(game: GameState, low: str) -> None:
    game.apply("draw")
    game.apply("play AH")
    game.apply(f"play {low}")
    game.apply(f"play {low}")
    check_invariants(game)


STOCK = ("AH", "KD", "KS", "KC", "KD", "KS")
"""Drawn after the first two tricks: seat 1 draws AH then KC, seat 2 KD, seat 0 KS."""


# ------------------------------------------------------------------ triple bezique


def test_triple_bezique_declared_at_once_scores_1500_only() -> None:
    game = won_first_trick(beziques_hand("AH", "AH"))
    assert texts(game) == [
        "declare bezique QS JD",
        "declare double_bezique QS QS JD JD",
        "declare triple_bezique QS QS QS JD JD JD",
        "draw",
    ]
    game.apply("declare triple_bezique QS QS QS JD JD JD")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 10, "triple_bezique": 1500}
    assert game.scores == [0, 1510, 0]
    assert texts(game) == ["draw"]


def test_triple_bezique_as_a_double_added_to_a_single() -> None:
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK)
    game.apply("declare bezique QS JD")
    win_next_trick(game, "8C")
    # The ordinary double on a single (S0 footnote 3), or the triple.
    assert texts(game) == [
        "declare bezique QS JD",
        "declare double_bezique QS QS* JD JD*",
        "declare double_bezique QS QS* JD JD",
        "declare double_bezique QS QS JD JD*",
        "declare double_bezique QS QS JD JD",
        "declare triple_bezique QS QS QS* JD JD JD*",
        "draw",
    ]
    game.apply("declare triple_bezique QS QS QS* JD JD JD*")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 20, "bezique": 40, "triple_bezique": 1500}
    assert game.scores == [0, 1560, 0]


def test_triple_bezique_as_a_third_bezique_added_to_a_double() -> None:
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK)
    game.apply("declare double_bezique QS QS JD JD")
    win_next_trick(game, "8C")
    assert texts(game) == [
        "declare bezique QS JD",
        "declare double_bezique QS QS* JD JD*",
        "declare triple_bezique QS QS* QS* JD JD* JD*",
        "draw",
    ]
    game.apply("declare triple_bezique QS QS* QS* JD JD* JD*")
    check_invariants(game)
    assert points_by_rule(game, 1) == {
        "brisques": 20,
        "double_bezique": 500,
        "triple_bezique": 1500,
    }
    assert game.scores == [0, 2020, 0]
    # The game is 2000 up: seat 1 has won it at once.
    assert game.is_over() and game.winner == 1


# ------------------------------------------------------------------ the ladder switch

# declarations.bezique_ladder: how a triple built on a double already scored counts.
# additive (A15, by analogy with S0 footnote 3): the triple's full 1500 on top of the
# double's 500.  difference: S0's "triple bezique scores 1500" read as its worth in all,
# so the 500 already scored is taken off (1000 more).  Under both, footnote 3 holds: a
# double on a single scores 500 on top of the 40, and a single's 40 is never taken off.
LADDER = {"additive": 1500, "difference": 1000}
"""What a third bezique added to a scored double scores, under each reading."""


def test_three_hand_takes_the_additive_reading_and_cites_it() -> None:
    data = load_variant("three-hand").data
    assert data["declarations"]["bezique_ladder"] == "additive"
    raw = yaml.safe_load((files("bezique.variants") / "three-hand.yaml").read_text("utf-8"))
    source = raw["declarations"]["combinations"]["triple_bezique"]["source"]
    assert "A15" in source and "footnote 3" in source and "bezique_ladder" in source


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_triple_declared_in_one_go_scores_1500(ladder: str) -> None:
    game = won_first_trick(beziques_hand("AH", "AH"), ladder=ladder)
    game.apply("declare triple_bezique QS QS QS JD JD JD")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 10, "triple_bezique": 1500}
    assert game.scores == [0, 1510, 0]


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_triple_added_to_a_scored_double(ladder: str) -> None:
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK, ladder)
    game.apply("declare double_bezique QS QS JD JD")
    win_next_trick(game, "8C")
    game.apply("declare triple_bezique QS QS* QS* JD JD* JD*")
    check_invariants(game)
    triple = LADDER[ladder]
    assert points_by_rule(game, 1) == {
        "brisques": 20,
        "double_bezique": 500,
        "triple_bezique": triple,
    }
    assert game.scores == [0, 20 + 500 + triple, 0]
    assert from_json(game.to_json()).to_json() == game.to_json()
    assert replay(record_of(game)).to_json() == game.to_json()


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_double_added_to_a_single_scores_500_more(ladder: str) -> None:
    # S0 footnote 3: 500 in addition to the 40, whichever reading the triple takes.
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK, ladder)
    game.apply("declare bezique QS JD")
    win_next_trick(game, "8C")
    game.apply("declare double_bezique QS QS* JD JD*")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 20, "bezique": 40, "double_bezique": 500}


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_triple_as_a_double_added_to_a_single(ladder: str) -> None:
    # The single's 40 stays, as in footnote 3: the triple scores its 1500 on top.
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK, ladder)
    game.apply("declare bezique QS JD")
    win_next_trick(game, "8C")
    game.apply("declare triple_bezique QS QS QS* JD JD JD*")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 20, "bezique": 40, "triple_bezique": 1500}


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_single_then_double_then_triple(ladder: str) -> None:
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK, ladder)
    game.apply("declare bezique QS JD")
    win_next_trick(game, "8C")
    game.apply("declare double_bezique QS QS* JD JD*")
    win_next_trick(game, "9C")
    game.apply("declare triple_bezique QS QS* QS* JD JD* JD*")
    check_invariants(game)
    events = [(e.rule, e.points) for e in game.events if e.rule.endswith("bezique")]
    assert events == [("bezique", 40), ("double_bezique", 500), ("triple_bezique", LADDER[ladder])]


@pytest.mark.parametrize("ladder", LADDER)
def test_ladder_second_double_still_scores_500(ladder: str) -> None:
    # A second double is a double again, not a step up the ladder: 500 under both readings.
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK, ladder)
    game.apply("declare double_bezique QS QS JD JD")
    win_next_trick(game, "8C")
    game.apply("declare double_bezique QS QS* JD JD*")
    assert points_by_rule(game, 1) == {"brisques": 20, "double_bezique": 1000}


# ------------------------------------------------------------------ second double


def test_second_double_bezique_scores_500_more() -> None:
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK)
    game.apply("declare double_bezique QS QS JD JD")
    win_next_trick(game, "8C")
    game.apply("declare double_bezique QS QS* JD JD*")
    check_invariants(game)
    assert points_by_rule(game, 1) == {"brisques": 20, "double_bezique": 1000}
    assert game.scores == [0, 1020, 0]
    # Every bezique card is now at the double's level: no new card, so no triple.
    assert texts(game) == ["draw"]
    win_next_trick(game, "9C")
    assert [t for t in texts(game) if "bezique" in t] == []


def test_second_double_needs_an_old_double_pair_and_a_new_pair() -> None:
    game = won_first_trick(beziques_hand("AH", "AH"), STOCK)
    game.apply("declare double_bezique QS QS JD JD")
    win_next_trick(game, "8C")
    with pytest.raises(IllegalActionError) as info:
        game.apply("declare double_bezique QS* QS* JD JD*")  # two old queens
    assert "second double bezique" in str(info.value)
    assert "already declared" in str(info.value)


def test_second_double_is_refused_by_the_ordinary_class_rule() -> None:
    # Without the multihand plugin (ordinary rules, three packs) a double's pair is spent.
    game = scenario(
        "ordinary",
        overrides={"cards": {"packs": 3}},
        hands=[LOW, beziques_hand("AH", "AH")],
        turn_up="9H",
        stock=["AH", "KS"],
    )
    game.apply("play AH")
    game.apply("play 7C")
    game.apply("declare double_bezique QS QS JD JD")
    game.apply("draw")
    game.apply("play AH")
    game.apply("play 8C")
    assert [t for t in texts(game) if "double" in t] == []
    with pytest.raises(IllegalActionError) as info:
        game.apply("declare double_bezique QS QS* JD JD*")
    assert "already declared" in str(info.value)


# ------------------------------------------------------------------ end-game


ENDGAME_HANDS = [
    ["QD", "JS", "JS", "JS", "8D", "8D", "8D", "TD"],
    ["AH", "AH", "AH", "KS", "KS", "KS", "QD", "TD"],
    ["AC", "AC", "AC", "9S", "9S", "9S", "QD", "TD"],
]


def endgame_scenario(hands: list[list[str]] = ENDGAME_HANDS) -> GameState:
    """Reach the last eight tricks of three-hand with known hands.

    Every player plays the card he last received, so each ends the stock with the first
    seven cards he was dealt and the last card he drew.  Each round of draws is three
    copies of one card (the last the turn-up, 7C: clubs are trumps), so every trick after
    the first is three identical cards, won by its leader (A34): seat 1 leads throughout.
    The hands hold eight faces between them, none of them 7C.
    """
    dealt = {face for hand in hands for face in hand}
    faces = [r + s for s in "SHDC" for r in "ATKQJ987"]
    rounds = [f for f in faces if f not in dealt and f != "7C"]
    assert len(rounds) == 23
    stock = [f for f in rounds for _ in range(3)] + ["7C", "7C"]
    game = scenario("three-hand", hands=hands, turn_up="7C", stock=stock)
    while game.stock_left():
        if game.legal_actions()[0].kind == Kind.PLAY:
            game.apply("play " + game.deck.card_text(game.hands[game.to_act][-1]))
        else:
            game.apply("draw")
        check_invariants(game)
    return game


def test_endgame_third_hand_may_throw_away_any_card() -> None:
    game = endgame_scenario()
    assert game.leader == 1 and game.to_act == 1
    assert sorted(texts(game)) == ["play 7C", "play AH", "play KS", "play QD"]
    game.apply("play AH")
    # Seat 2, void in hearts, must trump: both his trumps win.
    assert texts(game) == ["play AC", "play 7C"]
    game.apply("play AC")
    # Seat 0, void in hearts, cannot beat the ace of trumps: anything goes (S0).
    assert sorted(texts(game)) == ["play 7C", "play 8D", "play JS", "play QD"]
    game.apply("play 8D")
    check_invariants(game)
    assert game.leader == 2


def test_endgame_identical_trump_does_not_win_so_any_card_goes() -> None:
    game = endgame_scenario()
    game.apply("play AH")
    game.apply("play 7C")
    # Seat 0's seven of clubs would tie the first one, which wins (A34): no duty to trump.
    assert sorted(texts(game)) == ["play 7C", "play 8D", "play JS", "play QD"]


def test_endgame_must_follow_and_beat_the_highest_card_so_far() -> None:
    game = endgame_scenario()
    game.apply("play QD")
    # Seat 2 follows with his queen of diamonds (it cannot beat the one led).
    assert texts(game) == ["play QD"]
    game.apply("play QD")
    # Seat 0 must follow: his 8D cannot beat the queen, the queen only ties (A34).
    assert sorted(texts(game)) == ["play 8D", "play QD"]
    with pytest.raises(IllegalActionError) as info:
        game.apply("play 7C")
    assert "follow suit" in str(info.value)


def test_endgame_third_hand_void_must_overtrump_a_trump_if_able() -> None:
    # A26: void in the suit led, the third hand must trump when a trump of his would take
    # the trick, so over a trump already played only a higher one; S0 frees him only when
    # he can neither follow nor win by trumping.  Seat 1 leads every trick; clubs are trumps.
    game = endgame_scenario(
        [
            ["9C", "9C", "9C", "KS", "QD", "JS", "9S", "TD"],
            ["AH", "AH", "AH", "KS", "QD", "JS", "9S", "TD"],
            ["8C", "8C", "8C", "KS", "QD", "JS", "9S", "TD"],
        ]
    )
    assert game.to_act == 1 and "AH" in [game.deck.card_text(c) for c in game.hands[1]]
    after_lead = game.clone()
    game.apply("play AH")
    # Seat 2, void in hearts: either of his trumps takes the ace, so he must trump.
    assert sorted(texts(game)) == ["play 7C", "play 8C"]
    game.apply("play 8C")
    # Seat 0, void in hearts: his nine of clubs beats the eight, his seven does not.
    assert texts(game) == ["play 9C"]
    with pytest.raises(IllegalActionError):
        game.apply("play 7C")
    game.apply("play 9C")
    assert game.leader == 0
    # Over the seven of clubs the nine wins and the seven only ties (A34): the nine again.
    after_lead.apply("play AH")
    after_lead.apply("play 7C")
    assert texts(after_lead) == ["play 9C"]


def test_endgame_third_hand_must_beat_the_best_card_so_far_not_only_the_lead() -> None:
    # A26: the duty to win is measured against the card winning the trick so far: over a
    # king of diamonds on a nine led, the queen no longer wins, only the ace does.
    game = endgame_scenario(
        [
            ["AD", "AD", "AD", "QD", "QD", "QD", "KS", "TS"],
            ["9D", "9D", "9D", "KS", "JS", "JS", "9S", "TS"],
            ["KD", "KD", "KD", "KS", "JS", "9S", "9S", "TS"],
        ]
    )
    assert game.to_act == 1
    game.apply("play 9D")
    assert texts(game) == ["play KD"]  # seat 2 must beat the nine: his kings do
    game.apply("play KD")
    assert texts(game) == ["play AD"]  # seat 0's queens beat the nine led, not the king
    with pytest.raises(IllegalActionError):
        game.apply("play QD")
    game.apply("play AD")
    assert game.leader == 0


# ------------------------------------------------------------------ draws and deals


def test_draws_go_to_the_winner_first_then_in_seat_order() -> None:
    game = scenario(
        "three-hand",
        hands=[LOW, ["7H", "8H", "9S", "TS", "KS", "QH", "JH", "JC"], ["AH", *LOW[1:]]],
        turn_up="9H",
        stock=["AS", "AD", "AC"],
    )
    game.apply("play 7H")  # seat 1 leads
    game.apply("play AH")  # seat 2 wins
    game.apply("play 7C")  # seat 0
    assert game.to_act == 2
    assert game.phase == "play"  # seat 2 had nothing to declare: the draws are done
    texts_of = [[game.deck.card_text(c) for c in hand] for hand in game.hands]
    assert texts_of[2][-1] == "AS"
    assert texts_of[0][-1] == "AD"
    assert texts_of[1][-1] == "AC"
    check_invariants(game)


@pytest.mark.parametrize(("variant", "players"), [("three-hand", 3), ("four-hand", 4)])
def test_deal_from_the_dealers_left_and_rotation(variant: str, players: int) -> None:
    deck = new_game(variant, seed=5).deck
    order = [deck.face_text(f) for f in range(deck.faces) for _ in range(deck.packs)]
    game = new_game(variant, decks=[order], first_dealer=0, seed=5)
    assert game.dealer == 0 and game.leader == 1 and game.to_act == 1
    for seat in range(players):
        left = (seat - 1) % players  # seat 1 is dealt first, seat 0 (the dealer) last
        start = [left * 3, 3 * players + left * 2, 5 * players + left * 3]
        expected = order[start[0] : start[0] + 3] + order[start[1] : start[1] + 2]
        expected += order[start[2] : start[2] + 3]
        assert [deck.card_text(c) for c in game.hands[seat]] == expected
    assert deck.card_text(game.turn_up) == order[8 * players]
    rng = random.Random(3)
    for hand in range(1, players + 2):
        game.playout(rng, hands=1)
        if game.is_over():
            break
        assert game.dealer == hand % players
        assert game.leader == (hand + 1) % players == game.to_act
        check_invariants(game)


def test_four_hand_variant_numbers() -> None:
    game = new_game("four-hand", seed=1)
    data = game.rules.data
    assert data["players"] == 4 and data["cards"]["packs"] == 4
    assert data["game"]["target"] == 2000
    assert data["endgame"]["mode"] == "duels"
    assert data["declarations"]["combinations"]["triple_bezique"]["points"] == 1500
    assert len(game.stock) == 128 - 32 - 1
    three = new_game("three-hand", seed=1)
    assert three.rules.data["game"]["target"] == 2000 and len(three.stock) == 96 - 24 - 1


# ------------------------------------------------------------------ random games


def declaring_choice(rng: random.Random, legal: list[object]) -> object:
    """Random, but declaring (largest first) half the time, to reach doubles and triples."""
    declares = [a for a in legal if getattr(a, "kind", None) == Kind.DECLARE]
    if declares and rng.random() < 0.5:
        return declares[-1]
    return rng.choice(legal)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["three-hand", "four-hand"])
def test_random_games_conform(variant: str) -> None:
    rng = random.Random(variant)
    hands = 0
    rules_seen: set[str] = set()
    seed = 0
    while hands < 320:
        seed += 1
        game = new_game(variant, seed=seed)
        check_invariants(game)
        while not game.is_over():
            legal = game.legal_actions()
            assert len(set(legal)) == len(legal)
            game.apply(declaring_choice(rng, legal))  # type: ignore[arg-type]
            check_invariants(game)
        hands += game.hand_no + 1
        rules_seen.update(e.rule for e in game.events)
        assert 0 <= game.winner < game.players
        assert game.scores[game.winner] >= 2000
        assert replay(record_of(game)).to_json() == game.to_json()
    assert "bezique" in rules_seen


def test_random_games_from_a_bezique_rich_deal_reach_the_second_double() -> None:
    """Random play from a deal of six bezique cards to seat 1, who builds doubles."""
    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = scenario(
            "three-hand",
            hands=[LOW, beziques_hand("AH", "AH"), LOW],
            turn_up="9H",
            stock=["AH", "KD", "KS"],
            seed=seed,
        )
        while not game.is_over() and game.hand_no == 0:
            legal = game.legal_actions()
            doubles = [a for a in legal if a.combo == "double_bezique"]
            keep = {game.deck.parse_face("QS"), game.deck.parse_face("JD")}
            spare = [
                a
                for a in legal
                if a.kind == Kind.PLAY and game.deck.card_face[a.cards[0]] not in keep
            ]
            if doubles:  # seat 1 builds doubles, never the triple
                action = rng.choice(doubles)
            elif game.to_act == 1 and spare:  # and keeps his bezique cards
                action = rng.choice(spare)
            else:
                action = rng.choice([a for a in legal if a.combo != "triple_bezique"])
            before = points_by_rule(game, game.to_act).get("double_bezique", 0)
            game.apply(action)
            check_invariants(game)
            if before == 500 and points_by_rule(game, 1).get("double_bezique", 0) == 1000:
                seen += 1
                assert from_json(game.to_json()).to_json() == game.to_json()
        assert replay(record_of(game)).to_json() == game.to_json()
    assert seen >= 3, seen
