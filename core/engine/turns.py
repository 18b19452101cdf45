"""The turns after a trick: who may declare, the winner's turn opened and ended, then the draw.

After a trick its winner may declare; the rules may name another seat to
declare after him (a partner: ``bezique_next_declarer``); when no one has
anything left to do, the round of drawing follows.  :class:`~bezique.game.GameState`
inherits :class:`Turns`.
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from bezique.actions import END_TURN, TABLE_KINDS, Action, Kind
from bezique.engine.state import TURN
from bezique.engine.stock import Stock
from bezique.hookstate import NO_TURN, TurnState


@mypyc_attr(allow_interpreted_subclasses=True)
class Turns(Stock):
    """The turns of a game state after a trick, and the draw that follows them (a mixin)."""

    def _next_declarer(self, seat: int, declared: bool) -> int:
        """The seat the rules let declare after ``seat`` ends his turn, or -1 (draw)."""
        hook = self.rules.next_declarer
        found = hook(self, seat, declared) if hook is not None else None
        return -1 if found is None else int(found)

    def _offer_turn(self, seat: int, after_trick: bool = False) -> None:
        """Give the turn to ``seat``, or to the next declarer if he has nothing to do; else draw.

        ``after_trick``: no one has had a turn since the trick (see :meth:`_draw_after_trick`).
        """
        while seat >= 0:
            actions = self.rules.declaring.turn_actions(self, seat)
            if actions:
                self.open_turn(seat, actions)
                return
            seat = self._next_declarer(seat, False)
        if after_trick:
            self._draw_after_trick()
        else:
            self._draw()

    def _draw_after_trick(self) -> None:
        """Draw when no one may declare after the trick, unless a table plugin waits for ``draw``.

        In a game at a real table the plugins that take table actions may make the
        winner's draw a moment a table action may come before
        (:func:`~bezique.hookspecs.bezique_wait_before_draw`); he is then given a turn
        whose only action ends it.
        """
        wait = self.rules.wait_before_draw
        if self.at_table and wait is not None and self.stock_left() and wait(self):
            self.open_turn(self.leader, ())
        else:
            self._draw()

    def open_turn(self, seat: int, actions: Sequence[Action]) -> None:
        """Begin ``seat``'s turn after a trick, with the turn actions the rules allow him."""
        self.turn = TurnState()
        self.phase = TURN
        self.to_act = seat
        self._legal = [*actions, END_TURN]

    def _end_turn(self) -> None:
        """End the declarer's turn: the next declarer's turn, if the rules name one, or the draw."""
        if self.rules.next_declarer is None:
            self._draw()
            return
        # Did he do anything in his turn?  Look behind table actions.
        before = (a for a in reversed(self.history[:-1]) if a.kind not in TABLE_KINDS)
        declared = next(before, END_TURN).kind not in (Kind.PLAY, Kind.END_TURN)
        self.turn = NO_TURN
        self._offer_turn(self._next_declarer(self.to_act, declared))
