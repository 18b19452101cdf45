"""What a seat's page is sent: that seat's view of its table, in a player's words.

:func:`seat_message` is the one JSON shape a page reads (and any outside client may):
the seat's observation (:meth:`~bezique.game.GameState.observation`, which holds no
card the seat has not seen), its hand sorted with trumps first, its legal actions each
with its text in the notation, its words and, for a declaration, its points and cards,
the scores and what each was for, and the log of what happened.  Nothing in it is read
from the state but the observation, the seat's own hand and legal actions (a
declaration's points worked out on a copy of the game), and the public record of the
table (the score events, the journal's lines).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bezique.actions import Action, Kind
from bezique.engine.state import PLAY, TURN
from bezique.engine.views import in_hand_order
from bezique.variant import game_target

if TYPE_CHECKING:
    from bezique.game import GameState
    from bezique.rules.words import Words
    from bezique.web.tables import Table

_TOKEN = re.compile(r"([^*@]+)([*@]?)(.*)")
"""A card token: the card, then ``*`` (on the table) or ``@`` (the partner's), then its
declared classes joined by ``+``."""


def card(token: str, words: Words) -> dict[str, Any]:
    """A card token as a page draws it: the card, where it is from, what it was declared in.

    ``token`` is the card as a move names it (``AD*``: the ace on the table), which a
    click on the card plays.
    """
    found = _TOKEN.fullmatch(token)
    if found is None:
        return {"card": token, "token": token, "mark": "", "declared": ""}
    name, mark, classes = found.groups()
    return {
        "card": name,
        "token": name + mark,
        "mark": {"*": "from the table", "@": "the partner's"}.get(mark, ""),
        "declared": words.classes(classes.split("+")) if classes else "",
    }


def seat_message(table: Table, seat: int) -> dict[str, Any]:
    """What ``seat`` is sent of ``table`` now (see the module's docstring)."""
    state = table.state
    words = state.rules.words
    seen = state.observation(seat)
    shown = seen.pop("legal", [])
    return {
        "kind": "view",
        "table": table.id,
        "seat": seat,
        "moves": len(state.history),
        "title": table.title,
        "names": [s.name for s in table.seats],
        "bots": [s.kind == "bot" for s in table.seats],
        "observation": seen,
        "hand": [
            card(token, words)
            for token in in_hand_order(state.deck, state.trump, state.hands[seat], seen["hand"])
        ],
        "table_cards": [[card(t, words) for t in cards] for cards in seen["table"]],
        "places": _places(seen["places"], [s.name for s in table.seats], words),
        "legal": _legal(state, seat, shown) if shown else [],
        "phase": words.phase(state.phase),
        "to_act": -1 if state.is_over() else state.to_act,
        "thinking": table.thinking,
        "target": game_target(state.rules.data),
        "scores": _scores(state, words, seat),
        "log": list(table.journal.log),
        "last_trick": table.journal.last_trick,
        "over": state.is_over(),
        "referee": state.at_table,
    }


_PLACE = re.compile(r"(.+)-(\d+)")
"""A place of one seat's: ``open-1`` (the Polish open rows of seat 1)."""


def _places(places: dict[str, list[str]], names: list[str], words: Words) -> list[dict[str, Any]]:
    """The cards plugins lay face up elsewhere, each place named in words."""
    shown = []
    for name, cards in places.items():
        found = _PLACE.fullmatch(name)
        if found is not None and int(found[2]) < len(names):
            said = f"{words.say('place.' + found[1])}: {names[int(found[2])]}"
        else:
            said = words.say("place." + name)
        shown.append({"name": said, "cards": [card(t, words) for t in cards]})
    return shown


def _legal(state: GameState, seat: int, shown: list[str]) -> list[dict[str, Any]]:
    """The seat's legal actions: id, text, words, and a declaration's points and cards."""
    words = state.rules.words
    actions = state.legal_actions()
    listed = []
    for number, (action, text) in enumerate(zip(actions, shown, strict=True)):
        entry: dict[str, Any] = {
            "id": number,
            "text": text,
            "words": words.action(text),
            "kind": text.partition(" ")[0],
        }
        if action.kind == Kind.PLAY:
            entry["card"] = text.partition(" ")[2]
        elif action.kind == Kind.DECLARE and state.phase in (PLAY, TURN):
            entry["points"] = _points(state, action, seat)
            entry["cards"] = text.split(" ")[2:]
        elif action.kind == Kind.ANNOUNCE:
            entry["cards"] = text.split(" ")[2:]
            later = _announced_points(state, action, seat)
            if later is not None:
                entry["points"], entry["later"] = later, True
        listed.append(entry)
    return listed


def _points(state: GameState, action: Action, seat: int) -> int:
    """What declaring ``action`` scores the seat now (played out on a copy of the game)."""
    copy = state.clone()
    before = len(copy.events)
    copy.apply(action)
    return sum(e.points for e in copy.events[before:] if e.player == seat)


def _announced_points(state: GameState, action: Action, seat: int) -> int | None:
    """What an announced combination scores when it is scored (at a trick won later).

    Its declaration carried out on a copy of the game by the variant's own declaring
    role, as it will be once scored; None when the role carries out no such declaration.
    """
    copy = state.clone()
    before = len(copy.events)
    try:
        copy.rules.declaring.apply(copy, seat, Action(Kind.DECLARE, action.cards, action.combo))
    except Exception:  # a plugin's role that declares only what it offers: no figure shown
        return None
    return sum(e.points for e in copy.events[before:] if e.player == seat)


def _scores(state: GameState, words: Words, seat: int) -> dict[str, Any]:
    """The game's scores by side, and each score of the hand with its reason in words."""
    hand = [
        {"seat": event.player, "points": event.points, "why": _why(words, event.rule, event.detail)}
        for event, in_hand in zip(state.events, state.event_hands, strict=True)
        if in_hand == state.hand_no
    ]
    return {
        "game": list(state.scores),
        "hand": list(state.hand_points),
        "side_of": list(state.side_of),
        "events": hand,
        "winner": state.winner,
        "your_side": state.side_of[seat],
    }


def _why(words: Words, rule: str, detail: str) -> str:
    said = words.say(rule)
    told = words.detail(detail)
    return f"{said} ({told})" if told and told not in said else said
