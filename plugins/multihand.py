"""Three- and four-hand bezique, each for himself (S0's section on three and four players).

The kernel already plays N hands: the deal goes round from the dealer's left, the
player first dealt to leads, the trick's winner draws first and the others after
him in seat order (A32), and of identical cards the first played wins (A34, the
ordinary plugin's ``bezique_trick_winner``).  The end-game duties of the ordinary
plugin compare each card with the one winning the trick so far, not with the lead:
with no card of the suit led and no trump that would take the trick, any card may
be played (S0 three-hand, A26).
The triple bezique is a row of the variant's table (level 3 of the beziques
class), which the ordinary class rule already lets a single or a double grow into
(A15); what it scores when built on a double is the switch
``declarations.bezique_ladder`` (1500 more, or 1000: the ordinary plugin's
``OrdinaryDeclarations.declare``).

What this plugin adds is S0's second double bezique: a double declared with a
bezique already used in a double (its queen and knave on the table at the double's
level) and a new bezique (a queen and a knave never declared in the beziques
class) scores 500 again.  The ordinary class rule refuses it, since the old pair
is already at the double's level; :class:`MultihandDeclarations` allows exactly
that case and defers to the ordinary rules for everything else.

It also plays S0's four-hand end-game when the variant asks for it
(``endgame.mode: duels``): the end-game splits the table into two pairs, each
finishing its cards in two-card tricks under the ordinary end-game duties; the
first pair is whoever took the trick that emptied the stock and the next seat to
his left, the second pair the two seats left over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bezique.actions import Kind
from bezique.engine.state import PluginState
from bezique.hookspecs import DeclaringRole, KeyPath, RuleProse, hookimpl
from bezique.hookstate import HookRules, HookState
from bezique.plugins.ordinary import (
    Combination,
    OrdinaryDeclarations,
    declaration_problem,
    tables,
)
from bezique.variant import load_fragment

__all__ = ["MultihandDeclarations", "is_second_double", "second_double_levels"]
"""The role other plugins may compose with, and the test of a second double bezique."""


def is_second_double(state: HookState, combo: Combination, cards: tuple[int, ...]) -> bool:
    """Whether ``cards`` are a bezique used in a double plus a new one, declared as a double.

    The old queen and knave lie on the table at exactly the double's level of the
    beziques class (not higher: a triple's cards make no more doubles); the new
    queen and knave have never been declared in that class (:func:`second_double_levels`).
    """
    levels = [state.levels[c] for c in cards]
    faces = [state.deck.card_face[c] for c in cards]
    on_table = [bool(state.on_table[c]) for c in cards]
    return second_double_levels(combo, levels, faces, on_table) is not None


def second_double_levels(
    combo: Combination, levels: Sequence[int], faces: Sequence[int], on_table: Sequence[bool]
) -> list[int] | None:
    """The class levels the class rule reads for a second double bezique, or None if it is not one.

    ``levels``, ``faces`` and ``on_table`` describe the four cards declared as
    ``combo``.  Two of them must be a queen and knave of the bezique on the table at
    exactly the double's level of the beziques class, the other two never declared in
    that class; their levels are returned with the old pair's read one lower (as if the
    double it made were a single), which the class rule lets join a double again.
    """
    if combo.pairs != 2 or not combo.faces:
        return None
    shift, level = combo.shift, combo.level
    old = [i for i, lv in enumerate(levels) if (lv >> shift) & 15 == level]
    new = [i for i, lv in enumerate(levels) if not (lv >> shift) & 15]
    if len(old) != 2 or len(new) != 2:
        return None
    if sorted(faces[i] for i in old) != sorted(combo.faces) or not all(on_table[i] for i in old):
        return None
    one = 1 << shift
    return [lv - one if i in old else lv for i, lv in enumerate(levels)]


class MultihandDeclarations(OrdinaryDeclarations):
    """The ordinary declaring rules, with S0's second double bezique allowed.

    A second double bezique passes the class rule: the old pair's level in the
    beziques class is read one lower (as if the double it made were a single), which
    the class rule then lets join a double again, while the other rules (the
    exchanged card, one declaration's cards per trick, a card never declared before)
    still apply to all four cards.  Every rule that reads class levels honours it, so
    a role composed with this one (Grand's) allows it too.
    """

    def class_levels(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...]
    ) -> list[int]:
        """The ordinary levels, the old pair of a second double bezique one lower in its class."""
        levels = super().class_levels(state, player, combo, cards)
        faces = [state.deck.card_face[c] for c in cards]
        on_table = [bool(state.on_table[c]) for c in cards]
        read = second_double_levels(combo, levels, faces, on_table)
        return levels if read is None else read

    def refuses_nothing(self, state: HookState, player: int) -> bool:
        """As the roles before: a second double only relaxes the class rule."""
        return super().refuses_nothing(state, player)

    def explain(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str:
        """The reason, with what a second double bezique takes when a double is refused."""
        reason = super().explain(state, player, combo, cards, kind)
        if combo.pairs == 2:
            reason += (
                "; a second double bezique takes a bezique already used in a double and a new "
                "one (S0 three- and four-hand)"
            )
        return reason


@hookimpl
def bezique_sheet_declaration_problem(
    rules: HookRules,
    declared: Sequence[tuple[str, tuple[int, ...]]],
    name: str,
    faces: tuple[int, ...],
    trump: int,
) -> str:
    """A score sheet's declaration, checked as the ordinary sheet does with the second double.

    The ordinary checks (:func:`~bezique.plugins.ordinary.declaration_problem`), and
    where the class rule refuses every choice of copies, the copies that make a
    second double bezique (:func:`second_double_levels`, the rule the game plays).
    """
    return declaration_problem(rules, declared, name, faces, trump, reading=second_double_levels)


@hookimpl
def bezique_requires() -> list[str]:
    """The ordinary plugin, listed first: it plays all but the second double and the duels."""
    return ["ordinary"]


@hookimpl
def bezique_declaring_roles() -> list[type[DeclaringRole]]:
    """The ordinary declaring, with the second double bezique allowed (S0 three-hand)."""
    return [MultihandDeclarations]


# ---------------------------------------------------------------------- S0's duels

DUELS_KEY = "duels"
"""Where this plugin keeps the :class:`Duels` of the end-game under way."""


@dataclass(slots=True)
class Duels(PluginState):
    """S0's four-hand end-game: the two pairs of seats that play their hands out, in order."""

    pairs: list[list[int]]

    def copy(self) -> Duels:
        """An independent copy."""
        return Duels([list(pair) for pair in self.pairs])

    def to_json(self) -> dict[str, Any]:
        """``{"duels": [[seat, seat], [seat, seat]]}``."""
        return {DUELS_KEY: [list(pair) for pair in self.pairs]}


@hookimpl
def bezique_stock_exhausted(state: HookState) -> None:
    """Pair the players for S0's four-hand end-game, then let the ordinary plugin go on.

    The first pair is the seat that won the stock's last trick (it leads next) and the
    seat after it in the order of play; the two remaining seats make the second pair.
    """
    if tables(state).endgame.get("mode") == "duels":
        first = state.leader
        seats = [(first + i) % state.players for i in range(state.players)]
        state.set_plugin_state(DUELS_KEY, Duels([seats[:2], seats[2:]]))


@hookimpl
def bezique_trick_players(state: HookState) -> list[int] | None:
    """In S0's duels, the two seats of the duel under way, its last trick's winner leading.

    The second pair's first lead goes to the last trick winner's partner, the
    seat in the first one's place (S0 says only "similarly"; our reading).
    """
    if DUELS_KEY not in state.extra:
        return None
    for pair in state.plugin_state(DUELS_KEY, Duels).pairs:
        if state.hands[pair[0]] or state.hands[pair[1]]:
            leader = state.leader if state.leader in pair else pair[0]
            return [leader, pair[1] if leader == pair[0] else pair[0]]
    state.drop_plugin_state(DUELS_KEY)
    return []


# ---------------------------------------------------------------------- the variant's data


@hookimpl
def bezique_variant_schema() -> dict[str, Any]:
    """The key this plugin adds: ``endgame.mode`` (``multihand.schema.json``)."""
    return load_fragment(__package__ or "bezique.plugins", "multihand.schema.json")


@hookimpl
def bezique_variant_problems(data: dict[str, Any]) -> list[tuple[list[KeyPath], str]]:
    """S0's duels are a four-hand end-game."""
    if data["endgame"].get("mode") == "duels" and data["players"] != 4:
        return [
            (
                [("endgame", "mode"), ("players",)],
                "endgame.mode duels is S0's four-hand end-game and needs players: 4",
            )
        ]
    return []


def _endgame_mode(mode: str) -> RuleProse:
    """How the end-game tricks are played with more than two (the variant's ``endgame.mode``)."""
    how = (
        "every player plays to each trick, the card to beat being the best so far"
        if mode == "tricks"
        else "the end-game is two duels of two cards a trick: first whoever took the "
        "trick that emptied the stock and the player on his left, then the remaining pair"
    )
    return RuleProse(
        "endgame",
        "endgame.mode",
        f"With more than two players, {how}.",
        covers=("endgame.mode",),
        setting=True,
        value=str(mode),
        cited=("endgame", "source"),
    )


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """The second double bezique, the draw round the table and the end-game of several hands."""
    combos = data.get("declarations", {}).get("combinations", {})
    double = next((c["points"] for c in combos.values() if c.get("beziques") == 2), None)
    prose = [
        RuleProse(
            "play",
            "multihand.draw",
            "With more than two at the table the trick's winner draws first and the others "
            "after him, going round to his left.",
            "S0 three- and four-hand section; A32",
        ),
    ]
    if double is not None:
        prose.append(
            RuleProse(
                "declarations",
                "multihand.second_double",
                "A double bezique may be declared again with one bezique already used in a "
                "double and still on the table and a new bezique, a queen and a knave never "
                f"declared among the beziques; it scores {double} again.",
                "S0 three-hand paragraph",
            )
        )
    mode = data.get("endgame", {}).get("mode")
    if mode is not None:
        prose.append(_endgame_mode(mode))
    if mode == "duels":
        prose.append(
            RuleProse(
                "endgame",
                "multihand.duels",
                "In the two duels of the end-game the seat opposite the last trick's winner "
                "leads the second (the source does not say who does); each duel is played "
                "two cards a trick under the duties of the two-hand end-game.",
                "S0 four-hand paragraph; A26",
            )
        )
    else:
        prose.append(
            RuleProse(
                "endgame",
                "multihand.best_so_far",
                "In the end-game each card is measured against the best one in the trick so "
                "far: a player with no card of the suit led, and no trump high enough to take "
                "the trick, is free to play whatever card he likes.",
                "S0 three-hand paragraph; BIC-4; A26",
            )
        )
    return prose
