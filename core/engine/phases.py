"""The phase machine: the legal actions of the seat to act, and actions carried out.

:class:`~bezique.game.GameState` inherits :class:`Phases`, the last of the engine's parts
(see :mod:`bezique.engine.machine`): what is legal in each phase (``legal_actions``),
an accepted action carried out (``_carry_out``), the card played to the trick and the
full trick given to its winner and scored.  :meth:`bezique.game.GameState.apply` checks
an action and carries it out all or nothing; restoring the state after a failure
is the game's (it rebuilds a :class:`~bezique.game.GameState`).  The phase machine sits
in the engine so that the compiled build compiles it with the parts it calls.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from bezique.actions import END_TURN, KIND_WORDS, TABLE_KINDS, Action, Kind
from bezique.engine import saved
from bezique.engine.state import GAME_OVER, NO_TURN, PLAY, QUESTION, TURN
from bezique.engine.tricks import record_trick
from bezique.engine.views import Views
from bezique.errors import BeziqueError, IllegalActionError, PluginError
from bezique.rules.answers import legal_plays, score_events

_PLAY = Kind.PLAY
_END_TURN = Kind.END_TURN
_CHOOSE = Kind.CHOOSE


@mypyc_attr(allow_interpreted_subclasses=True)
class Phases(Views):
    """The phase machine of a game state: legal actions, actions carried out, tricks."""

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
            hand = self.hands[seat]
            try:
                cards = self.rules.fast_legal_plays(self, seat, hand)
            except BeziqueError:
                raise
            except Exception as exc:
                raise self.rules.hook_failed("bezique_legal_plays", exc) from exc
            if cards is not hand and legal_plays(cards, (self, seat, hand)) is not None:
                self.rules.check_answer("bezique_legal_plays", cards, (self, seat, hand))
            if self.table_acted and self.rules.adjust_plays is not None:  # a table hook
                cards = self.rules.adjust_plays(self, seat, cards) or cards
            key_of = self.card_key.__getitem__
            plays = self._play_actions.__getitem__
            if len(cards) == len(set(map(key_of, cards))):
                legal = list(map(plays, cards))
            else:  # interchangeable copies: keep the first of each in hand order
                first = dict(zip(map(key_of, reversed(cards)), reversed(cards), strict=True))
                legal = list(map(plays, sorted(first.values(), key=cards.index)))
            options = self.rules.play_options
            if options is not None:  # what he may do before his card (a carte blanche)
                offered = options(self, seat)
                if offered:
                    legal.extend(offered)
        elif self.phase == TURN:
            legal = [*self.rules.declaring.turn_actions(self, self.to_act), END_TURN]
        elif self.phase == QUESTION:  # a plugin's question before the first lead
            legal = self._question_choices()
        elif self.phase != GAME_OVER:  # a phase a plugin opened: it lists the choices
            choices = self.rules.phase_choices(self)
            legal = list(choices.actions) if choices is not None else []
        else:
            legal = []
        self._legal = legal
        return legal

    def _accepted(self, action: object) -> Action:
        """The legal action ``action`` (an action or its text) means; refuse it changing nothing."""
        if isinstance(action, str):
            action = self.parse_action(action)
        elif not isinstance(action, Action):
            raise IllegalActionError(
                f"apply takes an Action or an action's text (such as 'play QS'), "
                f"not {saved.short(action)} (a {type(action).__name__})",
                "notation",
            )
        if action.kind in TABLE_KINDS:  # anyone's, at any time: the plugin says if it stands
            if self.phase == GAME_OVER:
                raise IllegalActionError("the game is over", "game.target")
            return action
        legal = self._legal if self._legal is not None else self.legal_actions()
        return action if action in legal else self._equivalent_legal(action)

    def _carry_out(self, action: Action) -> None:
        """Carry out an accepted action (see :meth:`_accepted`); the state changes from here."""
        kind = action.kind
        if kind in TABLE_KINDS:
            self._table_action(action)
        elif kind == _CHOOSE:
            self._answer(action)  # recorded once a plugin has taken it
        else:
            self.history.append(action)
            self._legal = None
            if kind == _PLAY:
                self._play(action.cards[0])
            elif kind == _END_TURN:
                self._end_turn()
            elif self.phase == PLAY:
                self._play_option(action)
            else:
                self.rules.declaring.apply(self, self.to_act, action)

    def _table_action(self, action: Action) -> None:
        """Have a plugin carry out a table action, or refuse it (:meth:`apply` undoes it).

        The hand's table hooks are asked from the action on (``table_acted``); a
        deal inside the action (a hand dealt again) clears that again.
        """
        hook = self.rules.table_action
        self.table_acted = True
        taken = hook(self, action) if hook is not None else None
        if not taken:
            raise IllegalActionError(
                f"{self.action_text(action)!r}: no plugin of this variant takes table "
                f"actions ({', '.join(KIND_WORDS[k] for k in TABLE_KINDS)})",
                "plugins",
            )
        self._legal = None
        self.history.append(action)

    def _play_option(self, action: Action) -> None:
        """Have the plugin that offered it carry out a play option, and add its scores."""
        hook = self.rules.play_option
        events = hook(self, self.to_act, action) if hook is not None else None
        if events is None:
            raise PluginError(f"no plugin of this variant carries out {action!r}")
        self._score(events)

    def _play(self, card: int) -> None:
        """Play ``card`` from the hand of the seat to act to the trick; finish a full trick."""
        seat = self.to_act
        if self.table_acted and self.rules.before_play is not None:  # a table hook
            self.rules.before_play(self, seat, card)
        self.hands[seat].remove(card)
        self.held[seat] ^= self.deck.bits[card]
        if self.on_table[card]:
            self.on_table[card] = False
            self.card_key[card] = self.deck.card_face[card]
        trick = self.trick
        if not trick:
            self.trick_starts.append(len(self.played))
        trick.append(card)
        self.trick_seats.append(seat)
        self.played.append(card)
        self.played_by.append(seat)
        if len(trick) < len(self.trick_order):
            self.to_act = self.trick_order[len(trick)]
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        """Give the full trick to its winner, score it, and open his turn (or draw)."""
        cards = self.trick
        rules = self.rules
        try:
            position = rules.fast_trick_winner(self, cards)
        except BeziqueError:
            raise
        except Exception as exc:
            raise rules.hook_failed("bezique_trick_winner", exc) from exc
        if position.__class__ is not int or not 0 <= position < len(cards):
            rules.check_answer("bezique_trick_winner", position, (self, cards))
        winner = self.trick_seats[position]
        # The trick goes to its winner, unless a table action gave it to another seat.
        owner = winner
        if self.table_acted and rules.trick_owner is not None:
            other = rules.trick_owner(self, winner)
            owner = winner if other is None else other
        self.won[owner].extend(cards)
        self.tricks_done += 1
        self.leader = winner
        self.to_act = winner
        # The trick stays in self.trick / self.trick_seats while it is scored.
        try:
            events = rules.fast_trick_scores(self, owner, cards)
        except BeziqueError:
            raise
        except Exception as exc:
            raise rules.hook_failed("bezique_trick_scores", exc) from exc
        if events:
            if score_events(events, (self, owner, cards)) is not None:
                rules.check_answer("bezique_trick_scores", events, (self, owner, cards))
            self._score(events)
        record_trick(self, winner, owner, events)
        if rules.after_trick is not None:
            rules.after_trick(self, owner, cards)
        self.trick = []
        self.trick_seats = []
        if self.phase == GAME_OVER:
            return
        self.turn = NO_TURN
        actions = rules.declaring.turn_actions(self, winner)
        if actions:
            self.open_turn(winner, actions)
        elif rules.next_declarer is None:
            self._draw_after_trick()
        else:
            self._offer_turn(self._next_declarer(winner, False), after_trick=True)
