"""What the parts of a game call of each other across the engine, declared once.

A :class:`~bezique.game.GameState` is its data (:class:`~bezique.engine.state.StateData`),
the parts of :mod:`bezique.engine` it inherits, and what :mod:`bezique.game` adds (actions
carried out all or nothing).  The parts form one chain of single inheritance, each built
on the one before (so that mypyc can compile them; see docs/development.md): the data,
this base, the notation, the board, random play, scores, questions, the deal and the draw
(:class:`~bezique.engine.stock.Stock`), turns, refusals, views and the phase machine
(:class:`~bezique.engine.phases.Phases`).  The few methods a part calls that are defined
above it (the phase machine's, ``apply``, and the deal, which the hand's end calls while
the deal scores) are declared here, on the base of every part, so that no part imports
:mod:`bezique.game` or a part above it.  The parts above and
:class:`~bezique.game.GameState` define them all (the type checker says so: each
definition is checked against its declaration).
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from bezique.actions import Action
from bezique.engine.state import StateData


@mypyc_attr(allow_interpreted_subclasses=True)
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
