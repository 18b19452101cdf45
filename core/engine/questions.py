"""Questions before the first lead: a seat chooses among the answers a plugin lists.

After a deal a plugin may ask a seat a question (:func:`bezique.hookspecs.bezique_hand_question`:
the lift plugin asks the dealer's adversary how many cards the dealer lifted).  The
game then waits in the ``question`` phase (:data:`bezique.engine.state.QUESTION`): the seat to
act is the one asked, and his legal actions are ``choose NAME ANSWER``, one per answer.
His choice is a recorded action like any other, which the plugin carries out
(:func:`bezique.hookspecs.bezique_answer`) and whose scores the kernel adds; the
next question follows, and once no plugin asks one the deal scores and play
begins.  Nothing of it is kept by the kernel: the question is asked again from
the plugin's state whenever it is needed, so a clone or a saved state has it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.actions import Action, Kind
from bezique.engine.state import GAME_OVER, PLAY, QUESTION
from bezique.errors import IllegalActionError, PluginError

if TYPE_CHECKING:
    from bezique.game import GameState
    from bezique.hookspecs import Question


def ask(state: GameState) -> bool:
    """Open the next question before the first lead, if a plugin asks one.

    Return whether one is open (the game waits in the ``question`` phase).
    """
    hook = state.rules.hand_question
    question = hook(state) if hook is not None else None
    if question is None:
        return False
    state.phase = QUESTION
    state.to_act = question.seat
    state._legal = None
    return True


def open_question(state: GameState) -> Question:
    """The question open now (in the ``question`` phase); a plugin that asks none is an error."""
    hook = state.rules.hand_question
    question = hook(state) if hook is not None else None
    if question is None:
        raise PluginError("the game waits for an answer, but no plugin asks a question")
    return question


def choices(state: GameState) -> list[Action]:
    """The legal actions of the ``question`` phase: ``choose NAME ANSWER`` for each answer."""
    question = open_question(state)
    return [Action(Kind.CHOOSE, (), f"{question.name} {answer}") for answer in question.answers]


def answer(state: GameState, action: Action) -> None:
    """Carry out a legal ``choose`` action: the plugin takes it, then the next question or play.

    The action is recorded once a plugin has taken it.
    """
    name, _, reply = action.combo.partition(" ")
    hook = state.rules.answer
    seat = state.to_act
    events = hook(state, seat, name, reply) if hook is not None else None
    if events is None:
        raise PluginError(f"no plugin of this variant takes the answer to question {name!r}")
    state.history.append(action)
    state._legal = None
    state.phase = PLAY
    state.to_act = state.leader
    state._score(events)
    if state.phase == GAME_OVER or ask(state):
        return
    state._score(state.rules.deal_scores(state))


def refusal(state: GameState) -> IllegalActionError:
    """The error for any action but an answer while a question is open: what play waits for."""
    question = open_question(state)
    answers = ", ".join(f"choose {question.name} {a}" for a in question.answers)
    return IllegalActionError(f"{question.waiting}: {answers}", question.rule)
