"""The figures of ``bezique compare`` and their 95% intervals, per variant and per pair.

Every figure is a ratio of two sums over the games, ``R = sum(Y) / sum(X)``: a mean
per game has ``X = 1``, a figure per hand has ``X`` the game's hands.  The game is
the unit throughout (its hands are not independent of each other):

- a mean or a ratio gets ``R ± t * s / sqrt(n)``, ``s`` the standard deviation of
  the game's linearized value ``u = (Y - R * X) / mean(X)`` (the delta method; for a
  mean per game it is the usual t interval), ``t`` Student's 97.5% point with
  ``n - 1`` degrees of freedom;
- a share gets the Wilson score interval (:func:`bezique.simulation.ratings.wilson`): of the
  games, or for a share of hands, of the hands' effective number (the hands divided
  by the design effect of their games, :func:`_effective_size`);
- the difference of a figure between two variants played on the same seeds is
  paired game by game: ``R_B - R_A ± t * s_d / sqrt(n)``, ``s_d`` the standard
  deviation of ``u_B - u_A``.  It is marked when its interval leaves out zero.

With fewer than two games there is no interval (``None``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bezique.compare.games import (
    CLASSES,
    DECLARATIONS,
    PENALTIES,
    SETTLEMENT,
    GameSummary,
    rule_class,
)
from bezique.simulation.ratings import wilson

NORMAL_975 = 1.959963984540054
"""The 97.5% point of the standard normal distribution."""

_EXACT_T = {
    1: 12.706204736,
    2: 4.302652730,
    3: 3.182446305,
    4: 2.776445105,
    5: 2.570581836,
    6: 2.446911851,
    7: 2.364624252,
    8: 2.306004135,
    9: 2.262157163,
}
"""Student's 97.5% points for the fewest degrees of freedom (the series below is for more)."""


def t95(df: int) -> float:
    """Student's t two-sided 95% point (the 97.5% quantile) for ``df`` degrees of freedom.

    From a table below 10; above, the Cornish-Fisher series in ``1/df`` about the
    normal point (five terms), good to better than 1e-6.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df in _EXACT_T:
        return _EXACT_T[df]
    z = NORMAL_975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    g5 = (27 * z**11 + 339 * z**9 + 930 * z**7 - 1782 * z**5 - 765 * z**3 + 17955 * z) / 368640
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4 + g5 / df**5


@dataclass(frozen=True)
class Estimate:
    """A figure of one variant with its 95% interval (None with fewer than two games)."""

    value: float
    low: float | None
    high: float | None

    def json(self) -> dict[str, float | None]:
        """The JSON form: ``value``, ``low``, ``high``."""
        return {"value": self.value, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Difference:
    """The paired difference B - A of a figure, with its 95% interval and its mark."""

    value: float
    low: float | None
    high: float | None

    @property
    def excludes_zero(self) -> bool:
        """Whether the interval leaves out zero (the difference is marked)."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def json(self) -> dict[str, float | bool | None]:
        """The JSON form: ``difference``, ``low``, ``high``, ``excludes_zero``."""
        return {
            "difference": self.value,
            "low": self.low,
            "high": self.high,
            "excludes_zero": self.excludes_zero,
        }


Part = Callable[[GameSummary], float]
"""What a figure takes from a game: its Y or its X."""


@dataclass(frozen=True)
class Figure:
    """A figure: its JSON key, its words, its ``Y`` and ``X``, and whether it is a share."""

    key: str
    label: str
    top: Part
    bottom: Part
    share: bool = False


class Figures:
    """The figures of the variants compared (the combinations differ between variants)."""

    def __init__(self, combinations: Sequence[frozenset[str]]) -> None:
        """``combinations``: for each variant, the names of its combinations."""
        every = frozenset().union(*combinations)
        self.combinations = every

    def main(self) -> list[Figure]:
        """The figures of the first table, in its order."""
        return [
            Figure("points_per_game", "points per game, a side", _side_mean, _one),
            Figure("hands_per_game", "hands per game", lambda g: g.hands, _one),
            Figure("tricks_per_hand", "tricks per hand", lambda g: g.tricks, _hands),
            Figure("points_per_hand", "points per hand, all seats", self._scored, _hands),
            Figure(
                "first_player_wins",
                "first player's share of wins",
                _first_won,
                _one,
                share=True,
            ),
            Figure(
                "declaration_share",
                "share of points from declarations",
                self.class_part(DECLARATIONS),
                self._counted,
            ),
            Figure(
                "lead_changes_per_game", "lead changes per game", lambda g: g.lead_changes, _one
            ),
            Figure(
                "both_over_target",
                "hands ending with two sides over the target",
                lambda g: g.both_over,
                _hands,
                share=True,
            ),
        ]

    def by_class(self, classes: Sequence[str] = CLASSES) -> list[Figure]:
        """Points per hand under each of ``classes`` of rules (all seats together)."""
        return [Figure(name, name, self.class_part(name), _hands) for name in classes]

    def by_rule(self, rules: Sequence[str]) -> list[Figure]:
        """Points per hand under each rule of ``rules`` (all seats together)."""
        return [Figure(rule, rule, _rule_part(rule), _hands) for rule in rules]

    def class_part(self, name: str) -> Part:
        """A game's points (all seats) under the rules of class ``name``."""
        every = self.combinations
        return lambda g: sum(p for rule, p in g.rule_points if rule_class(rule, every) == name)

    def _scored(self, game: GameSummary) -> float:
        every = self.combinations
        return sum(p for rule, p in game.rule_points if rule_class(rule, every) != SETTLEMENT)

    def _counted(self, game: GameSummary) -> float:
        """Every point scored but the penalties' and the settlement's."""
        every = self.combinations
        return sum(
            p
            for rule, p in game.rule_points
            if rule_class(rule, every) not in (PENALTIES, SETTLEMENT)
        )


def _one(game: GameSummary) -> float:
    return 1.0


def _hands(game: GameSummary) -> float:
    return game.hands


def _side_mean(game: GameSummary) -> float:
    return sum(game.scores) / len(game.scores)


def _first_won(game: GameSummary) -> float:
    """1 when the first player's side won, one half for a drawn game, else 0."""
    return 0.5 if game.winner < 0 else float(game.winner == game.first_side)


def _rule_part(rule: str) -> Part:
    return lambda g: next((p for r, p in g.rule_points if r == rule), 0)


def _linearized(games: Sequence[GameSummary], figure: Figure) -> tuple[float, list[float]]:
    """The figure's value and each game's linearized value ``u`` (see the module docstring)."""
    tops = [figure.top(g) for g in games]
    bottoms = [figure.bottom(g) for g in games]
    total = sum(bottoms)
    if total == 0:
        return 0.0, [0.0] * len(games)
    ratio = sum(tops) / total
    mean = total / len(games)
    return ratio, [(y - ratio * x) / mean for y, x in zip(tops, bottoms, strict=True)]


def _half_width(values: Sequence[float]) -> float | None:
    n = len(values)
    if n < 2:
        return None
    centre = math.fsum(values) / n
    variance = math.fsum((v - centre) ** 2 for v in values) / (n - 1)
    return t95(n - 1) * math.sqrt(variance / n)


def _effective_size(share: float, spread: Sequence[float], units: float) -> float:
    """How many independent units a share of ``units`` (games, or hands of games) is worth.

    A share of games is of independent games: ``units`` itself.  A share of hands counts
    hands that are not independent (those of one game are alike), so ``units`` is divided
    by the design effect: the variance of the share with the game as the unit (from the
    linearized values ``spread``) over the variance it would have if every hand were
    drawn alone, never taken below 1 (Kish's effective sample size).
    """
    games = len(spread)
    if units == games or not 0 < share < 1:
        return units
    clustered = math.fsum(u * u for u in spread) / (games - 1) / games
    alone = share * (1 - share) / units
    return units / max(1.0, clustered / alone)


def estimate(games: Sequence[GameSummary], figure: Figure) -> Estimate:
    """The figure over ``games`` with its 95% interval (Wilson for a share)."""
    value, spread = _linearized(games, figure)
    if len(games) < 2:
        return Estimate(value, None, None)
    if figure.share:
        size = _effective_size(value, spread, math.fsum(figure.bottom(g) for g in games))
        low, high = wilson(value * size, size, NORMAL_975)
        return Estimate(value, low, high)
    half = _half_width(spread)
    assert half is not None
    return Estimate(value, value - half, value + half)


def difference(a: Sequence[GameSummary], b: Sequence[GameSummary], figure: Figure) -> Difference:
    """The figure of ``b`` less that of ``a``, paired game by game (the same seeds)."""
    value_a, spread_a = _linearized(a, figure)
    value_b, spread_b = _linearized(b, figure)
    value = value_b - value_a
    half = _half_width([ub - ua for ua, ub in zip(spread_a, spread_b, strict=True)])
    if half is None:
        return Difference(value, None, None)
    return Difference(value, value - half, value + half)
