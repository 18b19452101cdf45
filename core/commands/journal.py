"""What happened at the table, told to the player at the terminal (``bezique play``).

:class:`Journal` applies every action of a game at the terminal and writes what a
player saw happen: who played, declared, exchanged or ended a turn, the points
scored and why (in the variant's words: :attr:`bezique.rules.ruleset.Ruleset.words`), each
trick and who won it, each hand's end.  Its :attr:`Journal.log`
holds what happened since the player's own last move; :attr:`Journal.last_trick`
the last trick.  All of it is public at the table: played and declared cards,
exchanges, scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bezique.actions import Action, Kind, ScoreEvent
from bezique.records.record import hand_summaries

if TYPE_CHECKING:
    from bezique.game import GameState
    from bezique.rules.words import Words


class Journal:
    """Applies a game's actions and keeps the log of what the player at the terminal saw."""

    def __init__(self, names: Sequence[str]) -> None:
        """A journal for seats named ``names`` (``you``, ``seat 1 (random)``...)."""
        self.names = list(names)
        self.log: list[str] = []
        """What happened since the player's last move, one line each (cards as tokens)."""
        self.last_trick = ""
        """The last trick and who won it (``""`` before the first)."""

    def step(self, state: GameState, action: Action, *, own: bool = False) -> None:
        """Apply ``action`` to ``state`` and log it.

        ``own``: the player's own move (the log then starts again from it).  An
        illegal action raises and logs nothing.
        """
        seat, text, hand = state.to_act, state.action_text(action), state.hand_no
        words = state.rules.words
        trick = list(zip(state.trick_seats, state.trick, strict=True))
        winner = _trick_winner(state, action, trick)
        first_event = len(state.events)
        state.apply(action)
        if own:
            self.log = []
        self.log.append(f"{self.names[seat]} {words.action(text, past=True)}")
        if winner is not None:
            self._trick(state, [*trick, (seat, action.cards[0])], winner)
        self._scores(state, first_event, hand)

    def _trick(self, state: GameState, trick: list[tuple[int, int]], winner: int) -> None:
        cards = ", ".join(f"{self.names[s]} {state.deck.card_text(c)}" for s, c in trick)
        self.last_trick = f"{cards}; {self.names[winner]} won it"
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
        line = f"hand {hand} over: {each}"
        if not state.is_over():
            line += f"; hand {state.hand_no} dealt"
        return line

    def _game_over(self, state: GameState) -> str:
        sides = [
            " + ".join(n for n, s in zip(self.names, state.side_of, strict=True) if s == side)
            for side in range(len(state.scores))
        ]
        totals = ", ".join(f"{n} {p}" for n, p in zip(sides, state.scores, strict=True))
        won = sides[state.winner] if state.winner >= 0 else "nobody (a drawn game)"
        return f"game over: {totals}; the winner: {won}"


def _trick_winner(state: GameState, action: Action, trick: list[tuple[int, int]]) -> int | None:
    """The seat that wins the trick ``action`` completes, or None if it completes none.

    Asked of the rules before the play, on a copy: once played, a hand's last
    trick is followed at once by the next deal, which sets a new leader.
    """
    if action.kind != Kind.PLAY or len(trick) + 1 != len(state.trick_order):
        return None
    if action not in state.legal_actions():
        return None  # refused by apply, which says why
    copy = state.clone()
    copy.trick = [card for _, card in trick] + [action.cards[0]]
    copy.trick_seats = [seat for seat, _ in trick] + [state.to_act]
    return copy.trick_seats[state.rules.trick_winner(copy, copy.trick)]
