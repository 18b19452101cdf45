"""Four-hand bezique in partnerships (S0's four-hand paragraph; BIC-4).

The kernel keeps the score per side (``partnerships.sides``) and asks
:func:`bezique_next_declarer` who may declare after a trick.  This plugin adds
what partners do differently, with the variant's switches:

* **Who declares** (``partnerships.declarer``).  ``either`` (S0: a player may
  declare when he or his partner takes a trick): the trick's winner has his
  turn, then his partner has one, each under the ordinary declaring rules,
  before anyone draws.  ``winner_or_partner`` (BIC-4): the winner declares, or
  ends his turn without declaring and so passes the privilege to his partner;
  once the winner has declared, the partner may not.
* **Shared beziques** (``partnerships.shared_beziques``, A25).  With S0 a double
  or triple bezique may take beziques from the partner's hand: a bezique his
  partner has declared and left on the table counts with the declarer's own
  bezique cards.  The partner's cards are written ``QS@`` in actions.  They must
  come as whole beziques (a queen and a knave each) declared in the beziques
  class; the declarer brings at least one bezique of his own, and the ordinary
  and multi-hand class rules judge the whole.  With BIC-4 (``false``) every card
  of a double or triple bezique is the declarer's own.
* **The partner's table** (``partnerships.partners_table``, BIC-4).  A player may
  declare any other combination from cards of his own hand together with cards
  his partner has declared and left on the table (``KH@``), at least one his own;
  nothing the partner could not declare himself, which is what the class rules,
  reading each card's own levels, refuse.  S0 says nothing of it: off.

The three- and four-hand declaring rules (triple and second double bezique) are
the ``multihand`` plugin's; a partnership variant lists both, this one last, and
the roles compose: :class:`PartnershipDeclarations` adds the shared beziques to
whatever the roles composed before it allow, and judges them by the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.actions import Action, Kind
from bezique.hookspecs import DeclaringRole, RuleProse, hookimpl
from bezique.hookstate import HookState
from bezique.plugins.ordinary import (
    Combination,
    OrdinaryDeclarations,
    choose_copies,
    combination_forms,
    copy_groups,
    forms_combination,
    this_turn,
)
from bezique.rules.english import listed, number, value
from bezique.variant import declared_default, load_fragment

__all__ = ["PartnershipDeclarations"]
"""The role other plugins may compose with."""

SCHEMA_FILE = "partnership.schema.json"
"""This plugin's fragment of the variant schema, beside this module."""

PARTNERS_TABLE_DEFAULT: bool = declared_default(
    load_fragment(__package__ or "bezique.plugins", SCHEMA_FILE), ("partnerships", "partners_table")
)
"""``partnerships.partners_table`` when a variant leaves it out: the default its schema declares."""


def _rules(state: HookState) -> dict[str, Any] | None:
    rules: dict[str, Any] | None = state.rules.data.get("partnerships")
    return rules


def _partners_table(rules: dict[str, Any]) -> bool:
    """Whether a declaration may take the partner's cards on the table (absent: the default)."""
    return bool(rules.get("partners_table", PARTNERS_TABLE_DEFAULT))


@hookimpl
def bezique_requires() -> list[str]:
    """The ordinary plugin, listed first: it plays all but the partnerships' declaring."""
    return ["ordinary"]


@hookimpl
def bezique_next_declarer(state: HookState, player: int, declared: bool) -> int | None:
    """After the winner's turn, his partner's (S0: always; BIC-4: if the winner passed)."""
    rules = _rules(state)
    if rules is None:
        return None
    side = [state.leader, *state.partners(state.leader)]
    if player not in side or (declared and rules["declarer"] == "winner_or_partner"):
        return -1
    following = side.index(player) + 1
    return side[following] if following < len(side) else -1


@hookimpl
def bezique_declaring_roles() -> list[type[DeclaringRole]]:
    """The declaring of the plugins listed before, plus the partner's shared beziques."""
    return [PartnershipDeclarations]


class PartnershipDeclarations(OrdinaryDeclarations):
    """The declaring rules of the roles composed before it, plus S0's shared beziques.

    Double and triple beziques may take the partner's declared beziques
    (``partnerships.shared_beziques``), other combinations the partner's declared
    cards on the table (``partnerships.partners_table``); every form is judged by the
    composed role's :meth:`form_refusal` (the three-hand rules, when ``multihand`` is
    listed).
    """

    def turn_actions(self, state: HookState, player: int) -> list[Action]:
        """The turn of the roles before, plus the forms that take the partner's cards."""
        actions = super().turn_actions(state, player)
        if not self.declaring_now(state) or not _partner_on_table(state, player):
            return actions  # (both kinds of form take a partner's card on the table)
        return (
            actions
            + self.shared_bezique_declarations(state, player)
            + self.table_declarations(state, player)
        )

    def declaring_now(self, state: HookState) -> bool:
        """Whether a declaration (not an announcement) may be made now: the stock lasts."""
        if not state.stock_left():
            return False
        return not (self.tables.one_per_trick and this_turn(state).scored)

    def table_declarations(self, state: HookState, player: int) -> list[Action]:
        """BIC-4: combinations of the player's own cards and his partner's on the table.

        Empty unless ``partnerships.partners_table`` is on.  A double or triple bezique
        is left to :meth:`shared_bezique_declarations`; each form takes at least one
        card of the partner's and one of the player's, and the rules judge the whole.
        """
        rules = _rules(state)
        if rules is None or not _partners_table(rules):
            return []
        theirs = [c for p in state.partners(player) for c in state.hands[p] if state.on_table[c]]
        if not theirs:
            return []
        lent = set(theirs)
        groups = _pooled_groups(state, state.hands[player], theirs)
        actions: dict[tuple[object, ...], Action] = {}
        for combo in self.tables.combinations(state):
            if combo.pairs >= 2:
                continue
            for _, cards in combination_forms(state, combo, groups):
                if lent.isdisjoint(cards) or lent.issuperset(cards):
                    continue
                if self.form_refusal(state, player, combo, cards, Kind.DECLARE) is None:
                    key = (combo.name, *sorted((state.card_key[c], c in lent) for c in cards))
                    actions.setdefault(key, Action(Kind.DECLARE, cards, combo.name))
        return list(actions.values())

    def shared_bezique_declarations(self, state: HookState, player: int) -> list[Action]:
        """Double and triple beziques made of the partner's declared beziques and his own.

        Empty unless ``partnerships.shared_beziques`` is on (and asked only while a
        declaration, not an announcement, is open to the player: :meth:`declaring_now`).
        """
        rules = _rules(state)
        if rules is None or not rules["shared_beziques"]:
            return []
        t = self.tables
        combos = [c for c in t.combinations(state) if c.pairs >= 2 and c.faces]
        lent = _lendable(state, player, combos)
        if not lent:
            return []
        own = copy_groups(state, state.hands[player])
        theirs = copy_groups(state, lent)
        actions: dict[tuple[object, ...], Action] = {}
        for combo in combos:
            for cards in _mixed_forms(combo, own, theirs):
                if self.form_refusal(state, player, combo, cards, Kind.DECLARE) is None:
                    key = (combo.name, *sorted((state.card_key[c], c in lent) for c in cards))
                    actions.setdefault(key, Action(Kind.DECLARE, cards, combo.name))
        return list(actions.values())

    def refusal(self, state: HookState, player: int, action: Action) -> str | None:
        """Explain a refused declaration that names a partner's cards; others as before."""
        if action.kind in (Kind.DECLARE, Kind.ANNOUNCE):
            partners = state.partners(player)
            lent = [c for c in action.cards if any(c in state.hands[p] for p in partners)]
            if lent:
                return self.lent_refusal(state, player, action, lent)
        return super().refusal(state, player, action)

    def lent_refusal(self, state: HookState, player: int, action: Action, lent: list[int]) -> str:
        """Why a declaration taking the partner's cards ``lent`` is refused."""
        rules = _rules(state) or {}
        combo = self.tables.combination(state, action.combo)
        multiple = combo is not None and combo.pairs >= 2
        if _partners_table(rules) and not multiple:
            return self.table_refusal(state, player, action, lent)
        if not rules.get("shared_beziques", False):
            if _partners_table(rules):
                return (
                    "a double or triple bezique counts only when all its cards come from the "
                    "declarer's own hand (partnerships.shared_beziques false, BIC-4)"
                )
            return (
                "a declaration uses only the declarer's own cards: partners may not pool them "
                "(partnerships.shared_beziques and partners_table false)"
            )
        if combo is None or not multiple or action.kind != Kind.DECLARE:
            return (
                "only a double or triple bezique, declared (not announced), may take the "
                "partner's beziques (S0 four-hand)"
            )
        if not forms_combination(state, combo, action.cards):
            return f"those cards do not form {combo.name}"
        if not set(lent) <= set(_lendable(state, player, [combo])):
            return "the partner's cards must be bezique cards he has declared as a bezique"
        queens = sum(state.deck.card_face[c] == combo.faces[0] for c in lent)
        if 2 * queens != len(lent) or len(lent) == len(action.cards):
            return (
                "the partner lends whole beziques (a queen and a knave each), and the declarer "
                "brings at least one bezique of his own (S0 four-hand)"
            )
        cards = tuple(sorted(action.cards))
        return self.form_refusal(state, player, combo, cards, action.kind) or (
            "that declaration is not legal now"
        )

    def table_refusal(self, state: HookState, player: int, action: Action, lent: list[int]) -> str:
        """Why a declaration with the partner's table cards ``lent`` is refused (BIC-4)."""
        combo = self.tables.combination(state, action.combo)
        if combo is None:
            return self.declaration_refusal(state, player, action)  # names the combinations
        if action.kind != Kind.DECLARE:
            return "the partner's cards serve in a declaration, not an announcement (BIC-4)"
        if not all(state.on_table[c] for c in lent):
            return "only the cards the partner has declared and left on the table may be taken"
        if len(lent) == len(action.cards):
            return "the declarer brings at least one card of his own hand (BIC-4)"
        if not forms_combination(state, combo, action.cards):
            return f"those cards do not form {combo.name}"
        cards = tuple(sorted(action.cards))
        return self.form_refusal(state, player, combo, cards, action.kind) or (
            "that declaration is not legal now"
        )


def _partner_on_table(state: HookState, player: int) -> bool:
    """Whether a partner of ``player`` has a declared card on the table (a bitboard test each)."""
    declared, mask = state.declared_bits, state.deck.mask
    return bool(declared) and any(declared & mask(state.hands[p]) for p in state.partners(player))


def _pooled_groups(
    state: HookState, mine: list[int], theirs: list[int]
) -> dict[int, dict[int, list[int]]]:
    """The copy groups of the player's cards and the partner's, a partner's never with his.

    The partner's groups take negative keys, so that his cards and the player's are
    always told apart (the partner's are written ``@`` in actions).
    """
    groups = copy_groups(state, mine)
    for face, copies in copy_groups(state, theirs).items():
        mixed = groups.setdefault(face, {})
        for key, cards in copies.items():
            mixed[-1 - key] = cards
    return groups


def _lendable(state: HookState, player: int, combos: list[Combination]) -> list[int]:
    """The partners' bezique cards on the table that have been declared in the beziques class."""
    if not combos:
        return []
    faces, shift = combos[0].faces, combos[0].shift
    face_of = state.deck.card_face
    return [
        card
        for partner in state.partners(player)
        for card in state.hands[partner]
        if state.on_table[card] and face_of[card] in faces and (state.levels[card] >> shift) & 15
    ]


def _mixed_forms(
    combo: Combination,
    own: dict[int, dict[int, list[int]]],
    theirs: dict[int, dict[int, list[int]]],
) -> list[tuple[int, ...]]:
    """Every way to make ``combo`` from some of the partner's beziques and at least one own."""
    queen, knave = combo.faces
    forms = []
    for lent_pairs in range(1, combo.pairs):
        mine = combo.pairs - lent_pairs
        for lent in _pairs(theirs, queen, knave, lent_pairs):
            for kept in _pairs(own, queen, knave, mine):
                forms.append(tuple(sorted(lent + kept)))
    return forms


def _pairs(
    groups: dict[int, dict[int, list[int]]], queen: int, knave: int, count: int
) -> list[list[int]]:
    """Every distinct choice of ``count`` queens and ``count`` knaves from ``groups``."""
    return [
        queens + knaves
        for queens in choose_copies(list(groups.get(queen, {}).values()), count)
        for knaves in choose_copies(list(groups.get(knave, {}).values()), count)
    ]


# ---------------------------------------------------------------------- the variant's data


@hookimpl
def bezique_variant_schema() -> dict[str, Any]:
    """The keys this plugin adds to ``partnerships`` (``partnership.schema.json``)."""
    return load_fragment(__package__ or "bezique.plugins", SCHEMA_FILE)


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """How partners take their turns to declare, and how a shared bezique is made up."""
    rules = data.get("partnerships")
    if rules is None:
        return []
    prose = settings(rules)
    if rules["declarer"] == "either":
        turn = (
            "Each partner declares under the ordinary rules, the winner first; the "
            "cards are drawn once both have had their turn."
        )
    else:
        turn = (
            "A winner who declares ends his side's turn; one who ends it without "
            "declaring hands it to his partner, and if the partner has nothing to "
            "declare the winner cannot take it back."
        )
    prose.append(
        RuleProse("partnerships", "partnership.turns", turn, "S0 four-hand paragraph; BIC-4")
    )
    if rules["shared_beziques"]:
        prose.append(
            RuleProse(
                "partnerships",
                "partnership.shared",
                "Beziques taken from the partner for a double or triple must come whole, a "
                "queen and a knave he has declared as beziques; the declarer brings at least "
                "one bezique of his own, and the class rules judge the whole declaration.",
                "S0 four-hand paragraph; A25",
            )
        )
    return prose


def settings(p: Mapping[str, Any]) -> list[RuleProse]:
    """Who plays with whom, who declares after a side's trick, and what partners' cards serve."""
    sides = [listed(str(seat) for seat in side) for side in p["sides"]]
    declarer = (
        "the trick's winner declares first, then his partner, each in turn before the draw"
        if p["declarer"] == "either"
        else "the trick's winner declares, or passes the privilege to his partner without "
        "declaring; not both"
    )
    shared = (
        "A player declaring a double or triple bezique may count in beziques that his partner "
        "has declared and left on the table."
        if p["shared_beziques"]
        else "A double or triple bezique counts only when all its cards are the declarer's own."
    )
    pooled = bool(p.get("partners_table", False))  # absent: false, this plugin's schema default
    table = (
        "Any other combination may be made of cards of the declarer's own hand together with "
        "cards his partner has declared and left on the table, at least one of them his own; "
        "the class rules judge the partner's cards as they stand, so that nothing may be "
        "declared that the partner could not declare himself."
        if pooled
        else "No other combination may take the partner's cards."
    )
    said = [
        _setting("sides", _sides(p["sides"], len(sides)), value(p["sides"])),
        _setting("declarer", f"After a trick won by a side, {declarer}.", str(p["declarer"])),
        _setting("shared_beziques", shared, value(p["shared_beziques"])),
    ]
    if "partners_table" in p:  # (optional: off when a file leaves it out)
        said.append(_setting("partners_table", table, value(pooled)))
    return said


def _setting(key: str, text: str, cell: str) -> RuleProse:
    """A rule of the variant's ``partnerships``: what ``partnerships.KEY`` says."""
    path = f"partnerships.{key}"
    return RuleProse(
        "partnerships",
        path,
        text,
        covers=(path,),
        setting=True,
        value=cell,
        cited=("partnerships", "source"),
    )


def _sides(sides: list[list[int]], count: int) -> str:
    """Who plays with whom: partners facing each other, or the seats of each side."""
    seats = sum(len(side) for side in sides)
    facing = all(len(s) == 2 and abs(s[0] - s[1]) * 2 == seats for s in sides)
    if facing:
        return (
            f"The {number(seats)} players make {number(count)} partnerships, each of two "
            "partners sitting opposite each other (seats numbered from 0 in the order of "
            "play: " + " against ".join(f"{s[0]} and {s[1]}" for s in sides) + "); the score "
            "is kept per partnership."
        )
    listed_sides = "; ".join(f"seats {listed(str(seat) for seat in side)}" for side in sides)
    return (
        f"The seats play in {number(count)} partnerships: {listed_sides}; the score is kept "
        "per partnership."
    )
