"""The seven of trumps: turned up, exchanged for the turn-up, shown, or scored on play.

S0 and S2: a seven turned up scores for the dealer; the trick's winner holding
a seven of trumps may exchange it for the turn-up or show it, each seven once a
hand.  A12's readings of the others: it scores for whoever plays it while the
stock lasts, and is neither shown nor exchanged (CAS, ``seven_of_trumps.scoring:
on_play``), or may instead be exchanged by a trick's winner, never shown (EW and
BRIT, ``on_play_or_exchange``); each seven scores once, never in the end-game.
What has scored this hand is kept in the plugin's state of the hand
(:func:`~bezique.plugins.ordinary.hand.sevens_scored`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.actions import Action, Kind, ScoreEvent
from bezique.plugins.ordinary.combinations import Tables
from bezique.plugins.ordinary.hand import changing_turn, sevens_scored
from bezique.plugins.ordinary.quicktests import quick_tests

if TYPE_CHECKING:
    from bezique.hookstate import HookState


def turned_up(state: HookState, t: Tables) -> list[ScoreEvent]:
    """A seven of trumps turned up scores for the dealer."""
    if state.turn_up < 0 or state.deck.card_rank[state.turn_up] != t.seven_rank:
        return []
    sevens_scored(state).append(state.turn_up)
    points = t.seven["turn_up_points"]
    return [ScoreEvent(state.dealer, points, "seven_of_trumps.turn_up_points", "turned up")]


def is_trump_seven(state: HookState, t: Tables, card: int) -> bool:
    """Whether ``card`` is a seven of trumps."""
    deck = state.deck
    return deck.card_rank[card] == t.seven_rank and deck.card_suit[card] == state.trump


def seven_actions(state: HookState, t: Tables, player: int) -> list[Action]:
    """Exchange and show for the player's first seven of trumps that has not scored.

    Show only where the variant declares sevens; exchange only while the turn-up is
    not itself a seven of trumps.
    """
    if not t.sevens_exchanged or state.trump < 0:
        return []
    sevens = (t.tests_by_trump.get(state.trump) or quick_tests(t, state.trump)).sevens
    unscored = state.held[player] & unscored_sevens(state, sevens)
    if not unscored:
        return []
    if unscored & (unscored - 1):  # both copies: the first in hand
        card = next(c for c in state.hands[player] if unscored >> c & 1)
    else:
        card = unscored.bit_length() - 1
    turn_up = state.turn_up
    actions = []
    if turn_up >= 0 and not sevens >> turn_up & 1:
        actions.append(t.exchange_actions[card])
    if t.sevens_declared:
        actions.append(t.show_actions[card])
    return actions


def unscored_sevens(state: HookState, sevens: int) -> int:
    """``sevens`` (a bitboard of sevens of trumps) less those that have scored this hand."""
    bits = state.deck.bits
    for card in sevens_scored(state):
        sevens &= ~bits[card]
    return sevens


def seven_refusal(state: HookState, t: Tables, player: int, action: Action) -> str:
    """Why an exchange or show of ``action``'s card is refused."""
    card = action.cards[0] if action.cards else -1
    if card < 0 or not is_trump_seven(state, t, card) or card not in state.hands[player]:
        return "exchange and show take the seven of trumps from the player's own hand"
    if not t.sevens_exchanged:
        return "in this variant the seven of trumps scores when played (seven_of_trumps.scoring)"
    if action.kind == Kind.SHOW and not t.sevens_declared:
        return (
            "in this variant the seven of trumps is not shown: it scores when played or "
            "exchanged (seven_of_trumps.scoring)"
        )
    if card in sevens_scored(state):
        return "that seven of trumps has already scored this hand"
    if not t.sevens_declared:
        return (
            "the turn-up is already a seven of trumps: exchanging one seven for another gains "
            "nothing (S0); this one scores when played"
        )
    return (
        "the turn-up is already a seven of trumps: exchanging one seven for another gains "
        "nothing, show it instead (S0)"
    )


def exchange(state: HookState, t: Tables, player: int, seven: int) -> None:
    """Exchange ``seven`` for the turn-up; the card taken may not be declared this turn (A13)."""
    state.take(player, seven)
    taken = state.swap_turn_up(seven)
    state.give(player, taken)
    changing_turn(state).blocked.append(taken)
    sevens_scored(state).append(seven)
    points = t.seven["exchange_points"]
    state.score([ScoreEvent(player, points, "seven_of_trumps.exchange_points", "exchanged")])


def show(state: HookState, t: Tables, player: int, seven: int) -> None:
    """Show (declare) ``seven``, which scores."""
    state.expose(seven)
    sevens_scored(state).append(seven)
    points = t.seven["declare_points"]
    state.score([ScoreEvent(player, points, "seven_of_trumps.declare_points", "shown")])


def sevens_played(state: HookState, t: Tables) -> list[ScoreEvent]:
    """The seven of trumps scores for whoever plays it while the stock lasts (A12 reading)."""
    events = []
    scored = sevens_scored(state)
    for card, seat in zip(state.trick, state.trick_seats, strict=True):
        if is_trump_seven(state, t, card) and card not in scored:
            scored.append(card)
            events.append(ScoreEvent(seat, t.seven["declare_points"], "seven_of_trumps.on_play"))
    return events
