"""The kernel: a trick-taking game state and its phase machine.

The kernel knows cards, hands, the stock, tricks, turns and scores, and the order
of play: deal, tricks with drawing, the end-game once the stock is gone, the
hand's end and the game's end.  It knows no number from a rulebook: those come
from the variant's data, and every decision that differs between games (who
wins a trick, which cards may be played, what a trick's winner may declare, what
scores) is asked of the variant's plugins through a :class:`~bezique.ruleset.Ruleset`.

A game is fully determined by its variant (with overrides), its seed or stacked
decks, the first dealer and the list of actions.
"""

from __future__ import annotations

import json
import os
import random
import sys
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from bezique import __version__, referee
from bezique.actions import (
    END_TURN,
    KIND_WORDS,
    REFEREE_KINDS,
    WORD_KINDS,
    Action,
    Kind,
    ScoreEvent,
)
from bezique.cards import CardError
from bezique.errors import BeziqueError, IllegalActionError, RecordError
from bezique.pinned import RECORDED, pinned_ruleset, variant_digest
from bezique.ruleset import MAX_CACHED_RULESETS, Ruleset, ruleset_for
from bezique.state import NO_TURN, TurnState
from bezique.variant import Variant

__all__ = [
    "GAME_OVER",
    "MAX_CACHED_RULESETS",
    "MAX_HISTORY",
    "NO_TURN",
    "PLAY",
    "REMEDY",
    "STATE_FORMAT",
    "STATE_FORMAT_V1",
    "TURN",
    "GameState",
    "ScoreEvent",
    "TurnState",
    "from_json",
    "new_game",
    "ruleset_for",
]
"""The public face of the kernel: what user code and plugins import from ``bezique.game``."""

PLAY = "play"
"""Phase: the player ``to_act`` plays a card to the current trick."""
TURN = "turn"
"""Phase: the trick's winner may declare, exchange or show before ending his turn."""
GAME_OVER = "game_over"
"""Phase: the game has a winner; no action is legal."""
REMEDY = referee.REMEDY
"""Phase: play waits for the injured player's choice after an irregularity."""

STATE_FORMAT = "bezique-state/2"
"""The format :meth:`GameState.to_json` writes: the rules carried and pinned by digest."""
STATE_FORMAT_V1 = "bezique-state/1"
"""The older format, without the rules (read with a DeprecationWarning)."""
_PLAY = Kind.PLAY
_END_TURN = Kind.END_TURN


_RULE_OF_KIND = {
    Kind.PLAY: "endgame",
    Kind.DECLARE: "declarations",
    Kind.ANNOUNCE: "declarations",
    Kind.EXCHANGE: "seven_of_trumps",
    Kind.SHOW: "seven_of_trumps",
}
"""The variant section whose rules decide each kind of turn action."""


class GameState:
    """A game of bezique (or any variant), from the first deal to the game's end.

    Build one with :func:`new_game`.  Use :meth:`legal_actions`, :meth:`apply`,
    :meth:`observation`, :meth:`to_json` / :func:`from_json` and :meth:`clone`.
    Attributes are public for plugins and tests to read; change them only
    through :meth:`apply` (plugins: through the hooks that say so).
    """

    def __init__(
        self,
        rules: Ruleset,
        *,
        seed: int | None = None,
        decks: Sequence[Sequence[int]] = (),
        first_dealer: int = 0,
        overrides: Mapping[str, Any] | None = None,
        variant_spec: str = "",
        referee: bool = False,
    ) -> None:
        """Set up a game and deal its first hand (see :func:`new_game`)."""
        self.rules = rules
        self.deck = rules.deck
        self.players = rules.players
        if not 0 <= first_dealer < self.players:
            raise BeziqueError(f"first dealer must be a seat from 0 to {self.players - 1}")
        self.variant_spec = variant_spec or rules.variant.origin
        self.overrides: dict[str, Any] = dict(overrides or {})
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        self.decks: list[list[int]] = [list(d) for d in decks]
        self.first_dealer = first_dealer
        self.referee = referee
        """A refereed game (a real table's record): the winner's draw waits for ``draw``
        even when he has nothing to declare, so that a report may come before it."""
        self.history: list[Action] = []
        self.events: list[ScoreEvent] = []
        self.event_hands: list[int] = []
        self.side_of = rules.side_of
        """For each seat, its side: the seat itself, or its partnership's index."""
        self.scores = [0] * (max(self.side_of) + 1)
        """Game scores per side (per seat when there are no partnerships)."""
        self.hand_no = -1
        self.dealer = (first_dealer - 1) % self.players
        self.winner = -1
        self.extra: dict[str, Any] = {}
        """Plugin-owned state; must stay JSON-serialisable."""
        self._play_actions = rules.play_actions
        self._others = _others(self.players)
        self._orders = _orders(self._others)
        self._legal: list[Action] | None = None
        self._deal_next_hand()

    # ------------------------------------------------------------------ dealing

    def _deal_next_hand(self, shuffle: bool = False) -> None:
        """Rotate the deal and deal a hand from the next stacked deck (unless ``shuffle``)."""
        data = self.rules.data
        n = self.players
        self.hand_no += 1
        self.dealer = (self.dealer + 1) % n
        self.extra.pop(referee.KEY, None)
        self.refereed = False
        """Whether an irregularity was reported this hand (the referee then takes part)."""
        if self.hand_no < len(self.decks) and not shuffle:
            order = list(self.decks[self.hand_no])
        else:
            order = self.deck.shuffled(self.rng)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.on_table = [False] * self.deck.size
        self.levels = [0] * self.deck.size
        self.card_key = list(self.deck.card_face)
        self.declared_bits = 0
        """Bit ``1 << card`` set for every card declared this hand (``levels`` not 0)."""
        self.pending: list[list[tuple[str, tuple[int, ...]]]] = [[] for _ in range(n)]
        self.played: list[int] = []
        self.won_at_exhaustion = [0] * n
        """How many cards each seat had won when the stock ran out (the end-game's start)."""
        self.hand_points = [0] * len(self.scores)
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
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
        self.trick_order: tuple[int, ...] = self._orders[self.leader]
        """The seats that play the current trick, in order, the leader first."""
        self.phase = PLAY
        self._legal = None
        self._score(self.rules.deal_scores(self))

    def _count_hands(self) -> None:
        """Set the hands' bitboards (see :attr:`held`) from the hands."""
        self.held = [sum(map(self.deck.bits.__getitem__, hand)) for hand in self.hands]
        """Per seat, bit ``1 << card`` set for every card in the hand."""

    def give(self, seat: int, card: int) -> None:
        """Put ``card`` into ``seat``'s hand (plugins move cards only through this and take)."""
        self.hands[seat].append(card)
        self.held[seat] |= self.deck.bits[card]
        self._legal = None

    def take(self, seat: int, card: int) -> None:
        """Take ``card`` out of ``seat``'s hand."""
        self.hands[seat].remove(card)
        self.held[seat] &= ~self.deck.bits[card]
        self._legal = None

    # ------------------------------------------------------------------ queries

    def stock_left(self) -> int:
        """Return how many cards can still be drawn, the turn-up included."""
        return len(self.stock) + (self.turn_up >= 0)

    def extra_cards(self) -> list[int]:
        """Return cards a plugin keeps outside hands, tricks and stock (``extra["places"]``)."""
        places: dict[str, list[int]] = self.extra.get("places", {})
        return [card for cards in places.values() for card in cards]

    def is_over(self) -> bool:
        """Return whether the game has a winner."""
        return self.phase == GAME_OVER

    def legal_actions(self) -> list[Action]:
        """Return every legal action of the player to act, one per distinct choice.

        Copies of a card in the same situation are one choice: the action names
        the first such copy in the hand.  This is the only place legality is
        decided; :meth:`apply` refuses anything not in this list.
        """
        if self._legal is not None:
            return self._legal
        if self.phase == PLAY:
            seat = self.to_act
            cards = self.rules.legal_plays(self, seat, self.hands[seat])
            if self.refereed:
                cards = referee.adjust_plays(self, seat, cards)
            key_of = self.card_key.__getitem__
            plays = self._play_actions.__getitem__
            if len(cards) == len(set(map(key_of, cards))):
                legal = list(map(plays, cards))
            else:  # interchangeable copies: keep the first of each in hand order
                first = dict(zip(map(key_of, reversed(cards)), reversed(cards), strict=True))
                legal = list(map(plays, sorted(first.values(), key=cards.index)))
        elif self.phase == TURN:
            legal = list(self.rules.turn_actions(self, self.to_act) or ())
            legal.append(END_TURN)
        elif self.phase == REMEDY:
            legal = referee.remedies(self)
        else:
            legal = []
        self._legal = legal
        return legal

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action | str) -> None:
        """Carry out ``action`` (an :class:`Action` or its text) for the player to act.

        Raise :class:`IllegalActionError`, naming the rule, for anything that is
        not legal now; the state is then left exactly as it was.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        if isinstance(action, Action) and action.kind in REFEREE_KINDS:
            if self.phase == GAME_OVER:
                raise IllegalActionError("the game is over", "game.target")
            referee.act(self, action)
            self.history.append(action)
            return
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            action = self._equivalent_legal(action)
        assert isinstance(action, Action)
        self.history.append(action)
        self._legal = None
        kind = action.kind
        if kind == _PLAY:
            self._play(action.cards[0])
        elif kind == _END_TURN:
            self._end_turn()
        else:
            self.rules.apply_turn_action(self, self.to_act, action)

    def _equivalent_legal(self, action: Action) -> Action:
        """Find the legal action that means the same as ``action`` (another copy), or refuse."""
        if not isinstance(action, tuple) or not all(
            isinstance(c, int) and 0 <= c < self.deck.size for c in getattr(action, "cards", ())
        ):
            raise IllegalActionError(
                f"{action!r} is not an action: cards are numbered 0 to {self.deck.size - 1}",
                "notation",
            )
        try:
            text = self.action_text(action)
        except BeziqueError:
            text = ""
        for candidate in self.legal_actions():
            if text and self.action_text(candidate) == text:
                return candidate
        raise self._refusal(action)

    def set_card(self, card: int, on_table: bool, levels: int) -> None:
        """Lay ``card`` on the table or take it back, with its declared class levels.

        Plugins change a card's table state only through this, so that the
        kernel's table of interchangeable copies stays right.
        """
        self.on_table[card] = on_table
        self.levels[card] = levels
        face = self.deck.card_face[card]
        self.card_key[card] = ~(levels * 4096 + face) if on_table else face
        if levels:
            self.declared_bits |= self.deck.bits[card]
        else:
            self.declared_bits &= ~self.deck.bits[card]
        self._legal = None

    def _play(self, card: int) -> None:
        seat = self.to_act
        if self.refereed:
            referee.on_play(self, seat, card)
        self.hands[seat].remove(card)
        self.held[seat] ^= self.deck.bits[card]
        if self.on_table[card]:
            self.on_table[card] = False
            self.card_key[card] = self.deck.card_face[card]
        trick = self.trick
        trick.append(card)
        self.trick_seats.append(seat)
        self.played.append(card)
        if len(trick) < len(self.trick_order):
            self.to_act = self.trick_order[len(trick)]
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        cards = self.trick
        rules = self.rules
        winner = self.trick_seats[rules.trick_winner(self, cards)]
        # The trick goes to its winner, or to his adversary once he has revoked.
        owner = referee.trick_owner(self, winner) if self.refereed else winner
        self.won[owner].extend(cards)
        self.tricks_done += 1
        self.leader = winner
        self.to_act = winner
        # The trick stays in self.trick / self.trick_seats while it is scored.
        events = rules.trick_scores(self, owner, cards)
        if events:
            self._score(events)
        self.trick = []
        self.trick_seats = []
        if self.phase == GAME_OVER:
            return
        self.turn = NO_TURN
        actions = rules.turn_actions(self, winner)
        if actions:
            self.open_turn(winner, actions)
        elif rules.next_declarer is None:
            self._draw_after_trick()
        else:
            self._offer_turn(self._next_declarer(winner, False), after_trick=True)

    def _next_declarer(self, seat: int, declared: bool) -> int:
        """The seat the rules let declare after ``seat`` ends his turn, or -1 (draw)."""
        hook = self.rules.next_declarer
        found = hook(self, seat, declared) if hook is not None else None
        return -1 if found is None else int(found)

    def _offer_turn(self, seat: int, after_trick: bool = False) -> None:
        """Give the turn to ``seat``, or to the next declarer if he has nothing to do; else draw.

        ``after_trick``: no one has had a turn since the trick (see :meth:`_draw_after_trick`).
        """
        while seat >= 0:
            actions = self.rules.turn_actions(self, seat)
            if actions:
                self.open_turn(seat, actions)
                return
            seat = self._next_declarer(seat, False)
        if after_trick:
            self._draw_after_trick()
        else:
            self._draw()

    def _draw_after_trick(self) -> None:
        """Draw when no one may declare after the trick; a refereed game waits for ``draw``.

        In a refereed game the winner's draw is a moment an irregularity may be
        reported before (S0: drawing out of turn is claimed before the injured
        player draws), so he is given a turn whose only action ends it.
        """
        if self.referee and self.stock_left():
            self.open_turn(self.leader, ())
        else:
            self._draw()

    def open_turn(self, seat: int, actions: Sequence[Action]) -> None:
        """Begin ``seat``'s turn after a trick, with the turn actions the rules allow him."""
        self.turn = TurnState()
        self.phase = TURN
        self.to_act = seat
        self._legal = [*actions, END_TURN]

    def _end_turn(self) -> None:
        """End the declarer's turn: the next declarer's turn, if the rules name one, or the draw."""
        if self.rules.next_declarer is None:
            self._draw()
            return
        # Did he do anything in his turn?  Look behind reports and claims of the referee.
        before = (a for a in reversed(self.history[:-1]) if a.kind not in REFEREE_KINDS)
        declared = next(before, END_TURN).kind not in (_PLAY, _END_TURN)
        self.turn = NO_TURN
        self._offer_turn(self._next_declarer(self.to_act, declared))

    def _draw(self) -> None:
        """Draw (the winner first, then the others in turn) and go on to the next trick."""
        stock = self.stock
        leader = self.leader
        if stock or self.turn_up >= 0:
            if self.refereed:
                if referee.draw_round(self):
                    return  # play waits for a choice (two cards lifted); self.draw_round() goes on
            elif len(stock) >= self.players:
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
            else:
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
        if self.refereed and not over:
            # A card too many that was never found (irregular overdrew, a surplus dealt
            # unnoticed) leaves a player of the next trick without a card: the hand ends.
            over = not all(self.hands[seat] for seat in self.trick_order)
        if over:
            self._end_hand()

    def draw_round(self) -> None:
        """Draw, the trick's winner first, and go on to the next trick (or end the hand).

        For plugins that finish a trick themselves, and for :mod:`bezique.referee`
        to carry on with a draw that waited for a choice.
        """
        self._draw()

    def mark_changed(self) -> None:
        """Forget the cached legal actions after a change made outside :meth:`apply`'s path."""
        self._legal = None

    def deal_again(self) -> None:
        """Void the hand just dealt, its deal scores with it, and deal it again from a shuffle."""
        void = [
            ScoreEvent(event.player, -event.points, "penalties.new_deal", f"{event.rule} voided")
            for event, hand in zip(self.events, self.event_hands, strict=True)
            if hand == self.hand_no
        ]
        self._score(void)
        self.hand_no -= 1
        self.dealer = (self.dealer - 1) % self.players
        self._deal_next_hand(shuffle=True)

    def _draw_last_cards(self) -> None:
        """Draw the stock's last cards in turn, the turn-up last of all."""
        for seat in (self.leader, *self._others[self.leader]):
            self.draw_card(seat)

    def draw_card(self, seat: int) -> None:
        """Give ``seat`` the stock's top card, or the turn-up once the stock is empty."""
        if self.stock:
            self.give(seat, self.stock.pop())
        elif self.turn_up >= 0:
            self.give(seat, self.turn_up)
            self.turn_up = -1

    def _end_hand(self) -> None:
        self._score(self.rules.hand_scores(self))
        if self.phase == GAME_OVER:
            return
        winner = self.rules.game_winner(self, True)
        if winner is not None and winner >= 0:
            self._finish_game(winner)
        else:
            self._deal_next_hand()

    def _score(self, events: Sequence[ScoreEvent] | None) -> None:
        """Add score events to the totals; end the game if the rules say it is won."""
        if not events:
            return
        scores = self.scores
        hand_points = self.hand_points
        side_of = self.side_of
        for player, points, _, _ in events:
            side = side_of[player]
            scores[side] += points
            hand_points[side] += points
        self.events.extend(events)
        self.event_hands.extend([self.hand_no] * len(events))
        if max(scores) >= self.rules.target:
            winner = self.rules.game_winner(self, False)
            if winner is not None and winner >= 0:
                self._finish_game(winner)

    def score(self, events: Sequence[ScoreEvent]) -> None:
        """Record scores on behalf of a plugin (its turn actions score through this)."""
        self._legal = None
        self._score(events)

    def _finish_game(self, winner: int) -> None:
        self.winner = winner
        self.phase = GAME_OVER
        self._legal = []

    def playout(self, rng: random.Random, hands: int | None = 1, *, compiled: bool = True) -> int:
        """Play uniformly random legal actions until ``hands`` more hands end (None: the game).

        The fast path of random players, for simulations and the benchmark: a
        card is drawn from the cards :meth:`legal_actions` allows (each copy
        counted), and the action recorded names the same copy
        :meth:`legal_actions` would, so replaying :attr:`history` through
        :meth:`apply` rebuilds this very state.  Turn actions are drawn from
        :meth:`legal_actions`.  With ``compiled`` (the default), whole tricks are
        played by the ruleset's :attr:`~bezique.ruleset.Ruleset.random_trick`
        when a plugin offers one: the same draws, the same game, fewer steps.
        Return the number of decisions.
        """
        stop = sys.maxsize if hands is None else self.hand_no + hands
        # A refereed game stops before each draw, which the compiled trick does not.
        random_trick = self.rules.random_trick if compiled and not self.referee else None
        legal_plays = self.rules.legal_plays
        plays = self._play_actions
        history = self.history
        draw = rng.random
        twins = self.deck.twins
        play = self._play
        decisions = 0
        while self.hand_no < stop:
            phase = self.phase
            if phase == PLAY and not self.refereed:
                if random_trick is not None and not self.trick:
                    made = random_trick(self, draw)
                    if made:
                        decisions += made
                        continue
                seat = self.to_act
                cards = legal_plays(self, seat, self.hands[seat])
                card = cards[int(draw() * len(cards))]
                if self.held[seat] & twins[card]:  # name the copy legal_actions() would
                    key = self.card_key[card]
                    card = next(c for c in cards if self.card_key[c] == key)
                history.append(plays[card])
                self._legal = None
                play(card)
            elif phase == GAME_OVER:
                break
            else:
                legal = self.legal_actions()
                self.apply(legal[int(draw() * len(legal))])
            decisions += 1
        return decisions

    # ------------------------------------------------------------------ refusals

    def _refusal(self, action: Action) -> IllegalActionError:
        """Build the error that says which rule forbids ``action`` now."""
        seat = self.to_act
        if self.phase == GAME_OVER:
            return IllegalActionError("the game is over: no action is legal", "game.target")
        if self.phase == REMEDY:
            choices = ", ".join(self.action_text(a) for a in self.legal_actions())
            return IllegalActionError(
                f"play waits for seat {seat} to choose after an irregularity: {choices}",
                "penalties",
            )
        if self.phase == PLAY and action.kind != Kind.PLAY:
            return IllegalActionError(
                f"seat {seat} must play a card to the trick: only the winner of a trick may "
                "declare, exchange or show, after winning it and before drawing",
                "declarations.after_winning",
            )
        if self.phase == TURN and action.kind == Kind.PLAY:
            return IllegalActionError(
                f"seat {seat} won the trick and must finish the turn (declare, or "
                f"'{self._end_word()}') before the next card is played",
                "declarations.before_drawing",
            )
        if action.kind == Kind.PLAY and (
            len(action.cards) != 1 or action.cards[0] not in self.hands[seat]
        ):
            return IllegalActionError(f"seat {seat} does not hold that card", "play.own_cards")
        reason = self.rules.refusal(self, seat, action)
        rule = _RULE_OF_KIND.get(action.kind, "")
        return IllegalActionError(reason or f"{self.action_text(action)!r} is not legal now", rule)

    def _end_word(self) -> str:
        return "draw" if self.stock_left() else "pass"

    # ------------------------------------------------------------------ notation

    def card_token(self, card: int, seat: int | None = None) -> str:
        """Write a card as ``seat``'s action names it.

        ``QS`` from the concealed hand, ``QS*`` on the table, ``QS*beziques``
        where the table copies differ; ``QS@`` (``QS@beziques``) for a partner's
        declared card on the table.
        """
        text = self.deck.card_text(card)
        if not self.on_table[card]:
            return text
        mark = "*"
        if seat is not None and not (self.held[seat] >> card) & 1:
            mark, seat = "@", None
        if not self._needs_classes(card, seat):
            return text + mark
        return text + mark + "+".join(self.declared_classes(card))

    def _needs_classes(self, card: int, seat: int | None) -> bool:
        """Whether the owner has another copy of ``card`` on the table, declared differently."""
        owner = self._owner(card) if seat is None else seat
        face = self.deck.card_face[card]
        twins = {
            self.levels[c]
            for c in self.hands[owner]
            if self.on_table[c] and self.deck.card_face[c] == face
        }
        return len(twins) > 1

    def partners(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s side (none without partnerships)."""
        side = self.side_of[seat]
        return [other for other, s in enumerate(self.side_of) if s == side and other != seat]

    def side_name(self, side: int) -> str:
        """Name a side for people: ``seat 1``, or ``seats 0 and 2`` for a partnership."""
        seats = [str(seat) for seat, s in enumerate(self.side_of) if s == side]
        return f"seat {seats[0]}" if len(seats) == 1 else "seats " + " and ".join(seats)

    def _owner(self, card: int) -> int:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return self.to_act

    def declared_classes(self, card: int) -> list[str]:
        """Name the classes ``card`` has been declared in this hand, with the level when above 1.

        ``["beziques", "marriages.2"]``: declared in a bezique, and in the
        second level of the marriage class (a sequence).
        """
        labels = []
        for index, name in enumerate(self.rules.classes):
            level = (self.levels[card] >> (4 * index)) & 15
            if level:
                labels.append(name if level == 1 else f"{name}.{level}")
        return labels

    def action_text(self, action: Action) -> str:
        """Write ``action`` in the text notation of :mod:`bezique.actions`."""
        if action.kind == Kind.END_TURN:
            return self._end_word()
        seat = self.to_act
        tokens = sorted((self.deck.card_face[c], self.card_token(c, seat)) for c in action.cards)
        words = [KIND_WORDS[action.kind]]
        if action.combo:
            words.append(action.combo)
        words.extend(token for _, token in tokens)
        return " ".join(words)

    def parse_action(self, text: str) -> Action:
        """Read an action written in the text notation, for the player to act.

        Raise :class:`IllegalActionError` if the text names no possible action.
        """
        words = text.split()
        if not words or words[0].lower() not in WORD_KINDS:
            expected = ", ".join(sorted(WORD_KINDS))
            raise IllegalActionError(
                f"{text!r}: an action starts with one of {expected}", "notation"
            )
        kind = WORD_KINDS[words[0].lower()]
        rest = words[1:]
        if kind in REFEREE_KINDS:
            if not rest:
                raise IllegalActionError(f"{text!r}: name the irregularity", "notation")
            return Action(kind, (), " ".join([rest[0].lower(), *rest[1:]]))
        combo = ""
        if kind in (Kind.DECLARE, Kind.ANNOUNCE):
            if not rest:
                raise IllegalActionError(
                    f"{text!r}: name the combination to {words[0]}", "notation"
                )
            combo, rest = rest[0].lower(), rest[1:]
        if kind == Kind.END_TURN and rest:
            raise IllegalActionError(f"{text!r}: '{words[0]}' takes no cards", "notation")
        cards = self._resolve_tokens(text, rest)
        action = Action(kind, tuple(sorted(cards)), combo)
        # Copies the text cannot tell apart (a seven that has scored and one that
        # has not, say): the text means the legal action it reads as, if any.
        if action not in self.legal_actions():
            wanted = self.action_text(action)
            for legal in self.legal_actions():
                if self.action_text(legal) == wanted:
                    return legal
        return action

    def _resolve_tokens(self, text: str, tokens: Sequence[str]) -> list[int]:
        """Find the player's card each token names (see :meth:`card_token`)."""
        seat = self.to_act
        chosen: list[int] = []
        for token in tokens:
            at = "@" in token
            face_text, star, classes = token.partition("@" if at else "*")
            try:
                face = self.deck.parse_face(face_text)
            except CardError as exc:
                raise IllegalActionError(f"{text!r}: {exc}", "notation") from exc
            copies = [
                c
                for holder in (self.partners(seat) if at else (seat,))
                for c in self.hands[holder]
                if c not in chosen
                and self.deck.card_face[c] == face
                and self.on_table[c] == bool(star)
            ]
            if star:
                # ``QS*`` is the copy shown but never declared when there is one
                # (the others then carry their classes), else any table copy.
                wanted = sorted(classes.split("+")) if classes else []
                exact = [c for c in copies if sorted(self.declared_classes(c)) == wanted]
                copies = exact if exact or classes else copies
            if not copies:
                where = "on the table" if star else "in the concealed hand"
                where = "on a partner's table" if at else where
                raise IllegalActionError(
                    f"{text!r}: seat {seat} has no {token} {where}", "play.own_cards"
                )
            chosen.append(copies[0])
        return chosen

    def action_id(self, action: Action) -> int:
        """Return a stable integer for ``action``: same meaning, same number, in any game.

        It packs the kind, the combination (by its place in the variant's table)
        and, for each card, its face, whether it lies on the player's or his
        partner's table and, where the text names them, the class levels it was
        declared at: it says what the text form says.
        """
        if action.kind in REFEREE_KINDS:
            return int.from_bytes(action.combo.encode(), "big") * len(Kind) + int(action.kind)
        combos = self.rules.combo_names
        code = combos.index(action.combo) + 1 if action.combo else 0
        faces = self.deck.faces
        base = 3 * faces * 16 ** len(self.rules.classes) + 1
        seat = self.to_act
        cards = sorted(
            1 + self.deck.card_face[c] + faces * self._id_place(c, seat) for c in action.cards
        )
        for value in cards:
            code = code * base + value
        return code * len(Kind) + int(action.kind)

    def _id_place(self, card: int, seat: int) -> int:
        """Where ``card`` is, for :meth:`action_id`.

        Hand 0, own table 1, partner's table 2, plus 3 times its class levels
        when the text names them.
        """
        if not self.on_table[card]:
            return 0
        own = bool((self.held[seat] >> card) & 1)
        named = self._needs_classes(card, seat if own else None)
        return (1 if own else 2) + 3 * self.levels[card] * named

    def legal_action_ids(self) -> list[int]:
        """Return :meth:`action_id` of every legal action, in the same order."""
        return [self.action_id(a) for a in self.legal_actions()]

    # ------------------------------------------------------------------ views

    def observation(self, player: int) -> dict[str, Any]:
        """Return what ``player`` may see now, as plain JSON-able data.

        His own hand, every player's declared cards on the table, the turn-up,
        the cards played this hand (they were seen face up), the cards plugins
        lay face up elsewhere (``places``: Polish open rows), the number of cards
        in each hand and in the stock, scores and score events, and his legal
        actions when it is his turn.  Never another player's concealed cards or
        the order of the stock.
        """
        deck = self.deck
        own = [self.card_token(c, player) for c in self.hands[player]]
        table = [
            [self.card_token(c, seat) for c in hand if self.on_table[c]]
            for seat, hand in enumerate(self.hands)
        ]
        view: dict[str, Any] = {
            "player": player,
            "variant": self.rules.variant.name,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "trump": deck.suits[self.trump] if self.trump >= 0 else None,
            "turn_up": deck.card_text(self.turn_up) if self.turn_up >= 0 else None,
            "stock": self.stock_left(),
            "hand": own,
            "table": table,
            "hand_sizes": [len(h) for h in self.hands],
            "side_of": list(self.side_of),
            "trick": [
                [s, deck.card_text(c)] for s, c in zip(self.trick_seats, self.trick, strict=True)
            ],
            "places": {
                name: [deck.card_text(c) for c in cards]
                for name, cards in self.extra.get("places", {}).items()
            },
            "played": [deck.card_text(c) for c in self.played],
            "tricks_done": self.tricks_done,
            "phase": self.phase,
            "to_act": self.to_act,
            "scores": list(self.scores),
            "hand_points": list(self.hand_points),
            "events": [list(e) for e in self.events],
            "winner": self.winner,
        }
        if self.phase != GAME_OVER and self.to_act == player:
            view["legal"] = [self.action_text(a) for a in self.legal_actions()]
        return view

    # ------------------------------------------------------------------ copies

    def clone(self) -> GameState:
        """Return an independent copy that shares only the immutable ruleset."""
        copy = object.__new__(GameState)
        copy.__dict__.update(self.__dict__)
        for name in (
            "history",
            "events",
            "event_hands",
            "scores",
            "hand_points",
            "trick",
            "trick_seats",
            "stock",
            "on_table",
            "levels",
            "played",
            "won_at_exhaustion",
            "overrides",
        ):
            setattr(
                copy,
                name,
                list(getattr(self, name)) if name != "overrides" else dict(self.overrides),
            )
        copy.card_key = list(self.card_key)
        copy.decks = [list(d) for d in self.decks]
        copy.hands = [list(h) for h in self.hands]
        copy.held = list(self.held)
        copy.won = [list(w) for w in self.won]
        copy.pending = [list(p) for p in self.pending]
        copy.turn = TurnState()
        copy.turn.declared = list(self.turn.declared)
        copy.turn.first_declared = list(self.turn.first_declared)
        copy.turn.scored = self.turn.scored
        copy.turn.blocked = list(self.turn.blocked)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        copy.extra = _json_copy(self.extra)
        copy._legal = None
        return copy

    def to_json(self) -> dict[str, Any]:
        """Return the whole state as plain JSON data; :func:`from_json` rebuilds it.

        Beside the variant as named, it carries the variant's merged rules
        (``variant_data``), their digest and the bezique version, so that it
        rebuilds anywhere (see :mod:`bezique.pinned`).
        """
        version, internal, gauss = self.rng.getstate()
        return {
            "format": STATE_FORMAT,
            "bezique": __version__,
            "variant": self.variant_spec,
            "overrides": _json_copy(self.overrides),
            "variant_digest": variant_digest(self.rules.variant),
            "seed": self.seed,
            "decks": [list(d) for d in self.decks],
            "first_dealer": self.first_dealer,
            "referee": self.referee,
            "rng": [version, list(internal), gauss],
            "history": [[int(a.kind), list(a.cards), a.combo] for a in self.history],
            "events": [list(e) for e in self.events],
            "event_hands": list(self.event_hands),
            "scores": list(self.scores),
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "winner": self.winner,
            "extra": _json_copy(self.extra),
            "hands": [list(h) for h in self.hands],
            "won": [list(w) for w in self.won],
            "on_table": [int(t) for t in self.on_table],
            "levels": list(self.levels),
            "pending": [[[combo, list(cards)] for combo, cards in p] for p in self.pending],
            "played": list(self.played),
            "won_at_exhaustion": list(self.won_at_exhaustion),
            "hand_points": list(self.hand_points),
            "trick": list(self.trick),
            "trick_seats": list(self.trick_seats),
            "trick_order": list(self.trick_order),
            "tricks_done": self.tricks_done,
            "last_trick_winner": self.last_trick_winner,
            "turn": [
                list(self.turn.declared),
                self.turn.scored,
                list(self.turn.blocked),
                list(self.turn.first_declared),
            ],
            "turn_up": self.turn_up,
            "trump": self.trump,
            "stock": list(self.stock),
            "leader": self.leader,
            "to_act": self.to_act,
            "phase": self.phase,
            "variant_data": _json_copy(self.rules.variant.data),
        }

    def __eq__(self, other: object) -> bool:
        """Two states are equal when their JSON forms are."""
        if not isinstance(other, GameState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def _others(players: int) -> list[tuple[int, ...]]:
    """For each seat, the other seats in playing order (to the left)."""
    return [tuple((seat + i) % players for i in range(1, players)) for seat in range(players)]


def _orders(others: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """For each leader, every seat in playing order from him."""
    return [(seat, *rest) for seat, rest in enumerate(others)]


def _json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_copy(v) for v in value]
    return value


def new_game(
    variant: str | os.PathLike[str] | Variant | Ruleset = "ordinary",
    *,
    overrides: Mapping[str, Any] | None = None,
    seed: int | None = None,
    decks: Sequence[Sequence[str]] | None = None,
    first_dealer: int = 0,
    referee: bool = False,
) -> GameState:
    """Start a game.

    ``variant`` is a registered variant name, a path to a YAML file, a loaded
    :class:`Variant` or a :class:`Ruleset` (reuse one to start many games
    cheaply); ``overrides`` is a nested mapping merged over the variant.
    ``seed`` fixes every shuffle; ``decks`` stacks the decks of the first hands,
    each a list of card texts, top card first (the first card dealt is the top
    one; the card after the deal is the turn-up; the rest is the stock, drawn
    in order).  Hands after the stacked ones are shuffled from the seed.
    ``referee`` makes it a refereed game, the record of a game at a real table:
    after every trick that a draw follows, the winner ends his turn with
    ``draw`` even when he has nothing to declare, so that an irregularity may be
    reported before his draw (see :mod:`bezique.referee`).
    """
    rules = ruleset_for(variant, overrides)
    try:
        orders = [rules.deck.parse_order(d) for d in (decks or ())]
    except CardError as exc:
        raise BeziqueError(f"stacked deck: {exc}") from exc
    return GameState(
        rules,
        seed=seed,
        decks=orders,
        first_dealer=first_dealer,
        overrides=rules.variant.overrides,
        referee=referee,
        variant_spec=_spec_of(variant, rules),
    )


def _spec_of(variant: object, rules: Ruleset) -> str:
    """What a record names the variant by: the name or path given, else the base file."""
    if isinstance(variant, (str, os.PathLike)):
        return os.fspath(variant)
    base = rules.variant
    if base.origin.startswith("builtin/"):
        return base.origin[len("builtin/") : -len(".yaml")]
    return base.origin


_STATE_INPUTS = (
    "format",
    "bezique",
    "variant",
    "overrides",
    "variant_digest",
    "variant_data",
    "seed",
    "decks",
    "first_dealer",
    "referee",
    "history",
)
"""The keys of a saved state that rebuild it; every other key is checked against the rebuild."""
_PINNED_KEYS = frozenset({"bezique", "variant_digest", "variant_data"})
"""The keys that came with ``bezique-state/2``."""
_OPTIONAL_V1 = frozenset({"trick_order", "won_at_exhaustion"})
"""Keys that early ``bezique-state/1`` states may lack (any state may lack ``referee``:
one saved before that flag is of an unrefereed game)."""
_STATE = "saved game state"
MAX_HISTORY = 100_000
"""The most actions a saved state's history may hold (as many as a record's)."""


def from_json(data: Mapping[str, Any], *, rules: str = RECORDED) -> GameState:
    """Rebuild a state written by :meth:`GameState.to_json`, refusing one damaged or edited.

    A saved state is untrusted input.  What rebuilds it is the variant (as
    named, with its merged rules pinned by digest), the seed, the stacked
    decks, the first dealer and the history of actions; the game is replayed
    from them through :meth:`GameState.apply`, and every other key (hands,
    stock, tricks, table, scores and score events, phase, seat to act, the
    random generator...) must then hold exactly what the replay gives, types
    included.  So a duplicated or missing card, an edited score or hand, a
    wrong phase or seat to act, or an illegal history is refused with a
    :class:`RecordError` naming the key (or ``history[INDEX]``), and the state
    returned is the replayed one: nothing is taken on trust.

    ``rules`` is the policy of :mod:`bezique.pinned` for when the variant
    named now merges to other rules than those carried (default: play by the
    rules carried, with a :class:`~bezique.pinned.RulesWarning`).  A
    ``bezique-state/1`` state (no rules carried) is rebuilt from the variant as
    it loads now, with a :class:`DeprecationWarning`.
    """
    form = data.get("format") if isinstance(data, Mapping) else None
    if form not in (STATE_FORMAT, STATE_FORMAT_V1):
        raise RecordError(f"not a saved game state (expected format {STATE_FORMAT!r})")
    old = form == STATE_FORMAT_V1
    if old:
        warnings.warn(
            f"a {STATE_FORMAT_V1} state names its variant without its rules, so it is rebuilt "
            f"by the variant as it loads now; GameState.to_json() now writes {STATE_FORMAT}",
            DeprecationWarning,
            stacklevel=2,
        )
    _check_state_keys(data, old)
    spec = data["variant"]
    if not isinstance(spec, str) or not 0 < len(spec) <= 4096 or not spec.isprintable():
        raise RecordError(f"{_STATE}: variant: {_short(spec)} is not a variant name or path")
    overrides = data["overrides"]
    if not isinstance(overrides, Mapping):
        raise RecordError(f"{_STATE}: overrides: must be a mapping, not {_short(overrides)}")
    seed = _whole(data["seed"], "seed", -(2**128), 2**128)
    first_dealer = _whole(data["first_dealer"], "first_dealer", 0, 1000)
    history = _saved_history(data["history"])
    try:
        if old:
            ruleset = ruleset_for(spec, overrides or None)
        else:
            ruleset = pinned_ruleset(
                spec,
                overrides,
                data["variant_data"],
                data["variant_digest"],
                _STATE,
                rules,
                version=data["bezique"],
            )
    except RecordError:
        raise
    except BeziqueError as exc:
        raise RecordError(f"{_STATE}: {exc}") from exc
    decks = _saved_decks(data["decks"], ruleset.deck.size)
    try:
        state = GameState(
            ruleset,
            seed=seed,
            decks=decks,
            first_dealer=first_dealer,
            overrides=_json_copy(overrides),
            variant_spec=spec,
            referee=_saved_referee(data),
        )
    except BeziqueError as exc:
        raise RecordError(f"{_STATE}: {exc}") from exc
    for index, action in enumerate(history):
        try:
            state.apply(action)
        except BeziqueError as exc:
            raise RecordError(
                f"{_STATE}: history[{index}] ({_short(list(action))}, seat {state.to_act}, "
                f"hand {state.hand_no}): {exc}"
            ) from exc
    rebuilt = state.to_json()
    wrong = [
        f"{_STATE}: {key}: the saved value is not what the history replays to (saved "
        f"{_short(data[key])}, replayed {_short(value)}); the state was edited or damaged"
        for key, value in rebuilt.items()
        if key not in _STATE_INPUTS and key in data and not _same_json(data[key], value)
    ]
    if wrong:
        raise RecordError("\n".join(wrong))
    return state


def _saved_referee(data: Mapping[str, Any]) -> bool:
    """Return whether a saved state is of a refereed game (one saved before the flag is not)."""
    flag = data.get("referee", False)
    if not isinstance(flag, bool):
        raise RecordError(f"{_STATE}: referee: {_short(flag)} is not true or false")
    return flag


def _check_state_keys(data: Mapping[str, Any], old: bool) -> None:
    """Refuse a saved state with a key missing or a key it should not have."""
    known = [*_STATE_INPUTS, *_DERIVED_KEYS]
    if old:
        known = [k for k in known if k not in _PINNED_KEYS]
    missing = [
        k for k in known if k not in data and k != "referee" and not (old and k in _OPTIONAL_V1)
    ]
    unknown = sorted(repr(k) for k in data if k not in known)
    problems = [f"{_STATE}: {key}: missing" for key in missing]
    problems += [f"{_STATE}: {key}: not a key of a saved state" for key in unknown[:10]]
    if problems:
        raise RecordError("\n".join(problems))


_DERIVED_KEYS = (
    "rng",
    "events",
    "event_hands",
    "scores",
    "hand_no",
    "dealer",
    "winner",
    "extra",
    "hands",
    "won",
    "on_table",
    "levels",
    "pending",
    "played",
    "won_at_exhaustion",
    "hand_points",
    "trick",
    "trick_seats",
    "trick_order",
    "tricks_done",
    "last_trick_winner",
    "turn",
    "turn_up",
    "trump",
    "stock",
    "leader",
    "to_act",
    "phase",
)
"""The keys of a saved state that its history decides."""


def _whole(value: Any, key: str, low: int, high: int) -> int:
    """Return ``value`` if it is a whole number (not a boolean) from ``low`` below ``high``."""
    if value.__class__ is not int or not low <= value < high:
        raise RecordError(
            f"{_STATE}: {key}: {_short(value)} is not a whole number from {low} below {high}"
        )
    result: int = value
    return result


def _saved_history(value: Any) -> list[Action]:
    """Read a saved history: ``[kind, [card, ...], combo]`` for each action."""
    if not isinstance(value, list) or len(value) > MAX_HISTORY:
        raise RecordError(f"{_STATE}: history: must be a list of at most {MAX_HISTORY} actions")
    actions = []
    for index, item in enumerate(value):
        if not isinstance(item, list | tuple) or len(item) != 3:
            raise RecordError(
                f"{_STATE}: history[{index}]: {_short(item)} is not [kind, [cards...], combination]"
            )
        kind, cards, combo = item
        try:
            if not isinstance(cards, list | tuple) or len(cards) > 64:
                raise IllegalActionError(f"cards {_short(cards)} must be a list of card numbers")
            actions.append(Action(kind, tuple(cards), combo))
        except IllegalActionError as exc:
            raise RecordError(f"{_STATE}: history[{index}]: {exc}") from None
    return actions


def _saved_decks(value: Any, size: int) -> list[list[int]]:
    """Read saved stacked decks: each every physical card number once, top first."""
    if not isinstance(value, list) or len(value) > 1000:
        raise RecordError(f"{_STATE}: decks: must be a list of at most 1000 decks")
    decks = []
    whole = list(range(size))
    for index, deck in enumerate(value):
        if (
            not isinstance(deck, list)
            or len(deck) != size
            or any(c.__class__ is not int for c in deck)
            or sorted(deck) != whole
        ):
            raise RecordError(
                f"{_STATE}: decks[{index}]: must hold every card number from 0 to {size - 1} once"
            )
        decks.append(list(deck))
    return decks


def _same_json(given: Any, expected: Any) -> bool:
    """Whether ``given`` writes as the same JSON as ``expected`` (``true`` is not ``1``).

    Nor is ``1.0``; anything JSON cannot write, or nested too deeply to write, differs.
    """
    try:
        return json.dumps(given, sort_keys=True) == json.dumps(expected, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return False


def _short(value: Any, limit: int = 60) -> str:
    """Show a value in a message, cut to ``limit`` characters."""
    try:
        text = repr(value)
    except RecursionError:
        text = "a value nested too deeply"
    return text if len(text) <= limit else text[: limit - 3] + "..."
