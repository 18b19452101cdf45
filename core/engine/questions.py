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
:class:`~bezique.game.GameState` inherits :class:`Questions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from bezique.actions import Action, Kind
from bezique.engine.scores import Scores
from bezique.engine.state import GAME_OVER, PLAY, QUESTION
from bezique.errors import IllegalActionError, PluginError

if TYPE_CHECKING:
    from bezique.hookspecs import Question


@mypyc_attr(allow_interpreted_subclasses=True)
class Questions(Scores):
    """The questions a plugin asks before the first lead, asked and answered (a mixin)."""

    def _ask(self) -> bool:
        """Open the next question before the first lead, if a plugin asks one.

        Return whether one is open (the game waits in the ``question`` phase).
        """
        hook = self.rules.hand_question
        question = hook(self) if hook is not None else None
        if question is None:
            return False
        self.phase = QUESTION
        self.to_act = question.seat
        self._legal = None
        return True

    def _open_question(self) -> Question:
        """The question open now (in the ``question`` phase); a plugin asking none is an error."""
        hook = self.rules.hand_question
        question = hook(self) if hook is not None else None
        if question is None:
            raise PluginError("the game waits for an answer, but no plugin asks a question")
        return question

    def _question_choices(self) -> list[Action]:
        """The legal actions of the ``question`` phase: ``choose NAME ANSWER`` for each answer."""
        question = self._open_question()
        return [Action(Kind.CHOOSE, (), f"{question.name} {answer}") for answer in question.answers]

    def _answer(self, action: Action) -> None:
        """Carry out a legal ``choose`` action: the plugin takes it, then the next question or play.

        The action is recorded once a plugin has taken it.
        """
        name, _, reply = action.combo.partition(" ")
        hook = self.rules.answer
        seat = self.to_act
        events = hook(self, seat, name, reply) if hook is not None else None
        if events is None:
            raise PluginError(f"no plugin of this variant takes the answer to question {name!r}")
        self.history.append(action)
        self._legal = None
        self.phase = PLAY
        self.to_act = self.leader
        self._score(events)
        if self.phase == GAME_OVER or self._ask():
            return
        self._score(self.rules.deal_scores(self))

    def _question_refusal(self) -> IllegalActionError:
        """The error for any action but an answer while a question is open: what play waits for."""
        question = self._open_question()
        answers = ", ".join(f"choose {question.name} {a}" for a in question.answers)
        return IllegalActionError(f"{question.waiting}: {answers}", question.rule)
