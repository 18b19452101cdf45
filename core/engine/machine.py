"""What the parts of a game call of each other across the engine, declared once.

A :class:`~bezique.game.GameState` is its data (:class:`~bezique.engine.state.StateData`),
the phase machine of :mod:`bezique.game`, and the parts of :mod:`bezique.engine` it
inherits as mixins: the deal and the draw (:class:`~bezique.engine.stock.Stock`), turns,
scores, questions, the notation, refusals, views, the board and random play.  A part
builds on the parts it uses (a class of its own base classes) where no circle forms; the
few methods it calls that are defined above it (the phase machine's, and the deal, which
the hand's end calls while the deal scores) are declared here, on the base of every part,
so that no part imports :mod:`bezique.game`.  :class:`~bezique.game.GameState` defines
them all (its type checker says so: each definition is checked against its declaration).
"""

from __future__ import annotations

from bezique.actions import Action
from bezique.engine.state import StateData


class Machine(StateData):
    """The base of the engine's parts: the methods they call that a game state defines above them.

    Each raises :class:`NotImplementedError` here; :class:`~bezique.game.GameState` (or a
    part it inherits) gives the method.
    """

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (:meth:`bezique.game.GameState.legal_actions`)."""
        raise NotImplementedError

    def apply(self, action: Action | str) -> None:
        """Carry out a legal action (:meth:`bezique.game.GameState.apply`)."""
        raise NotImplementedError

    def _play(self, card: int) -> None:
        """Play ``card`` of the seat to act to the trick (the phase machine's)."""
        raise NotImplementedError

    def _deal_next_hand(self, shuffle: bool = False) -> None:
        """Deal the next hand (:meth:`bezique.engine.stock.Stock._deal_next_hand`)."""
        raise NotImplementedError
