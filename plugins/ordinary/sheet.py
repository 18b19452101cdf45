"""The ordinary rules' answers to a score sheet (:mod:`bezique.sheet`): entries and checks.

Every number and rule is read from the compiled :class:`Tables` and checked by the
functions the game uses (:func:`class_clash`, :func:`raised_levels`), never restated.
A declaration entered with its cards is checked against the player's earlier
declarations of the hand: the cards form the combination under a trump suit that
every one of them allows, and the class rule holds for some choice of the copies
(a card already on the table is taken before a fresh copy, the packs' copies at most),
and, where the variant requires it and scores every declaration when it is made
(``declarations.per_trick: several``), the one-new-card rule (:func:`needs_new_card`):
some copy is fresh.  Where a combination may be announced and scored after a later
trick, or declared with cards first declared after the same trick, the sheet cannot
tell, and that rule is not checked.  A double or higher bezique built on a lower one
scores as the game scores it (:func:`ladder_points`), and a carte blanche as the
game's (:func:`~bezique.plugins.ordinary.carteblanche.blank_scores`): paid by each
opponent where the variant says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import product
from typing import TYPE_CHECKING, Any

from bezique.actions import ScoreEvent
from bezique.hookspecs import SheetEntryKind, hookimpl
from bezique.plugins.ordinary.cardplay import game_winner
from bezique.plugins.ordinary.carteblanche import CARTE_BLANCHE, blank_scores
from bezique.plugins.ordinary.combinations import (
    NEW_CARD_RULE,
    Combination,
    Tables,
    class_clash,
    class_rule_words,
    ladder_points,
    needs_new_card,
    raised_levels,
    tables_of,
)
from bezique.plugins.ordinary.declaring import OrdinaryDeclarations

if TYPE_CHECKING:
    from bezique.hookstate import HookRules

LevelReading = Callable[
    [Combination, Sequence[int], Sequence[int], Sequence[bool]], "list[int] | None"
]
"""A plugin's rule letting cards join a combination of their class again: given the
combination and its cards' class levels, faces and whether each lies on the table,
the levels the class rule reads, or None where the rule does not apply
(:func:`bezique.plugins.multihand.second_double_levels`)."""

SEVEN_KEYS = ("turn_up_points", "exchange_points", "declare_points")
"""The seven of trumps' score events, by their key in the ``seven_of_trumps`` section."""


@hookimpl
def bezique_sheet_entries(rules: HookRules) -> list[SheetEntryKind]:
    """The table's combinations, the seven of trumps, carte blanche, brisques, the last trick."""
    t = tables_of(rules)
    words = rules.words
    after_stock = declares_after_stock(rules)
    entries = [
        SheetEntryKind(
            name, words.combination(name), row["points"], _size(row), after_stock=after_stock
        )
        for name, row in rules.data["declarations"]["combinations"].items()
    ]
    if not t.trumps_by_marriage:
        sevens = t.packs  # each copy of the seven of trumps
        entries.extend(
            SheetEntryKind(
                f"seven_of_trumps.{key}",
                words.say(f"seven_of_trumps.{key}"),
                t.seven[key],
                most=sevens,
                pool="seven_of_trumps",
            )
            for key in SEVEN_KEYS
        )
    if t.carte_blanche_on:
        entries.append(
            SheetEntryKind("carte_blanche", words.say("carte_blanche"), t.carte_blanche["points"])
        )
    brisques = len(t.brisque_ranks) * len(t.deck.suits) * t.packs
    points = 0 if t.brisques_at_settlement else t.brisque_points
    entries.append(
        SheetEntryKind("brisques", words.say("brisques"), points, 0, True, brisques, True)
    )
    entries.append(
        SheetEntryKind(
            "last_trick", words.say("last_trick"), t.last_trick_points, 0, False, 1, True
        )
    )
    return entries


def declares_after_stock(rules: HookRules) -> bool:
    """Whether the variant's declaring goes on once the stock is gone, as its game's role says.

    The role the game declares through (``rules.declaring``, the plugins' roles
    composed) says so by :attr:`OrdinaryDeclarations.declares_after_stock`.
    """
    role = rules.declaring
    return isinstance(role, OrdinaryDeclarations) and role.declares_after_stock


def _size(row: Mapping[str, Any]) -> int:
    """How many cards a declaration of the combination ``row`` shows."""
    if "ranks" in row:
        return len(row["ranks"])
    if "rank" in row:
        return int(row["count"])
    return 2 * int(row["beziques"])


@hookimpl
def bezique_sheet_declaration_problem(
    rules: HookRules,
    declared: Sequence[tuple[str, tuple[int, ...]]],
    name: str,
    faces: tuple[int, ...],
    trump: int,
) -> str:
    """Whether ``faces`` form ``name`` under a trump the hand allows, and the class rule holds."""
    return declaration_problem(rules, declared, name, faces, trump)


def declaration_problem(
    rules: HookRules,
    declared: Sequence[tuple[str, tuple[int, ...]]],
    name: str,
    faces: tuple[int, ...],
    trump: int,
    class_rule: bool = True,
    reading: LevelReading | None = None,
) -> str:
    """Why the sheet may not hold ``name`` of ``faces`` (see the hook); ``""`` if it may.

    Without ``class_rule`` only the form and the trump suit are checked (a plugin
    whose sets are formed again once a card is played away, which a sheet does not
    record).  ``reading`` is a plugin's rule that lets cards join a combination of
    their class again (the three-hand second double bezique): where the class rule
    refuses every choice of copies, the copies it allows are tried too.
    """
    t = tables_of(rules)
    suits = range(len(t.deck.suits)) if trump < 0 else [trump]
    shown = " ".join(t.deck.face_text(f) for f in faces)
    words = rules.words.combination(name)
    allowed = [s for s in suits if _forms(t, t.by_name_for(s, name), faces)]
    if not allowed:
        return f"{shown} do not form {words} in this variant (its table of combinations)"
    allowed = [s for s in allowed if all(_forms(t, t.by_name_for(s, n), f) for n, f in declared)]
    if not allowed:
        return (
            f"{shown} as {words} needs a trump suit that the player's earlier declarations "
            "of the hand rule out: one suit is trumps for the whole hand"
        )
    if not class_rule:
        return ""
    return _class_problem(t, allowed[0], declared, name, faces, reading)[0]


@hookimpl
def bezique_sheet_scores(
    rules: HookRules,
    player: int,
    name: str,
    count: int,
    declared: Sequence[tuple[str, tuple[int, ...]]],
    faces: tuple[int, ...],
    trump: int,
) -> list[ScoreEvent] | None:
    """A carte blanche as the game scores it; a bezique built on a lower one, its ladder's."""
    t = tables_of(rules)
    if name == CARTE_BLANCHE and t.carte_blanche_on:
        return blank_scores(t.carte_blanche, rules.players, player, CARTE_BLANCHE, "")
    if not faces or not t.multiple_beziques:  # bezique_ladder: additive
        return None
    suits = range(len(t.deck.suits)) if trump < 0 else [trump]
    for suit in suits:
        combo = t.by_name_for(suit, name)
        if combo is None or not combo.taken_off or not _forms(t, combo, faces):
            continue
        problem, levels = _class_problem(t, suit, declared, name, faces)
        if not problem:
            detail = " ".join(t.deck.face_text(f) for f in faces)
            return [ScoreEvent(player, ladder_points(combo, levels), name, detail)]
    return None


def _forms(t: Tables, combo: Combination | None, faces: tuple[int, ...]) -> bool:
    """Whether ``faces`` are the cards of ``combo`` (a form of it, any copies)."""
    if combo is None:
        return False
    if combo.pairs:
        return _beziques(combo, faces)
    if len(faces) != combo.size:
        return False
    if combo.rank_faces:
        inside = all(f in combo.rank_faces for f in faces)
        return inside and (not combo.distinct_suits or len(set(faces)) == len(faces))
    return any(sorted(form) == sorted(faces) for form, _ in combo.suit_forms)


def _beziques(combo: Combination, faces: tuple[int, ...]) -> bool:
    """Whether ``faces`` are ``combo.pairs`` bezique pairs of the variant's bezique cards."""
    if len(combo.faces) != 2:
        return False
    wanted = sorted(combo.faces * combo.pairs)
    return sorted(faces) == wanted


def _class_problem(
    t: Tables,
    trump: int,
    declared: Sequence[tuple[str, tuple[int, ...]]],
    name: str,
    faces: tuple[int, ...],
    reading: LevelReading | None = None,
) -> tuple[str, list[int]]:
    """The class rule over the player's declarations of the hand, copies chosen as they allow.

    Return the refusal (``""``: none) and the class levels the copies taken held before.
    """
    copies: dict[int, list[int]] = {}
    for earlier, shown in declared:
        combo = t.by_name_for(trump, earlier)
        if combo is not None:
            _place(t, copies, combo, shown, reading)
    combo = t.by_name_for(trump, name)
    assert combo is not None  # _forms said so
    problem, levels = _place(t, copies, combo, faces, reading)
    if problem is None:
        barred = next((f for f in faces if len(copies.get(f, ())) >= t.packs), faces[0])
        return class_rule_words(t.deck.face_text(barred)), []
    return problem, levels


def _place(
    t: Tables,
    copies: dict[int, list[int]],
    combo: Combination,
    faces: tuple[int, ...],
    reading: LevelReading | None = None,
) -> tuple[str | None, list[int]]:
    """Lay ``faces`` as ``combo`` under the class rule and, where it is checked, the new card.

    Return None (the class rule or the packs refuse), :data:`NEW_CARD_RULE` (no choice
    of copies has a fresh one), or ``""`` with the levels the copies taken held before;
    ``copies`` is changed only then.  A copy on the table is taken before a fresh one,
    unless the one-new-card rule needs a fresh one (tried at each position in turn);
    where the class rule refuses them all, the copies ``reading`` allows.
    """
    laid = _lay(t, copies, combo, faces)
    if laid is None and reading is not None:
        laid = _lay_read(t, copies, combo, faces, reading)
    if laid is None:
        return None, []
    if t.one_per_trick or t.compound or not needs_new_card(t, laid[0]):
        copies.update(laid[1])
        return "", laid[0]
    for position in range(len(faces)):
        fresh = _lay(t, copies, combo, faces, position)
        if fresh is not None:
            copies.update(fresh[1])
            return "", fresh[0]
    return NEW_CARD_RULE, []


def _lay(
    t: Tables,
    copies: dict[int, list[int]],
    combo: Combination,
    faces: tuple[int, ...],
    fresh_at: int = -1,
) -> tuple[list[int], dict[int, list[int]]] | None:
    """Lay ``faces`` on the table as ``combo``, if the class rule and the packs allow it.

    ``copies`` holds, for each face, the class levels of each copy on the table; each
    face takes a copy on the table that the class rule lets join ``combo``, else a fresh
    copy while the packs hold one (the face at ``fresh_at`` a fresh one in any case).
    Return the levels the copies taken held before, and the faces' copies once laid
    (``copies`` itself is not changed); None when the packs hold no copy to take.
    """
    laid = {face: list(copies.get(face, [])) for face in faces}
    before: list[int] = []
    for position, face in enumerate(faces):
        levels = laid[face]
        free = [i for i, held in enumerate(levels) if class_clash(combo, [held]) < 0]
        if position == fresh_at:
            free = []
        if not free and len(levels) >= t.packs:
            return None
        if not free:
            levels.append(0)
            free = [len(levels) - 1]
        before.append(levels[free[0]])
        levels[free[0]] = raised_levels(levels[free[0]], combo)
    return before, laid


def _lay_read(
    t: Tables,
    copies: dict[int, list[int]],
    combo: Combination,
    faces: tuple[int, ...],
    reading: LevelReading,
) -> tuple[list[int], dict[int, list[int]]] | None:
    """Lay ``faces`` as ``combo`` on copies whose levels ``reading`` lets the class rule pass.

    Every choice of copies is tried (a copy on the table, or a fresh one while the
    packs hold one; a handful of faces, at most ``packs + 1`` choices each), in
    order; the first whose levels, as ``reading`` reads them, pass the class rule is
    laid.  Return as :func:`_lay` does; None when no choice passes.
    """
    options = [[*range(len(copies.get(face, []))), FRESH] for face in faces]
    for choice in product(*options):
        laid = _lay_choice(t, copies, combo, faces, choice)
        if laid is None:
            continue
        read = reading(combo, laid[0], faces, [True] * len(faces))
        if read is not None and class_clash(combo, read) < 0:
            return laid
    return None


FRESH = -1
"""A choice of :func:`_lay_read`: a fresh copy of the face rather than one on the table."""


def _lay_choice(
    t: Tables,
    copies: dict[int, list[int]],
    combo: Combination,
    faces: tuple[int, ...],
    choice: tuple[int, ...],
) -> tuple[list[int], dict[int, list[int]]] | None:
    """Lay each face on the copy ``choice`` names (:data:`FRESH`: a new one), if all differ."""
    laid = {face: list(copies.get(face, [])) for face in faces}
    taken: set[tuple[int, int]] = set()
    before: list[int] = []
    for face, index in zip(faces, choice, strict=True):
        levels = laid[face]
        if index == FRESH:
            if len(levels) >= t.packs:
                return None
            levels.append(0)
            index = len(levels) - 1
        elif (face, index) in taken:
            return None
        taken.add((face, index))
        before.append(levels[index])
        levels[index] = raised_levels(levels[index], combo)
    return before, laid


@hookimpl
def bezique_sheet_winner(
    rules: HookRules, scores: Sequence[int], hand_over: bool, last_trick: int
) -> int:
    """The game's winner as the game decides it (:func:`game_winner`)."""
    return game_winner(rules, scores, hand_over, last_trick)
