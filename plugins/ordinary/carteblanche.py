"""Carte blanche: a hand without the barred ranks, announced at its holder's choice.

S4 lets the player declare it; the Rubicon texts let him announce it, proved by
showing the hand (F334, WK-R; R-C1, R-C2, A18, A19).  Showing tells the other
players what the hand holds, so it is the holder's right, never scored of itself:

* **at the deal**: a seat whose hand holds none of ``carte_blanche.ranks`` may
  announce it, ``declare carte_blanche``, when he is to play his first card of the
  hand and before he plays it.  His hand is shown and scores ``points``, taken from
  the opponent under ``from_opponent`` (S4's reading, A18).  Playing a card declines
  it: it is not offered again.  The trick's leader announces before the first card
  is played (F334: only before the first trick is played to); a seat who plays later
  in the first trick announces before his own card, since one seat has the move at a
  time and a seat asked out of his turn would tell the table that his hand is blank;
* **again for a card drawn** (:func:`offer_drawn`): where a plugin's rules score a
  carte blanche again for each card drawn that keeps the hand blank (Rubicon's
  ``per_drawn_card``, WK-R, CM-R, PAR), it offers the card; announced before the
  holder's next card, that card is shown and scores the same (A19: each qualifying
  drawn card is shown).  Playing a card declines it.

The announcement is an option before a play (``bezique_play_options``): the seat's
plays are listed first, ``declare carte_blanche`` after them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bezique.actions import Action, Kind, ScoreEvent
from bezique.engine.state import PLAY
from bezique.hookspecs import answers_when, hookimpl
from bezique.plugins.ordinary.combinations import Tables, carte_blanche_played, tables
from bezique.plugins.ordinary.hand import NOT_DRAWN, OrdinaryHand, hand_state

if TYPE_CHECKING:
    from bezique.hookstate import HookState

CARTE_BLANCHE = "carte_blanche"
"""The name announced (``declare carte_blanche``), and the variant's section."""

ANNOUNCE = Action(Kind.DECLARE, (), CARTE_BLANCHE)
"""The announcement, ``declare carte_blanche`` (the cards shown are the hand's, or the
card just drawn: the text need not name them)."""

DRAWN_RULE = "carte_blanche.drawn"
"""The score event's rule of a carte blanche shown again for a card drawn."""


@answers_when(carte_blanche_played)  # not asked where none is played
@hookimpl
def bezique_play_options(state: HookState, player: int) -> list[Action] | None:
    """Before his card, the holder of a blank hand may announce it (see the module)."""
    return [ANNOUNCE] if offered(state, player) else None


@answers_when(carte_blanche_played)  # not asked where none is played
@hookimpl
def bezique_play_option(state: HookState, player: int, action: Action) -> list[ScoreEvent] | None:
    """The carte blanche announced: shown and scored."""
    return announce(state, player) if action == ANNOUNCE else None


def at_deal(state: HookState, t: Tables, player: int, kept: OrdinaryHand | None = None) -> bool:
    """Whether ``player`` may announce his dealt hand: blank, not yet shown, no card played.

    ``kept``: the plugin's state of the hand, where the caller has it.
    """
    if len(state.played) >= state.players or player in state.played_by:
        return False  # he has played this hand: he declined it
    if (kept if kept is not None else hand_state(state)).blank_shown[player]:
        return False
    return t.blank(state.hands[player])


def drawn_cards(state: HookState, player: int, kept: OrdinaryHand | None = None) -> tuple[int, ...]:
    """The cards ``player`` drew and may show as a carte blanche again now (none: ``()``).

    Offered after the round of drawing they came in (one card, or more where a referee
    gave him more); a trick done since (he has played a card) declines them.  ``kept``:
    the plugin's state of the hand, where the caller has it.
    """
    tricks, cards = (kept if kept is not None else hand_state(state)).blank_drawn[player]
    return cards if tricks == state.tricks_done else ()


def offered(state: HookState, player: int) -> bool:
    """Whether ``player``, the seat to play, may announce a carte blanche now.

    Asked before every card where carte blanche is played: the hand's state read once.
    """
    t = tables(state)
    if not t.carte_blanche_on:
        return False
    kept = hand_state(state)
    return bool(drawn_cards(state, player, kept)) or at_deal(state, t, player, kept)


def offer_drawn(state: HookState, player: int, card: int) -> None:
    """Offer ``player`` to show ``card``, just drawn, as a carte blanche again.

    For a plugin whose rules score a carte blanche again for a card drawn (it decides
    that ``card`` keeps the hand blank and that the holder showed his hand at the deal:
    :func:`shown_at_deal`).
    """
    kept = hand_state(state)
    kept.blank_drawn[player] = (state.tricks_done, (*drawn_cards(state, player), card))


def shown_at_deal(state: HookState, player: int) -> bool:
    """Whether ``player`` announced a carte blanche at the deal, showing his hand."""
    return hand_state(state).blank_shown[player]


def announce(state: HookState, player: int) -> list[ScoreEvent]:
    """Carry out ``player``'s announcement: show the hand, or each card drawn, and score it."""
    kept = hand_state(state)
    drawn = drawn_cards(state, player)
    if not drawn:
        kept.blank_shown[player] = True
        for card in state.hands[player]:
            state.expose(card)
        shown = " ".join(state.deck.card_text(c) for c in state.hands[player])
        return scores(state, player, CARTE_BLANCHE, shown)
    kept.blank_drawn[player] = NOT_DRAWN
    events = []
    for card in drawn:
        state.expose(card)
        events.extend(scores(state, player, DRAWN_RULE, state.deck.card_text(card)))
    return events


def scores(state: HookState, player: int, rule: str, shown: str) -> list[ScoreEvent]:
    """The points of a carte blanche: the holder's, less the opponent's under ``from_opponent``."""
    return blank_scores(tables(state).carte_blanche, state.players, player, rule, shown)


def blank_scores(
    section: Mapping[str, Any], players: int, player: int, rule: str, shown: str
) -> list[ScoreEvent]:
    """A carte blanche's score events under the variant's ``carte_blanche`` ``section``.

    ``player`` scores its points; under ``from_opponent`` each other seat of the
    ``players`` pays them (S4's reading, A18).  ``rule`` and ``shown`` are the holder's
    event's rule and detail.
    """
    points = section["points"]
    events = [ScoreEvent(player, points, rule, shown)]
    if section["from_opponent"]:
        events.extend(
            ScoreEvent(other, -points, f"{CARTE_BLANCHE}.from_opponent", shown)
            for other in range(players)
            if other != player
        )
    return events


def refusal(state: HookState, player: int) -> str:
    """Why ``player`` may not announce a carte blanche now, in the rule's words."""
    t = tables(state)
    section = t.carte_blanche
    if not section["enabled"]:
        return "this variant plays no carte blanche (carte_blanche.enabled: false)"
    ranks = ", ".join(section["ranks"])
    if not t.blank(state.hands[player]):
        barred = [c for c in state.hands[player] if not t.blank((c,))]
        return (
            f"a carte blanche is a hand without a card of the ranks {ranks} (carte_blanche."
            f"ranks; HMR, R-C2, A18), and seat {player} holds "
            f"{' '.join(state.deck.card_text(c) for c in barred)}"
        )
    if state.to_act != player or state.phase != PLAY:
        return (
            "a carte blanche is announced by its holder when he is to play a card, before "
            "he plays it (F334, A19)"
        )
    if hand_state(state).blank_shown[player]:
        return (
            f"seat {player} has shown his carte blanche at the deal; it scores again only "
            "for a card just drawn that is none of the ranks "
            f"{ranks}, where the variant's rules say so, before his next card (A19)"
        )
    return (
        "a carte blanche is announced before the holder plays his first card of the hand "
        "(F334: only before the first trick is played to, A19); playing a card declined it"
    )
