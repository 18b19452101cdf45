"""Polish bezique's open rows: the cards won that lie face up, kept per hand.

:class:`PolishHand` is the plugin's state of the hand (``state.plugin_state``);
:class:`PolishTables` the open-card ranks, compiled once per ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bezique.actions import Action, Kind
from bezique.engine.state import PluginState
from bezique.hookstate import HookState

"""The open-card ranks, the role, and the plugin's state of the hand (the open rows)."""

OPEN_CARDS: dict[str, list[str]] = {"ranks": ["A", "K", "Q", "J"], "trump_ranks": ["T"]}
"""The scoring cards that go to the open rows: these ranks in any suit, and ``trump_ranks``
in trumps only (S0 Polish section; A20b: plain tens are brisques but never open, the seven
of trumps is not an open card).  A variant's top-level ``open_cards`` mapping, once the
schema has one, replaces it."""

HAND_KEY = "polish"
"""Where this plugin keeps its :class:`PolishHand` (``state.plugin_state``)."""

EXCHANGE = Action(Kind.EXCHANGE)
"""The exchange of the seven just won (it names no card)."""


def open_place(seat: int) -> str:
    """The name of ``seat``'s open rows among the state's places (``state.places()``)."""
    return f"open-{seat}"


@dataclass(slots=True)
class PolishHand(PluginState):
    """What this plugin keeps for the hand: the open rows, the trick's new cards, its seven."""

    rows: list[list[int]]
    """Per seat, his open cards, in the order they were laid."""
    new: list[int] = field(default_factory=list)
    """The open cards the trick just won brought (and an exchanged turn-up)."""
    seven: int = -1
    """The seven of trumps of the trick just won that may be exchanged, or -1."""

    def copy(self) -> PolishHand:
        """An independent copy."""
        return PolishHand([list(row) for row in self.rows], list(self.new), self.seven)

    def to_json(self) -> dict[str, Any]:
        """``places`` (the rows by place), ``polish_new`` and ``polish_seven``."""
        places = {name: list(cards) for name, cards in self.places.items()}
        return {"places": places, "polish_new": list(self.new), "polish_seven": self.seven}

    @property
    def places(self) -> dict[str, list[int]]:
        """The open rows, by place (``open-SEAT``), which every player sees."""
        return {open_place(seat): row for seat, row in enumerate(self.rows)}


def hand(state: HookState) -> PolishHand:
    """Return this plugin's state of the hand being played."""
    return state.plugin_state(HAND_KEY, PolishHand)


def open_cards(state: HookState, seat: int) -> list[int]:
    """Return ``seat``'s open cards (a live list: the plugin's own)."""
    return hand(state).rows[seat]


class PolishTables:
    """What this plugin compiles from a variant once, shared by every game of it."""

    def __init__(self, state: HookState) -> None:
        """Compile the open-card ranks of ``state``'s variant."""
        deck = state.deck
        spec: dict[str, Any] = state.rules.data.get("open_cards", OPEN_CARDS)
        self.any_ranks = frozenset(deck.rank_index(r) for r in spec["ranks"])
        self.trump_ranks = frozenset(deck.rank_index(r) for r in spec["trump_ranks"])
        self.by_trump: dict[int, list[bool]] = {}

    def is_open(self, state: HookState) -> list[bool]:
        """For each card, whether it goes to the open rows under the current trumps."""
        table = self.by_trump.get(state.trump)
        if table is None:
            deck = state.deck
            trump = state.trump
            table = [
                rank in self.any_ranks or (suit == trump and rank in self.trump_ranks)
                for rank, suit in zip(deck.card_rank, deck.card_suit, strict=True)
            ]
            self.by_trump[trump] = table
        return table


TABLES_KEY = "bezique.plugins.polish"
"""Where this plugin keeps its tables in ``ruleset.tables``."""


def polish_tables(state: HookState) -> PolishTables:
    """Return this plugin's compiled tables for ``state``'s variant."""
    return state.rules.compiled(TABLES_KEY, lambda: PolishTables(state))
