"""A seat's view as a fixed-shape numeric array, field by field.

:func:`encode` writes :meth:`bezique.game.GameState.observation` (what the seat may
see, never another player's concealed card nor the order of the stock) as one flat
``float32`` array of :func:`layout`'s fields, in order.  Seats are counted from the
observer: position 0 is the observer, 1 the player on his left, and so on; so the
same array means the same to every seat.  Cards are counted by face (the packs'
copies of a face look alike): a field of faces holds, for each face in the order of
:class:`bezique.cards.Deck` (suit by suit, ranks high first), how many copies of it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from bezique.game import GameState
    from bezique.rules.ruleset import Ruleset

__all__ = ["PHASES", "Field", "encode", "layout", "size"]

PHASES = ("play", "turn", "question")
"""The phases the ``phase`` field names; its last place is any other (the game's end)."""


class Field(NamedTuple):
    """One field of the observation: its name, where it starts, its shape and meaning."""

    name: str
    start: int
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        """How many numbers it holds."""
        return math.prod(self.shape)


def layout(rules: Ruleset) -> list[Field]:
    """The fields of the observation of a game of ``rules``, in order (see the module)."""
    faces = rules.deck.faces
    seats = rules.players
    specs: list[tuple[str, tuple[int, ...], str]] = [
        ("hand", (faces,), "copies of each face in the seat's concealed hand"),
        (
            "table",
            (seats, faces),
            "copies of each face each seat has declared and keeps face up on the table",
        ),
        ("trick", (seats, faces), "the card each seat has played to the trick under way (one)"),
        ("trump", (len(rules.deck.suits),), "the trump suit (one; none while it is undecided)"),
        ("turn_up", (faces,), "the turned-up card under the stock (one; none once taken)"),
        (
            "played",
            (faces,),
            "copies of each face played this hand: the tricks done and the trick under way",
        ),
        (
            "places",
            (faces,),
            "copies of each face a plugin lays face up elsewhere (the Polish open rows)",
        ),
        ("stock", (1,), "how many cards the stock holds, the turn-up not counted"),
        ("hand_sizes", (seats,), "how many cards each seat holds, table cards included"),
        ("scores", (seats,), "the game's score of each seat's side"),
        ("hand_points", (seats,), "the points each seat's side has made this hand"),
        ("phase", (len(PHASES) + 1,), "the phase: play, turn, question, any other (one)"),
        ("to_act", (seats,), "the seat to act (one; none once the game is over)"),
        ("dealer", (seats,), "the dealer of the hand (one)"),
    ]
    fields = []
    start = 0
    for name, shape, meaning in specs:
        field = Field(name, start, shape, meaning)
        fields.append(field)
        start += field.size
    return fields


def size(rules: Ruleset) -> int:
    """How many numbers an observation of a game of ``rules`` holds."""
    last = list(_fields_of(rules).values())[-1]
    return last.start + last.size


def encode(state: GameState, seat: int) -> npt.NDArray[np.float32]:
    """The observation of ``seat`` in ``state`` as a flat array (see :func:`layout`).

    Written only from :meth:`~bezique.game.GameState.observation`: what the seat may see.
    """
    return encode_seen(state.rules, state.observation(seat))


def encode_seen(rules: Ruleset, seen: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """An observation (:meth:`~bezique.game.GameState.observation`'s data) as a flat array.

    Every number is first written as the index it counts at (a card of a field of faces,
    a place of a one-hot field) or its value, then the array is made at once.
    """
    starts = _starts_of(rules)
    seats = rules.players
    seat = int(seen["player"])
    faces = _face_numbers(rules)
    width = rules.deck.faces
    counted: list[int] = []  # an index for each one counted

    def count(start: int, tokens: Sequence[str]) -> None:
        counted.extend(start + faces[token[:2]] for token in tokens)

    def relative(other: int) -> int:
        return (other - seat) % seats

    count(starts["hand"], [t for t in seen["hand"] if "*" not in t])  # (``QS*``: on the table)
    for other in range(seats):
        count(starts["table"] + relative(other) * width, seen["table"][other])
    for other, card in seen["trick"]:
        counted.append(starts["trick"] + relative(other) * width + faces[card])
    if seen["trump"] is not None:
        counted.append(starts["trump"] + rules.deck.suit_index(seen["trump"]))
    if seen["turn_up"] is not None:
        counted.append(starts["turn_up"] + faces[seen["turn_up"]])
    count(starts["played"], seen["played"])
    for cards in seen["places"].values():
        count(starts["places"], cards)
    phase = seen["phase"]
    counted.append(starts["phase"] + (PHASES.index(phase) if phase in PHASES else len(PHASES)))
    if phase in PHASES and seen["to_act"] >= 0:
        counted.append(starts["to_act"] + relative(seen["to_act"]))
    counted.append(starts["dealer"] + relative(seen["dealer"]))
    out = np.bincount(counted, minlength=size(rules)).astype(np.float32)
    out[starts["stock"]] = seen["stock"]
    side_of = rules.side_of
    for other in range(seats):
        at = relative(other)
        out[starts["hand_sizes"] + at] = seen["hand_sizes"][other]
        out[starts["scores"] + at] = seen["scores"][side_of[other]]
        out[starts["hand_points"] + at] = seen["hand_points"][side_of[other]]
    return out


def _starts_of(rules: Ruleset) -> dict[str, int]:
    """Where each field starts, by name, made once per ruleset."""
    found = rules.tables.get(_STARTS_KEY)
    if found is None:
        found = rules.tables[_STARTS_KEY] = {f.name: f.start for f in layout(rules)}
    return found


def _fields_of(rules: Ruleset) -> dict[str, Field]:
    """The layout of ``rules`` by field name, made once per ruleset."""
    found = rules.tables.get(_LAYOUT_KEY)
    if found is None:
        found = rules.tables[_LAYOUT_KEY] = {f.name: f for f in layout(rules)}
    return found


def _face_numbers(rules: Ruleset) -> dict[str, int]:
    """Each face's text (``QS``) and its number, made once per ruleset."""
    found = rules.tables.get(_FACES_KEY)
    if found is None:
        deck = rules.deck
        found = rules.tables[_FACES_KEY] = {deck.face_text(f): f for f in range(deck.faces)}
    return found


_LAYOUT_KEY = ("bezique.rl.observation", "layout")
_FACES_KEY = ("bezique.rl.observation", "faces")
_STARTS_KEY = ("bezique.rl.observation", "starts")


def describe(rules: Ruleset) -> list[tuple[str, str, str, str]]:
    """The layout as rows of text (field, first index, shape, meaning), for the docs."""
    return [(f.name, str(f.start), " x ".join(map(str, f.shape)), f.meaning) for f in layout(rules)]
