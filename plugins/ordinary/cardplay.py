"""The ordinary game's trick, end-game duties and trick scores, as plain functions.

The bodies of the hook answers of every card and every trick
(:mod:`~bezique.plugins.ordinary.tricks` holds the answers, which call these), and
the game's winner.  Plain functions so that the compiled build compiles them: pluggy
marks a hook answer with an attribute, which a compiled function cannot carry.

* the trick: the higher card of the suit led or a trump wins, and of two identical
  cards the first played (S0 and S2 on play);
* the end-game duties once the stock is gone: follow suit, win if able, trump if void
  and able (S0 on the last eight tricks);
* brisques and the last trick, and who has won the game (S0 footnotes 4 and 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bezique.actions import ScoreEvent
from bezique.hookspecs import DRAWN_GAME
from bezique.plugins.ordinary.combinations import KEY, Tables, tables, tables_of
from bezique.plugins.ordinary.sevens import sevens_played

if TYPE_CHECKING:
    from bezique.hookstate import HookRules, HookState

_MEMO_LIMIT = 1 << 16
"""Most entries a memo of :class:`Tables` keeps (tricks of more than two cards are many)."""


def trick_winner(state: HookState, cards: list[int]) -> int:
    """Return the position of the winning card: highest of the suit led, or highest trump."""
    suit_of = state.deck.card_suit
    rank_of = state.deck.card_rank
    trump = state.trump
    if len(cards) == 2:  # the two-hand game's every trick, spelt out for speed
        lead = cards[0]
        second = cards[1]
        if suit_of[second] == suit_of[lead]:
            return 1 if rank_of[second] < rank_of[lead] else 0
        return 1 if suit_of[second] == trump else 0
    best = 0
    best_suit = suit_of[cards[0]]
    best_rank = rank_of[cards[0]]
    for position in range(1, len(cards)):
        card = cards[position]
        suit = suit_of[card]
        if suit == best_suit:
            if rank_of[card] < best_rank:  # identical cards: the first played stays
                best, best_rank = position, rank_of[card]
        elif suit == trump:
            best, best_suit, best_rank = position, suit, rank_of[card]
    return best


def legal_plays(state: HookState, cards: list[int]) -> list[int]:
    """Free play while the stock lasts; the end-game duties once it is gone."""
    if state.stock or state.turn_up >= 0 or not state.trick:
        return cards
    return endgame_plays(state, cards)


def endgame_plays(state: HookState, cards: list[int]) -> list[int]:
    """Return the cards that meet the end-game duties: follow, win if able, trump if void."""
    duties = tables(state).endgame
    suit_of = state.deck.card_suit
    rank_of = state.deck.card_rank
    trick = state.trick
    led = suit_of[trick[0]]
    best = trick[trick_winner(state, trick)]
    best_suit, best_rank = suit_of[best], rank_of[best]
    follow = [c for c in cards if suit_of[c] == led]
    if follow and duties["follow_suit"]:
        if duties["must_win"] and best_suit == led:
            beating = [c for c in follow if rank_of[c] < best_rank]
            if beating:
                return beating
        return follow
    trump = state.trump
    if not follow and duties["must_trump"] and trump >= 0 and led != trump:
        trumps = [c for c in cards if suit_of[c] == trump]
        if best_suit == trump:
            trumps = [c for c in trumps if rank_of[c] < best_rank]
        if trumps:
            return trumps
    return cards


def play_refusal(state: HookState, player: int) -> str | None:
    """Why a card the player holds may not be played now: the end-game duties, or None."""
    if state.stock_left() or not state.trick:
        return None
    allowed = " ".join(state.deck.card_text(c) for c in endgame_plays(state, state.hands[player]))
    return (
        "once the stock is gone the second player must follow suit, win the trick if "
        f"able, and trump if void and able (endgame, S0): play one of {allowed}"
    )


def trick_scores(state: HookState, winner: int, cards: list[int]) -> list[ScoreEvent]:
    """Brisques won (when scored at once), the last trick, and sevens scored on play."""
    t: Tables = state.rules.tables.get(KEY) or tables(state)
    events: list[ScoreEvent] = []
    if t.brisques_now:
        brisque = t.brisque
        for card in cards:
            if brisque[card]:  # (a trick without a brisque needs no look-up)
                events.extend(brisques_won(t, winner, cards))
                break
    if t.sevens_on_play and (state.stock or state.turn_up >= 0):
        events.extend(sevens_played(state, t))
    if (
        # The trick whose draws take the last of the stock (fewer cards than players are
        # left only where a surplus went unnoticed at a refereed table).
        0 < len(state.stock) + (state.turn_up >= 0) <= state.players
        if t.last_trick_exhausts
        else not any(state.hands)
    ):
        state.mark_last_trick(winner)
        events.append(ScoreEvent(winner, t.last_trick_points, "last_trick"))
    return events


def brisques_won(t: Tables, winner: int, cards: Sequence[int]) -> tuple[ScoreEvent, ...]:
    """Return the score of the brisques in the trick ``cards`` won by ``winner``, if any.

    Remembered per winner and trick (a two-hand game has a few thousand).
    """
    key = (winner, *cards)
    found = t.brisque_events.get(key)
    if found is None:
        brisques = [c for c in cards if t.brisque[c]]
        found = ()
        if brisques:
            detail = " ".join([t.deck.card_texts[c] for c in brisques])
            points = t.brisque_points * len(brisques)
            found = (ScoreEvent(winner, points, "brisques", detail),)
        if len(t.brisque_events) < _MEMO_LIMIT:
            t.brisque_events[key] = found
    return found


def game_winner(rules: HookRules, scores: Sequence[int], hand_over: bool, last: int) -> int:
    """The side that has won at ``scores``, or -1.

    The first side to reach the target wins; if several reach it at once, precedence
    decides.  Where one deal is the game (no target), the higher total wins when the
    hand is over, and equal highest totals draw (BIC-R, CM-R: R20).  ``last`` is the
    side that took the last trick (-1: none yet).
    """
    target = rules.target
    if target is None:
        return one_deal_winner(scores) if hand_over else -1
    game = tables_of(rules).game
    if max(scores) < target or (not hand_over and game["check"] == "hand_end"):
        return -1
    over = [side for side, score in enumerate(scores) if score >= target]
    if not over:
        return -1
    precedence = len(over) > 1 and game["both_over"] == "last_trick_winner"
    if precedence and last in over:
        return last
    return max(over, key=lambda side: scores[side])


def one_deal_winner(scores: Sequence[int]) -> int:
    """The side with the highest total, or :data:`~bezique.hookspecs.DRAWN_GAME` if it is shared."""
    best = max(scores)
    return DRAWN_GAME if list(scores).count(best) > 1 else list(scores).index(best)
