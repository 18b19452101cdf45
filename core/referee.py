"""The referee: irregularities at a real table and the penalties the variant gives for them.

A record of a game played with real cards may hold two more kinds of action:

``irregular NAME ARGS``
    a report of what happened (``irregular nine_cards 1``: seat 1 is found with a
    card too many).  It changes the cards as they really went and starts the
    procedure the rules give.  It is accepted only at the moment the rules deal
    with that irregularity; otherwise it is refused with the reason.
``claim NAME OPTION``
    the injured player's claim or choice (``claim nine_cards add``).  Points are
    claimed before the next card is played or drawn, by a player of another side
    than the offender; a claim that is too late, by the wrong player, or for an
    option the variant's ``penalties.award`` does not give is refused.

Where play cannot go on until the injured player chooses (a short deal: made
up or dealt afresh; an exposed card; two cards lifted), the game waits in the
``remedy`` phase and its legal actions are the choices.  The rules are S0's
penalties paragraph, S3's and S4's (RULES_REFERENCE 1.3, P01-P12); the points
and the award mode are the variant's ``penalties`` table (A28).

=================================  ============================================================
report                             when, what happens, what may be claimed
=================================  ============================================================
``dealt_too_few SEAT N [looked]``  before the first card; SEAT's last N cards go back on the
                                   stock; the eldest hand chooses ``complete`` (SEAT takes N
                                   from the stock) or, unless ``looked``, ``new_deal`` (P01)
``dealt_too_many SEAT N [looked]`` before the first card; SEAT takes N more.  A non-dealer
                                   skips draws until back to his number (A35).  The dealer:
                                   unless ``looked`` the eldest hand returns the surplus
                                   (``return CARD...``); if he looked, as nine cards (P02, P03)
``exposed_card CARD``              before the first card; the eldest hand chooses ``new_deal``
                                   or ``play_on`` (P04)
``drew_out_of_turn SEAT``          in the winner's turn, SEAT takes the top card now and skips
                                   his draw, and the winner may claim points before he draws;
                                   found out after the draw, SEAT and the winner swap what they
                                   drew and no points are due (P05)
``drew_two SEAT``                  right after the draw (two hands).  The winner lifted two:
                                   the adversary takes his choice of them.  The loser lifted
                                   two: at the next draw the adversary chooses of the top two
                                   (P06, P07)
``played_with_seven SEAT``         right after the draw: SEAT did not draw; his card goes
                                   back; he takes two next time; points (P08)
``nine_cards SEAT``                while the stock lasts: SEAT took a card too many (the top
                                   card); he skips his next draw; points (P09)
``both_too_many``                  while the stock lasts: each took a card too many; each
                                   skips a draw; no points (P10, S3)
``led_out_of_turn SEAT``           SEAT leads instead of the leader; until every other player
                                   has played to it the lead may be taken back
                                   (``take_back``); points if the table gives any (P11)
``revoke SEAT``                    in the end-game, SEAT's next card breaks the duties; his
                                   end-game tricks (all, or from the revoke on) go to his
                                   adversary with their brisques and last trick: those won are
                                   moved at once, those still to come are the adversary's
                                   (P12); with more than two cards a trick, the adversary is
                                   the next opponent on his left (A27); one revoke a hand for
                                   the same players
=================================  ============================================================
"""

from __future__ import annotations

import copy
from itertools import combinations
from typing import TYPE_CHECKING, Any

from bezique.actions import Action, Kind
from bezique.cards import CardError
from bezique.errors import IllegalActionError

if TYPE_CHECKING:
    from bezique.game import GameState

KEY = "referee"
"""Where the referee keeps its state in ``state.extra`` (reset at every deal)."""
REMEDY = "remedy"
"""Phase: play waits for the injured player's choice of remedy."""


def _fail(name: str, reason: str) -> IllegalActionError:
    return IllegalActionError(f"{name}: {reason}", f"penalties.{name}")


def book(state: GameState) -> dict[str, Any]:
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
        state.refereed = True
    return found


def table(state: GameState, name: str) -> Any:
    """The variant's penalty table entry ``name``; refuse if the variant has none."""
    penalties = state.rules.data.get("penalties")
    if penalties is None:
        raise _fail(name, "this variant has no penalty table (penalties)")
    return penalties[name]


# ---------------------------------------------------------------------- entry points


def act(state: GameState, action: Action) -> None:
    """Carry out a report or a claim, or raise :class:`IllegalActionError` changing nothing."""
    words = action.combo.split()
    if not words:
        raise IllegalActionError(f"'{action.combo}': name the irregularity", "notation")
    name, args = words[0], words[1:]
    saved, refereed = copy.deepcopy(state.extra.get(KEY)), state.refereed
    try:
        if action.kind == Kind.IRREGULAR:
            report = _REPORTS.get(name)
            if report is None:
                known = ", ".join(sorted(_REPORTS))
                raise IllegalActionError(
                    f"{name!r} is not an irregularity; known: {known}", "notation"
                )
            report(state, name, args)
        else:
            _claim(state, name, args)
    except IllegalActionError:  # refused: the referee's notes are as they were
        if saved is None:
            state.extra.pop(KEY, None)
        else:
            state.extra[KEY] = saved
        state.refereed = refereed
        raise
    state.mark_changed()


def remedies(state: GameState) -> list[Action]:
    """The choices open in the ``remedy`` phase."""
    remedy = book(state)["remedy"]
    return [Action(Kind.CLAIM, (), f"{remedy['name']} {option}") for option in remedy["options"]]


def adjust_plays(state: GameState, seat: int, cards: list[int]) -> list[int]:
    """A reported revoke: the seat's play is one the end-game duties forbid."""
    if book(state)["revoking"] != seat:
        return cards
    allowed = set(cards)
    return [c for c in state.hands[seat] if c not in allowed]


def on_play(state: GameState, seat: int, card: int) -> None:
    """A card is played: points not yet claimed lapse; a revoke or a lead out of turn is noted."""
    notes = book(state)
    notes["claims"] = [c for c in notes["claims"] if c["until"] == "trick"]
    if notes["revoking"] == seat:
        notes["revoking"] = -1
        _forfeit(state, seat, _adversary(state, seat))
    led = notes["led_out"]
    if led is not None and len(state.trick) + 1 == len(state.trick_order):
        notes["led_out"] = None  # every other player has played to it: it stands
        stands = [c for c in notes["claims"] if "take_back" not in c["options"]]
        for claim in stands:
            claim["until"] = "card"  # its points may be claimed until the next card
        notes["claims"] = stands


def draw_round(state: GameState) -> bool:
    """Draw for everyone, minding skipped and extra draws; True if play waits for a choice."""
    notes = book(state)
    notes["claims"] = [c for c in notes["claims"] if c["until"] in ("trick", "card")]
    choice = notes["choose_next_draw"]
    if choice is not None and len(state.stock) >= 2:
        top = state.stock[-2:][::-1]
        options = list(dict.fromkeys(f"take {state.deck.card_text(c)}" for c in top))
        _wait(state, "drew_two", choice["chooser"], options, {"cards": top, "at_draw": True})
        return True
    notes["drew"] = []
    for seat in [state.leader, *state._others[state.leader]]:
        if notes["skip"][seat]:
            notes["skip"][seat] -= 1
            continue
        for _ in range(1 + notes["extra"][seat]):
            state.draw_card(seat)
        notes["extra"][seat] = 0
        notes["drew"].append(seat)
    return False


def trick_owner(state: GameState, winner: int) -> int:
    """Who takes a trick won by ``winner``: his adversary once he has revoked (P12)."""
    for offender, adversary in book(state)["revokes"]:
        if offender == winner:
            return int(adversary)
    return winner


def _forfeit(state: GameState, offender: int, adversary: int) -> None:
    """A revoke: the offender's end-game tricks go to his adversary, with their brisques.

    Those he has won so far move now; those he wins from now on are the
    adversary's (:func:`trick_owner`).  S4 (``remaining_tricks``) lets him keep
    the tricks won before the revoke.
    """
    from bezique.game import ScoreEvent

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


# ---------------------------------------------------------------------- claims


def _wait(
    state: GameState, name: str, chooser: int, options: list[str], data: dict[str, Any]
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


def _open_points(state: GameState, name: str, offender: int, until: str = "play") -> None:
    """Open a claim of the table's points for ``name`` to the offender's opponents."""
    points = table(state, name)
    if points:
        award = table(state, "award")
        options = {"injured_chooses": ["add", "deduct"], "opponent_adds": ["add"]}.get(
            award, ["deduct"]
        )
        book(state)["claims"].append(
            {
                "name": name,
                "offender": offender,
                "points": points,
                "options": options,
                "until": until,
            }
        )


def _claim(state: GameState, name: str, args: list[str]) -> None:
    notes = book(state)
    remedy = notes["remedy"]
    if remedy is not None:
        _choose(state, remedy, name, args)
        return
    claims = [c for c in notes["claims"] if c["name"] == name]
    if not claims:
        raise _fail(
            name,
            "no such claim is open now: it is made before the next card is played "
            "or drawn, after the irregularity is reported",
        )
    option = args[0] if args else ""
    matching = [c for c in claims if option in c["options"]]
    if not matching:
        options = sorted({o for c in claims for o in c["options"]})
        raise _fail(name, f"choose one of {', '.join(options)} (penalties.award)")
    claim = matching[0]
    seat = _claimant(state, name, claim["offender"], option, args[1:])
    if state.side_of[seat] == state.side_of[claim["offender"]]:
        raise _fail(name, f"seat {seat} is on the offender's side and cannot claim the penalty")
    if option == "take_back":
        _take_back(state, name)
        notes["claims"].remove(claim)
        return
    from bezique.game import ScoreEvent

    detail = f"seat {claim['offender']}: {name.replace('_', ' ')}"
    if option == "add":
        event = ScoreEvent(seat, claim["points"], f"penalties.{name}", detail)
    else:
        event = ScoreEvent(claim["offender"], -claim["points"], f"penalties.{name}", detail)
    notes["claims"].remove(claim)
    state.score([event])


def _choose(state: GameState, remedy: dict[str, Any], name: str, args: list[str]) -> None:
    choice = " ".join(args)
    if name != remedy["name"] or choice not in remedy["options"]:
        choices = ", ".join(f"claim {remedy['name']} {o}" for o in remedy["options"])
        raise _fail(name, f"play waits for seat {remedy['chooser']} to choose: {choices}")
    book(state)["remedy"] = None
    state.phase = remedy["phase"]
    state.to_act = remedy["to_act"]
    _REMEDIES[name](state, remedy, args)


def _claimant(state: GameState, name: str, offender: int, option: str, args: list[str]) -> int:
    """The seat claiming: named last in the claim, or the offender's only opponent."""
    if args:
        return _seat(state, name, args[0])
    opponents = [s for s in range(state.players) if state.side_of[s] != state.side_of[offender]]
    if len(opponents) != 1:
        example = f"claim {name} {option} {opponents[0]}"
        raise _fail(name, f"name the seat that claims, as in '{example}'")
    return opponents[0]


def _seat(state: GameState, name: str, text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) >= state.players:
        raise _fail(name, f"{text!r} is not a seat (0 to {state.players - 1})")
    return int(text)


# ---------------------------------------------------------------------- when


def _at_deal(state: GameState, name: str) -> None:
    if state.played or state.trick or state.phase != "play" or book(state)["remedy"]:
        raise _fail(name, "too late: it is dealt with before the first card of the hand is played")


def _in_stock_play(state: GameState, name: str, need: int = 1) -> None:
    if state.phase != "play" or len(state.stock) < need:
        raise _fail(name, "only while the stock lasts, between cards (not in the end-game)")


def _just_drew(state: GameState, name: str, *seats: int) -> None:
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
        raise _fail(
            name, "reported right after the draw that follows a trick, while the stock lasts"
        )
    drew = book(state).get("drew", list(range(state.players)))
    for seat in seats:
        if seat not in drew:
            raise _fail(name, f"seat {seat} did not draw at the last draw")


def _two_hands(state: GameState, name: str) -> None:
    if state.players != 2:
        raise _fail(name, "the sources give this procedure for the two-hand game only")


# ---------------------------------------------------------------------- reports


def _dealt_too_few(state: GameState, name: str, args: list[str]) -> None:
    _at_deal(state, name)
    seat, count, looked = _seat_count(state, name, args)
    hand = state.hands[seat]
    if not 0 < count < len(hand):
        raise _fail(name, f"seat {seat} holds {len(hand)} cards; say how many were missing")
    for card in hand[-count:][::-1]:
        state.take(seat, card)
        state.stock.append(card)
    options = ["complete"] if looked else ["complete", "new_deal"]
    _wait(state, name, _eldest(state), options, {"seat": seat, "count": count})


def _dealt_too_many(state: GameState, name: str, args: list[str]) -> None:
    _at_deal(state, name)
    seat, count, looked = _seat_count(state, name, args)
    if not 0 < count < (len(state.stock) - count) // state.players:
        raise _fail(name, "say how many cards too many (his skipped draws must fit in the stock)")
    for _ in range(count):
        state.give(seat, state.stock.pop())
    if seat != state.dealer:
        book(state)["skip"][seat] += count  # S0: no draw till back to his number (A35)
    elif looked:
        book(state)["skip"][seat] += count
        _open_points(state, "nine_cards", seat)
    else:
        texts = sorted(state.deck.card_text(c) for c in state.hands[seat])
        options = sorted({"return " + " ".join(cards) for cards in combinations(texts, count)})
        _wait(state, name, _eldest(state), options, {"seat": seat, "count": count})


def _exposed_card(state: GameState, name: str, args: list[str]) -> None:
    _at_deal(state, name)
    if len(args) != 1 or not _is_card(state, args[0]):
        raise _fail(name, "name the card exposed, as in 'irregular exposed_card QS'")
    _wait(state, name, _eldest(state), ["new_deal", "play_on"], {})


def _drew_out_of_turn(state: GameState, name: str, args: list[str]) -> None:
    seat = _one_seat(state, name, args)
    winner = state.leader
    if seat == winner:
        raise _fail(name, f"seat {seat} won the trick and draws first")
    if state.phase == "turn" and len(state.stock) >= state.players:
        state.give(seat, state.stock.pop())
        book(state)["skip"][seat] += 1
        _open_points(state, name, seat)  # the winner finds it out before he draws (S0)
    else:  # found out after the winner drew: the cards go as they should, no points (S0, S3)
        _just_drew(state, name, winner, seat)
        _swap_last(state, winner, seat)


def _drew_two(state: GameState, name: str, args: list[str]) -> None:
    _two_hands(state, name)
    seat = _one_seat(state, name, args)
    _just_drew(state, name, seat)
    if book(state)["choose_next_draw"] is not None:
        raise _fail(name, "a choice of cards at the next draw is already due")
    other = 1 - seat
    if seat == state.leader:  # the winner lifted his card and the loser's: loser's choice
        cards = [state.hands[seat][-1], state.hands[other][-1]]
        options = list(dict.fromkeys(f"take {state.deck.card_text(c)}" for c in cards))
        _wait(state, name, other, options, {"cards": cards, "offender": seat})
    else:  # the loser lifted his and the next: the adversary chooses at the next draw
        book(state)["choose_next_draw"] = {"chooser": other, "offender": seat}


def _played_with_seven(state: GameState, name: str, args: list[str]) -> None:
    seat = _one_seat(state, name, args)
    _just_drew(state, name, seat)
    if len(state.stock) < state.players + 1:
        raise _fail(name, "too near the end of the stock to take two cards at the next draw")
    card = state.hands[seat][-1]
    state.take(seat, card)
    state.stock.append(card)
    book(state)["extra"][seat] += 1
    _open_points(state, name, seat)


def _nine_cards(state: GameState, name: str, args: list[str]) -> None:
    seat = _one_seat(state, name, args)
    _in_stock_play(state, name, state.players + 1)
    state.give(seat, state.stock.pop())
    book(state)["skip"][seat] += 1
    _open_points(state, name, seat)


def _both_too_many(state: GameState, name: str, args: list[str]) -> None:
    if args:
        raise _fail(name, "takes no arguments")
    _in_stock_play(state, name, 2 * state.players)
    for seat in range(state.players):
        state.give(seat, state.stock.pop())
        book(state)["skip"][seat] += 1


def _led_out_of_turn(state: GameState, name: str, args: list[str]) -> None:
    seat = _one_seat(state, name, args)
    order = list(state.trick_order)
    if state.phase != "play" or state.trick or seat == state.to_act or seat not in order:
        raise _fail(
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
    _open_points(state, name, seat, until="trick")


def _take_back(state: GameState, name: str) -> None:
    led = book(state)["led_out"]
    if led is None or not state.trick:
        raise _fail(name, "the lead stands: every other player has played to it")
    for seat, card in zip(state.trick_seats, state.trick, strict=True):
        state.give(seat, card)
        state.played.remove(card)
    state.trick.clear()
    state.trick_seats.clear()
    state.leader = state.to_act = led["leader"]
    state.trick_order = tuple(led["order"])
    book(state)["led_out"] = None


def _revoke(state: GameState, name: str, args: list[str]) -> None:
    seat = _one_seat(state, name, args)
    if state.stock_left() or state.phase != "play" or not state.trick or seat != state.to_act:
        raise _fail(name, "only in the end-game, by the player about to play to a trick")
    legal = set(state.rules.legal_plays(state, seat, state.hands[seat]))
    if all(c in legal for c in state.hands[seat]):
        raise _fail(name, f"seat {seat} cannot revoke: every card he holds is a legal play")
    involved = {s for pair in book(state)["revokes"] for s in pair}
    if {seat, _adversary(state, seat)} & involved:
        raise _fail(name, "a revoke already gives these players' end-game tricks away this hand")
    book(state)["revoking"] = seat


# ---------------------------------------------------------------------- remedies


def _remedy_short(state: GameState, remedy: dict[str, Any], args: list[str]) -> None:
    if args[0] == "new_deal":
        state.deal_again()
        return
    for _ in range(remedy["count"]):
        state.give(remedy["seat"], state.stock.pop())


def _remedy_surplus(state: GameState, remedy: dict[str, Any], args: list[str]) -> None:
    seat = remedy["seat"]
    for text in args[1:]:  # a listed choice: the cards are in the dealer's hand
        card = next(c for c in state.hands[seat] if state.deck.card_text(c) == text)
        state.take(seat, card)
        state.stock.append(card)


def _remedy_exposed(state: GameState, remedy: dict[str, Any], args: list[str]) -> None:
    if args[0] == "new_deal":
        state.deal_again()


def _remedy_two(state: GameState, remedy: dict[str, Any], args: list[str]) -> None:
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
    elif taken in state.hands[1 - chooser]:
        _swap_last(state, chooser, 1 - chooser)


_REMEDIES = {
    "dealt_too_few": _remedy_short,
    "dealt_too_many": _remedy_surplus,
    "exposed_card": _remedy_exposed,
    "drew_two": _remedy_two,
}

_REPORTS = {
    "dealt_too_few": _dealt_too_few,
    "dealt_too_many": _dealt_too_many,
    "exposed_card": _exposed_card,
    "drew_out_of_turn": _drew_out_of_turn,
    "drew_two": _drew_two,
    "played_with_seven": _played_with_seven,
    "nine_cards": _nine_cards,
    "both_too_many": _both_too_many,
    "led_out_of_turn": _led_out_of_turn,
    "revoke": _revoke,
}


# ---------------------------------------------------------------------- helpers


def _adversary(state: GameState, seat: int) -> int:
    """Who gains a revoker's tricks.

    His opponent in a two-card trick (two hands, S0's duels); with more cards a
    trick the next player of another side on his left (A27's reading).
    """
    if len(state.trick_order) == 2:
        return next(s for s in state.trick_order if s != seat)
    return next(
        other for other in state._others[seat] if state.side_of[other] != state.side_of[seat]
    )


def _eldest(state: GameState) -> int:
    """The player left of the dealer (the non-dealer of the two-hand game)."""
    return (state.dealer + 1) % state.players


def _one_seat(state: GameState, name: str, args: list[str]) -> int:
    if len(args) != 1:
        raise _fail(name, f"name the offending seat, as in 'irregular {name} 1'")
    return _seat(state, name, args[0])


def _seat_count(state: GameState, name: str, args: list[str]) -> tuple[int, int, bool]:
    looked = args[2:] == ["looked"]
    counted = len(args) > 1 and args[1].isascii() and args[1].isdigit()
    if len(args) not in (2, 3) or (len(args) == 3 and not looked) or not counted:
        raise _fail(
            name, f"write 'irregular {name} SEAT COUNT' and, if he has seen his cards, 'looked'"
        )
    return _seat(state, name, args[0]), int(args[1]), looked


def _swap_last(state: GameState, first: int, second: int) -> None:
    """Swap the cards ``first`` and ``second`` drew last."""
    a, b = state.hands[first][-1], state.hands[second][-1]
    state.take(first, a)
    state.take(second, b)
    state.give(first, b)
    state.give(second, a)


def _is_card(state: GameState, text: str) -> bool:
    try:
        state.deck.parse_face(text)
    except CardError:
        return False
    return True
