"""Grand bezique (S0's four-pack game, also called Chinese): combinations declared again.

S0's Grand section changes one procedure of the ordinary game: once a card of a
declared combination has been played away, the cards of it that remain unplayed
may be completed again from the hand and the combination scores again.  Four
aces score again with a fifth ace; a queen whose declared king has been played
may marry again (a widow; never while that king is unplayed, which would be
bigamy, A24); bezique, double and triple bezique and the sequence likewise.
Every declaration still brings a card never declared before (A23).

How it is kept:

* The plugin's state of the hand, a :class:`GrandRecord`, records every card ever
  declared (``declared``) and, per seat, each declared combination as
  ``(name, cards)`` (``combos``) while at least two of its cards are unplayed.
* A card's ``state.levels`` holds its *effective* levels: per class, the
  highest level among its combinations of that class whose cards are all still
  unplayed.  The ordinary class rule, read with these levels, is the Grand rule
  (a card of a broken combination is free again), and the kernel tells copies
  apart by them (``QH*marriages`` is a queen still married).
* A card of a broken combination may join a new one of the same class only
  together with the cards of the old one that remain unplayed and that the new
  one could use: a fresh card may take the place only of a card played away.
  This is S0's "matched from cards in hand" and the widow rule in one: a queen
  left from a sequence broken by its ace cannot marry a new king while her king
  is unplayed, nor can a double bezique broken by one knave leave its other
  cards behind to score a single bezique with a new knave.

Everything else (candidates, forms, the seven of trumps, scoring a declaration)
is the ordinary plugin's code: :class:`GrandDeclarations` overrides what Grand
changes of :class:`~bezique.plugins.ordinary.OrdinaryDeclarations`, so another
plugin's relaxation (the three-hand second double bezique) composes with it.
This plugin keeps its record up to date after each deal and trick, and falls
through (returns None) for the rest.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bezique.actions import Kind
from bezique.engine.state import PluginState
from bezique.hookspecs import DeclaringRole, RuleProse, hookimpl
from bezique.hookstate import HookRules, HookState
from bezique.plugins.ordinary import (
    Combination,
    OrdinaryDeclarations,
    Tables,
    announced,
    declaration_problem,
    tables,
    this_turn,
)

__all__ = ["GrandDeclarations", "GrandRecord", "record"]
"""The role other plugins may compose with, and the hand's record of declarations."""

_KEY = "grand"
"""Where this plugin keeps its :class:`GrandRecord` (``state.plugin_state``)."""


@dataclass(slots=True)
class GrandRecord(PluginState):
    """The hand's record of declarations (made at each deal)."""

    declared: list[int]
    """Every card declared this hand, sorted."""
    combos: list[list[tuple[str, list[int]]]]
    """Per seat, each declared combination (name, cards) while two of its cards are unplayed."""
    declared_mask: int = field(default=0, compare=False)
    """Derived from ``declared``, not saved: bit ``1 << card`` for each of its cards."""

    def __post_init__(self) -> None:
        """Derive ``declared_mask``."""
        for card in self.declared:
            self.declared_mask |= 1 << card

    @classmethod
    def empty(cls, players: int) -> GrandRecord:
        """The record at the deal: nothing declared."""
        return cls([], [[] for _ in range(players)])

    def copy(self) -> GrandRecord:
        """An independent copy."""
        return GrandRecord(list(self.declared), [list(seat) for seat in self.combos])

    def to_json(self) -> dict[str, Any]:
        """``{"grand": {"declared": [...], "combos": [[[name, [card, ...]], ...], ...]}}``."""
        combos = [[[name, list(cards)] for name, cards in seat] for seat in self.combos]
        return {_KEY: {"declared": list(self.declared), "combos": combos}}


def record(state: HookState) -> GrandRecord:
    """Return this hand's record of declarations (made at each deal)."""
    return state.plugin_state(_KEY, GrandRecord)


def effective_levels(state: HookState, t: Tables, player: int) -> dict[int, int]:
    """Return, for each card of ``player`` in a combination that is whole, its levels.

    Four bits per class, as ``state.levels``: the highest level among the
    card's combinations of that class whose cards are all unplayed.
    """
    held = state.held[player]
    levels: dict[int, int] = {}
    for name, cards in record(state).combos[player]:
        if all(held >> c & 1 for c in cards):
            combo = t.combination(state, name)
            assert combo is not None
            for card in cards:
                old = levels.get(card, 0)
                level = max((old >> combo.shift) & 15, combo.level)
                levels[card] = (old & ~(15 << combo.shift)) | (level << combo.shift)
    return levels


def refresh(state: HookState, t: Tables, player: int) -> None:
    """Forget combinations with fewer than two unplayed cards; reset the table's levels."""
    held = state.held[player]
    combos = record(state).combos
    combos[player] = [
        entry for entry in combos[player] if sum(held >> c & 1 for c in entry[1]) >= 2
    ]
    levels = effective_levels(state, t, player)
    for card in state.hands[player]:
        if state.on_table[card] and state.levels[card] != levels.get(card, 0):
            state.set_card(card, True, levels.get(card, 0))


# ---------------------------------------------------------------------- the record


@hookimpl
def bezique_sheet_declaration_problem(
    rules: HookRules,
    declared: Sequence[tuple[str, tuple[int, ...]]],
    name: str,
    faces: tuple[int, ...],
    trump: int,
) -> str:
    """A score sheet's declaration: its form only, for a set may be formed again (S0 Grand).

    A card played away lets its set be formed again with a like card, and a sheet
    does not record the cards played, so the class rule is not checked here.
    """
    return declaration_problem(rules, declared, name, faces, trump, class_rule=False)


@hookimpl
def bezique_requires() -> list[str]:
    """The ordinary plugin, listed first: it plays all but Grand's declaring rules."""
    return ["ordinary"]


@hookimpl
def bezique_after_deal(state: HookState) -> None:
    """Start the hand's record of declarations."""
    state.set_plugin_state(_KEY, GrandRecord.empty(state.players))


@hookimpl
def bezique_after_trick(state: HookState, cards: list[int]) -> None:
    """A card played away breaks its combinations: their other cards are free again."""
    if not state.stock_left():
        return
    combos = record(state).combos
    for card, seat in zip(cards, state.trick_seats, strict=True):
        entries = combos[seat]  # most seats have no combination standing
        if entries and any(card in entry[1] for entry in entries):
            refresh(state, tables(state), seat)


# ---------------------------------------------------------------------- declaring


@hookimpl
def bezique_declaring_roles() -> list[type[DeclaringRole]]:
    """Grand's declaring: combinations declared again once a card of them is played away."""
    return [GrandDeclarations]


class GrandDeclarations(OrdinaryDeclarations):
    """The ordinary declaring procedure under Grand's rules (see the module's docstring).

    A card counts as declared before if it was ever declared this hand, whatever
    its effective levels; two declared copies with equal levels may still differ in
    whether an old partner is unplayed, so each card on the table is tried on its own.
    """

    table_cards_apart: ClassVar[bool] = True

    def declared_bits(self, state: HookState, player: int) -> int:
        """Every card declared this hand, whatever its combinations have become."""
        return record(state).declared_mask

    def refuses_nothing(self, state: HookState, player: int) -> bool:
        """Never: the record's rules (a broken combination's cards) are not in the levels."""
        return False

    def form_refusal(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str | None:
        """Return why ``cards`` may not be declared (or announced) as ``combo`` now, or None.

        The Grand rules on the player's earlier combinations of the same class first,
        then the ordinary rules (read with effective levels), then the rule that a
        declaration brings a card never declared before.
        """
        return (
            self.binding_refusal(state, player, combo, cards)
            or super().form_refusal(state, player, combo, cards, kind)
            or self.new_card_refusal(state, player, combo, cards, kind)
        )

    def binding_refusal(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...]
    ) -> str | None:
        """The Grand class rule: whole combinations bind their cards, broken ones partly.

        Cards whose level in the class the rules read lower than it stands
        (:meth:`class_levels`: the old pair of a second double bezique, in a role
        composed with the three-hand one) are not bound by their combinations.
        """
        entries = record(state).combos[player]
        if not entries:
            return None
        held = state.held[player]
        chosen = set(cards)
        text = state.deck.card_text
        face_of = state.deck.card_face
        by_name = self.tables.by_name_table(state.trump)
        read: dict[int, int] | None = None
        for name, old_cards in entries:
            if chosen.isdisjoint(old_cards):
                continue
            old = by_name[name]
            if old.shift != combo.shift:
                continue
            shared = chosen.intersection(old_cards)
            if read is None:
                read = dict(zip(cards, self.class_levels(state, player, combo, cards), strict=True))
            if _released(state, read, shared, old.shift):
                continue
            card = text(min(shared))
            unplayed = [c for c in old_cards if held >> c & 1]
            if len(unplayed) == len(old_cards) and old.level >= combo.level:
                marriage = " (a second marriage while the first partner is unplayed is bigamy, A24)"
                return (
                    f"{card} is declared in a {name} whose cards are all unplayed: it may join "
                    f"only a higher combination of that class, or a {name} again once a card of "
                    "this one has been played away (Grand bezique, S0)"
                    + (marriage if _is_pair(combo) else "")
                )
            for other in unplayed:
                if other not in chosen and combo.mask >> face_of[other] & 1:
                    return (
                        f"{text(other)}, declared with {card} in a {name}, is still unplayed: a "
                        f"new {combo.name} with {card} must take it again, as a fresh card may "
                        "only replace one played away (Grand bezique, S0: a widow may marry "
                        "again, bigamy is barred, A24)"
                    )
        return None

    def new_card_refusal(
        self, state: HookState, player: int, combo: Combination, cards: tuple[int, ...], kind: Kind
    ) -> str | None:
        """Every declaration needs a card never declared this hand (declaring again included)."""
        t = self.tables
        if not t.new_card_required:
            return None
        declared = record(state).declared  # sorted
        if not all(_among(declared, card) for card in cards):
            return None
        pending = announced(state)[player]
        if pending and (combo.name, cards) in pending:
            return None  # an announced combination scores without a new card (per_trick: one)
        renewed = kind == Kind.ANNOUNCE or t.compound
        if renewed and not set(this_turn(state).first_declared).isdisjoint(cards):
            return None  # a card new when this turn began still counts as new in it
        return (
            "every declaration, a combination declared again included, needs at least one card "
            "never declared before (declarations.new_card_required; S0, A23)"
        )

    def declare(
        self,
        state: HookState,
        player: int,
        combo: Combination,
        cards: tuple[int, ...],
        new_cards: list[int] | None = None,
    ) -> None:
        """Record the declaration (its cards never declared before are new), then score it."""
        book = record(state)
        declared = book.declared
        new = [c for c in cards if not book.declared_mask >> c & 1]
        declared.extend(new)
        declared.sort()
        for card in new:
            book.declared_mask |= 1 << card
        book.combos[player].append((combo.name, list(cards)))
        super().declare(state, player, combo, cards, new)


def _among(ordered: list[int], card: int) -> bool:
    """Whether ``card`` is in the sorted list ``ordered`` (a binary search)."""
    at = bisect_left(ordered, card)
    return at < len(ordered) and ordered[at] == card


def _released(state: HookState, read: dict[int, int], shared: set[int], shift: int) -> bool:
    """Whether the rules read every card of ``shared`` lower in its class than it stands."""
    levels = state.levels
    return all((read[card] >> shift) & 15 < (levels[card] >> shift) & 15 for card in shared)


def _is_pair(combo: Combination) -> bool:
    """Whether ``combo`` is two cards of one suit (a marriage)."""
    return combo.size == 2 and not combo.pairs and not combo.rank_faces


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """Grand's rule in words: a combination broken by a card played away may score again."""
    names = [
        name.replace("_", " ")
        for name, spec in data["declarations"]["combinations"].items()
        if isinstance(spec, Mapping)
    ]
    text = (
        "When a card of a declared combination is played to a trick, the cards of it left on "
        "the table may be completed again by a like card from the hand, and the combination "
        "then scores once more, as many times as it can be rebuilt (this applies to "
        + ", ".join(names)
        + ").  The new card can only stand in for one that has gone: a queen may be married "
        "to a second king only once her first king has been played, never while he is still "
        "on the table beside her."
    )
    return [
        RuleProse(
            "declarations",
            "grand.again",
            text,
            "S0 Grand section; A23, A24 (widow, not bigamy); R16 for Rubicon",
        )
    ]
