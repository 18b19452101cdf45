"""What happened at the table, told to the player at the terminal (``bezique play``).

The game loop of ``bezique play`` applies every action; :class:`Journal` only tells
what it did, from the state before (:meth:`Journal.before`) and after
(:meth:`Journal.after`): who played, declared, exchanged or ended a turn, the points
scored and why (in the variant's words: :attr:`bezique.rules.ruleset.Ruleset.words`),
each trick and who won it (read from the game's trick record,
:mod:`bezique.engine.tricks`), each hand's end.  Its :attr:`Journal.log` holds what
happened since the player's own last move; :attr:`Journal.last_trick` the last trick.
All of it is public at the table: played and declared cards, exchanges, scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from bezique.actions import Action, ScoreEvent
from bezique.records.record import hand_summaries

if TYPE_CHECKING:
    from bezique.engine.tricks import Trick
    from bezique.game import GameState
    from bezique.rules.words import Words


class Moment(NamedTuple):
    """The table just before an action: what :meth:`Journal.after` tells it from."""

    seat: int
    """The seat that acts."""
    text: str
    """The action's text (``play QS``)."""
    hand: int
    """The hand it is taken in."""
    events: int
    """How many score events the game had."""
    tricks: int
    """How many tricks the game's trick record held."""


class Journal:
    """The log of what the player at the terminal saw, told action by action.

    For each action the game loop applies: ``moment = journal.before(state, action)``,
    then ``state.apply(action)``, then ``journal.after(state, moment)``.  The journal
    reads the state; it never copies or changes it.
    """

    def __init__(self, names: Sequence[str]) -> None:
        """A journal for seats named ``names`` (``you``, ``seat 1 (random)``...)."""
        self.names = list(names)
        self.log: list[str] = []
        """What happened since the player's last move, one line each (cards as tokens)."""
        self.last_trick = ""
        """The last trick and who won it (``""`` before the first)."""

    def before(self, state: GameState, action: Action) -> Moment:
        """What the journal needs of ``state`` just before ``action`` is applied to it."""
        return Moment(
            state.to_act,
            state.action_text(action),
            state.hand_no,
            len(state.events),
            len(state.tricks),
        )

    def after(self, state: GameState, moment: Moment, *, own: bool = False) -> None:
        """Log what the action taken at ``moment`` did to ``state``, now applied.

        ``own``: the player's own move (the log then starts again from it).  An action
        refused is not applied: then this is not called, and nothing is logged.
        """
        if own:
            self.log = []
        said = state.rules.words.action(moment.text, past=True)
        self.log.append(f"{self.names[moment.seat]} {said}")
        for trick in state.tricks[moment.tricks :]:
            self._trick(state, trick)
        self._scores(state, moment.events, moment.hand)

    def _trick(self, state: GameState, trick: Trick) -> None:
        played = zip(trick.seats, trick.cards, strict=True)
        cards = ", ".join(f"{self.names[s]} {state.deck.card_text(c)}" for s, c in played)
        self.last_trick = f"{cards}; {self.names[trick.winner]} won it"
        if trick.owner != trick.winner:  # a table action gave it to another seat
            self.last_trick += f", {self.names[trick.owner]} took it"
        self.log.append(f"trick: {self.last_trick}")

    def _scores(self, state: GameState, first: int, hand: int) -> None:
        events = list(zip(state.events[first:], state.event_hands[first:], strict=True))
        for event, in_hand in events:
            if in_hand == hand:
                self.log.append(self._scored(state.rules.words, event))
        if state.hand_no != hand or state.is_over():
            self.log.append(self._hand_over(state, hand))
        for event, in_hand in events:
            if in_hand != hand:
                self.log.append(self._scored(state.rules.words, event))
        if state.is_over():
            self.log.append(self._game_over(state))

    def _scored(self, words: Words, event: ScoreEvent) -> str:
        """A score in words: ``+10 for you: the seven of trumps exchanged for the turn-up``."""
        said = words.say(event.rule)
        told = f"{event.points:+d} for {self.names[event.player]}: {said}"
        detail = words.detail(event.detail)
        return f"{told} ({detail})" if detail and detail not in said else told

    def _hand_over(self, state: GameState, hand: int) -> str:
        points = hand_summaries(state)[hand]["points"]
        each = ", ".join(f"{name} {p}" for name, p in zip(self.names, points, strict=True))
        line = f"hand {hand + 1} over: {each}"  # a player counts the hands from 1
        if not state.is_over():
            line += f"; hand {state.hand_no + 1} dealt"
        return line

    def _game_over(self, state: GameState) -> str:
        sides = [
            " + ".join(n for n, s in zip(self.names, state.side_of, strict=True) if s == side)
            for side in range(len(state.scores))
        ]
        totals = ", ".join(f"{n} {p}" for n, p in zip(sides, state.scores, strict=True))
        won = sides[state.winner] if state.winner >= 0 else "nobody (a drawn game)"
        return f"game over: {totals}; the winner: {won}"
