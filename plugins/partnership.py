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
  of a declaration is the declarer's own, as in the ordinary game.

The three- and four-hand declaring rules (triple and second double bezique) are
the ``multihand`` plugin's; a partnership variant lists both, this one last, and
the roles compose: :class:`PartnershipDeclarations` adds the shared beziques to
whatever the roles composed before it allow, and judges them by the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.actions import Action, Kind
from bezique.game import GameState
from bezique.hookspecs import DeclaringRole, RuleProse, hookimpl
from bezique.plugins.ordinary import (
    Combination,
    OrdinaryDeclarations,
    choose_copies,
    copy_groups,
    forms_combination,
    this_turn,
)
from bezique.variant import load_fragment

__all__ = ["PartnershipDeclarations"]
"""The role other plugins may compose with."""


def _rules(state: GameState) -> dict[str, Any] | None:
    rules: dict[str, Any] | None = state.rules.data.get("partnerships")
    return rules


@hookimpl
def bezique_requires() -> list[str]:
    """The ordinary plugin, listed first: it plays all but the partnerships' declaring."""
    return ["ordinary"]


@hookimpl
def bezique_next_declarer(state: GameState, player: int, declared: bool) -> int | None:
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
    (``partnerships.shared_beziques``); every form is judged by the composed
    role's :meth:`form_refusal` (the three-hand rules, when ``multihand`` is listed).
    """

    def turn_actions(self, state: GameState, player: int) -> list[Action]:
        """The turn of the roles before, plus beziques that take the partner's beziques."""
        actions = super().turn_actions(state, player)
        return actions + self.shared_bezique_declarations(state, player)

    def shared_bezique_declarations(self, state: GameState, player: int) -> list[Action]:
        """Double and triple beziques made of the partner's declared beziques and his own.

        Empty unless ``partnerships.shared_beziques`` is on, the stock lasts, and a
        declaration (not an announcement) is open to the player now.
        """
        rules = _rules(state)
        if rules is None or not rules["shared_beziques"] or not state.stock_left():
            return []
        t = self.tables
        if t.one_per_trick and this_turn(state).scored:
            return []
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

    def refusal(self, state: GameState, player: int, action: Action) -> str | None:
        """Explain a refused declaration that names a partner's cards; others as before."""
        if action.kind in (Kind.DECLARE, Kind.ANNOUNCE):
            partners = state.partners(player)
            lent = [c for c in action.cards if any(c in state.hands[p] for p in partners)]
            if lent:
                return self.lent_refusal(state, player, action, lent)
        return super().refusal(state, player, action)

    def lent_refusal(self, state: GameState, player: int, action: Action, lent: list[int]) -> str:
        """Why a declaration taking the partner's cards ``lent`` is refused."""
        rules = _rules(state)
        if rules is None or not rules["shared_beziques"]:
            return (
                "a declaration uses only the declarer's own cards: partners may not pool them "
                "(partnerships.shared_beziques false, BIC-4)"
            )
        combo = self.tables.combination(state, action.combo)
        if combo is None or combo.pairs < 2 or action.kind != Kind.DECLARE:
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


def _lendable(state: GameState, player: int, combos: list[Combination]) -> list[int]:
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
    return load_fragment(__package__ or "bezique.plugins", "partnership.schema.json")


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """How partners take their turns to declare, and how a shared bezique is made up."""
    rules = data.get("partnerships")
    if rules is None:
        return []
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
    prose = [RuleProse("partnerships", "partnership.turns", turn, "S0 four-hand paragraph; BIC-4")]
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
