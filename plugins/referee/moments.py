"""When a report is in time, and how many cards each seat should hold.

A report is accepted only at the moment the rules deal with it: before the first
card (:func:`at_deal`), while the stock lasts (:func:`in_stock_play`), right after a
draw (:func:`just_drew`).  A seat found with cards too many is measured against
his number (:func:`number_of`, :func:`surplus_of`), the draws he is already to skip
or take twice counted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.actions import Kind
from bezique.plugins.referee.book import book, fail, others

if TYPE_CHECKING:
    from bezique.hookstate import HookState


def at_deal(state: HookState, name: str) -> None:
    """Refuse a report of the deal once the first card of the hand is played."""
    if state.played or state.trick or state.phase != "play" or book(state)["remedy"]:
        raise fail(name, "too late: it is dealt with before the first card of the hand is played")


def in_stock_play(state: HookState, name: str, need: int = 1) -> None:
    """Refuse a report outside the play of the stock (``need`` cards left, between cards)."""
    if state.phase != "play" or len(state.stock) < need:
        raise fail(name, "only while the stock lasts, between cards (not in the end-game)")


def just_drew(state: HookState, name: str, *seats: int) -> None:
    """Right after the draw that followed a trick of this hand, before the next card."""
    last = next((a for a in reversed(state.history) if a.kind < Kind.IRREGULAR), None)
    if (
        state.phase != "play"
        or state.trick
        or not state.stock
        or not state.tricks_done
        or last is None
        or last.kind not in (Kind.PLAY, Kind.END_TURN)
    ):
        raise fail(
            name, "reported right after the draw that follows a trick, while the stock lasts"
        )
    drew = last_drawers(state)
    for seat in seats:
        if seat not in drew:
            raise fail(name, f"seat {seat} did not draw at the last draw")


def last_drawers(state: HookState) -> list[int]:
    """The seats that drew at the last draw, in the order they drew."""
    notes = book(state)
    if "drew" in notes:
        return list(notes["drew"])
    return [state.leader, *others(state, state.leader)]


def number_of(state: HookState, seat: int) -> int:
    """How many cards ``seat`` should hold now, while the stock lasts.

    The hand size, less the card he has played to the trick (or to the trick
    just won, before the draw), with the irregularities already dealt with
    counted: draws he is to skip add, a second card he is to take subtracts.
    """
    notes = book(state)
    played = state.phase == "turn" or seat in state.trick_seats
    size: int = state.rules.data["deal"]["hand_size"]
    known: int = notes["skip"][seat] - notes["extra"][seat]
    return size - played + known


def surplus_of(state: HookState, name: str) -> list[int]:
    """Each seat's cards beyond his number (negative: short), found during the play.

    While the stock lasts his number is :func:`number_of`.  In the end-game, where
    every seat plays every trick, each should hold as many as the fewest.
    """
    if state.phase not in ("play", "turn"):
        raise fail(name, "only during the play of the hand, between cards")
    if state.stock_left():
        return [len(state.hands[seat]) - number_of(state, seat) for seat in range(state.players)]
    if len(state.trick_order) < state.players:
        raise fail(name, "not in the end-game's duels, where some players sit out the trick")
    played = [state.phase == "turn" or seat in state.trick_seats for seat in range(state.players)]
    counts = [len(hand) + done for hand, done in zip(state.hands, played, strict=True)]
    found = found_in_endgame(state)
    return [count - min(counts) - known for count, known in zip(counts, found, strict=True)]


def found_in_endgame(state: HookState) -> list[int]:
    """Each seat's cards too many already found in the end-game (kept in the hand)."""
    found: list[int] = book(state).get("found_in_endgame") or [0] * state.players
    return found


def settle_surplus(state: HookState, surplus: list[int]) -> None:
    """Each seat holding too many skips a draw a card too many (S0 P09, S3 P10, A35).

    Draws the stock no longer lasts for are not skipped; a surplus left when it
    runs out stays in the hand, and the hand ends when a player of a trick has
    no card left to play.
    """
    notes = book(state)
    if state.stock_left():
        for seat, extra in enumerate(surplus):
            notes["skip"][seat] += extra
    else:  # found once: the same cards are not a new offence at the next trick
        found = notes.setdefault("found_in_endgame", [0] * state.players)
        for seat, extra in enumerate(surplus):
            found[seat] += max(extra, 0)


def already_known(state: HookState, seat: int) -> bool:
    """Whether ``seat`` is already to skip a draw or to take two."""
    notes = book(state)
    return bool(notes["skip"][seat] or notes["extra"][seat])
