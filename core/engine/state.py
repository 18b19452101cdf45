"""What a game state holds between two actions, and how it is copied and saved.

:class:`StateData` is the data of a :class:`~bezique.game.GameState` (which adds
the phase machine): every attribute, the methods plugins change cards and the
table through, and :data:`FIELDS`, the one table of fields that drives
:meth:`~StateData.clone`, :meth:`~StateData.to_json`, the key checks of
:func:`bezique.game.from_json` and equality.  Below it are the value types of a
turn and of what plugins keep (:class:`TurnState`, :data:`NO_TURN`, :class:`PluginState`,
from :mod:`bezique.hookstate`) and the phases.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeVar

from mypy_extensions import mypyc_attr

from bezique import MAX_SEED, __version__
from bezique.actions import Action, ScoreEvent
from bezique.engine.pluginstate import (
    PluginStates,
    copy_extra,
    copy_turn,
    json_copy,
    write_extra,
    write_turn,
)
from bezique.engine.tricks import Trick, write_tricks
from bezique.hookspecs import DRAWN_GAME
from bezique.hookstate import NO_TURN, PluginState, TurnState
from bezique.rules.pinned import variant_digest

__all__ = [
    "DRAWN_GAME",
    "GAME_OVER",
    "MAX_SEED",
    "NOT_COPIED",
    "NO_TURN",
    "PLAY",
    "QUESTION",
    "STATE_FORMAT",
    "STATE_FORMAT_V1",
    "TURN",
    "PluginState",
    "StateData",
    "TurnState",
    "json_copy",
]

if TYPE_CHECKING:
    from bezique.cards import Deck
    from bezique.rules.ruleset import Ruleset

PLAY = "play"
"""Phase: the player ``to_act`` plays a card to the current trick."""
TURN = "turn"
"""Phase: the trick's winner may declare, exchange or show before ending his turn."""
QUESTION = "question"
"""Phase: before the hand's first lead, the seat ``to_act`` answers a plugin's question
(``choose NAME ANSWER``; see :mod:`bezique.engine.questions`)."""
GAME_OVER = "game_over"
"""Phase: the game has a winner; no action is legal."""


STATE_FORMAT = "bezique-state/2"
"""The format :meth:`StateData.to_json` writes: the rules carried and pinned by digest."""
STATE_FORMAT_V1 = "bezique-state/1"
"""The older format, without the rules (read with a DeprecationWarning)."""


def _lists(value: list[list[int]]) -> list[list[int]]:
    return [list(item) for item in value]


def _forget(value: object) -> None:
    return None


class RandomSource:
    """The game's random generator, shared by a state and its clones until one draws from it.

    Copying a generator's state costs more than the rest of a clone together, and
    most clones (a bot's look-ahead, a search's worlds) never shuffle a deck.  So
    a clone shares its source's generator, counting one more holder; whichever
    holder draws first while it is shared takes a copy of its own (see
    :attr:`StateData.rng`), and the others keep the original, untouched.

    Making a generator costs as much again (:class:`random.Random` first seeds itself
    from the system's entropy), so a source may be given a seed instead, and makes its
    generator from it when first read: a search's world, which most often never deals.
    """

    __slots__ = ("_generator", "_seed", "holders")

    def __init__(self, generator: random.Random | None = None, *, seed: int = 0) -> None:
        """Hold ``generator`` for one state; without one, ``random.Random(seed)`` once read."""
        self._generator = generator
        self._seed = seed
        self.holders = 1

    @property
    def generator(self) -> random.Random:
        """The generator (made from the seed when first read, if none was given)."""
        made = self._generator
        if made is None:
            made = self._generator = random.Random(self._seed)
        return made


def _share_random(source: RandomSource) -> RandomSource:
    source.holders += 1
    return source


def _write_random(source: RandomSource) -> list[Any]:
    version, internal, gauss = source.generator.getstate()
    return [version, list(internal), gauss]


def _write_history(history: list[Action]) -> list[list[Any]]:
    return [[int(a.kind), list(a.cards), a.combo] for a in history]


class NotCopied:
    """The type of :data:`NOT_COPIED`."""

    __slots__ = ()

    def __repr__(self) -> str:
        """Its name."""
        return "NOT_COPIED"


NOT_COPIED = NotCopied()
"""``_origin`` of a state its inputs do not rebuild (a sampled world): it keeps a copy of
itself at its first action (see :meth:`bezique.game.GameState.apply`)."""

INPUT = "input"
"""Role of a saved field that rebuilds the state (the game is replayed from these)."""
DERIVED = "derived"
"""Role of a saved field that the history decides (checked against the replay)."""
KEPT = "kept"
"""Role of a field that is not saved: a cache or the shared, immutable rules."""


class Field(NamedTuple):
    """One field of a game state: how :meth:`~StateData.clone` and the JSON form treat it."""

    name: str
    """The attribute (a property for the computed keys of the JSON form)."""
    role: str
    """:data:`INPUT`, :data:`DERIVED` or :data:`KEPT`."""
    copy: Callable[[Any], Any] | None = None
    """How a clone copies it; None: shared (a number, text, tuple or the rules)."""
    write: Callable[[Any], Any] | None = None
    """How the JSON form writes it; None: as it is."""
    key: str = ""
    """Its key in the JSON form, when not the attribute's name."""

    @property
    def json_key(self) -> str:
        """The key in the JSON form ('' for a field that is not saved)."""
        return "" if self.role == KEPT else self.key or self.name


FIELDS: tuple[Field, ...] = (
    # saved, in the order of the JSON form (bezique-state/2)
    Field("state_format", INPUT, key="format"),
    Field("bezique_version", INPUT, key="bezique"),
    Field("variant_spec", INPUT, key="variant"),
    Field("overrides", INPUT, dict, json_copy),
    Field("variant_digest", INPUT),
    Field("seed", INPUT),
    Field("decks", INPUT, _lists, _lists),
    Field("first_dealer", INPUT),
    Field("at_table", INPUT, key="referee"),
    Field("_random", DERIVED, _share_random, _write_random, key="rng"),
    Field("history", INPUT, list, _write_history),
    Field("events", DERIVED, list, lambda events: [list(e) for e in events]),
    Field("event_hands", DERIVED, list, list),
    Field("scores", DERIVED, list, list),
    Field("hand_no", DERIVED),
    Field("dealer", DERIVED),
    Field("winner", DERIVED),
    Field("extra", DERIVED, copy_extra, write_extra),
    Field("hands", DERIVED, _lists, _lists),
    Field("won", DERIVED, _lists, _lists),
    Field("on_table", DERIVED, list, lambda flags: [int(t) for t in flags]),
    Field("levels", DERIVED, list, list),
    Field("played", DERIVED, list, list),
    Field("won_at_exhaustion", DERIVED, list, list),
    Field("hand_points", DERIVED, list, list),
    Field("trick", DERIVED, list, list),
    Field("trick_seats", DERIVED, list, list),
    Field("trick_order", DERIVED, None, list),
    Field("tricks_done", DERIVED),
    Field("last_trick_winner", DERIVED),
    Field("tricks", DERIVED, list, write_tricks),
    Field("turn", DERIVED, copy_turn, write_turn),
    Field("turn_up", DERIVED),
    Field("trump", DERIVED),
    Field("stock", DERIVED, list, list),
    Field("leader", DERIVED),
    Field("to_act", DERIVED),
    Field("phase", DERIVED),
    Field("variant_data", INPUT, None, json_copy),
    # not saved: the history rebuilds them, or they are the rules, shared by every copy
    Field("card_key", KEPT, list),
    Field("played_by", KEPT, list),
    Field("trick_starts", KEPT, list),
    Field("exposed", KEPT),
    Field("held", KEPT, list),
    Field("declared_bits", KEPT),
    Field("table_acted", KEPT),
    Field("rules", KEPT),
    Field("deck", KEPT),
    Field("players", KEPT),
    Field("side_of", KEPT),
    Field("_play_actions", KEPT),
    Field("_others", KEPT),
    Field("_orders", KEPT),
    Field("_legal", KEPT, _forget),
    Field("_origin", KEPT),
)
"""Every field of a game state, the JSON form's in its order (a test checks it is all)."""

SAVED = tuple(f for f in FIELDS if f.role != KEPT)
"""The fields of the JSON form, in its order."""
INPUT_KEYS = tuple(f.json_key for f in FIELDS if f.role == INPUT)
"""The keys of a saved state that rebuild it; every other key is checked against the rebuild."""
DERIVED_KEYS = tuple(f.json_key for f in FIELDS if f.role == DERIVED)
"""The keys of a saved state that its history decides."""
COMPUTED = ("state_format", "bezique_version", "variant_digest", "variant_data")
"""The fields that are not attributes of a state: the JSON form's computed keys."""
STORED = tuple(f.name for f in FIELDS if f.name not in COMPUTED)
"""The attributes of a game state, every one (a state has no other)."""
_COPIED = tuple((f.name, f.copy) for f in FIELDS if f.copy is not None)
_WRITTEN = tuple((f.json_key, f.name, f.write) for f in SAVED)
_INTERPRETED = __file__.endswith(".py")
"""Whether this module is interpreted (not compiled by mypyc: see setup.py)."""


def fields_of(state: object) -> dict[str, Any]:
    """The attributes of ``state`` (:data:`STORED`) by name, those it has (a new dictionary)."""
    if _INTERPRETED:  # its __dict__ holds them, and nothing else (tests/test_saved_state.py)
        return state.__dict__.copy()
    return {name: getattr(state, name) for name in STORED if hasattr(state, name)}


def set_fields(state: object, values: Mapping[str, Any]) -> None:
    """Set attributes of ``state`` (names of :data:`STORED`) from ``values``.

    A state's attributes are the fields of :data:`FIELDS`, never others, so that a copy
    is the same whether this module is compiled (its attributes are slots) or not (they
    are its ``__dict__``, set at once).
    """
    if _INTERPRETED:
        state.__dict__.update(values)
    else:
        for name, value in values.items():
            setattr(state, name, value)


def blank(kind: type[_S]) -> _S:
    """A new state of class ``kind`` without any attribute set (for :func:`set_fields`)."""
    return kind.__new__(kind)


_S = TypeVar("_S", bound="StateData")


@mypyc_attr(allow_interpreted_subclasses=True)
class StateData(PluginStates):
    """The data of a game state, the changes plugins make to it, its copies and its JSON form.

    :class:`~bezique.game.GameState` builds on it with the phase machine.
    Attributes are public for plugins and tests to read.  Plugins change the
    state only through its mutation API: cards and the table through :meth:`give`,
    :meth:`take` and :meth:`set_card`; :meth:`fix_trump`, :meth:`swap_turn_up`,
    :meth:`take_won`, :meth:`give_won`, :meth:`mark_last_trick`; scores through
    ``GameState.score``; and their own typed state through :meth:`set_plugin_state`
    and :meth:`plugin_state` (for the hand), :meth:`set_turn_state` and
    :meth:`turn_state` (for one turn) (:class:`PluginState`).
    """

    state_format: ClassVar[str] = STATE_FORMAT
    """The format of the JSON form."""
    rules: Ruleset
    """The variant's rules and resolved hooks (shared, never changed)."""
    deck: Deck
    players: int
    variant_spec: str
    """The variant as named (a registered name or a path)."""
    overrides: dict[str, Any]
    seed: int
    _random: RandomSource
    """The generator that shuffles each new hand (read it through :attr:`rng`)."""
    decks: list[list[int]]
    """The stacked decks of the first hands, top card first."""
    first_dealer: int
    at_table: bool
    """A game at a real table (its record; ``new_game(..., referee=True)``): the plugins
    that take table actions may make play stop for them (see
    :func:`~bezique.hookspecs.bezique_wait_before_draw`).  Saved as ``referee``, the key
    saved states and records have always had."""
    history: list[Action]
    events: list[ScoreEvent]
    event_hands: list[int]
    """For each score event, the hand it was scored in."""
    side_of: tuple[int, ...]
    """For each seat, its side: the seat itself, or its partnership's index."""
    scores: list[int]
    """Game scores per side (per seat when there are no partnerships)."""
    hand_no: int
    dealer: int
    winner: int
    extra: dict[str, Any]
    """Plugin-owned state: :class:`PluginState` values (see :meth:`plugin_state`), or
    plain JSON data (which must stay JSON-serialisable)."""
    table_acted: bool
    """Whether a table action was accepted this hand: the table hooks are asked from then
    until the next deal (see :mod:`bezique.hookspecs`)."""
    hands: list[list[int]]
    won: list[list[int]]
    on_table: list[bool]
    levels: list[int]
    """Per card, its declared class levels this hand (four bits per class)."""
    card_key: list[int]
    """Per card, what makes copies interchangeable: its face, and its levels on the table."""
    declared_bits: int
    """Bit ``1 << card`` set for every card declared this hand (``levels`` not 0)."""
    held: list[int]
    """Per seat, bit ``1 << card`` set for every card in the hand."""
    played: list[int]
    played_by: list[int]
    """For each card of :attr:`played`, the seat that played it (the tricks every seat saw)."""
    trick_starts: list[int]
    """For each trick of the hand, where its lead lies in :attr:`played`."""
    exposed: int
    """Bit ``1 << card`` set for every card whose place all have seen this hand: laid on the
    table, shown, taken from the turn-up (a player's view knows it while it stays in a hand)."""
    won_at_exhaustion: list[int]
    """How many cards each seat had won when the stock ran out (the end-game's start)."""
    hand_points: list[int]
    trick: list[int]
    trick_seats: list[int]
    trick_order: tuple[int, ...]
    """The seats that play the current trick, in order, the leader first."""
    tricks_done: int
    last_trick_winner: int
    tricks: list[Trick]
    """The trick record: every trick of the game so far, of every hand, in the order played
    (see :mod:`bezique.engine.tricks`)."""
    turn: TurnState
    turn_up: int
    trump: int
    stock: list[int]
    leader: int
    to_act: int
    phase: str
    _play_actions: tuple[Action, ...]
    _others: list[tuple[int, ...]]
    _orders: list[tuple[int, ...]]
    _legal: list[Action] | None
    _origin: Any
    """What the state's history replays from to restore it after a failed action, shared by
    its copies: None (its inputs: variant, seed, stacked decks, first dealer), a copy of it
    and the length of the history then, :data:`NOT_COPIED`, or why it cannot be restored."""

    # ------------------------------------------------------------------ changes

    def give(self, seat: int, card: int) -> None:
        """Put ``card`` into ``seat``'s hand (plugins move cards only through this and take)."""
        self.hands[seat].append(card)
        self.held[seat] |= self.deck.bits[card]
        self._legal = None

    def take(self, seat: int, card: int) -> None:
        """Take ``card`` out of ``seat``'s hand."""
        self.hands[seat].remove(card)
        self.held[seat] &= ~self.deck.bits[card]
        self._legal = None

    def set_card(self, card: int, on_table: bool, levels: int) -> None:
        """Lay ``card`` on the table or take it back, with its declared class levels.

        Plugins change a card's table state only through this, so that the
        kernel's table of interchangeable copies stays right.
        """
        self.on_table[card] = on_table
        self.levels[card] = levels
        if on_table:
            self.exposed |= self.deck.bits[card]
        face = self.deck.card_face[card]
        self.card_key[card] = ~(levels * 4096 + face) if on_table else face
        if levels:
            self.declared_bits |= self.deck.bits[card]
        else:
            self.declared_bits &= ~self.deck.bits[card]
        self._legal = None

    def fix_trump(self, suit: int) -> None:
        """Name ``suit`` (an index into the deck's suits) trumps for the rest of the hand.

        For variants whose trumps are not turned up at the deal but fixed by a
        declaration (``trumps.mode`` other than ``turn_up``): the plugin that scores
        the declaration calls this.  Trumps once fixed stay fixed for the hand.
        """
        if self.trump >= 0 and self.trump != suit:
            raise ValueError(f"trumps are fixed already: suit {self.trump}")
        if not 0 <= suit < len(self.deck.suits):
            raise ValueError(f"no suit {suit}: suits are numbered 0 to {len(self.deck.suits) - 1}")
        self.trump = suit
        self._legal = None

    def swap_turn_up(self, card: int) -> int:
        """Lay ``card`` as the turn-up under the stock; return the card it replaces."""
        old = self.turn_up
        self.turn_up = card
        if old >= 0:  # the card taken from under the stock is seen going into a hand
            self.exposed |= self.deck.bits[old]
        self._legal = None
        return old

    def take_won(self, seat: int, card: int) -> None:
        """Take ``card`` out of the cards ``seat`` has won."""
        self.won[seat].remove(card)
        self._legal = None

    def give_won(self, seat: int, card: int) -> None:
        """Add ``card`` to the cards ``seat`` has won."""
        self.won[seat].append(card)
        self._legal = None

    def expose(self, card: int) -> None:
        """Record that every player has seen ``card`` in the hand that holds it (shown)."""
        self.exposed |= self.deck.bits[card]

    def mark_last_trick(self, seat: int) -> None:
        """Record that ``seat`` won the trick that scores as the last."""
        self.last_trick_winner = seat

    def mark_changed(self) -> None:
        """Forget the cached legal actions after a change made outside :meth:`apply`'s path."""
        self._legal = None

    def _count_hands(self) -> None:
        """Set the hands' bitboards (see :attr:`held`) from the hands."""
        self.held = [sum(map(self.deck.bits.__getitem__, hand)) for hand in self.hands]

    # ------------------------------------------------------------------ queries

    def stock_left(self) -> int:
        """Return how many cards can still be drawn, the turn-up included."""
        return len(self.stock) + (self.turn_up >= 0)

    def is_over(self) -> bool:
        """Return whether the game has a winner."""
        return self.phase == GAME_OVER

    def partners(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s side by seat (none without partnerships)."""
        return list(self.rules.partners_of[seat])

    def side_name(self, side: int) -> str:
        """Name a side for people: ``seat 1``, or ``seats 0 and 2`` for a partnership."""
        seats = [str(seat) for seat, s in enumerate(self.side_of) if s == side]
        return f"seat {seats[0]}" if len(seats) == 1 else "seats " + " and ".join(seats)

    # ------------------------------------------------------------------ copies

    @property
    def bezique_version(self) -> str:
        """The version of bezique that writes the JSON form."""
        return __version__

    @property
    def rng(self) -> random.Random:
        """The generator that shuffles the decks, this state's own to draw from.

        Shared with clones until then (see :class:`RandomSource`): reading it
        first takes a copy of its own if another state holds it too.
        """
        source = self._random
        if source.holders > 1:
            source.holders -= 1
            generator = random.Random()
            generator.setstate(source.generator.getstate())
            source = self._random = RandomSource(generator)
        return source.generator

    @property
    def variant_digest(self) -> str:
        """The digest of the variant's merged rules (see :mod:`bezique.rules.pinned`)."""
        return variant_digest(self.rules.variant)

    @property
    def referee(self) -> bool:
        """Deprecated: :attr:`at_table` (whether the game is a refereed game at a real table)."""
        warnings.warn(
            "GameState.referee is deprecated: read GameState.at_table",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.at_table

    @property
    def variant_data(self) -> dict[str, Any]:
        """The variant's merged rules, which the JSON form carries."""
        data: dict[str, Any] = self.rules.variant.data
        return data

    def clone(self: _S) -> _S:
        """Return an independent copy that shares only the immutable ruleset."""
        fields = fields_of(self)
        for name, copier in _COPIED:
            fields[name] = copier(fields[name])
        copy = blank(type(self))
        set_fields(copy, fields)
        return copy

    def to_json(self) -> dict[str, Any]:
        """Return the whole state as plain JSON data; :func:`bezique.game.from_json` rebuilds it.

        Beside the variant as named, it carries the variant's merged rules
        (``variant_data``), their digest and the bezique version, so that it
        rebuilds anywhere (see :mod:`bezique.rules.pinned`).
        """
        return {
            key: getattr(self, name) if write is None else write(getattr(self, name))
            for key, name, write in _WRITTEN
        }

    def __eq__(self, other: object) -> bool:
        """Two states are equal when their JSON forms are."""
        if not isinstance(other, StateData):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
