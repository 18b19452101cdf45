"""Cards, packs and the card notation.

A *face* is a rank and a suit (``QS``, the queen of spades); a *physical card* is
one copy of a face in a multi-pack game.  Both are small integers so that the
kernel's inner loop works on lists of ints:

* ``face = suit_index * len(ranks) + rank_index``, where rank index 0 is the
  highest rank (``A`` in bezique) and suit indices follow ``cards.suits``;
* ``card = copy * faces + face``, copy ``0 .. packs - 1``.

Notation: a rank letter then a suit letter, as written in the variant's
``cards.ranks`` and ``cards.suits`` (``A T K Q J 9 8 7`` and ``S H D C`` in
bezique; ``T`` is the ten).  The suit symbols ``♠ ♥ ♦ ♣`` are accepted on input
and used by :meth:`Deck.display`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from bezique.errors import BeziqueError

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""Display symbol of each standard suit letter."""
_SYMBOL_LETTERS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}


class CardError(BeziqueError):
    """A card written in the notation does not exist in this pack."""


class Deck:
    """The cards of a variant: ranks, suits, packs and the tables derived from them."""

    __slots__ = (
        "_bits_below",
        "bits",
        "card_face",
        "card_rank",
        "card_suit",
        "card_texts",
        "faces",
        "packs",
        "ranks",
        "size",
        "suits",
        "twins",
    )

    def __init__(self, ranks: Sequence[str], suits: Sequence[str], packs: int) -> None:
        """Build the deck of ``packs`` copies of every rank of every suit (ranks high first)."""
        self.ranks: tuple[str, ...] = tuple(ranks)
        self.suits: tuple[str, ...] = tuple(suits)
        self.packs = packs
        self.faces = len(self.ranks) * len(self.suits)
        self.size = self.faces * packs
        self.card_face: list[int] = [c % self.faces for c in range(self.size)]
        self.card_suit: list[int] = [f // len(self.ranks) for f in self.card_face]
        self.card_rank: list[int] = [f % len(self.ranks) for f in self.card_face]
        self.card_texts: list[str] = [self.face_text(f) for f in self.card_face]
        self.twins: list[int] = [
            sum(1 << (copy * self.faces + f) for copy in range(packs)) & ~(1 << c)
            for c, f in enumerate(self.card_face)
        ]
        """For each card, bit ``1 << other`` set for its other copies."""
        self.bits: list[int] = [1 << card for card in range(self.size)]
        """For each card, its bit ``1 << card`` in a bitboard (made once: shifting allocates)."""
        self._bits_below = [(i + 1).bit_length() for i in range(self.size)]
        """For each ``i``, the bits of a random number below ``i + 1`` (see :meth:`shuffled`)."""

    @classmethod
    def from_variant(cls, data: dict[str, Any]) -> Deck:
        """Build the deck described by a variant's ``cards`` section."""
        cards = data["cards"]
        return cls(cards["ranks"], cards["suits"], cards["packs"])

    def mask(self, cards: Iterable[int]) -> int:
        """The bitboard of ``cards``: bit ``1 << card`` set for each."""
        bits = self.bits
        found = 0
        for card in cards:
            found |= bits[card]
        return found

    def face(self, rank: int, suit: int) -> int:
        """Return the face index of rank index ``rank`` in suit index ``suit``."""
        return suit * len(self.ranks) + rank

    def face_text(self, face: int) -> str:
        """Write a face in the notation (``QS``)."""
        suit, rank = divmod(face, len(self.ranks))
        return self.ranks[rank] + self.suits[suit]

    def card_text(self, card: int) -> str:
        """Write a physical card as its face (copies look alike)."""
        return self.card_texts[card]

    def display(self, face: int) -> str:
        """Write a face with a suit symbol where there is one (``Q♠``)."""
        suit, rank = divmod(face, len(self.ranks))
        letter = self.suits[suit]
        return self.ranks[rank] + SUIT_SYMBOLS.get(letter, letter)

    def parse_face(self, text: str) -> int:
        """Read a face written in the notation; raise :class:`CardError` if there is none."""
        cleaned = text.strip().upper()
        if len(cleaned) >= 2 and cleaned[-1] in _SYMBOL_LETTERS:
            cleaned = cleaned[:-1] + _SYMBOL_LETTERS[cleaned[-1]]
        if cleaned.startswith("10"):
            cleaned = "T" + cleaned[2:]
        if len(cleaned) != 2 or cleaned[0] not in self.ranks or cleaned[1] not in self.suits:
            raise CardError(
                f"{text!r} is not a card: write a rank of {' '.join(self.ranks)} "
                f"then a suit of {' '.join(self.suits)}, as in QS"
            )
        return self.face(self.ranks.index(cleaned[0]), self.suits.index(cleaned[1]))

    def rank_index(self, rank: str) -> int:
        """Return the index of a rank letter (0 is the highest)."""
        return self.ranks.index(rank)

    def suit_index(self, suit: str) -> int:
        """Return the index of a suit letter."""
        return self.suits.index(suit)

    def physical_order(self, faces: Iterable[int]) -> list[int]:
        """Turn a sequence of faces (a stacked deck) into physical cards.

        The n-th occurrence of a face becomes copy n.  Raise :class:`CardError`
        unless every face appears exactly ``packs`` times.
        """
        seen = [0] * self.faces
        order: list[int] = []
        for face in faces:
            if seen[face] >= self.packs:
                raise CardError(f"{self.face_text(face)} appears more than {self.packs} times")
            order.append(seen[face] * self.faces + face)
            seen[face] += 1
        missing = [self.face_text(f) for f in range(self.faces) if seen[f] != self.packs]
        if missing:
            raise CardError(f"the deck must hold every card {self.packs} times; short of {missing}")
        return order

    def shuffled(self, rng: random.Random) -> list[int]:
        """Return the deck's cards in an order shuffled by ``rng``.

        Exactly ``rng.shuffle(list(range(size)))``, as CPython's ``random``
        writes it (each swap draws ``getrandbits`` until below ``i + 1``), without
        a Python call per card; any other generator class is asked to shuffle.
        """
        order = list(range(self.size))
        if type(rng) is not random.Random:
            rng.shuffle(order)
            return order
        getrandbits = rng.getrandbits
        bits_below = self._bits_below
        for i in reversed(range(1, self.size)):
            bits = bits_below[i]
            j = getrandbits(bits)
            while j > i:
                j = getrandbits(bits)
            order[i], order[j] = order[j], order[i]
        return order

    def parse_order(self, texts: Sequence[str]) -> list[int]:
        """Read a stacked deck written as card texts (top card first) into physical cards."""
        return self.physical_order(self.parse_face(t) for t in texts)
