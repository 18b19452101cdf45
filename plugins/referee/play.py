"""What a report changes in the play that follows: the table hooks' procedures.

The kernel asks these only in a hand where a report or claim was accepted: the
cards a revoker plays (:func:`adjust_plays`), a card played (:func:`on_play`: claims
lapse, a revoke is carried out, a lead out of turn stands), the draw with its
skipped and doubled draws (:func:`draw_round`), and who takes a revoker's tricks
(:func:`trick_owner`).  :func:`remedies` lists the choices of the ``remedy`` phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bezique.actions import Action, Kind, ScoreEvent
from bezique.plugins.referee.book import adversary, book, others, table, wait

if TYPE_CHECKING:
    from bezique.hookstate import HookState


def remedies(state: HookState) -> list[Action]:
    """The choices open in the ``remedy`` phase."""
    remedy = book(state)["remedy"]
    return [Action(Kind.CLAIM, (), f"{remedy['name']} {option}") for option in remedy["options"]]


def remedies_shown(state: HookState) -> list[str] | None:
    """The choices as the chooser sees them, if they name cards he may not see (else None).

    The dealer's surplus goes back from his concealed hand: the chooser's
    observation shows one choice, not a choice for each of the dealer's cards.
    """
    remedy = book(state)["remedy"]
    if remedy["name"] != "dealt_too_many":
        return None
    count, seat = remedy["count"], remedy["seat"]
    return [
        f"claim dealt_too_many return CARD... (from 1 to {count} of seat {seat}'s concealed cards)"
    ]


def adjust_plays(state: HookState, seat: int, cards: list[int]) -> list[int]:
    """A reported revoke: the seat's play is one the end-game duties forbid."""
    if book(state)["revoking"] != seat:
        return cards
    allowed = set(cards)
    return [c for c in state.hands[seat] if c not in allowed]


def on_play(state: HookState, seat: int, card: int) -> None:
    """A card is played: points not yet claimed lapse; a revoke or a lead out of turn is noted.

    A short hand's points stay open until his next draw (``until: draw``).
    """
    notes = book(state)
    notes["claims"] = [c for c in notes["claims"] if c["until"] in ("trick", "draw")]
    if notes["revoking"] == seat:
        notes["revoking"] = -1
        _forfeit(state, seat, adversary(state, seat))
    led = notes["led_out"]
    if led is not None and len(state.trick) + 1 == len(state.trick_order):
        notes["led_out"] = None  # every other player has played to it: it stands
        stands = [c for c in notes["claims"] if "take_back" not in c["options"]]
        for claim in stands:
            if claim["until"] == "trick":
                claim["until"] = "card"  # its points may be claimed until the next card
        notes["claims"] = stands


def draw_round(state: HookState) -> bool:
    """Draw for everyone, minding skipped and extra draws; True if play waits for a choice."""
    notes = book(state)
    notes["claims"] = [c for c in notes["claims"] if c["until"] in ("trick", "card", "draw")]
    choice = notes["choose_next_draw"]
    if choice is not None and len(state.stock) >= 2:
        top = state.stock[-2:][::-1]
        options = list(dict.fromkeys(f"take {state.deck.card_text(c)}" for c in top))
        wait(state, "drew_two", choice["chooser"], options, {"cards": top, "at_draw": True})
        return True
    notes["drew"] = []
    for seat in [state.leader, *others(state, state.leader)]:
        if notes["skip"][seat]:
            notes["skip"][seat] -= 1
            continue
        for _ in range(1 + notes["extra"][seat]):
            state.draw_card(seat)
        notes["extra"][seat] = 0
        notes["drew"].append(seat)
    if notes.get("shown_at_draw"):  # law 29: both cards were seen; each is shown
        notes["shown_at_draw"] = False
        for seat in notes["drew"]:
            state.expose(state.hands[seat][-1])
    after_draw(notes)
    return False


def after_draw(notes: dict[str, Any]) -> None:
    """The seats of ``notes["drew"]`` have drawn: a short hand's points lapse (P08)."""
    notes["claims"] = [
        c for c in notes["claims"] if c["until"] != "draw" or c["offender"] not in notes["drew"]
    ]


def trick_owner(state: HookState, winner: int) -> int:
    """Who takes a trick won by ``winner``: his adversary once he has revoked (P12)."""
    for offender, gainer in book(state)["revokes"]:
        if offender == winner:
            return int(gainer)
    return winner


def _forfeit(state: HookState, offender: int, adversary: int) -> None:
    """A revoke: the offender's end-game tricks go to his adversary, with their brisques.

    Those he has won so far move now; those he wins from now on are the
    adversary's (:func:`trick_owner`).  S4 (``remaining_tricks``) lets him keep
    the tricks won before the revoke.
    """
    book(state)["revokes"].append([offender, adversary])
    if table(state, "revoke") != "all_endgame_tricks":
        return
    start = state.won_at_exhaustion[offender]
    lost = state.won[offender][start:]
    del state.won[offender][start:]
    state.won[adversary].extend(lost)
    brisques = state.rules.data["brisques"]
    count = sum(state.deck.card_text(c)[0] in brisques["ranks"] for c in lost)
    if count and brisques["timing"] == "immediate":
        detail = f"seat {offender}'s end-game tricks go to seat {adversary}"
        points = count * brisques["points"]
        state.score(
            [
                ScoreEvent(offender, -points, "penalties.revoke", detail),
                ScoreEvent(adversary, points, "penalties.revoke", detail),
            ]
        )
