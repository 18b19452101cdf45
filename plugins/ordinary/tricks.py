"""The ordinary game's play and scores outside declaring, as the plugin's hook answers.

* the deal: a seven turned up (carte blanche is its holder's announcement:
  :mod:`~bezique.plugins.ordinary.carteblanche`);
* the trick, the end-game duties and a trick's scores (brisques, the last trick, the
  sevens on play), whose bodies are the plain functions of
  :mod:`~bezique.plugins.ordinary.cardplay` (compiled in the compiled build);
* the declared cards back in the hands when the stock is gone, brisques counted at the
  end of the hand, and who has won the game (S0 footnotes 4 and 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.actions import ScoreEvent
from bezique.hookspecs import hookimpl
from bezique.plugins.ordinary.cardplay import game_winner, legal_plays, trick_scores, trick_winner
from bezique.plugins.ordinary.combinations import tables
from bezique.plugins.ordinary.hand import HAND_KEY, OrdinaryHand, hand_state
from bezique.plugins.ordinary.sevens import turned_up

if TYPE_CHECKING:
    from bezique.hookstate import HookState


# ---------------------------------------------------------------------- the deal


@hookimpl
def bezique_after_deal(state: HookState) -> None:
    """Start the plugin's state of the hand: no seven scored, nothing announced."""
    state.set_plugin_state(HAND_KEY, OrdinaryHand.dealt(state.players))


@hookimpl
def bezique_deal_scores(state: HookState) -> list[ScoreEvent]:
    """A seven of trumps turned up scores for the dealer (S0 and S2 tables).

    A carte blanche is not scored here: its holder announces it if he chooses
    (:mod:`~bezique.plugins.ordinary.carteblanche`).
    """
    return turned_up(state, tables(state))


# ---------------------------------------------------------------------- tricks


@hookimpl
def bezique_trick_winner(state: HookState, cards: list[int]) -> int:
    """Return the position of the winning card: highest of the suit led, or highest trump."""
    return trick_winner(state, cards)


@hookimpl
def bezique_legal_plays(state: HookState, player: int, cards: list[int]) -> list[int]:
    """Free play while the stock lasts; the end-game duties once it is gone."""
    return legal_plays(state, cards)


# ---------------------------------------------------------------------- scores


@hookimpl
def bezique_trick_scores(state: HookState, winner: int, cards: list[int]) -> list[ScoreEvent]:
    """Brisques won (when scored at once), the last trick, and sevens scored on play."""
    return trick_scores(state, winner, cards)


@hookimpl
def bezique_stock_exhausted(state: HookState) -> None:
    """Declared cards go back into the hands; announced combinations lapse (A38)."""
    for hand in state.hands:
        for card in hand:
            if state.on_table[card]:
                state.set_card(card, False, state.levels[card])
    hand_state(state).pending = [[] for _ in range(state.players)]


@hookimpl
def bezique_hand_scores(state: HookState) -> list[ScoreEvent]:
    """Brisques counted at the end of the hand, when the variant counts them then."""
    t = tables(state)
    if t.brisques_now or t.brisques_at_settlement:
        return []
    events = []
    for seat, won in enumerate(state.won):
        count = sum(map(t.brisque.__getitem__, won))
        if count:
            events.append(ScoreEvent(seat, count * t.brisque_points, "brisques", "end of hand"))
    return events


@hookimpl
def bezique_game_winner(state: HookState, hand_over: bool) -> int:
    """The first side to reach the target wins; if several reach it at once, precedence decides.

    Where one deal is the game, the higher total wins when the hand is over, and
    equal highest totals draw (BIC-R, CM-R: R20).
    """
    last = state.side_of[state.last_trick_winner] if state.last_trick_winner >= 0 else -1
    return game_winner(state.rules, state.scores, hand_over, last)
