"""Which legal action an action means, and, when none, the error that names the rule.

:func:`equivalent_legal` finds the legal action that reads the same as another
(a copy of a card the text cannot tell apart); :func:`refusal` says which rule
forbids an action now (the phase's, the hand's, or the plugins' reason).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.actions import Action, Kind
from bezique.engine.notation import action_text, end_word
from bezique.engine.questions import refusal as question_refusal
from bezique.engine.state import GAME_OVER, PLAY, QUESTION, TURN
from bezique.errors import BeziqueError, IllegalActionError

if TYPE_CHECKING:
    from bezique.game import GameState

RULE_OF_KIND = {
    Kind.PLAY: "endgame",
    Kind.DECLARE: "declarations",
    Kind.ANNOUNCE: "declarations",
    Kind.EXCHANGE: "seven_of_trumps",
    Kind.SHOW: "seven_of_trumps",
}
"""The variant section whose rules decide each kind of turn action."""


def equivalent_legal(state: GameState, action: Action) -> Action:
    """Find the legal action that means the same as ``action`` (another copy), or refuse."""
    if not isinstance(action, tuple) or not all(
        isinstance(c, int) and 0 <= c < state.deck.size for c in getattr(action, "cards", ())
    ):
        raise IllegalActionError(
            f"{action!r} is not an action: cards are numbered 0 to {state.deck.size - 1}",
            "notation",
        )
    try:
        text = action_text(state, action)
    except BeziqueError:
        text = ""
    for candidate in state.legal_actions():
        if text and action_text(state, candidate) == text:
            return candidate
    raise refusal(state, action)


def refusal(state: GameState, action: Action) -> IllegalActionError:
    """Build the error that says which rule forbids ``action`` now."""
    seat = state.to_act
    if state.phase == GAME_OVER:
        return IllegalActionError("the game is over: no action is legal", "game.target")
    if state.phase == QUESTION:  # a plugin's question: it says what it waits for
        return question_refusal(state)
    if action.kind == Kind.CHOOSE and state.phase in (PLAY, TURN):
        return IllegalActionError(
            f"{action_text(state, action)!r}: no question is open ('choose' answers a "
            "question a plugin asks before the hand's first lead)",
            "play" if state.phase == PLAY else "declarations.before_drawing",
        )
    if state.phase not in (PLAY, TURN):  # a phase a plugin opened: it says what it waits for
        choices = ", ".join(action_text(state, a) for a in state.legal_actions())
        phase = state.rules.phase_choices(state)
        waiting = phase.waiting if phase is not None else f"play waits for seat {seat}"
        return IllegalActionError(f"{waiting}: {choices}", phase.rule if phase else state.phase)
    if _outside_table(state, action):  # a plugin's option (a carte blanche): it says why
        reason = state.rules.declaring.refusal(state, seat, action)
        text = reason or f"{action_text(state, action)!r} is not legal now"
        return IllegalActionError(text, action.combo)
    if state.phase == PLAY and action.kind != Kind.PLAY:
        return IllegalActionError(
            f"seat {seat} must play a card to the trick: only the winner of a trick may "
            "declare, exchange or show, after winning it and before drawing",
            "declarations.after_winning",
        )
    if state.phase == TURN and action.kind == Kind.PLAY:
        return IllegalActionError(
            f"seat {seat} won the trick and must finish the turn (declare, or "
            f"'{end_word(state)}') before the next card is played",
            "declarations.before_drawing",
        )
    if action.kind == Kind.PLAY and (
        len(action.cards) != 1 or action.cards[0] not in state.hands[seat]
    ):
        return IllegalActionError(f"seat {seat} does not hold that card", "play.own_cards")
    reason = state.rules.declaring.refusal(state, seat, action)
    rule = RULE_OF_KIND.get(action.kind, "")
    return IllegalActionError(reason or f"{action_text(state, action)!r} is not legal now", rule)


def _outside_table(state: GameState, action: Action) -> bool:
    """Whether ``action`` declares a section of the variant that is no combination.

    A plugin's option before a card (``declare carte_blanche``), whose refusal names
    that section as its rule.
    """
    name = action.combo
    return (
        action.kind == Kind.DECLARE
        and name in state.rules.data
        and name not in state.rules.combo_names
    )
