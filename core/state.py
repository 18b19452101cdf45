"""What a game state holds between two actions.

The turn of a trick's winner (:class:`TurnState`, :data:`NO_TURN` between turns).
"""

from __future__ import annotations


class TurnState:
    """What the trick's winner has done so far in the current turn."""

    __slots__ = ("blocked", "declared", "first_declared", "scored")

    def __init__(self) -> None:
        """Start an empty turn."""
        self.declared: list[int] = []
        """Cards declared (scored) in this turn."""
        self.first_declared: list[int] = []
        """Cards declared in this turn that had never been declared before it."""
        self.scored = 0
        """How many combinations were scored in this turn."""
        self.blocked: list[int] = []
        """Cards that may not be declared this turn (taken by exchanging the seven)."""

    def declared_set(self) -> frozenset[int]:
        """The cards declared in this turn, as a set."""
        return frozenset(self.declared)

    def blocked_set(self) -> frozenset[int]:
        """The cards that may not be declared this turn, as a set."""
        return frozenset(self.blocked)


NO_TURN = TurnState()
"""The (never changed) turn state between turns."""
