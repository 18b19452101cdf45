"""What the ordinary plugin keeps for the hand being played, and for a turn: typed states.

:class:`OrdinaryHand` is kept in the game state (``state.plugin_state("ordinary",
OrdinaryHand)``), made at each deal; the kernel copies it with the state and saves
it in the saved state's ``extra`` (:meth:`OrdinaryHand.to_json`).  An
:class:`OrdinaryTurn` is kept for one turn (``state.set_turn_state``), saved in ``turn``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bezique.engine.state import PluginState

if TYPE_CHECKING:
    from bezique.hookstate import HookState

HAND_KEY = "ordinary"
"""Where the plugin keeps its :class:`OrdinaryHand` (``state.plugin_state``)."""

NOT_DRAWN: tuple[int, tuple[int, ...]] = (-1, ())
"""No drawn card of the seat's is offered as a carte blanche again."""

NO_QUIET = (-2, 0)
"""No hand of the seat's is known to have nothing to declare (see :attr:`OrdinaryHand.quiet`)."""

Announced = list[tuple[str, tuple[int, ...]]]
"""One seat's announced combinations: (name, cards sorted)."""


@dataclass(slots=True)
class OrdinaryHand(PluginState):
    """The sevens of trumps scored and the combinations announced, this hand."""

    sevens_scored: list[int]
    """The sevens of trumps that have scored this hand (turned up, exchanged, shown, played)."""
    pending: list[Announced]
    """Per seat, the combinations announced to score after a later trick
    (``declarations.per_trick: one``; they lapse when the stock is gone, A38)."""
    blank_shown: list[bool] = field(default_factory=list)
    """Per seat, whether he has announced a carte blanche at the deal (his hand shown)."""
    blank_drawn: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    """Per seat, the tricks done when he drew, and the cards then drawn that he may show
    now as a carte blanche again (:data:`NOT_DRAWN`: none); see
    :mod:`~bezique.plugins.ordinary.carteblanche`."""
    quiet: list[tuple[int, int]] = field(default_factory=list, compare=False)
    """A cache, not saved: per seat, ``(trump, held)`` of the last hand of his in which
    nothing could be declared (see :meth:`OrdinaryDeclarations.turn_actions
    <bezique.plugins.ordinary.declaring.OrdinaryDeclarations.turn_actions>`), or
    ``(-2, 0)``.  A state rebuilt from its saved form starts without it and plays the
    same."""

    @classmethod
    def dealt(cls, players: int) -> OrdinaryHand:
        """The state at the deal: nothing scored or announced."""
        return cls(
            [],
            [[] for _ in range(players)],
            [False] * players,
            [NOT_DRAWN] * players,
            [NO_QUIET] * players,
        )

    def copy(self) -> OrdinaryHand:
        """An independent copy."""
        pending = [list(seat) for seat in self.pending]
        return OrdinaryHand(
            list(self.sevens_scored),
            pending,
            list(self.blank_shown),
            list(self.blank_drawn),
            list(self.quiet),
        )

    def seen_by(self, seat: int) -> OrdinaryHand:
        """All but what the other seats' hands hold.

        Their ``quiet`` caches (which hold a hand's cards) and the drawn cards they may
        show as a carte blanche (that such a card is no court card is theirs to tell).
        """
        copy = self.copy()
        copy.quiet = [
            found if other == seat else NO_QUIET for other, found in enumerate(self.quiet)
        ]
        copy.blank_drawn = [
            found if other == seat else NOT_DRAWN for other, found in enumerate(self.blank_drawn)
        ]
        return copy

    def to_json(self) -> dict[str, Any]:
        """``sevens_scored`` (cards) and ``pending`` (per seat, ``[name, [card, ...]]``).

        Once a carte blanche has been shown or a drawn card offered, ``blank_shown`` (per
        seat) and ``blank_drawn`` (per seat, ``[tricks done, [card, ...]]``) too: a hand without
        either writes as it did before carte blanche was announced.
        """
        pending = [[[name, list(cards)] for name, cards in seat] for seat in self.pending]
        saved: dict[str, Any] = {"sevens_scored": list(self.sevens_scored), "pending": pending}
        if any(self.blank_shown) or any(found != NOT_DRAWN for found in self.blank_drawn):
            saved["blank_shown"] = list(self.blank_shown)
            saved["blank_drawn"] = [[tricks, list(cards)] for tricks, cards in self.blank_drawn]
        return saved


@dataclass(slots=True)
class OrdinaryTurn(PluginState):
    """What the trick's winner has done so far in the turn under way (kept for that turn)."""

    declared: list[int] = field(default_factory=list)
    """Cards declared (scored) in this turn."""
    scored: int = 0
    """How many combinations were scored in this turn."""
    first_declared: list[int] = field(default_factory=list)
    """Cards declared in this turn that had never been declared before it."""
    blocked: list[int] = field(default_factory=list)
    """Cards taken in exchange for the seven of trumps, not declared this turn (A13)."""

    def copy(self) -> OrdinaryTurn:
        """An independent copy."""
        return OrdinaryTurn(
            list(self.declared), self.scored, list(self.first_declared), list(self.blocked)
        )

    def to_json(self) -> dict[str, Any]:
        """Its four fields by name, in the saved state's ``turn``."""
        return {
            "declared": list(self.declared),
            "scored": self.scored,
            "first_declared": list(self.first_declared),
            "blocked": list(self.blocked),
        }


NOTHING_YET = OrdinaryTurn()
"""What :func:`this_turn` reads when nothing has been done this turn (never changed)."""


def this_turn(state: HookState) -> OrdinaryTurn:
    """What has been done in the turn under way, to read (:data:`NOTHING_YET` if nothing)."""
    found = state.turn.plugins.get(HAND_KEY)
    return found if isinstance(found, OrdinaryTurn) else NOTHING_YET


def changing_turn(state: HookState) -> OrdinaryTurn:
    """What has been done in the turn under way, to add to (made at the turn's first change)."""
    found = state.turn_state(HAND_KEY, OrdinaryTurn)
    if found is None:
        found = OrdinaryTurn()
        state.set_turn_state(HAND_KEY, found)
    return found


def blocked(state: HookState) -> list[int]:
    """The cards the player to act took in exchange for the seven this turn (none: ``[]``)."""
    return this_turn(state).blocked


def hand_state(state: HookState) -> OrdinaryHand:
    """Return the plugin's state of the hand being played (made at the deal)."""
    found: OrdinaryHand = state.extra[HAND_KEY]  # the plugin's own key: no type check
    return found


def sevens_scored(state: HookState) -> list[int]:
    """The sevens of trumps that have scored this hand (a live list: the plugin's own)."""
    return hand_state(state).sevens_scored


def announced(state: HookState) -> list[Announced]:
    """Per seat, the combinations announced this hand and not yet scored (live lists)."""
    return hand_state(state).pending
