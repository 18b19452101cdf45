"""The exact end-game solver: alpha-beta with a memo, for two sides who see every card.

Once the stock is gone in two-hand play each player knows the other's hand (every
card not in his own hand and not played is the other's), so the rest of the hand
is a game of perfect information.  :func:`solve` searches it to the end of the
hand through the rules' one path (``legal_actions`` and ``apply`` of copies of
the state: the end-game duties, the trick's winner, the brisques and the last
trick are the variant's own), and values each end by what decides a game first:

- the game won (or lost) at once, as the variant's game check says;
- otherwise the points the sides have scored by the hand's end (the brisques
  counted at the end included), as one side's lead over the other's.

Positions are remembered by the hands, the trick, the seat to act and the
scores, with the bounds alpha-beta proved for them, so that each position is
searched once per window.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bezique.actions import Action
from bezique.state import GAME_OVER

if TYPE_CHECKING:
    from bezique.game import GameState

__all__ = ["WON", "solvable", "solve"]

WON = 1_000_000
"""The value of a game won at once (beyond any lead in points a hand can give)."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


def solvable(state: GameState) -> bool:
    """Whether the rest of the hand is a two-sided game with every card seen by both.

    The stock and the turn-up are gone, two sides play, and no card is out of
    every hand but still to come (so each side's hand is the complement of the
    other's).  Works on a world sampled from a view, where it is then exact.
    """
    return (
        state.phase != GAME_OVER
        and not state.stock
        and state.turn_up < 0
        and len(set(state.side_of)) == 2
    )


def solve(state: GameState, side: int) -> tuple[int, Action]:
    """Return the value for ``side`` of the rest of the hand, and the best action now.

    The value is :data:`WON` (or ``-WON``) when the game ends in the hand, else
    ``side``'s points minus the other side's at the hand's end, counted from the
    scores now.  Ties between actions go to the first in ``legal_actions`` order.
    """
    solver = _Solver(state, side)
    legal = state.legal_actions()
    best_value, best = -2 * WON, legal[0]
    alpha, beta = -2 * WON, 2 * WON
    for action in legal:
        child = state.clone()
        child.apply(action)
        value = solver.value(child, alpha, beta)
        if value > best_value:
            best_value, best = value, action
        alpha = max(alpha, value)
    return best_value, best


class _Solver:
    """One search: the side it is for, the hand it ends with, and its memo."""

    def __init__(self, state: GameState, side: int) -> None:
        self.side = side
        self.hand_no = state.hand_no
        self.start = list(state.scores)
        self.memo: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0

    def value(self, state: GameState, alpha: int, beta: int) -> int:
        """The position's value for :attr:`side`, exact within ``(alpha, beta)``."""
        self.nodes += 1
        if state.phase == GAME_OVER or state.hand_no != self.hand_no:
            return self.leaf(state)
        key = (state.to_act, state.phase, *state.held, *state.trick, *state.scores)
        found = self.memo.get(key)
        if found is not None:
            value, bound = found
            if (
                bound == _EXACT
                or (bound == _LOWER and value >= beta)
                or (bound == _UPPER and value <= alpha)
            ):
                return value
        start_alpha, start_beta = alpha, beta
        mine = state.side_of[state.to_act] == self.side
        best = -2 * WON if mine else 2 * WON
        for action in _ordered(state, state.legal_actions()):
            child = state.clone()
            child.apply(action)
            value = self.value(child, alpha, beta)
            if mine:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best <= start_alpha:
            self.memo[key] = (best, _UPPER)
        elif best >= start_beta:
            self.memo[key] = (best, _LOWER)
        else:
            self.memo[key] = (best, _EXACT)
        return best

    def leaf(self, state: GameState) -> int:
        """The value of a hand's end: the game's result, or the lead in points scored."""
        if state.phase == GAME_OVER:
            if state.winner < 0:
                return 0
            return WON if state.winner == self.side else -WON
        gained = [now - before for now, before in zip(state.scores, self.start, strict=True)]
        return 2 * gained[self.side] - sum(gained)


def _ordered(state: GameState, legal: Sequence[Action]) -> Sequence[Action]:
    """The actions, the highest cards first (they win tricks: earlier cut-offs)."""
    if len(legal) < 3:
        return legal
    rank = state.deck.card_rank
    return sorted(legal, key=lambda action: rank[action.cards[0]] if action.cards else 99)
