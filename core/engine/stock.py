"""The deal and the draw: cards from the stock into the hands.

:meth:`Stock._deal_next_hand` deals a hand (the table, tricks and turn made new for
it); :meth:`Stock._draw` is the round of drawing after a trick, which goes on to the
next trick or ends the hand.  :class:`~bezique.game.GameState` inherits :class:`Stock`.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from bezique.actions import ScoreEvent
from bezique.engine.questions import Questions
from bezique.engine.state import NO_TURN, PLAY
from bezique.hookspecs import HELD


@mypyc_attr(allow_interpreted_subclasses=True)
class Stock(Questions):
    """The deal and the draw of a game state (a mixin)."""

    def _deal_next_hand(self, shuffle: bool = False) -> None:
        """Rotate the deal and deal a hand from the next stacked deck (unless ``shuffle``).

        The plugins are told, then asked their questions before the first lead
        (:mod:`bezique.engine.questions`); the deal scores once none is open.
        """
        data = self.rules.data
        n = self.players
        self.hand_no += 1
        if self.hand_no == 0:  # the game's first deal: the trick record opens (for every hand)
            self.tricks = []
        self.dealer = (self.dealer + 1) % n
        self.table_acted = False
        if self.hand_no < len(self.decks) and not shuffle:
            order = list(self.decks[self.hand_no])
        else:
            order = self.deck.shuffled(self.rng)
        self.hands = [[] for _ in range(n)]
        self.won = [[] for _ in range(n)]
        self.on_table = [False] * self.deck.size
        self.levels = [0] * self.deck.size
        self.card_key = list(self.deck.card_face)
        self.declared_bits = 0
        self.played = []
        self.played_by = []
        self.trick_starts = []
        self.exposed = 0
        self.won_at_exhaustion = [0] * n
        self.hand_points = [0] * len(self.scores)
        self.trick = []
        self.trick_seats = []
        self.tricks_done = 0
        self.last_trick_winner = -1
        self.turn = NO_TURN
        position = 0
        for packet in data["deal"]["packets"]:
            for offset in range(1, n + 1):
                seat = (self.dealer + offset) % n
                self.hands[seat].extend(order[position : position + packet])
                position += packet
        if data["trumps"]["mode"] == "turn_up":
            self.turn_up = order[position]
            self.trump = self.deck.card_suit[self.turn_up]
            position += 1
        else:
            self.turn_up = -1
            self.trump = -1
        self.stock = order[position:][::-1]
        self._count_hands()
        self.leader = (self.dealer + 1) % n
        self.to_act = self.leader
        self.trick_order = self._orders[self.leader]
        self.phase = PLAY
        self._legal = None
        self.rules.after_deal(self)
        if self.rules.hand_question is not None and self._ask():
            return  # the deal scores once the questions before the first lead are answered
        self._score(self.rules.deal_scores(self))

    def deal_again(self, rule: str) -> None:
        """Void the hand just dealt, its deal scores with it, and deal it again from a shuffle.

        For a plugin: the deal scores are taken back by score events of ``rule``.
        """
        void = [
            ScoreEvent(event.player, -event.points, rule, f"{event.rule} voided")
            for event, hand in zip(self.events, self.event_hands, strict=True)
            if hand == self.hand_no
        ]
        self._score(void)
        self.hand_no -= 1
        self.dealer = (self.dealer - 1) % self.players
        self._deal_next_hand(shuffle=True)

    def _draw(self) -> None:
        """Draw (the winner first, then the others in turn) and go on to the next trick."""
        stock = self.stock
        leader = self.leader
        if stock or self.turn_up >= 0:
            table_draw = self.rules.draw  # a table hook (see bezique.hookspecs)
            drawn = table_draw(self) if self.table_acted and table_draw is not None else None
            if drawn == HELD:
                return  # play waits in a phase a plugin opened; draw_round() goes on
            if drawn is None and self.rules.draw_scores is not None:
                self._draw_scored()
                if self.is_over():  # a card drawn scored the game's last points
                    return
            elif drawn is None and len(stock) >= self.players:
                hands = self.hands
                held = self.held
                bits = self.deck.bits
                card = stock.pop()
                hands[leader].append(card)
                held[leader] |= bits[card]
                for seat in self._others[leader]:
                    card = stock.pop()
                    hands[seat].append(card)
                    held[seat] |= bits[card]
            elif drawn is None:
                self._draw_last_cards()
            if not stock and self.turn_up < 0:
                self.won_at_exhaustion = [len(w) for w in self.won]
                self.rules.stock_exhausted(self)
        self.phase = PLAY
        hook = self.rules.trick_players
        order = hook(self) if hook is not None and not self.stock_left() else None
        if order is None:
            self.to_act = leader
            self.trick_order = self._orders[leader]
            over = not self.hands[leader]
        elif order:
            self.leader = self.to_act = order[0]
            self.trick_order = tuple(order)
            over = False
        else:
            over = True
        if self.table_acted and not over:
            # A card too many that was never found (a table action: a surplus unnoticed)
            # leaves a player of the next trick without a card: the hand ends.
            over = not all(self.hands[seat] for seat in self.trick_order)
        if over:
            self._end_hand()

    def draw_round(self) -> None:
        """Draw, the trick's winner first, and go on to the next trick (or end the hand).

        For plugins that finish a trick themselves, and for a plugin to carry on
        with a draw it held (``bezique_draw``).
        """
        self._draw()

    def _draw_scored(self) -> None:
        """Draw in turn, the winner first, each card scored as :meth:`draw_card` says."""
        for seat in (self.leader, *self._others[self.leader]):
            if not self.stock and self.turn_up < 0:
                return
            self.draw_card(seat)
            if self.is_over():
                return

    def _draw_last_cards(self) -> None:
        """Draw the stock's last cards in turn, the turn-up last of all."""
        for seat in (self.leader, *self._others[self.leader]):
            self.draw_card(seat)

    def draw_card(self, seat: int) -> None:
        """Give ``seat`` the stock's top card, or the turn-up once the stock is empty.

        The card scores what ``bezique_draw_scores`` says, however the draw came about
        (the kernel's round, or a plugin's: the referee's extra and skipped draws).
        """
        if self.stock:
            card = self.stock.pop()
        elif self.turn_up >= 0:
            card, self.turn_up = self.turn_up, -1
            self.expose(card)  # the turn-up is taken face up
        else:
            return
        self.give(seat, card)
        hook = self.rules.draw_scores
        if hook is not None:
            self._score(hook(self, seat, card))
