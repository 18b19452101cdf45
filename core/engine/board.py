"""A game state written for people: its ``str`` and ``repr``.

:func:`board_text` is ``str(state)`` and :func:`state_line` is ``repr(state)``.
As python-chess prints its board: the whole position, every hand shown (a state
holds them all; a player's view is :meth:`bezique.game.GameState.view`), in the
card notation of :mod:`bezique.cards` (letters, so that it prints on any
terminal): the concealed cards of each hand, its declared cards on the table
(``KH*``), the turn-up and trumps, the stock, the trick on the table, the
scores, the phase and the seat to act.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.engine.notation import card_token
from bezique.engine.state import GAME_OVER

if TYPE_CHECKING:
    from bezique.game import GameState


def board_text(state: GameState) -> str:
    """The position on several lines (``str(state)``)."""
    lines = [_heading(state), _trumps(state)]
    lines.extend(_seat_line(state, seat) for seat in range(state.players))
    if state.trick:
        played = ", ".join(
            f"seat {seat} {state.deck.card_text(card)}"
            for seat, card in zip(state.trick_seats, state.trick, strict=True)
        )
        lines.append(f"trick: {played}")
    lines.append(_scores(state))
    return "\n".join(lines)


def state_line(state: GameState) -> str:
    """The position in one line (``repr(state)``): variant, hand, trick, who acts, scores."""
    scores = "-".join(str(points) for points in state.scores)
    return (
        f"<GameState {state.rules.variant.name}: hand {state.hand_no}, "
        f"trick {state.tricks_done + 1}, {_acting(state)}, scores {scores}>"
    )


def _heading(state: GameState) -> str:
    return (
        f"{state.rules.variant.name}: hand {state.hand_no}, dealer seat {state.dealer}, "
        f"trick {state.tricks_done + 1}, {_acting(state)}"
    )


def _acting(state: GameState) -> str:
    if state.phase == GAME_OVER:
        return "game over"
    return f"phase {state.phase}, seat {state.to_act} to act"


def _trumps(state: GameState) -> str:
    deck = state.deck
    trumps = deck.suits[state.trump] if state.trump >= 0 else "not named yet"
    turn_up = deck.card_text(state.turn_up) if state.turn_up >= 0 else "none"
    return f"trumps {trumps}, turn-up {turn_up}, stock {len(state.stock)}"


def _seat_line(state: GameState, seat: int) -> str:
    hand = state.hands[seat]
    concealed = [state.deck.card_text(c) for c in _sorted(state, hand) if not state.on_table[c]]
    line = f"seat {seat}: {' '.join(concealed) or '-'}"
    table = [card_token(state, c, seat) for c in _sorted(state, hand) if state.on_table[c]]
    if table:
        line += f" | table {' '.join(table)}"
    return line


def _sorted(state: GameState, cards: list[int]) -> list[int]:
    deck = state.deck
    return sorted(cards, key=lambda c: (deck.card_suit[c], deck.card_rank[c], c))


def _scores(state: GameState) -> str:
    game = ", ".join(f"{state.side_name(s)} {p}" for s, p in enumerate(state.scores))
    hand = ", ".join(str(p) for p in state.hand_points)
    line = f"scores: {game} (this hand, by seat: {hand})"
    if state.phase == GAME_OVER:
        won = state.side_name(state.winner) if state.winner >= 0 else "none (drawn)"
        line += f"; winner {won}"
    return line
