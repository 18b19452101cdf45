"""The statistics of a tournament: score intervals and Elo ratings.

Plain values in, plain values out (no game, no player): the Wilson score interval
of a win fraction, the Elo difference a win fraction stands for, and the joint
maximum-likelihood fit of every player's Elo rating from pairwise results
(the Bradley-Terry model on the Elo scale), with intervals from the Fisher
information.  A drawn game counts as half a win to each player throughout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.96
"""The two-sided 95% point of the standard normal distribution (1.95996..., rounded)."""

ELO_SCALE = 400 / math.log(10)
"""Elo points per unit of the logistic model's natural scale (about 173.72)."""

_MAX_NEWTON_STEPS = 100
_TOLERANCE = 1e-10
_LONGEST_STEP = 2.0
"""The longest Newton step on the natural scale (about 350 Elo): no overshoot from 0."""


def wilson(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the win fraction ``wins / n``.

    ``wins`` may hold halves, and ``n`` may be an effective number of trials, not a
    whole one.  ``z`` is the normal quantile (1.96 for 95%).  With no games the interval is 0..1.
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be from 0 to {n}, not {wins}")
    p = wins / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / n + z2n / (4 * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_from_fraction(fraction: float) -> float:
    """The Elo difference at which the stronger player scores ``fraction`` of the points.

    ``400 * log10(f / (1 - f))``: 0 at one half, about +191 at three quarters; infinite
    at 0 and 1.
    """
    if not 0 <= fraction <= 1:
        raise ValueError(f"a fraction is from 0 to 1, not {fraction}")
    if fraction in (0, 1):
        return math.inf if fraction == 1 else -math.inf
    return 400 * math.log10(fraction / (1 - fraction))


def expected_fraction(difference: float) -> float:
    """The share of the points the Elo model expects for a player ``difference`` Elo above."""
    return 1 / (1 + 10 ** (-difference / 400))


@dataclass(frozen=True)
class PairResult:
    """The games between two players: ``first``'s points (wins, halves for draws) of ``games``."""

    first: int
    second: int
    score: float
    games: int


@dataclass(frozen=True)
class EloFit:
    """Every player's Elo rating, anchored at ``anchor`` = 0, with standard errors.

    ``ratings`` and ``errors`` are None when the maximum-likelihood estimate is not
    finite: some group of players won (or lost) every game against the others, or
    the players do not all meet each other through some chain of pairs.
    """

    anchor: int
    ratings: tuple[float, ...] | None
    errors: tuple[float, ...] | None

    def interval(self, player: int, z: float = Z95) -> tuple[float, float] | None:
        """The ``z`` interval of one player's rating (standard error times ``z``)."""
        if self.ratings is None or self.errors is None:
            return None
        return self.ratings[player] - z * self.errors[player], (
            self.ratings[player] + z * self.errors[player]
        )


def fit_elo(players: int, results: Sequence[PairResult], anchor: int = 0) -> EloFit:
    """Fit the ratings of ``players`` players jointly by maximum likelihood.

    The model: ``first`` scores against ``second`` with probability
    ``1 / (1 + 10 ** ((r_second - r_first) / 400))``, a draw being half a win.  The
    anchor's rating is fixed at 0; the standard errors are the square roots of the
    diagonal of the inverse Fisher information of the other ratings (the anchor's is 0).
    """
    if not 0 <= anchor < players:
        raise ValueError(f"anchor {anchor} is not one of the {players} players")
    if not _estimable(players, results):
        return EloFit(anchor, None, None)
    free = [p for p in range(players) if p != anchor]
    theta = [0.0] * players
    for _ in range(_MAX_NEWTON_STEPS):
        gradient, information = _derivatives(players, results, theta)
        step = _solve(
            [[information[i][j] for j in free] for i in free], [gradient[i] for i in free]
        )
        longest = max((abs(s) for s in step), default=0.0)
        if longest > _LONGEST_STEP:
            step = [s * _LONGEST_STEP / longest for s in step]
        for index, player in enumerate(free):
            theta[player] += step[index]
        if longest < _TOLERANCE:
            break
    _, information = _derivatives(players, results, theta)
    covariance = _inverse([[information[i][j] for j in free] for i in free])
    errors = [0.0] * players
    for index, player in enumerate(free):
        errors[player] = ELO_SCALE * math.sqrt(covariance[index][index])
    return EloFit(anchor, tuple(ELO_SCALE * t for t in theta), tuple(errors))


def _estimable(players: int, results: Sequence[PairResult]) -> bool:
    """Whether the likelihood has a finite maximum.

    It has when every player scored against, and gave up points to, a chain of others
    reaching every player (the graph of who scored against whom is strongly connected).
    """
    if players == 1:
        return True
    beats: list[set[int]] = [set() for _ in range(players)]
    for result in results:
        if result.score > 0:
            beats[result.first].add(result.second)
        if result.score < result.games:
            beats[result.second].add(result.first)
    forward = _reached(beats, 0)
    backward = _reached([{a for a in range(players) if b in beats[a]} for b in range(players)], 0)
    return len(forward) == len(backward) == players


def _reached(edges: Sequence[set[int]], start: int) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        for other in edges[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return seen


def _derivatives(
    players: int, results: Sequence[PairResult], theta: Sequence[float]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and the Fisher information on the natural scale."""
    gradient = [0.0] * players
    information = [[0.0] * players for _ in range(players)]
    for r in results:
        p = 1 / (1 + math.exp(theta[r.second] - theta[r.first]))
        gradient[r.first] += r.score - r.games * p
        gradient[r.second] -= r.score - r.games * p
        weight = r.games * p * (1 - p)
        information[r.first][r.first] += weight
        information[r.second][r.second] += weight
        information[r.first][r.second] -= weight
        information[r.second][r.first] -= weight
    return gradient, information


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` (Gaussian elimination with partial pivoting)."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a square matrix, column by column."""
    size = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(size)]) for j in range(size)]
    return [[columns[j][i] for j in range(size)] for i in range(size)]
