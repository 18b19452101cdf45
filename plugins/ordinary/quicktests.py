"""The bitboard pre-filter: cheap first tests of what a trick's winner might declare.

The only speed layer of the declaring procedure: before any form of a
combination is enumerated, :class:`QuickTests` (compiled once per ruleset and
trump suit by :func:`quick_tests`) says from the hand's bitboard which
combinations could be formed with a card not declared before.  The rules
themselves are :class:`~bezique.plugins.ordinary.OrdinaryDeclarations`'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bezique.plugins.ordinary.combinations import Combination, Tables

CountTest = tuple[int, int, int, Combination]
"""(cards of one kind, how many, cards of a second kind needed as many times or 0, combination)."""


@dataclass(frozen=True, slots=True, eq=False)
class QuickTests:
    """Cheap first tests, for one trump suit, of what a trick's winner might declare."""

    fold: int
    """Two packs: the shift that folds a bitboard of cards onto faces (else 0)."""
    face_mask: int
    gap: int
    keys: int
    """Every form of a same-suit combination holds a face of ``keys`` and the face ``gap``
    above it: no such pair in hand, no same-suit form (see :func:`_pair_test`)."""
    forms: list[tuple[int, Combination]]
    """(face mask, combination): a form of the same-suit combination needs every face."""
    counted: list[CountTest]
    """Counting tests of same-rank and bezique combinations (see :func:`_counted`)."""
    sevens: int
    """Bit ``1 << card`` for each seven of trumps that may be exchanged or shown."""
    faces_of: Callable[[int], int]
    """:meth:`Tables.faces_of <bezique.plugins.ordinary.Tables.faces_of>`."""
    cards: int
    """Bit ``1 << card`` for every card that some combination can use."""
    by_card: list[tuple[list[list[int]], list[tuple[int, int, int]]]]
    """For each card, the same tests restricted to the combinations it can join: for
    each form, the copies of each other face it needs; and the counting tests."""
    partners: list[int]
    """For each card, bit ``1 << card`` for every card its ``by_card`` tests read."""
    bits: list[int]
    """:attr:`Deck.bits <bezique.cards.Deck.bits>`."""
    verdicts: list[dict[int, bool]] = field(init=False, default_factory=list)
    """For each card, a memo of its ``by_card`` tests by the partners held."""

    def possible(self, held: int, fresh_cards: int) -> list[Combination]:
        """The combinations whose tests ``held`` passes with a card of ``fresh_cards``.

        The others cannot be declared; these are worth enumerating.  In table
        order, same-suit combinations first.
        """
        fold = self.fold
        present = (held | held >> fold) & self.face_mask if fold else self.faces_of(held)
        possible: list[Combination] = []
        if present & present >> self.gap & self.keys:
            if fresh_cards == held:
                fresh = present
            elif fold:
                fresh = (fresh_cards | fresh_cards >> fold) & self.face_mask
            else:
                fresh = self.faces_of(fresh_cards)
            for mask, combo in self.forms:
                if present & mask == mask and fresh & mask and combo not in possible:
                    possible.append(combo)  # a combination may have several suits' forms
        for cards, needed, others, combo in self.counted:
            if (
                (held & cards).bit_count() >= needed
                and (not others or (held & others).bit_count() >= needed)
                and fresh_cards & (cards | others)
            ):
                possible.append(combo)
        return possible

    def any_with(self, held: int, fresh_cards: int) -> bool:
        """Whether :meth:`possible` finds anything, where ``fresh_cards`` are held.

        Only the tests of the combinations each fresh card can join, read in
        card space: the yes-or-no test after a trick, when a player has drawn
        a card or two since his hand last showed nothing.  Those tests read
        only the card's partners, so their verdict is kept by the partners held.
        """
        partners, verdicts, bits = self.partners, self.verdicts, self.bits
        while fresh_cards:
            card = fresh_cards.bit_length() - 1  # the highest first
            fresh_cards ^= bits[card]
            key = held & partners[card]
            verdict = verdicts[card].get(key)
            if verdict is None:
                verdict = self.joins(card, key)
                if len(verdicts[card]) < _VERDICT_LIMIT:
                    verdicts[card][key] = verdict
            if verdict:
                return True
        return False

    def joins(self, card: int, held: int) -> bool:
        """Whether ``card``, held with ``held``, passes the tests of a combination it can join."""
        forms, counts = self.by_card[card]
        for needs in forms:
            for copies in needs:
                if not held & copies:
                    break
            else:
                return True
        for cards, needed, others in counts:
            if (held & cards).bit_count() >= needed and (
                not others or (held & others).bit_count() >= needed
            ):
                return True
        return False

    def __post_init__(self) -> None:
        """Start each card's empty memo."""
        self.verdicts.extend({} for _ in self.by_card)


_VERDICT_LIMIT = 1 << 12
"""Most verdicts :class:`QuickTests` keeps for one card (a few hundred fill in a
long benchmark; the cap bounds the memory of the 64 or more memos)."""


def quick_tests(t: Tables, trump: int) -> QuickTests:
    """Return cheap first tests of the combinations under ``trump`` (made once per suit).

    A list of (face mask, combination): a form of the combination needs every
    face of the mask; and, for same-rank and bezique combinations, the masks
    of :func:`_counted`.  A combination that passes neither cannot be declared.
    And the sevens of trumps that the seven's actions look for.
    """
    tests = t.tests_by_trump.get(trump)
    if tests is None:
        tests = t.tests_by_trump[trump] = _compile(t, trump)
    return tests


def _compile(t: Tables, trump: int) -> QuickTests:
    """Compile the quick tests of ``trump`` (see :func:`quick_tests`)."""
    deck = t.deck
    combos = t.combinations_for(trump)
    forms = [
        (mask, c) for c in combos if not c.rank_faces and not c.pairs for mask in _form_masks(c)
    ]
    counted = [_counted(t, c) for c in combos if c.rank_faces or (c.pairs and c.faces)]
    sevens = 0
    if t.sevens_exchanged and trump >= 0:
        sevens = t.face_copies[deck.face(t.seven_rank, trump)]
    gap, keys = _pair_test([mask for mask, _ in forms], deck.faces)
    form_faces = 0
    for mask, _ in forms:
        form_faces |= mask
    cards = t.copies([f for f in range(deck.faces) if form_faces >> f & 1])
    for some, _, others, _ in counted:
        cards |= some | others
    by_card = [_card_tests(t, card, forms, counted) for card in range(deck.size)]
    return QuickTests(
        t.fold,
        t.face_mask,
        gap,
        keys,
        forms,
        counted,
        sevens,
        t.faces_of,
        cards,
        by_card,
        [_partners(needs, counts) for needs, counts in by_card],
        deck.bits,
    )


def _card_tests(
    t: Tables, card: int, forms: list[tuple[int, Combination]], counted: list[CountTest]
) -> tuple[list[list[int]], list[tuple[int, int, int]]]:
    """:attr:`QuickTests.by_card` for ``card``: the tests of what it can join."""
    faces = t.deck.faces
    face = t.deck.card_face[card]
    needs = [
        [t.face_copies[other] for other in range(faces) if mask >> other & 1]
        for mask, _ in forms
        if mask >> face & 1
    ]
    counts = [
        (some, needed, others) for some, needed, others, _ in counted if (some | others) >> card & 1
    ]
    return needs, counts


def _counted(t: Tables, combo: Combination) -> CountTest:
    """A same-rank form needs ``size`` of its cards; a bezique form ``pairs`` of each card."""
    if combo.rank_faces:
        return t.copies(combo.rank_faces), combo.size, 0, combo
    queen, knave = (t.face_copies[face] for face in combo.faces)
    return queen, combo.pairs, knave, combo


def _partners(needs: list[list[int]], counts: list[tuple[int, int, int]]) -> int:
    """Every card that one card's tests (:attr:`QuickTests.by_card`) read."""
    partners = 0
    for copies in needs:
        for some in copies:
            partners |= some
    for cards, _, others in counts:
        partners |= cards | others
    return partners


def _form_masks(combo: Combination) -> tuple[int, ...]:
    """Masks of faces that must all be present; empty for same-rank combinations."""
    if combo.rank_faces:
        return ()
    if combo.pairs:
        return (combo.mask,) if combo.faces else ()
    return tuple(mask for _, mask in combo.suit_forms)


def _pair_test(masks: Sequence[int], faces: int) -> tuple[int, int]:
    """Return ``(gap, keys)``: each mask holds a face of ``keys`` and the face ``gap`` above it.

    Then a hand whose faces ``present`` make ``present & present >> gap & keys`` zero
    holds no whole mask.  The smallest gap that every mask has (between king and
    queen in bezique), keys chosen so that masks share them; ``(0, all faces)``
    when the masks have no common gap.
    """
    ordered = sorted(masks, key=int.bit_count)
    for gap in range(1, faces):
        keys = 0
        for mask in ordered:
            pairs = mask & mask >> gap
            if not pairs:
                break
            if not pairs & keys:
                keys |= pairs & -pairs
        else:
            return gap, keys
    return 0, (1 << faces) - 1
