"""Actions: what a player does, as a value with a text form and an integer id.

Text forms (card notation in :mod:`bezique.cards`):

==============================  ================================================
``play QS``                     play the queen of spades from the concealed hand
``play QS*``                    play a queen of spades that lies face up on the
                                table (declared); ``QS*beziques`` names the copy
                                declared in that class where two differ
``declare bezique QS JD``       declare and score a combination
``declare carte_blanche``       announce a carte blanche before a card, showing
                                the hand (or the card just drawn) to score it
``announce marriage KS QS*``    show a combination now, to score it after a later
                                trick (one-declaration-per-trick rules)
``exchange 7H``                 exchange the seven of trumps for the turn-up
``show 7H``                     declare the seven of trumps (shown, not left out)
``draw``                        end the turn; the winner, then the others, draw
``pass``                        end the turn when the stock is gone
``irregular nine_cards 1``      a table action: report an irregularity at the
                                table (the referee plugin,
                                :mod:`bezique.plugins.referee`)
``claim nine_cards add``        a table action: the injured player's claim or
                                choice of remedy
``choose lift 24``              answer a question a plugin asks before the hand's
                                first lead (the lift plugin: how many cards the
                                dealer lifted); :mod:`bezique.engine.questions`
==============================  ================================================

A card marked ``*`` is one of the player's declared cards on the table; a card
without the mark comes from the concealed hand.  Copies in the same situation
are interchangeable, so the text names a card only as precisely as the rules
care.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from enum import IntEnum
from typing import Any, NamedTuple, TypeVar

from bezique.errors import IllegalActionError


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
    CHOOSE = 8


KIND_WORDS: dict[Kind, str] = {
    Kind.PLAY: "play",
    Kind.DECLARE: "declare",
    Kind.ANNOUNCE: "announce",
    Kind.EXCHANGE: "exchange",
    Kind.SHOW: "show",
    Kind.END_TURN: "draw",
    Kind.IRREGULAR: "irregular",
    Kind.CLAIM: "claim",
    Kind.CHOOSE: "choose",
}
"""The word that starts each kind's text form (``END_TURN`` also reads ``pass``)."""

WORD_KINDS: dict[str, Kind] = {word: kind for kind, word in KIND_WORDS.items()} | {
    "pass": Kind.END_TURN
}
"""Kind of action for each leading word of a text form."""


_A = TypeVar("_A", bound="Action")


class _ActionFields(NamedTuple):
    """The fields of :class:`Action`, which checks them when it is made."""

    kind: Kind
    cards: tuple[int, ...] = ()
    combo: str = ""


class Action(_ActionFields):
    """One action: its kind, the physical cards it uses and, for combinations, their name.

    A table action or a choice keeps its words after the first in ``combo``
    (``Action(Kind.CHOOSE, (), "lift 24")`` is ``choose lift 24``).

    A named tuple so that comparing and hashing happen in C: the kernel compares
    actions in its inner loop.  Making one checks its fields: ``kind`` a
    :class:`Kind` (or its number), ``cards`` whole numbers (never ``True`` or
    ``3.0``, which compare equal to a card number and then fail to index the
    tables), ``combo`` text; anything else raises
    :class:`~bezique.errors.IllegalActionError` (rule ``notation``).  A number
    that is no card of the game is refused when the action is applied.
    """

    __slots__ = ()

    def __new__(cls, kind: Kind, cards: tuple[int, ...] = (), combo: str = "") -> Action:
        """Make an action after checking its fields (see the class)."""
        if kind.__class__ is not Kind:
            kind = _kind_of(kind)
        if cards.__class__ is not tuple:
            cards = _cards_of(cards)
        for card in cards:
            if card.__class__ is not int:
                raise _bad(f"card {card!r} is not a card number (a whole number)")
        if combo.__class__ is not str:
            raise _bad(f"combination {combo!r} is not a name")
        return tuple.__new__(cls, (kind, cards, combo))

    @classmethod
    def _make(cls: type[_A], iterable: Iterable[Any]) -> _A:  # type: ignore[override]
        """Make an action from an iterable of its fields, checking them (``_replace`` too)."""
        return cls(*iterable)

    def __repr__(self) -> str:
        """The call that makes it: ``Action(Kind.DECLARE, (3, 12), 'bezique')``.

        An action holds card numbers, not faces (it has no deck): the game writes
        its cards as text (:meth:`bezique.game.GameState.action_text`: ``declare
        bezique QS JD``).
        """
        fields = [f"Kind.{self.kind.name}"]
        if self.cards or self.combo:
            fields.append(repr(self.cards))
        if self.combo:
            fields.append(repr(self.combo))
        return f"Action({', '.join(fields)})"

    def __str__(self) -> str:
        """Its kind's word, its combination and its card numbers: ``declare bezique #3 #12``."""
        words = [KIND_WORDS[self.kind]]
        if self.combo:
            words.append(self.combo)
        words.extend(f"#{card}" for card in self.cards)
        return " ".join(words)


_KINDS: dict[int, Kind] = {int(k): k for k in Kind}


def _kind_of(kind: object) -> Kind:
    found = _KINDS.get(kind) if kind.__class__ is int else None
    if found is None:
        raise _bad(f"kind {kind!r} is not one of {', '.join(str(int(k)) for k in Kind)}")
    return found


def _cards_of(cards: object) -> tuple[int, ...]:
    if isinstance(cards, list):
        return tuple(cards)
    raise _bad(f"cards {cards!r} must be a tuple of card numbers")


def _bad(message: str) -> IllegalActionError:
    return IllegalActionError(f"not an action: {message}", "notation")


END_TURN = Action(Kind.END_TURN)
"""The action that ends a trick winner's turn."""


class ScoreEvent(NamedTuple):
    """One score: who, how many points, under which rule, and what it was for."""

    player: int
    points: int
    rule: str
    detail: str = ""


TABLE_KINDS = (Kind.IRREGULAR, Kind.CLAIM)
"""The kinds of table actions: what happens at a real table beside the rules (a report,
a claim), which anyone may take in any phase.  Their text is the word and free words
after it (``irregular nine_cards 1``); a plugin carries them out
(:func:`bezique.hookspecs.bezique_table_action`)."""


def __getattr__(name: str) -> object:
    """The deprecated names of this module (``REFEREE_KINDS``: :data:`TABLE_KINDS`)."""
    if name == "REFEREE_KINDS":
        warnings.warn(
            "bezique.actions.REFEREE_KINDS is deprecated: use TABLE_KINDS",
            DeprecationWarning,
            stacklevel=2,
        )
        return TABLE_KINDS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
