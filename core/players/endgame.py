"""The exact end-game solver: alpha-beta with a memo, for two sides who see every card.

Once the stock is gone in two-hand play each player knows the other's hand (every
card not in his own hand and not played is the other's), so the rest of the hand
is a game of perfect information.  :func:`solve` searches it to the end of the
hand through the rules' one path (``legal_actions`` and ``apply`` of copies of
the state: the end-game duties, the trick's winner, the brisques and the last
trick are the variant's own), and values each end by what decides a game first:

- the game won (or lost) in the hand, as the variant's game check says;
- otherwise the points the sides score in the rest of the hand (the brisques
  counted at its end included, the next deal's not), as one side's lead over the
  other's.

Positions are remembered by the hands, the trick, the seat to act, the scores
and the cards each seat has won (brisques counted at the hand's end, or a
Rubicon's tie broken by them, read those), with the bounds alpha-beta proved
for them, so that each position is searched once per window.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bezique.actions import Action
from bezique.engine.state import GAME_OVER

if TYPE_CHECKING:
    from bezique.game import GameState

__all__ = ["WON", "TooLarge", "action_values", "hand_gains", "solvable", "solve"]

WON = 1_000_000
"""The value of a game won at once (beyond any lead in points a hand can give)."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


class TooLarge(Exception):
    """The end-game has more positions than the search was allowed (``max_nodes``)."""


def hand_gains(state: GameState, hand_no: int, start: list[int]) -> list[int]:
    """Each side's points scored in hand ``hand_no`` since the scores were ``start``.

    The scores of a later hand (the next deal's seven turned up, say) are left out.
    """
    gained = [now - before for now, before in zip(state.scores, start, strict=True)]
    events, hands, side_of = state.events, state.event_hands, state.side_of
    index = len(events) - 1
    while index >= 0 and hands[index] > hand_no:
        gained[side_of[events[index].player]] -= events[index].points
        index -= 1
    return gained


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


def solve(state: GameState, side: int, max_nodes: int | None = None) -> tuple[int, Action]:
    """Return the value for ``side`` of the rest of the hand, and the best action now.

    The value is :data:`WON` (or ``-WON``) when the game ends in the hand, else
    ``side``'s points minus the other side's scored in the rest of the hand.  Ties
    between actions go to the first in ``legal_actions`` order.  Raise
    :class:`TooLarge` once more than ``max_nodes`` positions have been searched.
    """
    solver = _Solver(state, side, max_nodes)
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


def action_values(
    state: GameState, side: int, max_nodes: int | None = None
) -> list[tuple[Action, int]]:
    """Return each legal action of ``side`` (to act) with its exact value, as :func:`solve` values.

    Each action's value is searched in full (no window narrowed by the actions before
    it), so every value is exact, not only the best one; the searches share one memo
    and one count of positions.  Raise :class:`TooLarge` once more than ``max_nodes``
    positions have been searched in all.
    """
    solver = _Solver(state, side, max_nodes)
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append((action, solver.value(child, -2 * WON, 2 * WON)))
    return values


class _Solver:
    """One search: the side it is for, the hand it ends with, and its memo."""

    def __init__(self, state: GameState, side: int, max_nodes: int | None) -> None:
        self.side = side
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.hand_no = state.hand_no
        self.start = list(state.scores)
        self.memo: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0

    def value(self, state: GameState, alpha: int, beta: int) -> int:
        """The position's value for :attr:`side`, exact within ``(alpha, beta)``."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise TooLarge(f"more than {self.max_nodes} positions")
        if state.phase == GAME_OVER or state.hand_no != self.hand_no:
            return self.leaf(state)
        bits = state.deck.bits
        won = [sum(map(bits.__getitem__, cards)) for cards in state.won]
        key = (state.to_act, state.phase, *state.held, *state.trick, *state.scores, *won)
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
        """The value of a hand's end: the game's result, or the lead in points scored.

        A game ended by the next hand's deal was not decided by this hand's play.
        """
        if state.phase == GAME_OVER and state.hand_no == self.hand_no:
            if state.winner < 0:
                return 0
            return WON if state.winner == self.side else -WON
        gained = hand_gains(state, self.hand_no, self.start)
        return 2 * gained[self.side] - sum(gained)


def _ordered(state: GameState, legal: Sequence[Action]) -> Sequence[Action]:
    """The actions, the highest cards first (they win tricks: earlier cut-offs)."""
    if len(legal) < 3:
        return legal
    rank = state.deck.card_rank
    return sorted(legal, key=lambda action: rank[action.cards[0]] if action.cards else 99)
