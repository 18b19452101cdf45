"""The weights of the search's valuation of held hands (``bezique.players.calibration``).

* The two parts of :func:`held_worth` add up to :func:`held_values`, over random hands
  of six variants, Polish and Rubicon among them: the search and the heuristic count a
  hand by one path.
* The least-squares fit recovers weights from exact data, gives nought to a part that
  never varies and to one that play contradicts.
* A fit is deterministic; Polish, whose declarations come from the open rows and never
  from the hand, gets nought for the combinations' part.
* The search values a stopped play-out by the points gained and the weighed parts.
"""

from __future__ import annotations

import math
import random

import pytest

from bezique.game import GameState, new_game, ruleset_for
from bezique.players.calibration import (
    HELD_WEIGHTS,
    UNIT_WEIGHTS,
    HeldWeights,
    _least_squares,
    fit_held_weights,
    side_worth,
)
from bezique.players.cardvalues import HeldWorth, face_counts, held_values, held_worth, tables_of
from bezique.players.endgame import hand_gains
from bezique.players.search import SCALE, _rewards

VARIANTS = ["ordinary", "grand", "three-hand", "four-hand-partners", "polish", "rubicon"]


def _random_position(variant: str, seed: int) -> GameState:
    state = new_game(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(60)):
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_two_parts_add_up_to_the_heuristics_count(variant: str) -> None:
    for seed in range(25):
        state = _random_position(variant, seed)
        for seat, hand in enumerate(state.hands):
            unseen = [c for other, cards in enumerate(state.hands) if other != seat for c in cards]
            parts = (state.rules, state.trump, state.turn_up, state.levels)
            available = face_counts(tables_of(state.rules), unseen, hand)
            worth = held_worth(*parts, available, hand)
            values = held_values(*parts, unseen, hand)
            assert math.isclose(worth.combinations + worth.strength, sum(values.values()))


def test_side_worth_sums_the_seats_of_each_side() -> None:
    state = _random_position("four-hand-partners", 3)
    worth = side_worth(state)
    assert len(worth) == 2
    for side in range(2):
        seats = [seat for seat in range(4) if state.side_of[seat] == side]
        expected = 0.0
        for seat in seats:
            unseen = [c for other, hand in enumerate(state.hands) if other != seat for c in hand]
            unseen += state.stock
            values = held_values(
                state.rules, state.trump, state.turn_up, state.levels, unseen, state.hands[seat]
            )
            expected += sum(values.values())
        assert math.isclose(worth[side].combinations + worth[side].strength, expected)


def test_least_squares_recovers_exact_weights() -> None:
    rng = random.Random(1)
    rows = []
    for _ in range(200):
        x = [rng.uniform(-100, 100), rng.uniform(-30, 30), rng.uniform(-50, 50), 0.0]
        rows.append((x, 0.3 * x[0] + 1.2 * x[1] + 0.5 * x[2]))
    weights = _least_squares(rows, 4)
    assert [round(w, 4) for w in weights] == [0.3, 1.2, 0.5, 0.0]


def test_least_squares_takes_a_contradicted_weight_as_nought() -> None:
    rng = random.Random(2)
    rows = []
    for _ in range(100):
        x = [rng.uniform(-10, 10), rng.uniform(-10, 10)]
        rows.append((x, 2.0 * x[0] - 0.7 * x[1]))
    first, second = _least_squares(rows, 2)
    assert round(first, 4) == 2.0
    assert second == 0.0


def test_a_fit_is_deterministic_and_never_negative() -> None:
    rules = ruleset_for("ordinary")
    first = fit_held_weights(rules, hands=40, seed=5)
    assert first == fit_held_weights(rules, hands=40, seed=5)
    assert all(weight >= 0.0 for weight in first)
    assert first != fit_held_weights(rules, hands=40, seed=6)


def test_polish_combinations_get_nought() -> None:
    weights = fit_held_weights(ruleset_for("polish"), hands=30)
    assert weights.combinations == 0.0
    assert weights.late_combinations == 0.0


def test_a_stopped_playout_is_valued_by_points_and_weighed_parts() -> None:
    for seed in range(10):
        state = new_game("ordinary", seed=seed)
        hand_no, start = state.hand_no, list(state.scores)
        state.playout(random.Random(seed), 1, tricks=3 + seed % 3)
        assert not state.is_over() and state.hand_no == hand_no
        for weights in (HELD_WEIGHTS, UNIT_WEIGHTS, HeldWeights(0.5, 2.0, 0.0, 1.0)):
            gained = [float(p) for p in hand_gains(state, hand_no, start)]
            for side, worth in enumerate(side_worth(state)):
                gained[side] += weights.value(worth, state.stock_left() > 0)
            lead = gained[0] - gained[1]
            rewards = _rewards(state, hand_no, start, weights)
            assert math.isclose(rewards[0], 0.5 + 0.5 * math.tanh(lead / SCALE))
            assert math.isclose(rewards[0] + rewards[1], 1.0)


def test_without_weights_only_the_points_count() -> None:
    state = new_game("ordinary", seed=4)
    hand_no, start = state.hand_no, list(state.scores)
    state.playout(random.Random(4), 1, tricks=5)
    gained = hand_gains(state, hand_no, start)
    rewards = _rewards(state, hand_no, start, None)
    assert math.isclose(rewards[0], 0.5 + 0.5 * math.tanh((gained[0] - gained[1]) / SCALE))


def test_the_weights_read_the_stock() -> None:
    weights = HeldWeights(1.0, 2.0, 3.0, 4.0)
    assert weights.value(HeldWorth(10.0, 1.0), True) == 12.0
    assert weights.value(HeldWorth(10.0, 1.0), False) == 34.0
