"""A fixed action space per variant: every action it can ever offer, numbered 0..N-1.

The game's actions name physical cards (:mod:`bezique.actions`); a learning agent needs
a fixed list of choices, the same at every decision, and a mask of the legal ones.
:class:`ActionSpace` numbers, for a variant's merged rules, every action by what its
text says and nothing more (the card notation's faces and places):

* ``draw`` (also read ``pass`` once the stock is gone);
* ``play`` of each face from the concealed hand, then from the player's table, then
  from the table by the classes the copy was declared in (see below);
* ``exchange`` and ``show`` of the seven: without a card (a variant whose seven is
  implied), then of each face from the hand;
* ``choose`` of each answer to each question the variant asks before a hand's first
  lead (the first deal of a game with seed 0 asks them);
* ``declare`` of each combination by name alone (the way the Polish game declares),
  and the carte blanche where the variant plays it;
* ``declare`` and ``announce`` of each combination by its faces, each from the hand
  (``QS``), the player's table (``QS*``) or, in a partnership, the partner's (``QS@``),
  as OpenSpiel's gin rummy numbers its melds by their cards.

The faces of a combination are proposed from its row of the combination table (the
ranks it names, the bezique pairs of every trump suit) and kept only where the
variant's own check of a written declaration says they form it
(:func:`bezique.hookspecs.bezique_sheet_declaration_problem`, the score sheet's), so
that no rule of a combination is written twice.  The numbering is sorted and depends
only on the merged rules: the same in every process and version that merges them alike.

Left out, with reason: the table actions (``irregular``, ``claim``) and the referee's
remedy choices.  They are what happens at a real table beside the rules, free words
a plugin reads; a refereed game is the record of a real game, not one an agent trains
in.  An index means one text.  A card played from the player's table is numbered by its
face and, where he has two copies of that face on the table declared differently (the
notation's ``QS*beziques`` against ``QS*marriages``), by the classes it was declared
in: ``play`` of each face from the table under each naming of classes the variant's
combination table allows.  A table card within a declaration is numbered by its face
and place alone: the game offers one legal declaration for copies that its rules treat
alike.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from bezique.actions import KIND_WORDS, Action, Kind
from bezique.engine.notation import class_labels
from bezique.errors import BeziqueError
from bezique.game import PLAY, QUESTION, TURN, GameState, new_game

if TYPE_CHECKING:
    from bezique.rules.ruleset import Ruleset

__all__ = ["HAND", "OWN_TABLE", "PARTNER_TABLE", "ActionSpace", "ActionSpaceError", "space_for"]

HAND = 0
"""A card's place in an action: the player's concealed hand (``QS``)."""
OWN_TABLE = 1
"""A card's place in an action: the player's declared cards on the table (``QS*``)."""
PARTNER_TABLE = 2
"""A card's place in an action: the partner's declared cards on the table (``QS@``)."""

_MARKS = ("", "*", "@")


class ActionSpaceError(BeziqueError):
    """An action, index or phase the action space does not hold."""


class Key(NamedTuple):
    """What an index stands for: a kind, a combination or answer, and placed faces."""

    kind: int
    words: str
    cards: tuple[tuple[int, int], ...]
    """``(face, place)`` of each card, sorted."""


class ActionSpace:
    """The numbered actions of one variant's merged rules (see the module)."""

    def __init__(self, rules: Ruleset) -> None:
        """Number every action ``rules`` can offer (use :func:`space_for`, which keeps it)."""
        self.rules = rules
        self.keys: tuple[Key, ...] = tuple(_keys(rules))
        """Each index's key, in index order."""
        self.index_of: dict[Key, int] = {key: i for i, key in enumerate(self.keys)}
        """Each key's index."""
        if len(self.index_of) != len(self.keys):
            raise ActionSpaceError("the action space numbers one action twice")

    def __len__(self) -> int:
        """How many actions the space numbers."""
        return len(self.keys)

    def text(self, index: int) -> str:
        """The text an index stands for, in the notation (``declare bezique QS JD*``)."""
        key = self.keys[self._checked(index)]
        deck = self.rules.deck
        if key.kind == Kind.PLAY and key.words:  # a table copy named by its classes
            ((face, place),) = key.cards
            return f"play {deck.face_text(face)}{_MARKS[place]}{key.words}"
        words = [KIND_WORDS[Kind(key.kind)]]
        if key.words:
            words.append(key.words)
        words.extend(deck.face_text(face) + _MARKS[place] for face, place in key.cards)
        return " ".join(words)

    def texts(self) -> list[str]:
        """The text of every index, in index order."""
        return [self.text(i) for i in range(len(self))]

    def key(self, state: GameState, action: Action) -> Key:
        """The key of ``action`` by the seat to act in ``state`` (before it is applied)."""
        if action.kind == Kind.END_TURN:
            return _END
        deck = state.deck
        seat = state.to_act
        faces = deck.card_face
        cards = tuple(sorted((faces[c], _place(state, seat, c)) for c in action.cards))
        if action.kind == Kind.PLAY and cards[0][1] == OWN_TABLE:
            card = action.cards[0]
            if state.needs_classes(card, seat):
                return Key(int(Kind.PLAY), "+".join(state.declared_classes(card)), cards)
        return Key(int(action.kind), action.combo, cards)

    def index(self, state: GameState, action: Action) -> int:
        """The index of ``action`` by the seat to act in ``state``; refuse one outside the space."""
        found = self.index_of.get(self.key(state, action))
        if found is None:
            raise ActionSpaceError(
                f"{state.action_text(action)!r} is not in the action space of "
                f"{self.rules.variant.name} (table actions and remedies are left out)"
            )
        return found

    def parse(self, state: GameState, text: str) -> int:
        """The index of an action written in the notation (``declare bezique QS JD*``).

        Read by the game (:meth:`~bezique.game.GameState.parse_action`) for the seat to act;
        a text that names no action is refused as the game refuses it.
        """
        return self.index(state, state.parse_action(text))

    def legal_indices(self, state: GameState) -> list[int]:
        """The indices of the legal actions now, sorted, each once (none once the game is over)."""
        self._numbered_phase(state)
        return sorted({self.index(state, a) for a in state.legal_actions()})

    def mask(self, state: GameState) -> list[bool]:
        """For each index, whether it is legal now."""
        mask = [False] * len(self.keys)
        for index in self.legal_indices(state):
            mask[index] = True
        return mask

    def action(self, state: GameState, index: int) -> Action:
        """The legal action ``index`` stands for now; refuse an index not legal now."""
        key = self.keys[self._checked(index)]
        self._numbered_phase(state)
        for action in state.legal_actions():
            if self.key(state, action) == key:
                return action
        raise ActionSpaceError(
            f"action {index} ({self.text(index)}) is not legal now for seat {state.to_act}"
        )

    def _checked(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self):
            raise ActionSpaceError(
                f"action index {index!r}: an index is a whole number from 0 to {len(self) - 1}"
            )
        return int(index)

    def _numbered_phase(self, state: GameState) -> None:
        """Refuse a phase a plugin opened (the referee's remedies): its choices are not numbered."""
        if state.phase not in (PLAY, TURN, QUESTION) and state.legal_actions():
            raise ActionSpaceError(
                f"the {state.phase} phase's choices are not in the action space "
                "(a refereed game's remedies are left out)"
            )


_END = Key(int(Kind.END_TURN), "", ())


def _place(state: GameState, seat: int, card: int) -> int:
    """Where ``card`` is for ``seat``: its hand, its table or its partner's table."""
    if not state.on_table[card]:
        return HAND
    return OWN_TABLE if (state.held[seat] >> card) & 1 else PARTNER_TABLE


def space_for(rules: Ruleset) -> ActionSpace:
    """The action space of ``rules``, made once per ruleset."""
    found = rules.tables.get(_SPACE_KEY)
    if not isinstance(found, ActionSpace):
        found = rules.tables[_SPACE_KEY] = ActionSpace(rules)
    return found


_SPACE_KEY = ("bezique.rl.actions", "space")


def _keys(rules: Ruleset) -> Iterator[Key]:
    """Every key of the space, in index order (see the module)."""
    faces = range(rules.deck.faces)
    yield _END
    for place in (HAND, OWN_TABLE):
        for face in faces:
            yield Key(int(Kind.PLAY), "", ((face, place),))
    for label in _class_namings(rules):
        for face in faces:
            yield Key(int(Kind.PLAY), label, ((face, OWN_TABLE),))
    for kind in (Kind.EXCHANGE, Kind.SHOW):
        yield Key(int(kind), "", ())
        for face in faces:
            yield Key(int(kind), "", ((face, HAND),))
    for words in _answers(rules):
        yield Key(int(Kind.CHOOSE), words, ())
    names = list(rules.combo_names)
    if rules.data.get("carte_blanche", {}).get("enabled"):
        names.append("carte_blanche")
    for name in names:
        yield Key(int(Kind.DECLARE), name, ())
    places = 3 if rules.data.get("partnerships") else 2
    forms = [
        (name, placed)
        for name in rules.combo_names
        for shown in _face_forms(rules, name)
        for placed in _placed(shown, places)
    ]
    for kind in (Kind.DECLARE, Kind.ANNOUNCE):
        for name, placed in forms:
            yield Key(int(kind), name, placed)


def _class_namings(rules: Ruleset) -> list[str]:
    """Every naming of the classes a table card may have been declared in.

    As the notation writes it after ``QS*`` (``beziques+marriages.2``): each class at
    none or one of the levels of its combinations in the variant's table, at least one
    class named.
    """
    rows: dict[str, Any] = rules.data.get("declarations", {}).get("combinations", {})
    levels_of = [
        sorted({int(row.get("level", 1)) for row in rows.values() if row["class"] == name})
        for name in rules.classes
    ]
    namings = []
    for chosen in itertools.product(*([0, *levels] for levels in levels_of)):
        levels = sum(level << (4 * index) for index, level in enumerate(chosen))
        if levels:
            namings.append("+".join(class_labels(rules.classes, levels)))
    return namings


def _answers(rules: Ruleset) -> list[str]:
    """Each ``choose`` answer of the questions asked before the first lead of a game.

    Asked of the first deal of a game with seed 0 (the questions and their answers
    are the rules'), each answered with its first answer to reach the next.
    """
    if rules.hand_question is None:
        return []
    state = new_game(rules, seed=0)
    found: list[str] = []
    while state.phase == QUESTION:
        choices = state.legal_actions()
        found.extend(a.combo for a in choices)
        state.apply(choices[0])
    return found


def _face_forms(rules: Ruleset, name: str) -> list[tuple[int, ...]]:
    """The face multisets (sorted) that form combination ``name``, by the variant's check."""
    deck = rules.deck
    row: dict[str, Any] = rules.data["declarations"]["combinations"][name]
    check = rules.manager.hook.bezique_sheet_declaration_problem
    forms = []
    for faces in sorted(set(_proposed(rules, row))):
        if any(faces.count(f) > deck.packs for f in set(faces)):
            continue
        problem = check(rules=rules, declared=[], name=name, faces=faces, trump=-1)
        if not problem:  # "" it forms; None: no plugin checks, the proposal stands
            forms.append(faces)
    return forms


def _proposed(rules: Ruleset, row: dict[str, Any]) -> Iterator[tuple[int, ...]]:
    """Face multisets a combination's row may name: its ranks in any suits, its bezique pairs."""
    deck = rules.deck
    suits = range(len(deck.suits))
    if "ranks" in row:
        ranks = [deck.rank_index(r) for r in row["ranks"]]
        for chosen in itertools.product(suits, repeat=len(ranks)):
            yield tuple(sorted(deck.face(r, s) for r, s in zip(ranks, chosen, strict=True)))
    elif "rank" in row:
        rank = deck.rank_index(row["rank"])
        of_rank = [deck.face(rank, s) for s in suits]
        yield from itertools.combinations_with_replacement(of_rank, int(row["count"]))
    elif "beziques" in row:
        cards = rules.data["declarations"].get("bezique_cards", {})
        pairs = sorted({tuple(sorted(deck.parse_face(t) for t in pair)) for pair in cards.values()})
        for pairs_chosen in itertools.combinations_with_replacement(pairs, int(row["beziques"])):
            yield tuple(sorted(face for pair in pairs_chosen for face in pair))


def _placed(faces: Sequence[int], places: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every way of placing ``faces`` (hand, own table, partner's table), each as a sorted key."""
    counts = {face: faces.count(face) for face in sorted(set(faces))}
    splits = [
        [
            tuple((face, p) for p in split)
            for split in itertools.combinations_with_replacement(range(places), count)
        ]
        for face, count in counts.items()
    ]
    for chosen in itertools.product(*splits):
        yield tuple(sorted(card for part in chosen for card in part))
