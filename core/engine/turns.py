"""The turns after a trick: who may declare, the winner's turn opened and ended, then the draw.

After a trick its winner may declare; the rules may name another seat to
declare after him (a partner: ``bezique_next_declarer``); when no one has
anything left to do, the round of drawing follows.  :class:`~bezique.game.GameState`
offers these as methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bezique.actions import END_TURN, TABLE_KINDS, Action, Kind
from bezique.engine.pluginstate import NO_TURN, TurnState
from bezique.engine.state import TURN

if TYPE_CHECKING:
    from bezique.game import GameState


def next_declarer(state: GameState, seat: int, declared: bool) -> int:
    """The seat the rules let declare after ``seat`` ends his turn, or -1 (draw)."""
    hook = state.rules.next_declarer
    found = hook(state, seat, declared) if hook is not None else None
    return -1 if found is None else int(found)


def offer_turn(state: GameState, seat: int, after_trick: bool = False) -> None:
    """Give the turn to ``seat``, or to the next declarer if he has nothing to do; else draw.

    ``after_trick``: no one has had a turn since the trick (see :func:`draw_after_trick`).
    """
    while seat >= 0:
        actions = state.rules.declaring.turn_actions(state, seat)
        if actions:
            open_turn(state, seat, actions)
            return
        seat = next_declarer(state, seat, False)
    if after_trick:
        draw_after_trick(state)
    else:
        state._draw()


def draw_after_trick(state: GameState) -> None:
    """Draw when no one may declare after the trick, unless a table plugin waits for ``draw``.

    In a game at a real table the plugins that take table actions may make the
    winner's draw a moment a table action may come before
    (:func:`~bezique.hookspecs.bezique_wait_before_draw`); he is then given a turn
    whose only action ends it.
    """
    wait = state.rules.wait_before_draw
    if state.at_table and wait is not None and state.stock_left() and wait(state):
        open_turn(state, state.leader, ())
    else:
        state._draw()


def open_turn(state: GameState, seat: int, actions: Sequence[Action]) -> None:
    """Begin ``seat``'s turn after a trick, with the turn actions the rules allow him."""
    state.turn = TurnState()
    state.phase = TURN
    state.to_act = seat
    state._legal = [*actions, END_TURN]


def end_turn(state: GameState) -> None:
    """End the declarer's turn: the next declarer's turn, if the rules name one, or the draw."""
    if state.rules.next_declarer is None:
        state._draw()
        return
    # Did he do anything in his turn?  Look behind table actions.
    before = (a for a in reversed(state.history[:-1]) if a.kind not in TABLE_KINDS)
    declared = next(before, END_TURN).kind not in (Kind.PLAY, Kind.END_TURN)
    state.turn = NO_TURN
    offer_turn(state, next_declarer(state, state.to_act, declared))
