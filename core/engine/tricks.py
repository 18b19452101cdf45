"""The game's trick record: every trick played, who played what and who won it.

:func:`record_trick` adds a :class:`Trick` to :attr:`bezique.engine.state.StateData.tricks`
as :meth:`bezique.game.GameState._finish_trick` settles the trick.  The record is kept
for the whole game, each trick naming its hand, so that the last trick of a hand is
still there once the next hand is dealt.  It is a list of tuples (a clone copies the
list, never a trick), and it is all public: every seat saw each trick's cards played
face up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from bezique.actions import ScoreEvent
    from bezique.engine.state import StateData


class Trick(NamedTuple):
    """One trick played: its hand, who played which card (the leader first), who won it."""

    hand: int
    """The hand it was played in (``hand_no``)."""
    seats: tuple[int, ...]
    """The seats that played to it, in order: the leader first."""
    cards: tuple[int, ...]
    """The cards they played, in the same order."""
    winner: int
    """The seat whose card won it (who leads next)."""
    owner: int
    """The seat that took its cards: the winner, unless a table action (a revoke's
    penalty, for one) gave the trick to another seat."""
    points: tuple[int, ...]
    """What each seat scored by it as it was won (the rules' trick scores: brisques
    counted at once, a seven played, the last trick); zeros when it scored nothing."""

    @property
    def leader(self) -> int:
        """The seat that led to it."""
        return self.seats[0]


_NO_POINTS = tuple((0,) * players for players in range(17))
"""For each number of seats (a variant has 2 to 8), what each scored by a trick that
scored nothing (most do)."""
_new_trick = tuple.__new__
"""Makes a :class:`Trick` without the named tuple's own ``__new__`` (a random play-out
records a trick in a fraction of the time it takes to play one)."""


def record_trick(
    state: StateData, winner: int, owner: int, events: Sequence[ScoreEvent] | None
) -> None:
    """Add the trick being settled (``state.trick``, ``state.trick_seats``) to the record.

    ``events`` are the trick scores the rules gave for it (None or empty: none).
    """
    if events:
        scored = [0] * state.players
        for event in events:
            scored[event.player] += event.points
        points = tuple(scored)
    else:
        points = _NO_POINTS[state.players]
    trick = (state.hand_no, tuple(state.trick_seats), tuple(state.trick), winner, owner, points)
    state.tricks.append(_new_trick(Trick, trick))


def hand_tricks(tricks: Sequence[Trick], hand: int) -> list[Trick]:
    """The tricks of hand ``hand``, in the order played."""
    return [trick for trick in tricks if trick.hand == hand]


def write_tricks(tricks: Sequence[Trick]) -> list[list[Any]]:
    """The record as JSON data: ``[hand, [seats], [cards], winner, owner, [points]]`` each."""
    return [
        [t.hand, list(t.seats), list(t.cards), t.winner, t.owner, list(t.points)] for t in tricks
    ]
