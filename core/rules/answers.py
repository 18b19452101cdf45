"""What each game hook may answer, checked where the kernel receives the answer.

A plugin's answer is checked at the hook's boundary (:mod:`bezique.rules.hooks` calls the
check of :data:`CHECKS` on every answer that is not None), so that nonsense (a trick
won by its 99th card, scores that are not score events, a seat that is no seat) is
refused there, naming the plugin and the hook, instead of failing later inside the
kernel as if it were the kernel's defect.  Each check takes the answer and the
hook's arguments (the state first) and returns what is wrong, or None.  They are
cheap: the trick's winner, asked after every trick, costs one type and range test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bezique.actions import Action, ScoreEvent
from bezique.hookspecs import DRAWN, DRAWN_GAME, HELD, PhaseChoices, Question, SheetEntryKind

Check = Callable[[Any, tuple[Any, ...]], "str | None"]
"""A hook's check: ``check(answer, arguments)`` says what is wrong with the answer, or None."""


def _short(value: Any, limit: int = 60) -> str:
    """Show a value in a message, cut to ``limit`` characters."""
    try:
        text = repr(value)
    except Exception:  # a plugin's object whose repr fails: name its type
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_list(value: Any) -> bool:
    """Whether ``value`` is a list or a tuple (not text, a set or a generator)."""
    return isinstance(value, list | tuple)


def _whole(value: Any) -> bool:
    """Whether ``value`` is a whole number (``True`` and ``1.0`` are not)."""
    return value.__class__ is int


def score_events(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A list of :class:`ScoreEvent`: whole points, a seat of the game, the rule as text.

    Asked of most tricks' scores: an event of the plain classes (a :class:`ScoreEvent`
    of ``int`` and ``str``) passes on tests of their classes alone, without a call.
    """
    if answer.__class__ is not list and not _is_list(answer):
        return f"{_short(answer)} is not a list of score events"
    players = args[0].players
    for event in answer:
        if event.__class__ is ScoreEvent:
            player, points, rule, detail = event
            if (
                player.__class__ is int
                and 0 <= player < players
                and points.__class__ is int
                and rule.__class__ is str
                and rule
                and detail.__class__ is str
            ):
                continue
        problem = _event_problem(event, players)
        if problem is not None:
            return problem
    return None


def _event_problem(event: Any, players: int) -> str | None:
    """What is wrong with one score event in a game of ``players`` seats, or None."""
    if not isinstance(event, ScoreEvent):
        return f"{_short(event)} is not a ScoreEvent"
    player, points, rule, detail = event
    if (
        player.__class__ is not int
        or not 0 <= player < players
        or points.__class__ is not int
        or not isinstance(rule, str)
        or not rule
        or not isinstance(detail, str)
    ):
        return _wrong_event(event, players)
    return None


def _wrong_event(event: ScoreEvent, players: int) -> str:
    """What is wrong with a score event (one :func:`score_events` refused)."""
    player, points = event.player, event.points
    if not _whole(player) or not 0 <= player < players:
        return f"{_short(event)}: seat {_short(player)} is no seat (0 to {players - 1})"
    if not _whole(points):
        return f"{_short(event)}: points {_short(points)} are not a whole number"
    return f"{_short(event)}: the rule and the detail must be text (the rule not empty)"


def trick_winner(answer: Any, args: tuple[Any, ...]) -> str | None:
    """The position of a card in the trick: a whole number from 0 below the trick's length."""
    if answer.__class__ is int and 0 <= answer < len(args[1]):
        return None
    return f"{_short(answer)} is not the position of a card in the trick (0 to {len(args[1]) - 1})"


def _cards_of(answer: Any, offered: Sequence[int], what: str) -> str | None:
    """Whether ``answer`` is a list of cards, each one of ``offered``."""
    if not _is_list(answer):
        return f"{_short(answer)} is not a list of cards"
    if set(answer).issubset(offered) and (not answer or set(map(type, answer)) == _INT):
        return None
    held = set(offered)
    bad = next(card for card in answer if not _whole(card) or card not in held)
    return f"{_short(bad)} is not one of {what} ({_short(list(offered))})"


_INT = {int}


def legal_plays(answer: Any, args: tuple[Any, ...]) -> str | None:
    """Some of the cards offered (the whole hand, or the duties' part of it), not none."""
    cards = args[2]
    if answer is cards:
        return None
    problem = _cards_of(answer, cards, "the cards offered")
    if problem is None and cards and not answer:
        return "no card may be played, though the hand holds some"
    return problem


def adjust_plays(answer: Any, args: tuple[Any, ...]) -> str | None:
    """Cards of the player's hand (an empty answer keeps the rules' cards)."""
    state, player = args[0], args[1]
    return _cards_of(answer, state.hands[player], f"seat {player}'s cards")


def _seat(answer: Any, args: tuple[Any, ...], low: int = 0) -> str | None:
    """A seat of the game (or, with ``low`` -1, -1 for none)."""
    players = args[0].players
    if answer.__class__ is int and low <= answer < players:
        return None
    return f"{_short(answer)} is no seat ({low} to {players - 1})"


def seat(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A seat of the game."""
    return _seat(answer, args)


def seat_or_none(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A seat of the game, or -1 for none."""
    return _seat(answer, args, -1)


def game_winner(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A side of the game, -1 (not over) or ``DRAWN_GAME``."""
    sides = len(args[0].scores)
    if answer.__class__ is int and DRAWN_GAME <= answer < sides:
        return None
    return (
        f"{_short(answer)} is not a side (0 to {sides - 1}), -1 for a game not over, "
        f"or {DRAWN_GAME} for a drawn game"
    )


def trick_players(answer: Any, args: tuple[Any, ...]) -> str | None:
    """Seats of the game, each once, the leader first (none: the hand is over)."""
    if not _is_list(answer):
        return f"{_short(answer)} is not a list of seats"
    players = args[0].players
    if not all(_whole(s) and 0 <= s < players for s in answer) or len(set(answer)) != len(answer):
        return f"{_short(answer)} is not a list of seats (0 to {players - 1}), each at most once"
    return None


def question(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A :class:`Question` the kernel can ask: a name and answers of one word, a seat."""
    if not isinstance(answer, Question):
        return f"{_short(answer)} is not a Question"
    where = f"the question {_short(answer.name)}"
    name = answer.name
    if not _word(name) or name != name.lower():
        return f"{where}: a question's name is one word in lower case"
    if not _whole(answer.seat) or not 0 <= answer.seat < args[0].players:
        return f"{where}: seat {_short(answer.seat)} is no seat of this game"
    if not _is_list(answer.answers):
        return f"{where}: its answers are not a list"
    answers = list(answer.answers)
    if not answers:
        return f"{where}: it has no answers"
    if not all(map(_word, answers)):
        return f"{where}: every answer is one word ({_short(answers)})"
    if len(set(answers)) != len(answers):
        return f"{where}: two answers are alike ({_short(answers)})"
    if not isinstance(answer.waiting, str) or not isinstance(answer.rule, str):
        return f"{where}: what play waits for and the rule must be text"
    return None


def _word(text: object) -> bool:
    """Whether ``text`` is one word: a non-empty string without white space."""
    return isinstance(text, str) and bool(text) and not any(c.isspace() for c in text)


def yes_or_no(answer: Any, args: tuple[Any, ...]) -> str | None:
    """True (carried out) or False."""
    return None if answer.__class__ is bool else f"{_short(answer)} is not True or False"


def phase_choices(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A :class:`PhaseChoices` of actions, with what play waits for and the rule as text."""
    if not isinstance(answer, PhaseChoices):
        return f"{_short(answer)} is not a PhaseChoices"
    if not _is_list(answer.actions) or not all(isinstance(a, Action) for a in answer.actions):
        return f"its actions {_short(answer.actions)} are not a list of Action"
    if not isinstance(answer.waiting, str) or not isinstance(answer.rule, str):
        return "what play waits for and the rule must be text"
    shown = answer.shown
    if shown is not None and (not _is_list(shown) or not all(isinstance(s, str) for s in shown)):
        return f"shown {_short(shown)} is not a list of texts"
    return None


def actions(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A list of :class:`Action`."""
    if not _is_list(answer) or not all(isinstance(a, Action) for a in answer):
        return f"{_short(answer)} is not a list of actions"
    return None


def draw(answer: Any, args: tuple[Any, ...]) -> str | None:
    """``DRAWN`` or ``HELD``."""
    return (
        None
        if answer in (DRAWN, HELD) and isinstance(answer, str)
        else (f"{_short(answer)} is not {DRAWN!r} or {HELD!r}")
    )


def sheet_entries(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A list of :class:`SheetEntryKind`: a key and words of text, whole points and counts."""
    if not _is_list(answer):
        return f"{_short(answer)} is not a list of sheet entry kinds"
    for kind in answer:
        if not isinstance(kind, SheetEntryKind):
            return f"{_short(kind)} is not a SheetEntryKind"
        if not (isinstance(kind.key, str) and kind.key and isinstance(kind.words, str)):
            return f"{_short(kind)}: the key and the words must be text (the key not empty)"
        counts = (kind.cards, kind.most)
        if not _whole(kind.points) or not all(_whole(n) and n >= 0 for n in counts):
            return f"{_short(kind)}: the points, cards and most must be whole numbers"
        if not isinstance(kind.pool, str):
            return f"{_short(kind)}: the pool must be text"
    return None


def sheet_problem(answer: Any, args: tuple[Any, ...]) -> str | None:
    """Text: why the sheet may not hold the declaration, or ``""``."""
    return None if isinstance(answer, str) else f"{_short(answer)} is not text"


def sheet_winner(answer: Any, args: tuple[Any, ...]) -> str | None:
    """A side of the sheet's game (one per total), -1 (not over) or ``DRAWN_GAME``."""
    sides = len(args[1])
    if answer.__class__ is int and DRAWN_GAME <= answer < sides:
        return None
    return (
        f"{_short(answer)} is not a side (0 to {sides - 1}), -1 for a game not over, "
        f"or {DRAWN_GAME} for a drawn game"
    )


CHECKS: dict[str, Check] = {
    "bezique_deal_scores": score_events,
    "bezique_hand_question": question,
    "bezique_answer": score_events,
    "bezique_trick_winner": trick_winner,
    "bezique_legal_plays": legal_plays,
    "bezique_trick_scores": score_events,
    "bezique_draw_scores": score_events,
    "bezique_hand_scores": score_events,
    "bezique_game_winner": game_winner,
    "bezique_settlement": score_events,
    "bezique_next_declarer": seat_or_none,
    "bezique_trick_players": trick_players,
    "bezique_table_action": yes_or_no,
    "bezique_phase_choices": phase_choices,
    "bezique_wait_before_draw": yes_or_no,
    "bezique_adjust_plays": adjust_plays,
    "bezique_trick_owner": seat,
    "bezique_draw": draw,
    "bezique_play_options": actions,
    "bezique_play_option": score_events,
    "bezique_sheet_entries": sheet_entries,
    "bezique_sheet_declaration_problem": sheet_problem,
    "bezique_sheet_scores": score_events,
    "bezique_sheet_penalty": score_events,
    "bezique_sheet_winner": sheet_winner,
    "bezique_sheet_hand_end": score_events,
    "bezique_sheet_settlement": score_events,
}
"""The check of each hook whose answer the kernel or the score sheet uses (notify hooks
have none); the sheet's hooks take the ruleset first, whose ``players`` the score
events' check reads as it reads a game state's."""
