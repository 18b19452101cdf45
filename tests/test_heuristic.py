"""The ``heuristic`` player: exact choices in stacked positions, whole games of every
variant without an illegal action, and its margin over ``random`` on paired deals."""

from __future__ import annotations

import random

import pytest

from bezique.game import GameState, new_game, ruleset_for
from bezique.players import Player, decide, player_for
from bezique.testing import play_out, scenario
from bezique.variant import variant_summaries

HEURISTIC = player_for("heuristic")
RANDOM = player_for("random")


def choice(state: GameState) -> str:
    """The heuristic's action for the seat to act, as text."""
    return state.action_text(decide(HEURISTIC, state, random.Random(0)))


def won_first_trick(hand: list[str], turn_up: str = "9H") -> GameState:
    """Seat 0 leads 7S from ``hand`` (which holds it) and wins it over seat 1's 8D: its turn."""
    state = scenario(
        "ordinary",
        hands=[hand, ["8D", "9D", "7D", "8C", "9C", "7C", "JC", "JS"]],
        turn_up=turn_up,
        dealer=1,
    )
    return play_out(state, ["play 7S", "play 8D"])


def test_it_declares_the_highest_scoring_combination() -> None:
    state = won_first_trick(["7S", "KS", "KH", "KD", "KC", "QC", "8S", "9S"])
    assert "declare marriage KC QC" in [state.action_text(a) for a in state.legal_actions()]
    assert choice(state) == "declare four_kings KS KH KD KC"


def test_it_marries_the_trumps_before_the_sequence_while_tricks_remain() -> None:
    state = won_first_trick(["7S", "AH", "TH", "KH", "QH", "JH", "8S", "9S"])
    texts = [state.action_text(a) for a in state.legal_actions()]
    assert "declare sequence AH TH KH QH JH" in texts
    assert choice(state) == "declare royal_marriage KH QH"


def test_it_declares_one_bezique_and_keeps_the_other_for_the_double() -> None:
    """S0 footnote 3: a single then the double scores 540, all four at once 500 only;
    a second single now would leave the double no new card."""
    state = won_first_trick(["7S", "QS", "JD", "QS", "JD", "8S", "9S", "8C"])
    texts = [state.action_text(a) for a in state.legal_actions()]
    assert "declare double_bezique QS QS JD JD" in texts
    assert choice(state) == "declare bezique QS JD"
    state.apply("declare bezique QS JD")
    assert "declare bezique QS JD" in [state.action_text(a) for a in state.legal_actions()]
    assert choice(state) == "draw"


def test_one_declaration_a_trick_it_scores_the_best_and_announces_the_next() -> None:
    state = scenario(
        "hoyle1909",
        hands=[
            ["7S", "KS", "QS", "JD", "8S", "9S", "8C", "9C"],
            ["8D", "9D", "7D", "AC", "TC", "7C", "JC", "JS"],
        ],
        turn_up="9H",
        dealer=1,
    )
    play_out(state, ["play 7S", "play 8D"])
    assert choice(state) == "declare bezique QS JD"
    state.apply("declare bezique QS JD")
    assert choice(state) == "announce marriage KS QS*"
    state.apply("announce marriage KS QS*")
    assert choice(state) == "draw"


def test_it_exchanges_the_seven_when_the_turn_up_is_better() -> None:
    state = won_first_trick(["7S", "7H", "8S", "9S", "JC", "8C", "9D", "JD"], turn_up="AH")
    assert choice(state) == "exchange 7H"
    state.apply("exchange 7H")
    assert choice(state) == "draw"


def test_it_leads_a_worthless_card_rather_than_a_bezique_card() -> None:
    state = scenario(
        "ordinary",
        hands=[
            ["QS", "JD", "7C", "AS", "TD", "KH", "QH", "JH"],
            ["8D", "9D", "7D", "8C", "9C", "JC", "8S", "JS"],
        ],
        turn_up="9H",
        dealer=1,
    )
    assert choice(state) == "play 7C"


def test_it_takes_a_ten_with_its_cheapest_winning_card() -> None:
    state = scenario(
        "ordinary",
        hands=[
            ["8H", "AH", "KH", "7C", "8D", "9S", "JD", "QC"],
            ["TS", "9D", "7D", "8C", "9C", "JC", "8S", "JS"],
        ],
        turn_up="9H",
        dealer=0,
    )
    assert state.to_act == 1
    state.apply("play TS")
    assert choice(state) == "play 8H"


def test_it_throws_a_worthless_card_on_a_worthless_lead() -> None:
    state = scenario(
        "ordinary",
        hands=[
            ["8H", "AH", "KH", "7C", "AD", "KS", "QD", "TH"],
            ["7D", "9D", "TD", "8C", "9C", "JC", "8S", "JS"],
        ],
        turn_up="9H",
        dealer=0,
    )
    state.apply("play 7D")
    assert choice(state) == "play 7C"


def test_it_answers_the_lift_with_the_packet_aimed_at() -> None:
    state = new_game("six-pack-lift", seed=5)
    assert state.phase == "question"
    assert choice(state) == "choose lift 24"


def self_play(state: GameState, players: list[Player], seed: int) -> GameState:
    """Play ``state`` to its end, seat ``s`` by ``players[s % len(players)]``."""
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(decide(players[state.to_act % len(players)], state, rng))
    return state


@pytest.mark.parametrize("seed", [3, 8])
def test_in_the_end_game_it_makes_its_brisques_when_it_takes_a_trick(seed: int) -> None:
    """Two-hand end-games of heuristic play: answering a lead it can take, it takes it,
    and with an ace or a ten among its winning cards, it wins with one of them."""
    state = new_game("ordinary", seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not state.is_over():
        legal = state.legal_actions()
        action = decide(HEURISTIC, state, rng)
        if state.phase == "play" and state.trick and not state.stock and state.turn_up < 0:
            takes = [a for a in legal if _beats(state, a.cards[0], state.trick[0])]
            brisques = [a for a in takes if state.deck.card_rank[a.cards[0]] in (0, 1)]
            if brisques and len(brisques) < len(legal):
                assert action in brisques
                checked += 1
            elif takes:
                assert action in takes
        state.apply(action)
    assert checked > 0


def _beats(state: GameState, card: int, led: int) -> bool:
    suit, rank = state.deck.card_suit, state.deck.card_rank
    if suit[card] == suit[led]:
        return rank[card] < rank[led]
    return suit[card] == state.trump


VARIANTS = [name for name, _ in variant_summaries()]


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_plays_a_whole_game_of_every_variant(variant: str) -> None:
    """Against ``random`` (its side first), a game to a short target: never an illegal
    action (``decide`` refuses one), in every phase the variant opens."""
    target = ruleset_for(variant).target
    short = {} if target is None else {"game": {"target": min(target, 300)}}  # one deal: as it is
    state = new_game(variant, seed=7, overrides=short)
    sides = state.rules.side_of
    players = [HEURISTIC if sides[s] == sides[0] else RANDOM for s in range(state.players)]
    assert self_play(state, players, 7).is_over()


def test_it_beats_random_on_paired_deals() -> None:
    """20 deals of ordinary played twice, seats swapped: it wins at least 75% (seeded)."""
    wins = 0
    for deal in range(20):
        for seat in (0, 1):
            state = new_game("ordinary", seed=100 + deal)
            players: list[Player] = [RANDOM, RANDOM]
            players[seat] = HEURISTIC
            wins += self_play(state, players, deal).winner == seat
    assert wins >= 30


def test_it_is_deterministic() -> None:
    first = self_play(new_game("grand", seed=2), [HEURISTIC], 1)
    again = self_play(new_game("grand", seed=2), [HEURISTIC], 99)
    assert first.history == again.history


def four_hands(hands: list[list[str]], *plays: str) -> GameState:
    """A four-hand partnership deal (seat 0 leads) after ``plays``."""
    state = scenario("four-hand-partners", hands=hands, turn_up="9H", dealer=3)
    return play_out(state, [f"play {card}" for card in plays])


def test_it_does_not_trump_a_trick_its_partner_is_winning() -> None:
    """Seat 0 leads AS, seat 1 follows low: seat 2, its partner, throws its worthless
    card rather than trump it."""
    state = four_hands(
        [
            ["AS", "9C", "8C", "9D", "8D", "JS", "JC", "9S"],
            ["7S", "7D", "8D", "9D", "JD", "JH", "8S", "7C"],
            ["8H", "7C", "AH", "TH", "KD", "QD", "KS", "AC"],
            ["TC", "7H", "9H", "8C", "JD", "QC", "9S", "8S"],
        ],
        "AS",
        "7S",
    )
    assert state.to_act == 2
    assert choice(state) == "play 7C"


def test_last_to_play_it_puts_a_ten_on_its_partners_trick() -> None:
    """Seat 0 leads 7S, seat 1 takes it with AS, seat 2 plays low: seat 3, seat 1's
    partner and last to play, adds its plain ten to the trick."""
    state = four_hands(
        [
            ["7S", "9C", "8C", "9D", "8D", "JS", "JC", "9S"],
            ["AS", "7D", "8D", "9D", "JD", "JH", "8S", "7C"],
            ["8S", "7C", "AH", "TH", "KD", "QD", "KS", "AC"],
            ["TC", "7H", "9H", "8C", "JD", "QC", "9S", "8S"],
        ],
        "7S",
        "AS",
        "8S",
    )
    assert state.to_act == 3
    assert choice(state) == "play TC"
