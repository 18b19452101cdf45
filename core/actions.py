"""Actions: what a player does, as a value with a text form and an integer id.

Text forms (card notation in :mod:`bezique.cards`):

==============================  ================================================
``play QS``                     play the queen of spades from the concealed hand
``play QS*``                    play a queen of spades that lies face up on the
                                table (declared); ``QS*beziques`` names the copy
                                declared in that class where two differ
``declare bezique QS JD``       declare and score a combination
``announce marriage KS QS*``    show a combination now, to score it after a later
                                trick (one-declaration-per-trick rules)
``exchange 7H``                 exchange the seven of trumps for the turn-up
``show 7H``                     declare the seven of trumps (shown, not left out)
``draw``                        end the turn; the winner, then the others, draw
``pass``                        end the turn when the stock is gone
``irregular nine_cards 1``      report an irregularity at the table (see
                                :mod:`bezique.referee`)
``claim nine_cards add``        the injured player's claim or choice of remedy
==============================  ================================================

A card marked ``*`` is one of the player's declared cards on the table; a card
without the mark comes from the concealed hand.  Copies in the same situation
are interchangeable, so the text names a card only as precisely as the rules
care.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class Kind(IntEnum):
    """The kinds of action."""

    PLAY = 0
    DECLARE = 1
    ANNOUNCE = 2
    EXCHANGE = 3
    SHOW = 4
    END_TURN = 5
    IRREGULAR = 6
    CLAIM = 7


KIND_WORDS: dict[Kind, str] = {
    Kind.PLAY: "play",
    Kind.DECLARE: "declare",
    Kind.ANNOUNCE: "announce",
    Kind.EXCHANGE: "exchange",
    Kind.SHOW: "show",
    Kind.END_TURN: "draw",
    Kind.IRREGULAR: "irregular",
    Kind.CLAIM: "claim",
}
"""The word that starts each kind's text form (``END_TURN`` also reads ``pass``)."""

WORD_KINDS: dict[str, Kind] = {word: kind for kind, word in KIND_WORDS.items()} | {
    "pass": Kind.END_TURN
}
"""Kind of action for each leading word of a text form."""


class Action(NamedTuple):
    """One action: its kind, the physical cards it uses and, for combinations, their name.

    A named tuple so that comparing and hashing happen in C: the kernel compares
    actions in its inner loop.
    """

    kind: Kind
    cards: tuple[int, ...] = ()
    combo: str = ""


END_TURN = Action(Kind.END_TURN)
"""The action that ends a trick winner's turn."""
