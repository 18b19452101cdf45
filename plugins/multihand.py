"""Three- and four-hand bezique, each for himself (S0's section on three and four players).

The kernel already plays N hands: the deal goes round from the dealer's left, the
player first dealt to leads, the trick's winner draws first and the others after
him in seat order (A32), and of identical cards the first played wins (A34, the
ordinary plugin's ``bezique_trick_winner``).  The end-game duties of the ordinary
plugin read the current winning card of the trick, so a player who can neither
follow suit nor win by trumping may throw away any card (S0 three-hand, A26).
The triple bezique is a row of the variant's table (level 3 of the beziques
class), which the ordinary class rule already lets a single or a double grow into
(A15); what it scores when built on a double is the switch
``declarations.bezique_ladder`` (1500 more, or 1000: the ordinary plugin's
``declare_combination``).

What this plugin adds is S0's second double bezique: a double declared with a
bezique already used in a double (its queen and knave on the table at the double's
level) and a new bezique (a queen and a knave never declared in the beziques
class) scores 500 again.  The ordinary class rule refuses it, since the old pair
is already at the double's level; :func:`multihand_refusal` allows exactly that
case and defers to the ordinary rules for everything else.

It also plays S0's four-hand end-game when the variant asks for it
(``endgame.mode: duels``): the last trick's winner and his left-hand adversary
play their hands out against each other, then the other two theirs, each trick
a two-card trick under the ordinary end-game duties.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bezique.actions import Action, Kind
from bezique.game import GameState
from bezique.hookspecs import KeyPath, hookimpl
from bezique.plugins.ordinary import (
    Combination,
    Tables,
    declaration_refusal,
    refusal_of_declaration,
    tables,
    turn_actions,
)
from bezique.variant import load_fragment


def is_second_double(
    state: GameState, t: Tables, combo: Combination, cards: tuple[int, ...]
) -> bool:
    """Whether ``cards`` are a bezique used in a double plus a new one, declared as a double.

    The old queen and knave lie on the table at exactly the double's level of the
    beziques class (not higher: a triple's cards make no more doubles); the new
    queen and knave have never been declared in that class.
    """
    if combo.pairs != 2 or not combo.faces:
        return False
    shift, level = combo.shift, combo.level
    old = [c for c in cards if (state.levels[c] >> shift) & 15 == level]
    new = [c for c in cards if not (state.levels[c] >> shift) & 15]
    if len(old) != 2 or len(new) != 2:
        return False
    faces = sorted(state.deck.card_face[c] for c in old)
    return faces == sorted(combo.faces) and all(state.on_table[c] for c in old)


def multihand_refusal(
    state: GameState,
    t: Tables,
    player: int,
    combo: Combination,
    cards: tuple[int, ...],
    kind: Kind,
) -> str | None:
    """Return why ``cards`` may not be declared as ``combo`` now, or None.

    The ordinary rules, except that a second double bezique passes the class
    rule: it is checked as if the double were one level higher, which the old
    pair (at the double's level) and the new pair (at none) both pass, while the
    other rules (the exchanged card, one declaration's cards per trick, a card
    never declared before) still apply to all four cards.
    """
    reason = declaration_refusal(state, t, player, combo, cards, kind)
    if reason is None or not is_second_double(state, t, combo, cards):
        return reason
    return declaration_refusal(state, t, player, replace(combo, level=combo.level + 1), cards, kind)


@hookimpl
def bezique_requires() -> list[str]:
    """The ordinary plugin, listed first: it plays all but the second double and the duels."""
    return ["ordinary"]


@hookimpl
def bezique_turn_actions(state: GameState, player: int) -> list[Action]:
    """The ordinary turn, with the second double bezique allowed (S0 three-hand)."""
    return turn_actions(state, player, refusal=multihand_refusal)


@hookimpl
def bezique_refusal(state: GameState, player: int, action: Action) -> str | None:
    """Explain a refused declaration by these rules; the ordinary plugin explains the rest."""
    reason = refusal_of_declaration(state, player, action, multihand_refusal)
    combo = tables(state).combination(state, action.combo)
    if reason is not None and combo is not None and combo.pairs == 2:
        reason += (
            "; a second double bezique takes a bezique already used in a double and a new one "
            "(S0 three- and four-hand)"
        )
    return reason


# ---------------------------------------------------------------------- S0's duels


@hookimpl
def bezique_stock_exhausted(state: GameState) -> None:
    """Pair the players for S0's four-hand end-game, then let the ordinary plugin go on.

    The last trick's winner (the trick that emptied the stock; he leads next)
    plays against his left-hand adversary, then the other two play theirs.
    """
    if tables(state).endgame.get("mode") == "duels":
        first = state.leader
        seats = [(first + i) % state.players for i in range(state.players)]
        state.extra["duels"] = [seats[:2], seats[2:]]


@hookimpl
def bezique_trick_players(state: GameState) -> list[int] | None:
    """In S0's duels, the two seats of the duel under way, its last trick's winner leading.

    The second pair's first lead goes to the last trick winner's partner, the
    seat in the first one's place (S0 says only "similarly"; our reading).
    """
    duels: list[list[int]] | None = state.extra.get("duels")
    if duels is None:
        return None
    for pair in duels:
        if state.hands[pair[0]] or state.hands[pair[1]]:
            leader = state.leader if state.leader in pair else pair[0]
            return [leader, pair[1] if leader == pair[0] else pair[0]]
    del state.extra["duels"]
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
