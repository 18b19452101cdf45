"""Scores: events added to the totals and the ledger, the hand's end, the game won and settled.

Every score goes through :func:`score_events`, which ends the game once the rules
say a side has won it (``bezique_game_winner``); the settlement that follows
(``bezique_settlement``) is added without asking again.
:class:`~bezique.game.GameState` offers these as methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bezique.actions import ScoreEvent
from bezique.engine.state import DRAWN_GAME, GAME_OVER

if TYPE_CHECKING:
    from bezique.game import GameState


def end_hand(state: GameState) -> None:
    """Score the hand's end; end the game if it is won or was one deal, else deal the next hand."""
    score_events(state, state.rules.hand_scores(state))
    if state.phase == GAME_OVER:
        return
    winner = state.rules.game_winner(state, True)
    if winner is not None and (winner >= 0 or winner == DRAWN_GAME):
        finish_game(state, winner)
    elif state.rules.one_deal:  # the deal is the game: no winner named, nobody won it
        finish_game(state, DRAWN_GAME)
    else:
        state._deal_next_hand()


def score_events(state: GameState, events: Sequence[ScoreEvent] | None) -> None:
    """Add score events to the totals; end the game if the rules say it is won."""
    if not events:
        return
    record(state, events)
    target = state.rules.target
    if target is not None and max(state.scores) >= target:
        winner = state.rules.game_winner(state, False)
        if winner is not None and (winner >= 0 or winner == DRAWN_GAME):
            finish_game(state, winner)


def plugin_score(state: GameState, events: Sequence[ScoreEvent]) -> None:
    """Record scores on behalf of a plugin (its turn actions score through this)."""
    state._legal = None
    score_events(state, events)


def finish_game(state: GameState, winner: int) -> None:
    """End the game: ``winner`` has won it (or none has: ``DRAWN_GAME``); no action is legal."""
    state.winner = max(winner, -1)
    state.phase = GAME_OVER
    state._legal = []
    # The settlement (a game bonus, a rubicon) is scored; the winner stands.
    record(state, state.rules.settlement(state) or ())


def record(state: GameState, events: Sequence[ScoreEvent]) -> None:
    """Add score events to the totals and the ledger, for the hand being played."""
    scores = state.scores
    hand_points = state.hand_points
    side_of = state.side_of
    for player, points, _, _ in events:
        side = side_of[player]
        scores[side] += points
        hand_points[side] += points
    state.events.extend(events)
    state.event_hands.extend([state.hand_no] * len(events))
