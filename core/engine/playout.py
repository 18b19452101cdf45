"""Uniformly random play, the fast path of simulations and the benchmark."""

from __future__ import annotations

import random
import sys
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

from bezique.actions import Action
from bezique.engine.state import GAME_OVER, PLAY, TURN
from bezique.errors import BeziqueError
from bezique.rules.answers import legal_plays as checked_plays

if TYPE_CHECKING:
    from bezique.game import GameState


def playout(
    state: GameState,
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
    hand_no = state.hand_no
    last_trick = sys.maxsize if tricks is None else state.tricks_done + tricks
    stop = sys.maxsize if hands is None else state.hand_no + hands
    rules = state.rules
    legal_plays = rules.fast_legal_plays
    plays = state._play_actions
    history = state.history
    draw = rng.random
    twins = state.deck.twins
    play = state._play
    options = state.rules.play_options
    decisions = 0
    while state.hand_no < stop:
        if state.tricks_done >= last_trick and state.hand_no == hand_no:
            break
        phase = state.phase
        if (
            phase == PLAY
            and not state.table_acted  # no table hook to ask
            and (options is None or not options(state, state.to_act))  # nothing but plays
        ):
            seat = state.to_act
            hand = state.hands[seat]
            try:
                cards = legal_plays(state, seat, hand)
            except BeziqueError:
                raise
            except Exception as exc:  # the plugin is named, as at the hook's guard
                raise rules.hook_failed("bezique_legal_plays", exc) from exc
            if cards is not hand and checked_plays(cards, (state, seat, hand)) is not None:
                rules.check_answer("bezique_legal_plays", cards, (state, seat, hand))
            card = cards[int(draw() * len(cards))]
            if state.held[seat] & twins[card]:  # name the copy legal_actions() would
                key = state.card_key[card]
                card = next(c for c in cards if state.card_key[c] == key)
            history.append(plays[card])
            state._legal = None
            play(card)
        elif phase == GAME_OVER:
            break
        else:
            legal = state.legal_actions()
            if turns is not None and phase in (TURN, PLAY):
                state.apply(turns(legal, draw))
            else:
                state.apply(legal[int(draw() * len(legal))])
        decisions += 1
    return decisions
