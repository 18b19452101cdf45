"""The tournament's statistics (bezique.simulation.ratings), against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from bezique.simulation.ratings import (
    ELO_SCALE,
    Z95,
    EloFit,
    PairResult,
    elo_from_fraction,
    expected_fraction,
    fit_elo,
    wilson,
)


def _wilson_by_roots(wins: float, n: int, z: float) -> tuple[float, float]:
    """The interval's ends as the roots of (p - x)^2 = z^2 x (1 - x) / n, a quadratic in x."""
    p = wins / n
    a = 1 + z * z / n
    b = -(2 * p + z * z / n)
    c = p * p
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def test_wilson_85_of_100_is_0767_to_0907() -> None:
    low, high = wilson(85, 100)
    assert (round(low, 3), round(high, 3)) == (0.767, 0.907)
    assert (low, high) == pytest.approx(_wilson_by_roots(85, 100, 1.96), abs=1e-12)


@pytest.mark.parametrize(("wins", "n"), [(0, 10), (10, 10), (1, 3), (100.5, 200), (0.5, 1)])
def test_wilson_agrees_with_the_quadratic_roots(wins: float, n: int) -> None:
    assert wilson(wins, n) == pytest.approx(_wilson_by_roots(wins, n, Z95), abs=1e-12)


def test_wilson_of_half_wins_counts_draws_as_half() -> None:
    # 50 wins and 20 draws of 100 games: 60 points, the interval of 60/100
    assert wilson(50 + 20 / 2, 100) == wilson(60, 100)
    assert wilson(60, 100) == pytest.approx((0.502, 0.691), abs=5e-4)


def test_wilson_with_no_games_is_everything_and_bad_counts_are_refused() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="wins must be from 0 to 10"):
        wilson(11, 10)


def test_elo_from_fraction() -> None:
    assert elo_from_fraction(0.5) == 0.0
    assert elo_from_fraction(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_from_fraction(0.75) == pytest.approx(190.849, abs=1e-3)
    assert elo_from_fraction(0.25) == pytest.approx(-190.849, abs=1e-3)
    assert elo_from_fraction(1.0) == math.inf
    assert elo_from_fraction(0.0) == -math.inf
    assert expected_fraction(elo_from_fraction(0.9)) == pytest.approx(0.9)
    with pytest.raises(ValueError, match="from 0 to 1"):
        elo_from_fraction(1.5)


def test_two_players_fit_is_the_fraction_and_its_error_the_fisher_information() -> None:
    fit = fit_elo(2, [PairResult(0, 1, 75, 100)], anchor=1)
    assert fit.ratings is not None and fit.errors is not None
    assert fit.ratings[0] == pytest.approx(190.849, abs=1e-3)
    assert fit.ratings[1] == 0.0
    # information n p (1 - p) = 100 * 0.75 * 0.25 = 18.75 on the natural scale
    assert fit.errors[0] == pytest.approx(ELO_SCALE / math.sqrt(18.75))
    assert fit.errors[0] == pytest.approx(40.118, abs=1e-3)
    assert fit.errors[1] == 0.0
    low, high = fit.interval(0) or (0.0, 0.0)
    assert (low, high) == pytest.approx(
        (190.849 - 1.96 * 40.118, 190.849 + 1.96 * 40.118), abs=1e-2
    )


def test_three_players_consistent_results_fit_exactly() -> None:
    # A scores 3:1 against B, B 3:1 against C, A 9:1 against C: Elo A = +190.85, C = -190.85
    results = [PairResult(0, 1, 75, 100), PairResult(1, 2, 75, 100), PairResult(0, 2, 90, 100)]
    fit = fit_elo(3, results, anchor=1)
    assert fit.ratings == pytest.approx((190.849, 0.0, -190.849), abs=1e-3)
    # Fisher information of (A, C) with B fixed: weights AB 18.75, BC 18.75, AC 9:
    # [[27.75, -9], [-9, 27.75]], whose inverse has 27.75 / (27.75^2 - 81) on its diagonal
    variance = 27.75 / (27.75**2 - 81)
    assert fit.errors == pytest.approx(
        (ELO_SCALE * math.sqrt(variance), 0.0, ELO_SCALE * math.sqrt(variance))
    )
    assert fit.errors is not None and fit.errors[0] == pytest.approx(34.862, abs=1e-3)


def test_the_anchor_moves_every_rating_alike() -> None:
    results = [PairResult(0, 1, 60, 100), PairResult(1, 2, 45.5, 100), PairResult(0, 2, 70, 100)]
    first = fit_elo(3, results, anchor=0)
    second = fit_elo(3, results, anchor=2)
    assert first.ratings is not None and second.ratings is not None
    shift = second.ratings[0] - first.ratings[0]
    assert [b - a for a, b in zip(first.ratings, second.ratings, strict=True)] == pytest.approx(
        [shift] * 3
    )
    assert first.ratings[0] == 0.0 and second.ratings[2] == 0.0


def test_a_player_who_won_every_game_has_no_finite_rating() -> None:
    assert fit_elo(2, [PairResult(0, 1, 10, 10)]) == EloFit(0, None, None)
    assert fit_elo(2, [PairResult(0, 1, 0, 10)]).interval(1) is None
    # one drawn game of ten is half a win each way: the estimate is finite again
    fit = fit_elo(2, [PairResult(0, 1, 9.5, 10)])
    assert fit.ratings is not None
    assert fit.ratings[1] == pytest.approx(-elo_from_fraction(0.95))
    # two groups that never met have no common scale
    assert fit_elo(4, [PairResult(0, 1, 5, 10), PairResult(2, 3, 5, 10)]).ratings is None


def test_a_bad_anchor_is_refused() -> None:
    with pytest.raises(ValueError, match="anchor 3 is not one of the 2 players"):
        fit_elo(2, [PairResult(0, 1, 5, 10)], anchor=3)
