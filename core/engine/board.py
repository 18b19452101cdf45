"""A game state written for people: its ``str`` and ``repr``.

:class:`Board` gives a game state its ``str`` (the board) and its ``repr`` (one line);
:class:`~bezique.game.GameState` inherits it.
As python-chess prints its board: the whole position, every hand shown (a state
holds them all; a player's view is :meth:`bezique.game.GameState.view`), in the
card notation of :mod:`bezique.cards` (letters, so that it prints on any
terminal): the concealed cards of each hand, its declared cards on the table
(``KH*``), the turn-up and trumps, the stock, the trick on the table, the
scores, the phase and the seat to act.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from bezique.engine.notation import Notation
from bezique.engine.state import GAME_OVER, StateData


@mypyc_attr(allow_interpreted_subclasses=True)
class Board(Notation):
    """A game state written for people: ``str`` and ``repr`` (a mixin)."""

    def __str__(self) -> str:
        """The position on several lines (``str(state)``)."""
        lines = [_heading(self), _trumps(self)]
        lines.extend(_seat_line(self, seat) for seat in range(self.players))
        if self.trick:
            played = ", ".join(
                f"seat {seat} {self.deck.card_text(card)}"
                for seat, card in zip(self.trick_seats, self.trick, strict=True)
            )
            lines.append(f"trick: {played}")
        lines.append(_scores(self))
        return "\n".join(lines)

    def __repr__(self) -> str:
        """The position in one line (``repr(state)``): variant, hand, trick, who acts, scores."""
        scores = "-".join(str(points) for points in self.scores)
        return (
            f"<GameState {self.rules.variant.name}: hand {self.hand_no}, "
            f"trick {self.tricks_done + 1}, {_acting(self)}, scores {scores}>"
        )


def _heading(state: StateData) -> str:
    return (
        f"{state.rules.variant.name}: hand {state.hand_no}, dealer seat {state.dealer}, "
        f"trick {state.tricks_done + 1}, {_acting(state)}"
    )


def _acting(state: StateData) -> str:
    if state.phase == GAME_OVER:
        return "game over"
    return f"phase {state.phase}, seat {state.to_act} to act"


def _trumps(state: StateData) -> str:
    deck = state.deck
    trumps = deck.suits[state.trump] if state.trump >= 0 else "not named yet"
    turn_up = deck.card_text(state.turn_up) if state.turn_up >= 0 else "none"
    return f"trumps {trumps}, turn-up {turn_up}, stock {len(state.stock)}"


def _seat_line(state: Notation, seat: int) -> str:
    hand = state.hands[seat]
    concealed = [state.deck.card_text(c) for c in _sorted(state, hand) if not state.on_table[c]]
    line = f"seat {seat}: {' '.join(concealed) or '-'}"
    table = [state.card_token(c, seat) for c in _sorted(state, hand) if state.on_table[c]]
    if table:
        line += f" | table {' '.join(table)}"
    return line


def _sorted(state: StateData, cards: list[int]) -> list[int]:
    deck = state.deck
    return sorted(cards, key=lambda c: (deck.card_suit[c], deck.card_rank[c], c))


def _scores(state: StateData) -> str:
    game = ", ".join(f"{state.side_name(s)} {p}" for s, p in enumerate(state.scores))
    hand = ", ".join(str(p) for p in state.hand_points)
    line = f"scores: {game} (this hand, by seat: {hand})"
    if state.phase == GAME_OVER:
        won = state.side_name(state.winner) if state.winner >= 0 else "none (drawn)"
        line += f"; winner {won}"
    return line
