"""The referee's record of a hand, and the tools every procedure of it uses.

The record (:func:`book`) lives in ``state.extra[KEY]`` from the first report or
claim accepted in a hand until the next deal.  Here too: the variant's penalty
table (:func:`table`), the refusal every procedure raises (:func:`fail`), the copy a
refused report is put back from (:func:`snapshot`, :func:`restore`), play waiting
for a choice (:func:`wait`), points opened to a claim (:func:`open_points`), and
reading seats and counts from a report's words.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from bezique.actions import ScoreEvent
from bezique.cards import CardError
from bezique.engine.state import fields_of, set_fields
from bezique.errors import IllegalActionError

if TYPE_CHECKING:
    from bezique.hookstate import HookState

KEY = "referee"
"""Where the referee keeps its state in ``state.extra`` (reset at every deal)."""


REMEDY = "remedy"
"""Phase: play waits for the injured player's choice of remedy."""


def fail(name: str, reason: str) -> IllegalActionError:
    """The refusal of the report or claim ``name``, naming its rule ``penalties.NAME``."""
    return IllegalActionError(f"{name}: {reason}", f"penalties.{name}")


def book(state: HookState) -> dict[str, Any]:
    """The referee's record of this hand (created on first use)."""
    found: dict[str, Any] | None = state.extra.get(KEY)
    if found is None:
        n = state.players
        found = state.extra[KEY] = {
            "skip": [0] * n,
            "extra": [0] * n,
            "claims": [],
            "remedy": None,
            "choose_next_draw": None,
            "led_out": None,
            "revokes": [],
            "revoking": -1,
        }
    return found


def table(state: HookState, name: str) -> Any:
    """The variant's penalty table entry ``name``; refuse if the variant has none."""
    penalties = state.rules.data.get("penalties")
    if penalties is None:
        raise fail(name, "this variant has no penalty table (penalties)")
    return penalties[name]


# ---------------------------------------------------------------------- a copy to put back


_KEPT = ("history", "decks")
"""State the referee never changes, left out of its copy (records can make them long)."""


_GROWN = ("events", "event_hands")
"""State the referee only adds to: put back by its length."""


def snapshot(state: HookState) -> tuple[HookState, dict[str, list[Any]], dict[str, int]]:
    """A copy of ``state`` to put back if a report is refused, in time bounded by a hand."""
    lists = {name: getattr(state, name) for name in (*_KEPT, *_GROWN)}
    try:
        for name in lists:
            setattr(state, name, [])
        saved = state.clone()
    finally:
        for name, value in lists.items():
            setattr(state, name, value)
    return saved, lists, {name: len(lists[name]) for name in _GROWN}


def restore(
    state: HookState, saved: HookState, lists: dict[str, list[Any]], lengths: dict[str, int]
) -> None:
    """Put ``state`` back as :func:`snapshot` found it (the turn is never changed)."""
    turn = state.turn
    set_fields(state, fields_of(saved))
    state.turn = turn
    for name, value in lists.items():
        setattr(state, name, value)
        del value[lengths.get(name, len(value)) :]


# ---------------------------------------------------------------------- waiting, points


def wait(
    state: HookState, name: str, chooser: int, options: list[str], data: dict[str, Any]
) -> None:
    """Stop play until ``chooser`` picks one of ``options``."""
    notes = book(state)
    notes["remedy"] = {
        "name": name,
        "chooser": chooser,
        "options": options,
        "phase": state.phase,
        "to_act": state.to_act,
        **data,
    }
    state.phase = REMEDY
    state.to_act = chooser


def open_points(state: HookState, name: str, offender: int, until: str = "play") -> None:
    """Open a claim of the table's points for ``name`` to the offender's opponents."""
    points = table(state, name)
    if points:
        book(state)["claims"].append(
            {
                "name": name,
                "offender": offender,
                "points": points,
                "options": award_options(table(state, "award")),
                "until": until,
            }
        )


def award_options(award: str) -> list[str]:
    """How penalty points may be claimed under ``penalties.award`` (A28): add, deduct, or both."""
    return {"injured_chooses": ["add", "deduct"], "opponent_adds": ["add"]}.get(award, ["deduct"])


def award_event(name: str, points: int, offender: int, claimant: int, option: str) -> ScoreEvent:
    """A penalty claimed: ``points`` added to ``claimant``, or taken from ``offender``."""
    detail = f"seat {offender}: {name.replace('_', ' ')}"
    if option == "add":
        return ScoreEvent(claimant, points, f"penalties.{name}", detail)
    return ScoreEvent(offender, -points, f"penalties.{name}", detail)


# ---------------------------------------------------------------------- seats and words


def read_seat(state: HookState, name: str, text: str) -> int:
    """Read a seat number from a report's or claim's words; refuse anything else."""
    if not (text.isascii() and text.isdigit() and len(text) < 4) or int(text) >= state.players:
        raise fail(name, f"{text!r} is not a seat (0 to {state.players - 1})")
    return int(text)


def one_seat(state: HookState, name: str, args: list[str]) -> int:
    """Read the one word of ``irregular NAME SEAT``: the offending seat."""
    if len(args) != 1:
        raise fail(name, f"name the offending seat, as in 'irregular {name} 1'")
    return read_seat(state, name, args[0])


def seat_count(
    state: HookState, name: str, args: list[str], flags: tuple[str, ...] = ("looked",)
) -> tuple[int, int, str]:
    """Read ``SEAT COUNT [FLAG]``; return the seat, the count and the flag (or "")."""
    flag = args[2] if len(args) == 3 else ""
    counted = len(args) > 1 and args[1].isascii() and args[1].isdigit() and len(args[1]) < 5
    if len(args) not in (2, 3) or (flag and flag not in flags) or not counted:
        words = " or ".join(f"'{f}'" for f in flags)
        raise fail(name, f"write 'irregular {name} SEAT COUNT', then {words} if so")
    return read_seat(state, name, args[0]), int(args[1]), flag


def others(state: HookState, seat: int) -> list[int]:
    """The other seats, in playing order from ``seat`` (to his left)."""
    return [(seat + step) % state.players for step in range(1, state.players)]


def eldest(state: HookState) -> int:
    """The player left of the dealer (the non-dealer of the two-hand game)."""
    return (state.dealer + 1) % state.players


def adversary(state: HookState, seat: int) -> int:
    """Who gains a revoker's tricks.

    His opponent in a two-card trick (two hands, S0's duels); with more cards a
    trick the next player of another side on his left (A27's reading).
    """
    if len(state.trick_order) == 2:
        return next(s for s in state.trick_order if s != seat)
    return next(
        other for other in others(state, seat) if state.side_of[other] != state.side_of[seat]
    )


def swap_last(state: HookState, first: int, second: int) -> None:
    """Swap the cards ``first`` and ``second`` drew last."""
    a, b = state.hands[first][-1], state.hands[second][-1]
    state.take(first, a)
    state.take(second, b)
    state.give(first, b)
    state.give(second, a)


def is_card(state: HookState, text: str) -> bool:
    """Whether ``text`` names a card of the deck (``QS``)."""
    try:
        state.deck.parse_face(text)
    except CardError:
        return False
    return True


def two_hands(state: HookState, name: str) -> None:
    """Refuse a procedure the sources give for the two-hand game only, in another."""
    if state.players != 2:
        raise fail(name, "the sources give this procedure for the two-hand game only")


def deprecated(old: str, new: str) -> None:
    """Warn that ``old``, with no card too many in hand, still makes one up."""
    warnings.warn(
        f"'{old}' where no card too many is held is deprecated: it gives the top card of "
        f"the stock as if drawn one too many; record the over-draw where it happened "
        f"('{new}' right after the draw), then '{old}' where it is found",
        DeprecationWarning,
        stacklevel=5,
    )
