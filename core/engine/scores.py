"""Scores: events added to the totals and the ledger, the hand's end, the game won and settled.

Every score goes through :meth:`Scores._score`, which ends the game once the rules
say a side has won it (``bezique_game_winner``); the settlement that follows
(``bezique_settlement``) is added without asking again.
:class:`~bezique.game.GameState` inherits :class:`Scores`.
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from bezique.actions import ScoreEvent
from bezique.engine.playout import Playout
from bezique.engine.state import DRAWN_GAME, GAME_OVER


@mypyc_attr(allow_interpreted_subclasses=True)
class Scores(Playout):
    """The scoring of a game state: score events, the hand's end, the game's end (a mixin)."""

    def _end_hand(self) -> None:
        """Score the hand's end; end the game if it is won or was one deal, else deal the next."""
        self._score(self.rules.hand_scores(self))
        if self.phase == GAME_OVER:
            return
        winner = self.rules.game_winner(self, True)
        if winner is not None and (winner >= 0 or winner == DRAWN_GAME):
            self._finish_game(winner)
        elif self.rules.one_deal:  # the deal is the game: no winner named, nobody won it
            self._finish_game(DRAWN_GAME)
        else:
            self._deal_next_hand()

    def _score(self, events: Sequence[ScoreEvent] | None) -> None:
        """Add score events to the totals; end the game if the rules say it is won."""
        if not events:
            return
        self._record(events)
        target = self.rules.target
        if target is not None and max(self.scores) >= target:
            winner = self.rules.game_winner(self, False)
            if winner is not None and (winner >= 0 or winner == DRAWN_GAME):
                self._finish_game(winner)

    def score(self, events: Sequence[ScoreEvent]) -> None:
        """Record scores on behalf of a plugin (its turn actions score through this)."""
        self._legal = None
        self._score(events)

    def _finish_game(self, winner: int) -> None:
        """End the game: ``winner`` has won it (or none has: ``DRAWN_GAME``); no action is legal."""
        self.winner = max(winner, -1)
        self.phase = GAME_OVER
        self._legal = []
        # The settlement (a game bonus, a rubicon) is scored; the winner stands.
        self._record(self.rules.settlement(self) or ())

    def _record(self, events: Sequence[ScoreEvent]) -> None:
        """Add score events to the totals and the ledger, for the hand being played."""
        scores = self.scores
        hand_points = self.hand_points
        side_of = self.side_of
        for player, points, _, _ in events:
            side = side_of[player]
            scores[side] += points
            hand_points[side] += points
        self.events.extend(events)
        self.event_hands.extend([self.hand_no] * len(events))
