"""Claims: the injured player's points, and his choice of remedy where play waits.

``claim NAME OPTION [SEAT]`` either takes points opened by a report (``add`` or
``deduct``, as the variant's ``penalties.award`` gives them; ``take_back`` for a
lead out of turn), or, in the ``remedy`` phase, makes the choice play waits for
(``complete``, ``new_deal``, ``play_on``, ``take CARD``, ``return CARD...``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bezique.plugins.referee.book import (
    award_event,
    book,
    fail,
    read_seat,
    swap_last,
    wait,
)
from bezique.plugins.referee.play import after_draw

if TYPE_CHECKING:
    from bezique.hookstate import HookState


def claim(state: HookState, name: str, args: list[str]) -> None:
    """Carry out ``claim NAME ARGS``: a remedy chosen, or points opened by a report taken."""
    notes = book(state)
    remedy = notes["remedy"]
    if remedy is not None:
        _choose(state, remedy, name, args)
        return
    claims = [c for c in notes["claims"] if c["name"] == name]
    if not claims:
        raise fail(
            name,
            "no such claim is open now: it is made after the irregularity is reported, "
            "before the next card is played or drawn (for a short hand, before his next draw)",
        )
    option = args[0] if args else ""
    matching = [c for c in claims if option in c["options"]]
    if not matching:
        options = sorted({o for c in claims for o in c["options"]})
        raise fail(name, f"choose one of {', '.join(options)} (penalties.award)")
    claim = matching[0]
    seat = _claimant(state, name, claim["offender"], option, args[1:])
    if state.side_of[seat] == state.side_of[claim["offender"]]:
        raise fail(name, f"seat {seat} is on the offender's side and cannot claim the penalty")
    if option == "take_back":
        _take_back(state, name)
        notes["claims"].remove(claim)
        return
    event = award_event(name, claim["points"], claim["offender"], seat, option)
    notes["claims"].remove(claim)
    state.score([event])


def _choose(state: HookState, remedy: dict[str, Any], name: str, args: list[str]) -> None:
    valid = _VALID.get(remedy["name"], _listed)
    if name != remedy["name"] or not valid(state, remedy, args):
        choices = ", ".join(f"claim {remedy['name']} {o}" for o in remedy["options"])
        if remedy["name"] == "dealt_too_many":
            choices = (
                f"claim dealt_too_many return CARD..., naming from 1 to {remedy['count']} "
                f"of seat {remedy['seat']}'s cards ({choices})"
            )
        raise fail(name, f"play waits for seat {remedy['chooser']} to choose: {choices}")
    book(state)["remedy"] = None
    state.phase = remedy["phase"]
    state.to_act = remedy["to_act"]
    _REMEDIES[name](state, remedy, args)


def _listed(state: HookState, remedy: dict[str, Any], args: list[str]) -> bool:
    """Whether ``args`` is one of the remedy's listed choices."""
    return " ".join(args) in remedy["options"]


def _valid_return(state: HookState, remedy: dict[str, Any], args: list[str]) -> bool:
    """Whether ``args`` returns from 1 to the surplus's count of the dealer's cards."""
    if not args or args[0] != "return" or not 0 < len(args) - 1 <= remedy["count"]:
        return False
    held = [state.deck.card_text(c) for c in state.hands[remedy["seat"]]]
    for text in args[1:]:
        if text not in held:
            return False
        held.remove(text)
    return True


def _claimant(state: HookState, name: str, offender: int, option: str, args: list[str]) -> int:
    """The seat claiming: named last in the claim, or the offender's only opponent."""
    if args:
        return read_seat(state, name, args[0])
    opponents = [s for s in range(state.players) if state.side_of[s] != state.side_of[offender]]
    if len(opponents) != 1:
        example = f"claim {name} {option} {opponents[0]}"
        raise fail(name, f"name the seat that claims, as in '{example}'")
    return opponents[0]


def _take_back(state: HookState, name: str) -> None:
    led = book(state)["led_out"]
    if led is None or not state.trick:
        raise fail(name, "the lead stands: every other player has played to it")
    for seat, card in zip(state.trick_seats, state.trick, strict=True):
        state.give(seat, card)
        state.expose(card)  # every seat saw it led
        index = state.played.index(card)
        del state.played[index], state.played_by[index]
    if state.trick_starts and state.trick_starts[-1] >= len(state.played):
        state.trick_starts.pop()  # the lead taken back
    state.trick.clear()
    state.trick_seats.clear()
    state.leader = state.to_act = led["leader"]
    state.trick_order = tuple(led["order"])
    book(state)["led_out"] = None


def return_choices(state: HookState, seat: int) -> list[str]:
    """The listed choices of the surplus's return: one card at a time, one per face held.

    A claim may also name several cards at once, up to the count still to return.
    """
    return [
        f"return {text}" for text in sorted({state.deck.card_text(c) for c in state.hands[seat]})
    ]


# ---------------------------------------------------------------------- remedies


def _remedy_short(state: HookState, remedy: dict[str, Any], args: list[str]) -> None:
    if args[0] == "new_deal":
        state.deal_again("penalties.new_deal")
        return
    for _ in range(remedy["count"]):
        state.give(remedy["seat"], state.stock.pop())


def _remedy_surplus(state: HookState, remedy: dict[str, Any], args: list[str]) -> None:
    seat = remedy["seat"]
    for text in args[1:]:  # checked by _valid_return: the cards are in the dealer's hand
        card = next(c for c in state.hands[seat] if state.deck.card_text(c) == text)
        state.take(seat, card)
        state.stock.append(card)
    left = remedy["count"] - (len(args) - 1)
    if left:
        wait(
            state,
            "dealt_too_many",
            remedy["chooser"],
            return_choices(state, seat),
            {"seat": seat, "count": left},
        )


def _remedy_exposed(state: HookState, remedy: dict[str, Any], args: list[str]) -> None:
    if args[0] == "new_deal":
        state.deal_again("penalties.new_deal")


def _remedy_two(state: HookState, remedy: dict[str, Any], args: list[str]) -> None:
    taken = next(c for c in remedy["cards"] if state.deck.card_text(c) == args[1])
    chooser = remedy["chooser"]
    notes = book(state)
    if remedy.get("at_draw"):  # at the draw: the chooser gets his card, the offender the other
        notes["choose_next_draw"] = None
        other = next(c for c in remedy["cards"] if c != taken)
        offender = 1 - chooser
        state.stock.remove(taken)
        state.stock.remove(other)
        state.give(chooser, taken)
        state.give(offender, other)
        notes["skip"][chooser] += 1  # both have drawn: the rest of the round goes on
        notes["skip"][offender] += 1
        state.draw_round()
        notes["drew"] = [chooser, offender]
        after_draw(notes)
    elif taken in state.hands[1 - chooser]:
        swap_last(state, chooser, 1 - chooser)


_VALID = {"dealt_too_many": _valid_return}
"""Remedies whose choice is checked otherwise than against the listed choices."""


_REMEDIES = {
    "dealt_too_few": _remedy_short,
    "dealt_too_many": _remedy_surplus,
    "exposed_card": _remedy_exposed,
    "drew_two": _remedy_two,
}
