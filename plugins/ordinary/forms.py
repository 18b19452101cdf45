"""The forms of a combination in a player's cards: every distinct set that makes it up.

Copies of a face are interchangeable when the kernel's ``state.card_key`` says
so (same face, same table state and levels): :func:`copy_groups` groups them, and
:func:`combination_forms` takes one form per distinct choice from the groups.
:func:`forms_of_single_copies` reads the forms off the hand's bitboard where no
face is held twice.  Legality is not decided here (see
:meth:`OrdinaryDeclarations.form_refusal
<bezique.plugins.ordinary.OrdinaryDeclarations.form_refusal>`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product
from typing import TYPE_CHECKING

from bezique.plugins.ordinary.combinations import Combination, Tables

if TYPE_CHECKING:
    from bezique.hookstate import HookState

Form = tuple[Combination, tuple[int, ...]]
"""A combination and the cards (sorted) that form it."""


def forms_of_single_copies(t: Tables, combo: Combination, held: int) -> list[Form] | None:
    """:func:`combination_forms` read off the hand's bitboard, or None where it cannot be.

    Where the hand holds at most one copy of each face a same-suit or single
    bezique form needs, each face is one group whatever the copy keys, and
    each form one set of cards.  None where some such face is held twice, and
    for same-rank and double bezique combinations (their copies matter).
    """
    face_copies = t.face_copies
    forms: list[Form] = []
    if combo.pairs:
        if combo.pairs != 1 or len(combo.faces) != 2:
            return None
        queens, knaves = held & face_copies[combo.faces[0]], held & face_copies[combo.faces[1]]
        if queens and knaves:
            if queens & (queens - 1) or knaves & (knaves - 1):
                return None
            queen, knave = queens.bit_length() - 1, knaves.bit_length() - 1
            forms.append((combo, (queen, knave) if queen < knave else (knave, queen)))
        return forms
    if combo.rank_faces:
        return None
    for faces, _ in combo.suit_forms:
        cards = []
        for face in faces:
            copies = held & face_copies[face]
            if not copies:
                break
            if copies & (copies - 1):
                return None
            cards.append(copies.bit_length() - 1)
        else:
            cards.sort()
            forms.append((combo, tuple(cards)))
    return forms


def copy_groups(
    state: HookState, hand: list[int], table_cards_apart: bool = False, faces: int = -1
) -> dict[int, dict[int, list[int]]]:
    """Group a hand: face -> key of interchangeable copies -> those cards, in hand order.

    With ``table_cards_apart`` every card on the table is a group of its own.  Only
    the faces with a bit ``1 << face`` in ``faces`` are grouped (default: all).
    """
    groups: dict[int, dict[int, list[int]]] = {}
    face_of = state.deck.card_face
    card_key = state.card_key
    apart = state.on_table if table_cards_apart else None
    size = state.deck.size
    for card in hand:
        face = face_of[card]
        if faces >> face & 1:
            key = size + card if apart is not None and apart[card] else card_key[card]
            copies = groups.get(face)
            if copies is None:
                groups[face] = {key: [card]}
            elif key in copies:
                copies[key].append(card)
            else:
                copies[key] = [card]
    return groups


def combination_forms(
    state: HookState,
    combo: Combination,
    groups: dict[int, dict[int, list[int]]],
    present: int = -1,
) -> list[Form]:
    """Return every distinct set of the player's cards that forms ``combo``.

    ``present``: bit ``1 << face`` for each face in ``groups``, where the caller
    has it (it only saves looking).  The list of :func:`each_form`.
    """
    return list(each_form(state, combo, groups, present))


def each_form(
    state: HookState,
    combo: Combination,
    groups: dict[int, dict[int, list[int]]],
    present: int = -1,
) -> Iterator[Form]:
    """Yield the forms of :func:`combination_forms`, in its order, one at a time.

    A caller that needs only the first legal form stops there (Polish bezique's
    open rows of up to twenty cards hold many forms of four of a kind).
    """
    if combo.pairs:
        queen, knave = combo.faces
        if queen not in groups or knave not in groups:
            return
        for queens in choose_copies(list(groups[queen].values()), combo.pairs):
            for knaves in choose_copies(list(groups[knave].values()), combo.pairs):
                yield combo, tuple(sorted(queens + knaves))
    elif combo.rank_faces:
        units = [cards for f in combo.rank_faces if f in groups for cards in groups[f].values()]
        for chosen in choose_copies(units, combo.size):
            if combo.distinct_suits and len({state.deck.card_suit[c] for c in chosen}) < combo.size:
                continue
            yield combo, tuple(sorted(chosen))
    else:
        for faces, mask in combo.suit_forms:
            if present & mask != mask:
                continue
            copies = []
            for face in faces:
                by_key = groups.get(face)
                if by_key is None:
                    break
                copies.append(by_key)
            else:
                firsts = [cards[0] for by_key in copies for cards in by_key.values()]
                if len(firsts) == len(faces):  # one group of each face: one form
                    yield combo, tuple(sorted(firsts))
                    continue
                for picks in product(*[list(by_key.values()) for by_key in copies]):
                    yield combo, tuple(sorted([cards[0] for cards in picks]))


def forms_combination(state: HookState, combo: Combination, cards: Sequence[int]) -> bool:
    """Return whether the faces of ``cards`` make up ``combo`` (legality aside)."""
    faces = sorted(state.deck.card_face[c] for c in cards)
    if combo.pairs:
        return faces == sorted(combo.faces * combo.pairs)
    if combo.rank_faces:
        suits = {state.deck.card_suit[c] for c in cards}
        return (
            len(faces) == combo.size
            and all(f in combo.rank_faces for f in faces)
            and (not combo.distinct_suits or len(suits) == combo.size)
        )
    return any(faces == sorted(form) for form, _ in combo.suit_forms)


def choose_copies(units: Sequence[list[int]], count: int) -> Iterator[list[int]]:
    """Yield each way to take ``count`` cards from groups of interchangeable cards.

    As many as possible from the first group first, then from the next: each
    choice is the first cards of each group, in the groups' order.  Each group is
    one count (how many of it to take), not its copies one by one.
    """
    if count == 1:  # one card: the first of each group
        for unit in units:
            yield unit[:1]
        return
    room = [0] * (len(units) + 1)  # cards in the groups from each one on
    for index in range(len(units) - 1, -1, -1):
        room[index] = room[index + 1] + len(units[index])
    choices: list[list[int]] = []
    _take_from(units, room, 0, count, [], choices)
    yield from choices


def _take_from(
    units: Sequence[list[int]],
    room: list[int],
    start: int,
    count: int,
    taken: list[int],
    choices: list[list[int]],
) -> None:
    """Add to ``choices`` each of ``taken`` and ``count`` cards from ``units[start:]``."""
    if count == 0:
        choices.append(taken)
        return
    if room[start] < count:
        return
    unit = units[start]
    for take in range(min(len(unit), count), max(count - room[start + 1], 0) - 1, -1):
        _take_from(units, room, start + 1, count - take, taken + unit[:take], choices)
