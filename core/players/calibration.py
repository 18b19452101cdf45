"""What a held hand turns out to be worth in play: the weights of the search's valuation.

A search values a play-out stopped inside the hand by the points each side scored
and by what its hands are worth to hold: the heuristic's count
(:func:`~bezique.players.cardvalues.held_worth`), in two parts, the cards' shares of
the combinations they build towards and their strength for the tricks to come.
Both parts are in units of the heuristic's own making.  Taken at face value, the
first swamps the second and the points scored: in the ordinary game the points a
side goes on to win grow by about three tenths of a point for each point of its
combinations' count.

So the two parts are weighed by least squares against play (:func:`fit_held_weights`):

* for each of :data:`HANDS` deals of the variant, the ``heuristic`` plays every seat
  to a trick drawn at random from those dealt while the stock lasts;
* the hand is played on at random for :data:`HORIZON` tricks, the turns declared
  greedily, as a search's play-outs are (:mod:`bezique.players.rollout`);
* each side's held worth is taken, its hands' parts summed, relative to the other
  sides' mean;
* the heuristic plays the hand to its end, and the points each side gained from the
  stopping point, relative likewise, are what the parts are fitted to.

The parts are fitted apart while the stock lasts and once it is gone, as combinations
are declared only while it lasts in most variants: four weights, no constant (the sides
are alike).  A weight the play does not support (a part always nought, as the
combinations of Polish, where the open rows are declared from) comes out nought; a
negative one is taken as nought.  The deals are seeded, so a fit is the same on every
run.  A fit of the ordinary game takes minutes (the noise of the hands' ends needs
thousands of deals), so the search does not fit on first use: it ships the ordinary
game's weights (:data:`HELD_WEIGHTS`) for every variant.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from bezique.engine.state import GAME_OVER
from bezique.game import GameState, new_game
from bezique.players import Player
from bezique.players.cardvalues import HeldWorth, face_counts, held_worth, tables_of
from bezique.players.endgame import hand_gains
from bezique.players.heuristic import HeuristicPlayer
from bezique.players.rollout import greedy_turns
from bezique.rules.ruleset import Ruleset

__all__ = [
    "HELD_WEIGHTS",
    "HORIZON",
    "UNIT_WEIGHTS",
    "HeldWeights",
    "ahead",
    "fit_held_weights",
    "play_on",
    "side_worth",
]

HANDS = 6000
"""The deals a fit plays unless told (those of :data:`HELD_WEIGHTS`)."""
HORIZON = 4
"""The random tricks played before the hands are valued, as a search's play-outs."""
SEED = 0
"""The first deal's seed: deal ``i`` is seeded ``SEED + i``."""
RIDGE = 1e-6
"""Added, in proportion to the mean square of the parts, to the fit's diagonal: a part
that never varies gets weight nought instead of none."""


class HeldWeights(NamedTuple):
    """Points a side goes on to win for each point of its held worth's parts."""

    combinations: float
    """Of the combinations' part, while the stock lasts."""
    strength: float
    """Of the strength's part, while the stock lasts."""
    late_combinations: float
    """Of the combinations' part once the stock is gone."""
    late_strength: float
    """Of the strength's part once the stock is gone."""

    def value(self, worth: HeldWorth, stock_left: bool) -> float:
        """What ``worth`` is worth in points, while the stock lasts or once it is gone."""
        if stock_left:
            return self.combinations * worth.combinations + self.strength * worth.strength
        return self.late_combinations * worth.combinations + self.late_strength * worth.strength


HELD_WEIGHTS = HeldWeights(0.29, 1.11, 0.0, 0.65)
"""The search's weights in every variant (``worth=fitted``, the default): the ordinary
game's, fitted on 6,000 deals from seed 0 and rounded to two places (docs/play/players.md
says how to fit them again).  Fits on 2,000 and on 300 deals of other seeds gave 0.27 and 0.16-0.37
for the combinations' part: 300 deals are too few to fit a variant on first use."""
UNIT_WEIGHTS = HeldWeights(1.0, 1.0, 1.0, 1.0)
"""The heuristic's count at face value (the search's ``worth=counted``)."""


def side_worth(state: GameState) -> list[HeldWorth]:
    """Each side's held worth in ``state``: its seats' hands, valued against every other card.

    The cards still to be had by a seat are those of the other hands and the stock.
    """
    totals = [[0.0, 0.0] for _ in range(max(state.side_of) + 1)]
    hands = state.hands
    available = face_counts(tables_of(state.rules), state.stock, *hands)
    for seat, hand in enumerate(hands):
        worth = held_worth(state.rules, state.trump, state.turn_up, state.levels, available, hand)
        side = totals[state.side_of[seat]]
        side[0] += worth.combinations
        side[1] += worth.strength
    return [HeldWorth(combinations, strength) for combinations, strength in totals]


def fit_held_weights(rules: Ruleset, hands: int = HANDS, seed: int = SEED) -> HeldWeights:
    """Fit the weights of ``rules`` on ``hands`` deals seeded from ``seed`` (see the module)."""
    rows: list[tuple[list[float], float]] = []
    for number in range(hands):
        rows.extend(_sample(rules, seed + number))
    return HeldWeights(*_least_squares(rows, 4))


def _sample(rules: Ruleset, seed: int) -> list[tuple[list[float], float]]:
    """One deal's rows: each side's four parts and the points it then gained, all relative."""
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    player = HeuristicPlayer()
    hand_no = state.hand_no
    stop = rng.randrange(len(state.stock) // state.players + 1)
    play_on(state, player, rng, until_trick=stop)
    if not _in_hand(state, hand_no):
        return []
    state.playout(rng, 1, tricks=HORIZON, turns=greedy_turns(rules))
    if not _in_hand(state, hand_no):
        return []
    late = not state.stock_left()
    worth = side_worth(state)
    start = list(state.scores)
    play_on(state, player, rng)
    gained = hand_gains(state, hand_no, start)
    parts = [
        [0.0, 0.0, w.combinations, w.strength] if late else [w.combinations, w.strength, 0.0, 0.0]
        for w in worth
    ]
    columns = list(zip(*parts, strict=True))  # each part, side by side
    return [
        ([ahead(column, side) for column in columns], ahead(gained, side))
        for side in range(len(gained))
    ]


def play_on(
    state: GameState, player: Player, rng: random.Random, until_trick: int | None = None
) -> None:
    """Let ``player`` choose for every seat of ``state`` until the hand in play ends.

    With ``until_trick``, stop sooner, once the hand's tricks done number that many.
    """
    hand_no = state.hand_no
    while _in_hand(state, hand_no) and (until_trick is None or state.tricks_done < until_trick):
        legal = state.legal_actions()
        state.apply(player.choose(state.view(state.to_act), legal, rng))


def _in_hand(state: GameState, hand_no: int) -> bool:
    return state.phase != GAME_OVER and state.hand_no == hand_no


def ahead(values: Sequence[float], side: int) -> float:
    """How far ``side``'s value is above the mean of the other sides' (of two or more)."""
    return values[side] - (sum(values) - values[side]) / (len(values) - 1)


def _least_squares(rows: list[tuple[list[float], float]], size: int) -> list[float]:
    """The weights ``w`` (none below nought) minimising the squared error of ``x . w`` to ``y``.

    Solved by the normal equations, with :data:`RIDGE` on the diagonal.
    """
    gram = [[0.0] * size for _ in range(size)]
    moment = [0.0] * size
    for x, y in rows:
        for i in range(size):
            moment[i] += x[i] * y
            for j in range(size):
                gram[i][j] += x[i] * x[j]
    ridge = RIDGE * (sum(gram[i][i] for i in range(size)) / size or 1.0)
    for i in range(size):
        gram[i][i] += ridge
    return [max(0.0, w) for w in _solve(gram, moment)]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (``matrix`` is positive definite)."""
    size = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for row in range(col + 1, size):
            factor = a[row][col] / a[col][col]
            for k in range(col, size + 1):
                a[row][k] -= factor * a[col][k]
    solution = [0.0] * size
    for row in reversed(range(size)):
        rest = sum(a[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = (a[row][size] - rest) / a[row][row]
    return solution
