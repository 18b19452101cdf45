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
    """An observation (:meth:`~bezique.game.GameState.observation`'s data) as a flat array."""
    out = np.zeros(size(rules), dtype=np.float32)
    seats = rules.players
    seat = int(seen["player"])
    faces = _face_numbers(rules)

    def view(name: str) -> npt.NDArray[np.float32]:
        start, stop, shape = _slices_of(rules)[name]
        return out[start:stop].reshape(shape)

    def count(target: npt.NDArray[np.float32], tokens: Sequence[str]) -> None:
        for token in tokens:
            target[faces[token[:2]]] += 1

    count(view("hand"), [t for t in seen["hand"] if "*" not in t])  # (``QS*``: on the table)
    table = view("table")
    trick = view("trick")
    for other in range(seats):
        count(table[(other - seat) % seats], seen["table"][other])
    for other, card in seen["trick"]:
        trick[(other - seat) % seats, faces[card]] = 1
    if seen["trump"] is not None:
        view("trump")[rules.deck.suit_index(seen["trump"])] = 1
    if seen["turn_up"] is not None:
        view("turn_up")[faces[seen["turn_up"]]] = 1
    count(view("played"), seen["played"])
    places = view("places")
    for cards in seen["places"].values():
        count(places, cards)
    view("stock")[0] = seen["stock"]
    side_of = rules.side_of
    sizes, scores, points = view("hand_sizes"), view("scores"), view("hand_points")
    for other in range(seats):
        at = (other - seat) % seats
        sizes[at] = seen["hand_sizes"][other]
        scores[at] = seen["scores"][side_of[other]]
        points[at] = seen["hand_points"][side_of[other]]
    phase = seen["phase"]
    view("phase")[PHASES.index(phase) if phase in PHASES else len(PHASES)] = 1
    if phase in PHASES and seen["to_act"] >= 0:
        view("to_act")[(seen["to_act"] - seat) % seats] = 1
    view("dealer")[(seen["dealer"] - seat) % seats] = 1
    return out


def _fields_of(rules: Ruleset) -> dict[str, Field]:
    """The layout of ``rules`` by field name, made once per ruleset."""
    found = rules.tables.get(_LAYOUT_KEY)
    if found is None:
        found = rules.tables[_LAYOUT_KEY] = {f.name: f for f in layout(rules)}
    return found


def _slices_of(rules: Ruleset) -> dict[str, tuple[int, int, tuple[int, ...]]]:
    """Each field's start, end and shape by name, made once per ruleset."""
    found = rules.tables.get(_SLICES_KEY)
    if found is None:
        found = rules.tables[_SLICES_KEY] = {
            f.name: (f.start, f.start + f.size, f.shape) for f in layout(rules)
        }
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
_SLICES_KEY = ("bezique.rl.observation", "slices")


def describe(rules: Ruleset) -> list[tuple[str, str, str, str]]:
    """The layout as rows of text (field, first index, shape, meaning), for the docs."""
    return [(f.name, str(f.start), " x ".join(map(str, f.shape)), f.meaning) for f in layout(rules)]
