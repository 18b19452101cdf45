"""Reports: ``irregular NAME ARGS``, each accepted only when the rules deal with it.

:func:`act` carries out a report or a claim, or refuses it changing nothing; each
report below changes the cards as they really went and starts the procedure the
rules give (the table in :mod:`bezique.plugins.referee`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bezique.actions import Action, Kind
from bezique.errors import IllegalActionError
from bezique.plugins.referee.book import (
    adversary,
    book,
    deprecated,
    eldest,
    fail,
    is_card,
    one_seat,
    open_points,
    restore,
    seat_count,
    snapshot,
    swap_last,
    two_hands,
    wait,
)
from bezique.plugins.referee.claims import claim, return_choices
from bezique.plugins.referee.moments import (
    already_known,
    at_deal,
    found_in_endgame,
    in_stock_play,
    just_drew,
    last_drawers,
    settle_surplus,
    surplus_of,
)

if TYPE_CHECKING:
    from bezique.hookstate import HookState


def act(state: HookState, action: Action) -> None:
    """Carry out a report or a claim, or raise :class:`IllegalActionError` changing nothing.

    A variant without a ``penalties`` table referees nothing: every report and
    claim is refused before anything is looked at.  A refusal found later leaves
    the whole state as it was (it is put back from a copy taken first).
    """
    words = action.combo.split()
    if not words:
        raise IllegalActionError(f"'{action.combo}': name the irregularity", "notation")
    name, args = words[0], words[1:]
    report = _REPORTS.get(name)
    if action.kind == Kind.IRREGULAR and report is None:
        known = ", ".join(sorted(_REPORTS))
        raise IllegalActionError(f"{name!r} is not an irregularity; known: {known}", "notation")
    if state.rules.data.get("penalties") is None:
        raise fail(
            name, "this variant has no penalty table (penalties), so it referees no irregularity"
        )
    saved = snapshot(state)
    try:
        if report is not None and action.kind == Kind.IRREGULAR:
            report(state, name, args)
        else:
            claim(state, name, args)
    except IllegalActionError:
        restore(state, *saved)
        raise
    state.mark_changed()


# ---------------------------------------------------------------------- reports


def _dealt_too_few(state: HookState, name: str, args: list[str]) -> None:
    at_deal(state, name)
    seat, count, flag = seat_count(state, name, args)
    looked = flag == "looked"
    hand = state.hands[seat]
    if not 0 < count < len(hand):
        raise fail(name, f"seat {seat} holds {len(hand)} cards; say how many were missing")
    for card in hand[-count:][::-1]:
        state.take(seat, card)
        state.stock.append(card)
    options = ["complete"] if looked else ["complete", "new_deal"]
    wait(state, name, eldest(state), options, {"seat": seat, "count": count})


def _dealt_too_many(state: HookState, name: str, args: list[str]) -> None:
    at_deal(state, name)
    seat, count, flag = seat_count(state, name, args, ("looked", "unnoticed"))
    if not 0 < count < (len(state.stock) - count) // state.players:
        raise fail(name, "say how many cards too many (his skipped draws must fit in the stock)")
    for _ in range(count):
        state.give(seat, state.stock.pop())
    if flag == "unnoticed":
        return  # play goes on with the surplus in his hand; found later, it is nine_cards
    if seat != state.dealer:
        book(state)["skip"][seat] += count  # S0: no draw till back to his number (A35)
    elif flag == "looked":
        book(state)["skip"][seat] += count
        open_points(state, "nine_cards", seat)
    else:
        choices = return_choices(state, seat)
        wait(state, name, eldest(state), choices, {"seat": seat, "count": count})


def _exposed_card(state: HookState, name: str, args: list[str]) -> None:
    at_deal(state, name)
    if len(args) != 1 or not is_card(state, args[0]):
        raise fail(name, "name the card exposed, as in 'irregular exposed_card QS'")
    wait(state, name, eldest(state), ["new_deal", "play_on"], {})


def _drew_out_of_turn(state: HookState, name: str, args: list[str]) -> None:
    seat = one_seat(state, name, args)
    winner = state.leader
    if seat == winner:
        raise fail(name, f"seat {seat} won the trick and draws first")
    before_the_draw = state.phase == "turn" and len(state.stock) >= state.players
    if before_the_draw and _shown(state):
        # Law 29: he puts the card back and shows his own, the next, when he draws it;
        # both have seen both cards.  No points.
        two_hands(state, name)
        book(state)["shown_at_draw"] = True
    elif before_the_draw:
        state.give(seat, state.stock.pop())
        book(state)["skip"][seat] += 1
        open_points(state, name, seat)  # the winner finds it out before he draws (S0)
    else:  # found out after the winner drew: the cards go as they should, no points (S0, S3)
        just_drew(state, name, winner, seat)
        swap_last(state, winner, seat)


def _drew_two(state: HookState, name: str, args: list[str]) -> None:
    two_hands(state, name)
    seat = one_seat(state, name, args)
    just_drew(state, name, seat)
    if book(state)["choose_next_draw"] is not None:
        raise fail(name, "a choice of cards at the next draw is already due")
    other = 1 - seat
    if seat == state.leader and _shown(state):  # law 28: he shows his own; each keeps his
        for drawer in (seat, other):
            state.expose(state.hands[drawer][-1])
    elif seat == state.leader:  # the winner lifted his card and the loser's: loser's choice
        cards = [state.hands[seat][-1], state.hands[other][-1]]
        options = list(dict.fromkeys(f"take {state.deck.card_text(c)}" for c in cards))
        wait(state, name, other, options, {"cards": cards, "offender": seat})
    else:  # the loser lifted his and the next: the adversary chooses at the next draw
        book(state)["choose_next_draw"] = {"chooser": other, "offender": seat}


def _shown(state: HookState) -> bool:
    """Whether cards seen while drawing are shown (the Portland laws, ``seen_cards``)."""
    # Absent, seen_cards is choice: the default the ordinary plugin's schema.json declares
    # (the referee imports no other plugin); variants compared as rules fill it in the same.
    return bool(state.rules.data["penalties"].get("seen_cards", "choice") == "shown")


def _played_with_seven(state: HookState, name: str, args: list[str]) -> None:
    seat = one_seat(state, name, args)
    just_drew(state, name, seat)
    if len(state.stock) < state.players + 1:
        raise fail(name, "too near the end of the stock to take two cards at the next draw")
    card = state.hands[seat][-1]
    state.take(seat, card)
    state.stock.append(card)
    book(state)["extra"][seat] += 1
    # He plays the next trick with a card short: the points may be claimed until he
    # draws again, however the trick's cards fall (S0, S3, S4).
    open_points(state, name, seat, until="draw")


def _overdrew(state: HookState, name: str, args: list[str]) -> None:
    """SEAT kept a card too many at the last draw, unnoticed: the next card of the stock.

    Those who drew after him took each the card after the one they took, so
    their cards move along by one.  No penalty yet: it is ``nine_cards`` when
    found.
    """
    seat = one_seat(state, name, args)
    just_drew(state, name, seat)
    order = last_drawers(state)
    later = order[order.index(seat) + 1 :]
    for other in reversed(later):
        card = state.hands[other][-1]
        state.take(other, card)
        state.stock.append(card)
    for other in [seat, *later]:
        state.give(other, state.stock.pop())


def _nine_cards(state: HookState, name: str, args: list[str]) -> None:
    """SEAT is found with a card too many (his hand as it is): points; he skips a draw.

    The surplus may have been dealt (``dealt_too_many ... unnoticed``) or drawn
    (``overdrew``), and found after any number of tricks: S0, S3 and S4 give the
    same remedy whenever it is found, with their own points.  A report against a
    seat holding his number is refused, unless no seat holds a card too many and
    nothing is known of one: then the old meaning stands, deprecated.
    """
    seat = one_seat(state, name, args)
    surplus = surplus_of(state, name)
    if surplus[seat] == 0 and found_in_endgame(state)[seat]:
        raise fail(name, f"seat {seat}'s cards too many were found already: the penalty is once")
    if _old_nine_cards(state, surplus, seat):
        deprecated(f"irregular nine_cards {seat}", f"irregular overdrew {seat}")
        state.give(seat, state.stock.pop())
        book(state)["skip"][seat] += 1
        open_points(state, name, seat)
        return
    if surplus[seat] <= 0:
        raise fail(name, _not_too_many(state, seat, surplus))
    for other, extra in enumerate(surplus):
        if other != seat and extra:
            count = len(state.hands[other])
            both = "; both hold too many: irregular both_too_many" if extra > 0 else ""
            raise fail(
                name,
                f"seat {other} holds {count} cards, not his number {count - extra}{both}",
            )
    settle_surplus(state, surplus)
    open_points(state, name, seat)


def _old_nine_cards(state: HookState, surplus: list[int], seat: int) -> bool:
    """Whether ``nine_cards SEAT`` keeps its old meaning: he takes the top card too many now.

    Only where the report contradicts nothing the hands show: every seat holds his
    number, SEAT is not known to skip or double a draw, and the stock has the card
    to give him between two tricks (the only state in which a record made before
    the hand was taken as it is holds this report).
    """
    return (
        not any(surplus)
        and not already_known(state, seat)
        and state.phase == "play"
        and len(state.stock) >= state.players + 1
    )


def _not_too_many(state: HookState, seat: int, surplus: list[int]) -> str:
    """Why ``seat``, holding no card beyond his number, is not the player with nine cards."""
    held = len(state.hands[seat])
    skips, extra = book(state)["skip"][seat], book(state)["extra"][seat]
    known = " (he already skips a draw)" if skips == 1 else ""
    known = f" (he already skips {skips} draws)" if skips > 1 else known
    known = " (he already takes two at his next draw)" if extra else known
    offenders = [str(other) for other, more in enumerate(surplus) if more > 0]
    found = f"; seat {' and seat '.join(offenders)} holds more than his number" if offenders else ""
    return (
        f"seat {seat} holds {held} cards, {held - surplus[seat]} being his number now{known}: "
        "not a card too many.  The penalty is for the player found, at any time of the play, "
        f"holding more cards than his number while the others hold theirs (P09){found}"
    )


def _both_too_many(state: HookState, name: str, args: list[str]) -> None:
    """Every seat is found with too many (their hands as they are): each skips a draw (S3)."""
    if args:
        raise fail(name, "takes no arguments")
    surplus = surplus_of(state, name)
    if not any(surplus) and not any(already_known(state, s) for s in range(state.players)):
        in_stock_play(state, name, 2 * state.players)
        deprecated("irregular both_too_many", "irregular overdrew SEAT")
        for seat in range(state.players):
            state.give(seat, state.stock.pop())
            book(state)["skip"][seat] += 1
        return
    right = [str(seat) for seat, extra in enumerate(surplus) if extra <= 0]
    if right:
        raise fail(name, f"seat {', '.join(right)} does not hold a card too many")
    settle_surplus(state, surplus)


def _led_out_of_turn(state: HookState, name: str, args: list[str]) -> None:
    seat = one_seat(state, name, args)
    order = list(state.trick_order)
    if state.phase != "play" or state.trick or seat == state.to_act or seat not in order:
        raise fail(
            name,
            f"only before a trick's lead, by a seat of the trick ({' '.join(map(str, order))}) "
            f"other than its leader ({state.to_act})",
        )
    book(state)["led_out"] = {"seat": seat, "leader": state.leader, "order": order}
    start = order.index(seat)
    state.leader = state.to_act = seat
    state.trick_order = tuple(order[start:] + order[:start])
    book(state)["claims"].append(
        {"name": name, "offender": seat, "points": 0, "options": ["take_back"], "until": "trick"}
    )
    open_points(state, name, seat, until="trick")


def _revoke(state: HookState, name: str, args: list[str]) -> None:
    seat = one_seat(state, name, args)
    if state.stock_left() or state.phase != "play" or not state.trick or seat != state.to_act:
        raise fail(name, "only in the end-game, by the player about to play to a trick")
    legal = set(state.rules.legal_plays(state, seat, state.hands[seat]))
    if all(c in legal for c in state.hands[seat]):
        raise fail(name, f"seat {seat} cannot revoke: every card he holds is a legal play")
    involved = {s for pair in book(state)["revokes"] for s in pair}
    if {seat, adversary(state, seat)} & involved:
        raise fail(name, "a revoke already gives these players' end-game tricks away this hand")
    book(state)["revoking"] = seat


_REPORTS = {
    "dealt_too_few": _dealt_too_few,
    "dealt_too_many": _dealt_too_many,
    "exposed_card": _exposed_card,
    "drew_out_of_turn": _drew_out_of_turn,
    "drew_two": _drew_two,
    "played_with_seven": _played_with_seven,
    "overdrew": _overdrew,
    "nine_cards": _nine_cards,
    "both_too_many": _both_too_many,
    "led_out_of_turn": _led_out_of_turn,
    "revoke": _revoke,
}
