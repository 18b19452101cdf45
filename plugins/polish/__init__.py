"""Polish (open) bezique: declarations only from the cards won in tricks.

S0's Polish section changes the ordinary game in these points, which this plugin
implements on top of the ``ordinary`` plugin (listed before it in the variant's
``plugins:``, so this one answers first and falls through for the rest):

* **Open cards.**  When a trick is won, its scoring cards (aces, kings, queens,
  knaves, and tens of trumps only: :data:`OPEN_CARDS`, A20b) go face up into the
  winner's open rows (the plugin's :class:`PolishHand`, shown as the place
  ``open-<seat>``); the other cards
  stay in ``state.won``.  Open cards are never played again, serve only in
  declaring, and stay open to the end of the hand, the last eight tricks included
  (A20d).  They carry ``state.on_table`` (they lie face up) and, in
  ``state.levels``, the classes they have been declared in, as the ordinary
  plugin keeps them.
* **Declaring.**  Only the trick's winner declares, before drawing, from his open
  cards only, and every combination must hold a card of the trick just won (A20a:
  a combination left undeclared can be scored later only when a new trick card
  joins it).  Nothing in the hand counts.
* **Compound declarations.**  The new cards may serve at once in as many
  combinations as they form, so combinations declared after one trick may share
  cards, under the ordinary class rule: a card declared in a class joins only a
  higher combination of that class (a royal marriage grows into a sequence, a
  single bezique into a double), never an equal or lower one (a queen once
  married is never married again; a fifth king scores no second four kings).
* **Brisques** score as soon as won (the ordinary plugin, timing ``immediate``).
* **The seven of trumps** scores 10 for the winner of the trick that holds it
  while the stock lasts (once per physical seven, never in the end-game, A12; the
  dealer's turned-up seven has scored already).
  While a turn-up other than a seven lies under the stock the winner may
  exchange it: the seven goes under the stock and the turn-up counts as a card of
  that trick (an open card if it is a scoring card, a brisque if an ace or ten,
  A21).  The 10 is scored when the trick is won, exchanged or not: the same
  player scores the same 10 either way (A12), and the kernel has no hook at the
  end of a turn to score a seven left unexchanged.

Action notation.  Open cards are in nobody's hand, and the kernel reads the cards
of an action's text from the hand, so a Polish declaration names its combination
only (``declare four_kings``) and the exchange no card (``exchange``).  Applying
a declaration takes the form from the open rows that keeps most for later (see
:meth:`PolishDeclarations.best_form`); two forms of one combination that share no card are two
declarations (``declare marriage`` twice).
"""

from __future__ import annotations

from typing import Any

from bezique.actions import ScoreEvent
from bezique.hookspecs import DeclaringRole, KeyPath, hookimpl
from bezique.hookstate import HookState
from bezique.plugins.ordinary import sevens_scored, tables
from bezique.plugins.polish.declaring import PolishDeclarations
from bezique.plugins.polish.prose import bezique_describe_rules as bezique_describe_rules
from bezique.plugins.polish.prose import bezique_words as bezique_words
from bezique.plugins.polish.rows import (
    HAND_KEY,
    OPEN_CARDS,
    PolishHand,
    hand,
    open_cards,
    open_place,
    polish_tables,
)
from bezique.variant import load_fragment

__all__ = ["OPEN_CARDS", "PolishDeclarations", "PolishHand", "hand", "open_cards", "open_place"]
"""The open-card ranks, the role, and the plugin's state of the hand (the open rows)."""


# ---------------------------------------------------------------------- the deal


@hookimpl
def bezique_requires() -> list[str]:
    """The ordinary plugin, listed first: it plays all but the open cards."""
    return ["ordinary"]


@hookimpl
def bezique_exclusive_hooks() -> list[str]:
    """Declarations come from the open rows, which no other plugin's declaring rules know of."""
    return [
        "bezique_declaring_roles",
        "bezique_next_declarer",
        "bezique_trick_scores",
    ]


@hookimpl
def bezique_variant_problems(data: dict[str, Any]) -> list[tuple[list[KeyPath], str]]:
    """The seven of trumps is never an open card (A20b), and some combination can be open."""
    spec: dict[str, list[str]] = data.get("open_cards", OPEN_CARDS)
    seven: str = data["seven_of_trumps"]["rank"]
    problems: list[tuple[list[KeyPath], str]] = []
    for key in ("ranks", "trump_ranks"):
        if seven in spec[key]:
            path: KeyPath = ("open_cards", key, spec[key].index(seven))
            problems.append(
                (
                    [path, ("seven_of_trumps", "rank")],
                    f"open_cards.{key} names {seven!r}, the rank of the seven of trumps, which "
                    "is never an open card: it is exchanged for the turn-up or scores where it "
                    "lies (S0 Polish section, A20b); leave it out of the open ranks",
                )
            )
    if not any(
        _ranks_of(data, row) <= {*spec["ranks"], *spec["trump_ranks"]}
        for row in data["declarations"]["combinations"].values()
    ):
        problems.append(
            (
                [("open_cards", "ranks"), ("open_cards", "trump_ranks")],
                "no combination can be made of open cards, the only ones declared from in "
                "Polish bezique (S0 Polish section): name the ranks of some combination in "
                "open_cards",
            )
        )
    return problems


def _ranks_of(data: dict[str, Any], row: dict[str, Any]) -> set[str]:
    """The ranks a row of the combination table takes (a bezique: its cards' ranks)."""
    if "ranks" in row:
        return set(row["ranks"])
    if "rank" in row:
        return {row["rank"]}
    return {card[0] for pair in data["declarations"]["bezique_cards"].values() for card in pair}


@hookimpl
def bezique_after_deal(state: HookState) -> None:
    """Empty open rows for every seat (the ordinary plugin scores the deal)."""
    state.set_plugin_state(HAND_KEY, PolishHand([[] for _ in range(state.players)]))


# ---------------------------------------------------------------------- tricks


@hookimpl
def bezique_trick_scores(state: HookState, winner: int, cards: list[int]) -> list[ScoreEvent]:
    """The seven of trumps scores for the winner of a trick of the stock's time (A12).

    A12: each seven scores once, never in the end-game (S0's Polish paragraph does
    not say otherwise, though declaring goes on there).  Brisques (at once) and the
    last trick are the ordinary plugin's.  A seven won while another card is turned
    up may be exchanged in the winner's turn.
    """
    t = tables(state)
    events: list[ScoreEvent] = []
    kept = hand(state)
    kept.seven = -1
    if not state.stock and state.turn_up < 0:  # the end-game
        return events
    deck = state.deck
    scored = sevens_scored(state)
    for card in cards:
        if deck.card_rank[card] != t.seven_rank or deck.card_suit[card] != state.trump:
            continue
        if card in scored:  # the dealer's turned-up seven, or an exchanged one
            continue
        scored.append(card)
        points = t.seven["declare_points"]
        events.append(ScoreEvent(winner, points, "seven_of_trumps.declare_points", "won"))
        turn_up = state.turn_up
        if turn_up >= 0 and deck.card_rank[turn_up] != t.seven_rank:
            kept.seven = card
    return events


@hookimpl
def bezique_after_trick(state: HookState, winner: int, cards: list[int]) -> None:
    """The trick's scoring cards are laid open in its winner's rows.

    Open cards are never in a hand, so they stay open when the stock is gone (S0
    Polish section, A20d): the ordinary plugin returns to the hands only the
    declared cards that are in them.
    """
    is_open = polish_tables(state).is_open(state)
    new = [c for c in cards if is_open[c]]
    kept = hand(state)
    if new:
        rows = kept.rows[winner]
        for card in new:
            state.take_won(winner, card)
            rows.append(card)
            state.set_card(card, True, 0)
    kept.new = new


# ---------------------------------------------------------------------- the variant's data


@hookimpl
def bezique_variant_schema() -> dict[str, Any]:
    """The section this plugin reads: ``open_cards`` (``schema.json``)."""
    return load_fragment(__name__, "schema.json")


# ---------------------------------------------------------------------- declaring


@hookimpl
def bezique_declaring_roles() -> list[type[DeclaringRole]]:
    """Declaring from the open rows."""
    return [PolishDeclarations]
