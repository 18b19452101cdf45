"""What a player may see of a game: :func:`observation`, as plain JSON-able data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bezique.notation import action_text, card_token
from bezique.questions import open_question
from bezique.state import GAME_OVER, PLAY, QUESTION, TURN

if TYPE_CHECKING:
    from bezique.game import GameState


def observation(state: GameState, player: int) -> dict[str, Any]:
    """Return what ``player`` may see now, as plain JSON-able data.

    His own hand, every player's declared cards on the table, the turn-up,
    the cards played this hand (they were seen face up), the cards plugins
    lay face up elsewhere (``places``: Polish open rows), the number of cards
    in each hand and in the stock, scores and score events, the question open
    before the first lead (``question``: its name, the seat asked, the answers),
    and his legal actions when it is his turn.  Never another player's concealed cards or
    the order of the stock (a choice among another player's unseen cards is
    shown as the plugin that opened it says).
    """
    deck = state.deck
    own = [card_token(state, c, player) for c in state.hands[player]]
    table = [
        [card_token(state, c, seat) for c in hand if state.on_table[c]]
        for seat, hand in enumerate(state.hands)
    ]
    view: dict[str, Any] = {
        "player": player,
        "variant": state.rules.variant.name,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "trump": deck.suits[state.trump] if state.trump >= 0 else None,
        "turn_up": deck.card_text(state.turn_up) if state.turn_up >= 0 else None,
        "stock": state.stock_left(),
        "hand": own,
        "table": table,
        "hand_sizes": [len(h) for h in state.hands],
        "side_of": list(state.side_of),
        "trick": [
            [s, deck.card_text(c)] for s, c in zip(state.trick_seats, state.trick, strict=True)
        ],
        "places": {
            name: [deck.card_text(c) for c in cards] for name, cards in state.places().items()
        },
        "played": [deck.card_text(c) for c in state.played],
        "tricks_done": state.tricks_done,
        "phase": state.phase,
        "to_act": state.to_act,
        "scores": list(state.scores),
        "hand_points": list(state.hand_points),
        "events": [list(e) for e in state.events],
        "winner": state.winner,
    }
    if state.phase == QUESTION:  # every seat sees what is asked, and of whom
        question = open_question(state)
        view["question"] = {
            "name": question.name,
            "seat": question.seat,
            "answers": list(question.answers),
        }
    if state.phase != GAME_OVER and state.to_act == player:
        view["legal"] = _legal_shown(state)
    return view


def _legal_shown(state: GameState) -> list[str]:
    """The legal actions' texts, as the seat to act may see them.

    In a phase a plugin opened, the plugin may show choices that name cards the
    seat may not see otherwise (the dealer's surplus he draws from unseen).
    """
    if state.phase not in (PLAY, TURN):
        choices = state.rules.phase_choices(state)
        if choices is not None and choices.shown is not None:
            return list(choices.shown)
    return [action_text(state, a) for a in state.legal_actions()]
