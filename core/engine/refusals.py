"""Which legal action an action means, and, when none, the error that names the rule.

:meth:`Refusals._equivalent_legal` finds the legal action that reads the same as
another (a copy of a card the text cannot tell apart); :meth:`Refusals._refusal` says
which rule forbids an action now (the phase's, the hand's, or the plugins' reason).
:class:`~bezique.game.GameState` inherits :class:`Refusals`.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from bezique.actions import Action, Kind
from bezique.engine.state import GAME_OVER, PLAY, QUESTION, TURN
from bezique.engine.turns import Turns
from bezique.errors import BeziqueError, IllegalActionError

RULE_OF_KIND = {
    Kind.PLAY: "endgame",
    Kind.DECLARE: "declarations",
    Kind.ANNOUNCE: "declarations",
    Kind.EXCHANGE: "seven_of_trumps",
    Kind.SHOW: "seven_of_trumps",
}
"""The variant section whose rules decide each kind of turn action."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Refusals(Turns):
    """Why an action is refused: the legal action it means, or the rule against it (a mixin)."""

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

    def _refusal(self, action: Action) -> IllegalActionError:
        """Build the error that says which rule forbids ``action`` now."""
        seat = self.to_act
        if self.phase == GAME_OVER:
            return IllegalActionError("the game is over: no action is legal", "game.target")
        if self.phase == QUESTION:  # a plugin's question: it says what it waits for
            return self._question_refusal()
        if action.kind == Kind.CHOOSE and self.phase in (PLAY, TURN):
            return IllegalActionError(
                f"{self.action_text(action)!r}: no question is open ('choose' answers a "
                "question a plugin asks before the hand's first lead)",
                "play" if self.phase == PLAY else "declarations.before_drawing",
            )
        if self.phase not in (PLAY, TURN):  # a phase a plugin opened: it says what it waits for
            choices = ", ".join(self.action_text(a) for a in self.legal_actions())
            phase = self.rules.phase_choices(self)
            waiting = phase.waiting if phase is not None else f"play waits for seat {seat}"
            return IllegalActionError(f"{waiting}: {choices}", phase.rule if phase else self.phase)
        if self._outside_table(action):  # a plugin's option (a carte blanche): it says why
            reason = self.rules.declaring.refusal(self, seat, action)
            text = reason or f"{self.action_text(action)!r} is not legal now"
            return IllegalActionError(text, action.combo)
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
        reason = self.rules.declaring.refusal(self, seat, action)
        rule = RULE_OF_KIND.get(action.kind, "")
        return IllegalActionError(reason or f"{self.action_text(action)!r} is not legal now", rule)

    def _outside_table(self, action: Action) -> bool:
        """Whether ``action`` declares a section of the variant that is no combination.

        A plugin's option before a card (``declare carte_blanche``), whose refusal names
        that section as its rule.
        """
        name = action.combo
        return (
            action.kind == Kind.DECLARE
            and name in self.rules.data
            and name not in self.rules.combo_names
        )
