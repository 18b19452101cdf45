"""The deal and the draw: cards from the stock into the hands.

:func:`deal_hand` deals a hand (the table, tricks and turn made new for it);
:func:`draw` is the round of drawing after a trick, which goes on to the next
trick or ends the hand.  :class:`~bezique.game.GameState` offers them as methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.engine.questions import ask
from bezique.engine.state import NO_TURN, PLAY
from bezique.hookspecs import HELD

if TYPE_CHECKING:
    from bezique.game import GameState


def deal_hand(state: GameState, shuffle: bool = False) -> None:
    """Rotate the deal and deal a hand from the next stacked deck (unless ``shuffle``).

    The plugins are told, then asked their questions before the first lead
    (:mod:`bezique.engine.questions`); the deal scores once none is open.
    """
    data = state.rules.data
    n = state.players
    state.hand_no += 1
    if state.hand_no == 0:  # the game's first deal: the trick record opens (for every hand)
        state.tricks = []
    state.dealer = (state.dealer + 1) % n
    state.table_acted = False
    if state.hand_no < len(state.decks) and not shuffle:
        order = list(state.decks[state.hand_no])
    else:
        order = state.deck.shuffled(state.rng)
    state.hands = [[] for _ in range(n)]
    state.won = [[] for _ in range(n)]
    state.on_table = [False] * state.deck.size
    state.levels = [0] * state.deck.size
    state.card_key = list(state.deck.card_face)
    state.declared_bits = 0
    state.played = []
    state.played_by = []
    state.trick_starts = []
    state.exposed = 0
    state.won_at_exhaustion = [0] * n
    state.hand_points = [0] * len(state.scores)
    state.trick = []
    state.trick_seats = []
    state.tricks_done = 0
    state.last_trick_winner = -1
    state.turn = NO_TURN
    position = 0
    for packet in data["deal"]["packets"]:
        for offset in range(1, n + 1):
            seat = (state.dealer + offset) % n
            state.hands[seat].extend(order[position : position + packet])
            position += packet
    if data["trumps"]["mode"] == "turn_up":
        state.turn_up = order[position]
        state.trump = state.deck.card_suit[state.turn_up]
        position += 1
    else:
        state.turn_up = -1
        state.trump = -1
    state.stock = order[position:][::-1]
    state._count_hands()
    state.leader = (state.dealer + 1) % n
    state.to_act = state.leader
    state.trick_order = state._orders[state.leader]
    state.phase = PLAY
    state._legal = None
    state.rules.after_deal(state)
    if state.rules.hand_question is not None and ask(state):
        return  # the deal scores once the questions before the first lead are answered
    state._score(state.rules.deal_scores(state))


def draw(state: GameState) -> None:
    """Draw (the winner first, then the others in turn) and go on to the next trick."""
    stock = state.stock
    leader = state.leader
    if stock or state.turn_up >= 0:
        table_draw = state.rules.draw  # a table hook (see bezique.hookspecs)
        drawn = table_draw(state) if state.table_acted and table_draw is not None else None
        if drawn == HELD:
            return  # play waits in a phase a plugin opened; state.draw_round() goes on
        if drawn is None and state.rules.draw_scores is not None:
            draw_scored(state)
            if state.is_over():  # a card drawn scored the game's last points
                return
        elif drawn is None and len(stock) >= state.players:
            hands = state.hands
            held = state.held
            bits = state.deck.bits
            card = stock.pop()
            hands[leader].append(card)
            held[leader] |= bits[card]
            for seat in state._others[leader]:
                card = stock.pop()
                hands[seat].append(card)
                held[seat] |= bits[card]
        elif drawn is None:
            draw_last_cards(state)
        if not stock and state.turn_up < 0:
            state.won_at_exhaustion = [len(w) for w in state.won]
            state.rules.stock_exhausted(state)
    state.phase = PLAY
    hook = state.rules.trick_players
    order = hook(state) if hook is not None and not state.stock_left() else None
    if order is None:
        state.to_act = leader
        state.trick_order = state._orders[leader]
        over = not state.hands[leader]
    elif order:
        state.leader = state.to_act = order[0]
        state.trick_order = tuple(order)
        over = False
    else:
        over = True
    if state.table_acted and not over:
        # A card too many that was never found (a table action: a surplus unnoticed)
        # leaves a player of the next trick without a card: the hand ends.
        over = not all(state.hands[seat] for seat in state.trick_order)
    if over:
        state._end_hand()


def draw_scored(state: GameState) -> None:
    """Draw in turn, the winner first, each card scored as :func:`draw_card` says."""
    for seat in (state.leader, *state._others[state.leader]):
        if not state.stock and state.turn_up < 0:
            return
        draw_card(state, seat)
        if state.is_over():
            return


def draw_last_cards(state: GameState) -> None:
    """Draw the stock's last cards in turn, the turn-up last of all."""
    for seat in (state.leader, *state._others[state.leader]):
        draw_card(state, seat)


def draw_card(state: GameState, seat: int) -> None:
    """Give ``seat`` the stock's top card, or the turn-up once the stock is empty.

    The card scores what ``bezique_draw_scores`` says, however the draw came about
    (the kernel's round, or a plugin's: the referee's extra and skipped draws).
    """
    if state.stock:
        card = state.stock.pop()
    elif state.turn_up >= 0:
        card, state.turn_up = state.turn_up, -1
        state.expose(card)  # the turn-up is taken face up
    else:
        return
    state.give(seat, card)
    hook = state.rules.draw_scores
    if hook is not None:
        state._score(hook(state, seat, card))
