"""The game state as a plugin's hooks see it, and what a plugin keeps in it.

Every game hook (:mod:`bezique.hookspecs`) and every method of a declaring role is
passed the game's state as ``state``.  :class:`HookState` says what a plugin may use
of it: the attributes it reads, the changes it makes through the state's mutation
API, and the few moves of the game it may call (carry out an action, score, deal
again, draw).  The kernel passes its :class:`bezique.game.GameState`, which has all of
them (the type checker says so: ``tests/test_hookstate.py``); the engine's own parts
know the state by its data (:class:`HookStateData`, which
:class:`bezique.engine.state.StateData` has).  :class:`HookRules` is the ruleset as
``state.rules`` and the score sheet's hooks give it.

Here too are the value types a plugin builds its own state on: :class:`PluginState`
(what it keeps for a hand) and :class:`TurnState` (the turn under way, which holds
what it keeps for one turn).

The protocols stand below the game and its engine so that the hooks' specifications,
and the kernel's resolved hooks, name the state without importing the game (no
import circle, type-only ones included).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from bezique.actions import Action, ScoreEvent
from bezique.cards import Deck

_P = TypeVar("_P", bound="PluginState")
_T = TypeVar("_T")
_S = TypeVar("_S", bound="HookStateData")


class TurnState:
    """The turn under way: what plugins keep for it (see :meth:`HookStateData.set_turn_state`).

    The kernel makes a new one when a turn opens and sets :data:`NO_TURN` between turns,
    so whatever a plugin keeps here lasts exactly one turn.
    """

    __slots__ = ("plugins",)

    def __init__(self) -> None:
        """Start an empty turn."""
        self.plugins: dict[str, PluginState] = {}
        """What plugins keep for this turn only, by key."""


NO_TURN = TurnState()
"""The (never changed) turn state between turns."""


class PluginState:
    """Base of the typed state a plugin keeps for a hand, kept in ``state.extra``.

    A plugin subclasses it (a dataclass, say) for what it keeps between actions,
    stores an instance with :meth:`HookStateData.set_plugin_state` (at the deal) and reads
    it with :meth:`HookStateData.plugin_state`.  The state's one table of fields copies
    it with :meth:`copy` in ``clone`` and writes it with :meth:`to_json`
    in ``to_json`` (so equality and the checks of a saved state read it
    too); a saved state is rebuilt by replaying its history, so nothing reads it back.
    """

    def copy(self: _P) -> _P:
        """Return an independent copy (for ``clone``)."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """Return its saved form: keys of the saved state's ``extra`` mapping, JSON values."""
        raise NotImplementedError

    @property
    def places(self) -> dict[str, list[int]]:
        """Cards it keeps face up outside hands, tricks and stock, by place (none)."""
        return {}

    def seen_by(self: _P, seat: int) -> _P:
        """What ``seat`` may see of it, for a player's view: a copy, its hidden parts blanked.

        All of it by default; a plugin that keeps something a seat may not see (a
        packet's size nobody has counted) overrides this and :meth:`in_world`.
        """
        return self.copy()

    def in_world(self: _P, data: Mapping[str, Any], rng: random.Random) -> _P:
        """A copy for a world a bot samples from a view.

        The parts :meth:`seen_by` blanked are drawn at random as the variant's ``data``
        allows (all of it is seen by default).
        """
        return self.copy()


class HookWords(Protocol):
    """The words a player reads for a variant's keys, as ``rules.words`` gives them.

    The kernel's :class:`bezique.rules.words.Words`, the plugins' answers to
    ``bezique_words`` merged over its own.
    """

    def say(self, key: str) -> str:
        """The words of ``key``; a key without words in a readable form of itself."""
        ...

    def combination(self, name: str) -> str:
        """A combination's name in words (``four_knaves`` -> ``four knaves``)."""
        ...

    def rule(self, key: str) -> str:
        """A refusal's rule in words."""
        ...

    def phase(self, name: str) -> str:
        """A phase in words."""
        ...


@runtime_checkable
class HookRules(Protocol):
    """The variant's rules as a plugin reads them (``state.rules``, a score sheet's ``rules``).

    The kernel passes its :class:`bezique.rules.ruleset.Ruleset`, which also holds
    the variant's resolved hooks (``state.rules.legal_plays(state, seat, cards)``, say).
    """

    @property
    def data(self) -> dict[str, Any]:
        """The variant's merged data (read it, never change it)."""

    @property
    def deck(self) -> Deck:
        """The variant's deck."""

    @property
    def players(self) -> int:
        """How many seats play."""

    @property
    def target(self) -> int | None:
        """Points that win the game, or None where one deal is the game."""

    @property
    def one_deal(self) -> bool:
        """Whether one deal is the game."""

    @property
    def side_of(self) -> tuple[int, ...]:
        """For each seat, its side: the seat itself, or its partnership's index."""

    @property
    def combo_names(self) -> tuple[str, ...]:
        """The combination names, in the order of the variant's table."""

    @property
    def classes(self) -> tuple[str, ...]:
        """The combination classes; a card's levels keep four bits per class, in this order."""

    @property
    def declaring(self) -> object:
        """The variant's declaring procedure: its plugins' declaring roles composed into one."""

    @property
    def tables(self) -> dict[object, Any]:
        """Where plugins keep tables they compile from the data (shared by the games)."""

    @property
    def words(self) -> HookWords:
        """The words a player reads for the variant's keys (:mod:`bezique.rules.words`)."""

    def compiled(self, key: object, build: Callable[[], _T]) -> _T:
        """What ``build()`` makes, made once per ruleset and kept under ``key``."""
        ...

    def legal_plays(self, state: HookStateData, player: int, cards: list[int], /) -> list[int]:
        """The cards of ``cards`` that ``player`` may play: the variant's resolved hook."""
        ...


@runtime_checkable
class HookStateData(Protocol):
    """The data of a game state and the changes a plugin makes to it (the engine's view).

    Everything here is :class:`bezique.engine.state.StateData`'s; see there what each
    attribute holds.  A plugin changes cards and the table only through :meth:`give`,
    :meth:`take`, :meth:`set_card` and the other methods here, and keeps its own typed
    state through :meth:`set_plugin_state` and :meth:`plugin_state` (for the hand) or
    :meth:`set_turn_state` and :meth:`turn_state` (for one turn).
    """

    deck: Deck
    players: int
    seed: int
    at_table: bool
    history: list[Action]
    events: list[ScoreEvent]
    side_of: tuple[int, ...]
    scores: list[int]
    hand_no: int
    dealer: int
    winner: int
    extra: dict[str, Any]
    table_acted: bool
    hands: list[list[int]]
    won: list[list[int]]
    on_table: list[bool]
    levels: list[int]
    card_key: list[int]
    declared_bits: int
    held: list[int]
    played: list[int]
    played_by: list[int]
    trick_starts: list[int]
    exposed: int
    won_at_exhaustion: list[int]
    hand_points: list[int]
    trick: list[int]
    trick_seats: list[int]
    trick_order: tuple[int, ...]
    tricks_done: int
    last_trick_winner: int
    turn: TurnState
    turn_up: int
    trump: int
    stock: list[int]
    leader: int
    to_act: int
    phase: str

    @property
    def rules(self) -> HookRules:
        """The variant's rules and resolved hooks (shared, never changed)."""

    @property
    def rng(self) -> random.Random:
        """The state's own random generator (a plugin's random choices draw from it)."""

    def give(self, seat: int, card: int) -> None:
        """Put ``card`` into ``seat``'s hand."""

    def take(self, seat: int, card: int) -> None:
        """Take ``card`` out of ``seat``'s hand."""

    def set_card(self, card: int, on_table: bool, levels: int) -> None:
        """Lay ``card`` on the table or take it back, with its declared class levels."""

    def fix_trump(self, suit: int) -> None:
        """Name ``suit`` trumps for the rest of the hand."""

    def swap_turn_up(self, card: int) -> int:
        """Lay ``card`` as the turn-up; return the card it replaces."""
        ...

    def take_won(self, seat: int, card: int) -> None:
        """Take ``card`` out of the cards ``seat`` has won."""

    def give_won(self, seat: int, card: int) -> None:
        """Add ``card`` to the cards ``seat`` has won."""

    def expose(self, card: int) -> None:
        """Record that every player has seen ``card`` in the hand that holds it."""

    def mark_last_trick(self, seat: int) -> None:
        """Record that ``seat`` won the trick that scores as the last."""

    def mark_changed(self) -> None:
        """Forget the cached legal actions after a change made outside the actions' path."""

    def stock_left(self) -> int:
        """How many cards can still be drawn, the turn-up included."""
        ...

    def is_over(self) -> bool:
        """Whether the game has a winner."""
        ...

    def partners(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s side."""
        ...

    def side_name(self, side: int) -> str:
        """A side's name for people (``seat 1``, ``seats 0 and 2``)."""
        ...

    def plugin_state(self, key: str, kind: type[_T]) -> _T:
        """The :class:`PluginState` of type ``kind`` a plugin keeps under ``key``."""
        ...

    def set_plugin_state(self, key: str, value: PluginState) -> None:
        """Keep ``value`` as the plugin state under ``key`` for the hand."""

    def turn_state(self, key: str, kind: type[_T]) -> _T | None:
        """The :class:`PluginState` a plugin keeps under ``key`` for this turn, if any."""
        ...

    def set_turn_state(self, key: str, value: PluginState) -> None:
        """Keep ``value`` under ``key`` for the turn under way only."""

    def drop_plugin_state(self, key: str) -> None:
        """Forget the plugin state under ``key``."""

    def places(self) -> dict[str, list[int]]:
        """Cards plugins keep face up outside hands, tricks and stock, by place."""
        ...

    def clone(self: _S) -> _S:
        """An independent copy."""
        ...


@runtime_checkable
class HookState(HookStateData, Protocol):
    """The game state as a plugin's hooks and declaring role see it (the ``state`` argument).

    Its data and changes (:class:`HookStateData`) and the moves of the game a plugin
    may call: what :class:`bezique.game.GameState` offers it.
    """

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act."""
        ...

    def apply(self, action: Action | str) -> None:
        """Carry out a legal action, as a player takes it."""

    def action_text(self, action: Action) -> str:
        """Write ``action`` in the text notation."""
        ...

    def score(self, events: Sequence[ScoreEvent]) -> None:
        """Record scores on behalf of the plugin (its turn actions score through this)."""

    def deal_again(self, rule: str) -> None:
        """Void the hand just dealt and deal it again; the deal's scores taken back by ``rule``."""

    def draw_round(self) -> None:
        """Carry on the round of drawing a plugin held (:data:`bezique.hookspecs.HELD`)."""

    def draw_card(self, seat: int) -> None:
        """Draw the top card of the stock (or the turn-up) into ``seat``'s hand."""
