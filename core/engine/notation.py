"""The text notation of actions and their integer ids, for a game state.

Writing a card as a player's action names it (:meth:`Notation.card_token`: ``QS``,
``QS*``, ``QS*beziques``, ``QS@``), an action as text (:meth:`Notation.action_text`)
and reading it back (:meth:`Notation.parse_action`), and the stable integer of an
action (:meth:`Notation.action_id`).  The notation itself is described in
:mod:`bezique.actions`; :class:`~bezique.game.GameState` inherits :class:`Notation`.
Writing reads only the state's data (:class:`~bezique.engine.state.StateData`), so that
a player's view writes its observation from the state it makes of itself
(:func:`bezique.engine.views.view_state`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from bezique.actions import KIND_WORDS, TABLE_KINDS, WORD_KINDS, Action, Kind
from bezique.cards import CardError
from bezique.engine.machine import Machine
from bezique.errors import IllegalActionError


@mypyc_attr(allow_interpreted_subclasses=True)
class Notation(Machine):
    """The notation of a game state: its actions as text and back, and their ids (a mixin)."""

    def card_token(self, card: int, seat: int | None = None) -> str:
        """Write a card as ``seat``'s action names it.

        ``QS`` from the concealed hand, ``QS*`` on the table, ``QS*beziques``
        where the table copies differ; ``QS@`` (``QS@beziques``) for a partner's
        declared card on the table.
        """
        text = self.deck.card_text(card)
        if not self.on_table[card]:
            return text
        mark = "*"
        if seat is not None and not (self.held[seat] >> card) & 1:
            mark, seat = "@", None
        if not self.needs_classes(card, seat):
            return text + mark
        return text + mark + "+".join(self.declared_classes(card))

    def needs_classes(self, card: int, seat: int | None) -> bool:
        """Whether the owner has another copy of ``card`` on the table, declared differently."""
        owner = self._owner(card) if seat is None else seat
        face = self.deck.card_face[card]
        twins = {
            self.levels[c]
            for c in self.hands[owner]
            if self.on_table[c] and self.deck.card_face[c] == face
        }
        return len(twins) > 1

    def _owner(self, card: int) -> int:
        """The seat holding ``card`` (the seat to act if none does)."""
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return self.to_act

    def declared_classes(self, card: int) -> list[str]:
        """Name the classes ``card`` has been declared in this hand, with the level when above 1.

        ``["beziques", "marriages.2"]``: declared in a bezique, and in the
        second level of the marriage class (a sequence).
        """
        return class_labels(self.rules.classes, self.levels[card])

    def action_text(self, action: Action) -> str:
        """Write ``action`` in the text notation of :mod:`bezique.actions`."""
        if action.kind == Kind.END_TURN:
            return self._end_word()
        if action.kind == Kind.CHOOSE:
            return f"choose {action.combo}"
        seat = self.to_act
        tokens = sorted((self.deck.card_face[c], self.card_token(c, seat)) for c in action.cards)
        words = [KIND_WORDS[action.kind]]
        if action.combo:
            words.append(action.combo)
        words.extend(token for _, token in tokens)
        return " ".join(words)

    def parse_action(self, text: str) -> Action:
        """Read an action written in the text notation, for the player to act.

        Raise :class:`IllegalActionError` if the text names no possible action.
        """
        words = text.split()
        if not words or words[0].lower() not in WORD_KINDS:
            expected = ", ".join(sorted(WORD_KINDS))
            raise IllegalActionError(
                f"{text!r}: an action starts with one of {expected}", "notation"
            )
        kind = WORD_KINDS[words[0].lower()]
        rest = words[1:]
        if kind in TABLE_KINDS:
            if not rest:
                raise IllegalActionError(f"{text!r}: name the irregularity", "notation")
            return Action(kind, (), " ".join([rest[0].lower(), *rest[1:]]))
        if kind == Kind.CHOOSE:
            if len(rest) != 2:
                raise IllegalActionError(
                    f"{text!r}: write 'choose QUESTION ANSWER' (two words after 'choose')",
                    "notation",
                )
            return Action(kind, (), f"{rest[0].lower()} {rest[1]}")
        combo = ""
        if kind in (Kind.DECLARE, Kind.ANNOUNCE):
            if not rest:
                raise IllegalActionError(
                    f"{text!r}: name the combination to {words[0]}", "notation"
                )
            combo, rest = rest[0].lower(), rest[1:]
        if kind == Kind.END_TURN and rest:
            raise IllegalActionError(f"{text!r}: '{words[0]}' takes no cards", "notation")
        if kind in _ONE_CARD and len(rest) != 1:
            example = _ONE_CARD[kind]
            raise IllegalActionError(f"{text!r}: name one card, as in {example!r}", "notation")
        cards = self._resolve_tokens(text, rest)
        action = Action(kind, tuple(sorted(cards)), combo)
        # Copies the text cannot tell apart (a seven that has scored and one that
        # has not, say): the text means the legal action it reads as, if any.
        if action not in self.legal_actions():
            wanted = self.action_text(action)
            for legal in self.legal_actions():
                if self.action_text(legal) == wanted:
                    return legal
        return action

    def _resolve_tokens(self, text: str, tokens: Sequence[str]) -> list[int]:
        """Find the player's card each token names (see :meth:`card_token`)."""
        seat = self.to_act
        chosen: list[int] = []
        for token in tokens:
            at = "@" in token
            face_text, star, classes = token.partition("@" if at else "*")
            try:
                face = self.deck.parse_face(face_text)
            except CardError as exc:
                refused = IllegalActionError(f"{text!r}: {exc}", "notation")
                refused.__cause__ = exc  # (mypyc's raise ... from does not always set it)
                raise refused from exc
            copies = [
                c
                for holder in (self.partners(seat) if at else (seat,))
                for c in self.hands[holder]
                if c not in chosen
                and self.deck.card_face[c] == face
                and self.on_table[c] == bool(star)
            ]
            if star:
                # ``QS*`` is the copy shown but never declared when there is one
                # (the others then carry their classes), else any table copy.
                wanted = sorted(classes.split("+")) if classes else []
                exact = [c for c in copies if sorted(self.declared_classes(c)) == wanted]
                copies = exact if exact or classes else copies
            if not copies:
                where = "on the table" if star else "in the concealed hand"
                where = "on a partner's table" if at else where
                raise IllegalActionError(
                    f"{text!r}: seat {seat} has no {token} {where}", "play.own_cards"
                )
            chosen.append(copies[0])
        return chosen

    def action_id(self, action: Action) -> int:
        """Return a stable integer for ``action``: same meaning, same number, in any game.

        It packs the kind, the combination (by its place in the variant's table)
        and, for each card, its face, whether it lies on the player's or his
        partner's table and, where the text names them, the class levels it was
        declared at: it says what the text form says.
        """
        if action.kind in TABLE_KINDS:
            return int.from_bytes(action.combo.encode(), "big") * _ID_KINDS + int(action.kind)
        if action.kind == Kind.CHOOSE:  # numbered in the end of turn's residue, above it
            return int.from_bytes(action.combo.encode(), "big") * _ID_KINDS + int(Kind.END_TURN)
        combos = self.rules.combo_names
        faces = self.deck.faces
        base = 3 * faces * 16 ** len(self.rules.classes) + 1
        code = combos.index(action.combo) + 1 if action.combo in combos else 0
        if action.combo and not code:  # a name outside the table: a plugin's (carte_blanche)
            code = _outside_name(action.combo, len(combos), base)
        seat = self.to_act
        cards = sorted(
            1 + self.deck.card_face[c] + faces * self._id_place(c, seat) for c in action.cards
        )
        for value in cards:
            code = code * base + value
        return code * _ID_KINDS + int(action.kind)

    def _id_place(self, card: int, seat: int) -> int:
        """Where ``card`` is, for :meth:`action_id`.

        Hand 0, own table 1, partner's table 2, plus 3 times its class levels
        when the text names them.
        """
        if not self.on_table[card]:
            return 0
        own = bool((self.held[seat] >> card) & 1)
        named = self.needs_classes(card, seat if own else None)
        return (1 if own else 2) + 3 * self.levels[card] * named

    def legal_action_ids(self) -> list[int]:
        """Return :meth:`action_id` of every legal action, in the same order."""
        return [self.action_id(a) for a in self.legal_actions()]

    def _end_word(self) -> str:
        """The word that ends a turn now: ``draw`` while cards can be drawn, else ``pass``."""
        return "draw" if self.stock_left() else "pass"


_ONE_CARD = {Kind.PLAY: "play QS"}
"""The kinds of action that name exactly one card, with an example of each (an exchange or
a show may name none where a variant's seven is implied: Polish bezique)."""


def _outside_name(name: str, table: int, base: int) -> int:
    """The leading digits of an id for a name the combination table does not hold.

    An id's combination and cards are digits in ``base``: the name's place in the
    table (1 to ``table``) leads, each card's digit follows.  A name outside the table
    leads with ``table + 1`` and its bytes' digits follow, so it never reads as a
    combination of the table, and two such names without cards never read alike.
    """
    code = int.from_bytes(name.encode(), "big")
    width = base
    while width <= code:
        width *= base
    return (table + 1) * width + code


_ID_KINDS = 8
"""The radix of an id's kind: the eight kinds there were when ids were fixed.

A choice (``choose``, the ninth kind) is numbered ``text * 8 + 5``: the residue of
the end of a turn, whose one id is 5 (its text is never empty, so it never is 5)."""


def class_labels(classes: Sequence[str], levels: int) -> list[str]:
    """Name the classes of a card's ``levels``, with the level when above 1.

    ``levels`` keeps four bits a class, in the order of ``classes``:
    ``["beziques", "marriages.2"]``.
    """
    labels = []
    for index, name in enumerate(classes):
        level = (levels >> (4 * index)) & 15
        if level:
            labels.append(name if level == 1 else f"{name}.{level}")
    return labels
