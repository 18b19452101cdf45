"""Uniformly random play, the fast path of simulations and the benchmark.

:class:`~bezique.game.GameState` inherits :class:`Playout`.
"""

from __future__ import annotations

import random
import sys
import warnings
from collections.abc import Callable

from mypy_extensions import mypyc_attr

from bezique.actions import Action
from bezique.engine.board import Board
from bezique.engine.state import GAME_OVER, PLAY, TURN
from bezique.errors import BeziqueError
from bezique.rules.answers import legal_plays as checked_plays


@mypyc_attr(allow_interpreted_subclasses=True)
class Playout(Board):
    """Uniformly random play of a game state (a mixin)."""

    def playout(
        self,
        rng: random.Random,
        hands: int | None = 1,
        *,
        tricks: int | None = None,
        turns: Callable[[list[Action], Callable[[], float]], Action] | None = None,
        compiled: bool | None = None,
    ) -> int:
        """Play uniformly random legal actions until ``hands`` more hands end (None: the game).

        With ``tricks``, stop sooner: once that many more tricks of this hand are done
        (a search's play-outs of limited depth).  ``turns`` chooses the trick winner's
        turn actions, and a seat's choice between his plays and what a plugin offers
        before them (a carte blanche), instead of chance (given the legal actions and the
        generator's ``random``): a search's play-out policy, such as declaring the most.

        The fast path of random players, for simulations and the benchmark: a
        card is drawn from the cards :meth:`legal_actions` allows (each copy
        counted), and the action recorded names the same copy
        :meth:`legal_actions` would, so replaying :attr:`history` through
        :meth:`apply` rebuilds this very state.  Turn actions, and the plays of a seat
        offered something besides (``bezique_play_options``), are drawn from
        :meth:`legal_actions`.  It plays by the rules' one path, the hooks that
        :meth:`apply` calls.  ``compiled`` is deprecated and ignored (it chose a
        plugin's compiled random trick, which is gone).  Return the number of
        decisions.
        """
        if compiled is not None:
            warnings.warn(
                "playout(compiled=...) is deprecated and has no effect: every playout takes "
                "the rules' one path",
                DeprecationWarning,
                stacklevel=2,
            )
        hand_no = self.hand_no
        last_trick = sys.maxsize if tricks is None else self.tricks_done + tricks
        stop = sys.maxsize if hands is None else self.hand_no + hands
        rules = self.rules
        legal_plays = rules.fast_legal_plays
        plays = self._play_actions
        history = self.history
        draw = rng.random
        twins = self.deck.twins
        play = self._play
        options = self.rules.play_options
        decisions = 0
        while self.hand_no < stop:
            if self.tricks_done >= last_trick and self.hand_no == hand_no:
                break
            phase = self.phase
            if (
                phase == PLAY
                and not self.table_acted  # no table hook to ask
                and (options is None or not options(self, self.to_act))  # nothing but plays
            ):
                seat = self.to_act
                hand = self.hands[seat]
                try:
                    cards = legal_plays(self, seat, hand)
                except BeziqueError:
                    raise
                except Exception as exc:  # the plugin is named, as at the hook's guard
                    raise rules.hook_failed("bezique_legal_plays", exc) from exc
                if cards is not hand and checked_plays(cards, (self, seat, hand)) is not None:
                    rules.check_answer("bezique_legal_plays", cards, (self, seat, hand))
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
                if turns is not None and phase in (TURN, PLAY):
                    self.apply(turns(legal, draw))
                else:
                    self.apply(legal[int(draw() * len(legal))])
            decisions += 1
        return decisions
