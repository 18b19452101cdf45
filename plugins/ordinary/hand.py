"""What the ordinary plugin keeps for the hand being played, and for a turn: typed states.

:class:`OrdinaryHand` is kept in the game state (``state.plugin_state("ordinary",
OrdinaryHand)``), made at each deal; the kernel copies it with the state and saves
it in the saved state's ``extra`` (:meth:`OrdinaryHand.to_json`).  An
:class:`ExchangeBlock` is kept for one turn (``state.set_turn_state``), saved in ``turn``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bezique.state import PluginState

if TYPE_CHECKING:
    from bezique.game import GameState

HAND_KEY = "ordinary"
"""Where the plugin keeps its :class:`OrdinaryHand` (``state.plugin_state``)."""

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

    @classmethod
    def dealt(cls, players: int) -> OrdinaryHand:
        """The state at the deal: nothing scored or announced."""
        return cls([], [[] for _ in range(players)])

    def copy(self) -> OrdinaryHand:
        """An independent copy."""
        return OrdinaryHand(list(self.sevens_scored), [list(seat) for seat in self.pending])

    def to_json(self) -> dict[str, Any]:
        """``sevens_scored`` (cards) and ``pending`` (per seat, ``[name, [card, ...]]``)."""
        pending = [[[name, list(cards)] for name, cards in seat] for seat in self.pending]
        return {"sevens_scored": list(self.sevens_scored), "pending": pending}


@dataclass(slots=True)
class ExchangeBlock(PluginState):
    """For the turn under way: the cards taken in exchange for the seven of trumps (A13)."""

    cards: list[int]
    """They may not be declared in the turn they were taken in."""

    def copy(self) -> ExchangeBlock:
        """An independent copy."""
        return ExchangeBlock(list(self.cards))

    def to_json(self) -> dict[str, Any]:
        """``{"blocked": [card, ...]}`` in the saved state's ``turn``."""
        return {"blocked": list(self.cards)}


def blocked(state: GameState) -> list[int]:
    """The cards the player to act took in exchange for the seven this turn (none: ``[]``)."""
    block = state.turn.plugins.get(HAND_KEY)
    return block.cards if isinstance(block, ExchangeBlock) else []


def block(state: GameState, card: int) -> None:
    """Bar ``card``, just taken in exchange for the seven, from declarations this turn."""
    found = state.turn_state(HAND_KEY, ExchangeBlock)
    if found is None:
        state.set_turn_state(HAND_KEY, ExchangeBlock([card]))
    else:
        found.cards.append(card)


def hand_state(state: GameState) -> OrdinaryHand:
    """Return the plugin's state of the hand being played (made at the deal)."""
    found: OrdinaryHand = state.extra[HAND_KEY]  # the plugin's own key: no type check
    return found


def sevens_scored(state: GameState) -> list[int]:
    """The sevens of trumps that have scored this hand (a live list: the plugin's own)."""
    return hand_state(state).sevens_scored


def announced(state: GameState) -> list[Announced]:
    """Per seat, the combinations announced this hand and not yet scored (live lists)."""
    return hand_state(state).pending
