"""The referee: irregularities at a real table and the penalties the variant gives for them.

A record of a game played with real cards may hold two more kinds of action:

``irregular NAME ARGS``
    a report of what happened (``irregular nine_cards 1``: seat 1 is found with a
    card too many).  It changes the cards as they really went and starts the
    procedure the rules give.  It is accepted only at the moment the rules deal
    with that irregularity; otherwise it is refused with the reason.
``claim NAME OPTION``
    the injured player's claim or choice (``claim nine_cards add``).  Points are
    claimed before the next card is played or drawn (a short hand's: before his
    next draw), by a player of another side than the offender; a claim that is
    too late, by the wrong player, or for an option the variant's
    ``penalties.award`` does not give is refused.

A variant without a ``penalties`` table referees nothing: every report and claim
is refused.  A refused report or claim leaves the game exactly as it was.

Where play cannot go on until the injured player chooses (a short deal: made
up or dealt afresh; an exposed card; two cards lifted; the dealer's surplus),
the game waits in the ``remedy`` phase and its legal actions are the choices
(never more than one per face of card).  The rules are S0's penalties
paragraph, S3's and S4's (RULES_REFERENCE 1.3, P01-P12); the points and the
award mode are the variant's ``penalties`` table (A28).

A game started with ``new_game(..., referee=True)`` (a record's ``"referee":
true``) is a refereed game: the winner of every trick that a draw follows ends
his turn with ``draw`` even when he has nothing to declare, so that a report can
come before his draw (drawing out of turn, P05).

===================================  ==========================================================
report                               when, what happens, what may be claimed
===================================  ==========================================================
``dealt_too_few SEAT N [looked]``    before the first card; SEAT's last N cards go back on the
                                     stock; the eldest hand chooses ``complete`` (SEAT takes N
                                     from the stock) or, unless ``looked``, ``new_deal`` (P01)
``dealt_too_many SEAT N [looked]``   before the first card; SEAT takes N more.  A non-dealer
                                     skips draws until back to his number (A35).  The dealer:
                                     unless ``looked`` the eldest hand returns the surplus
                                     (``return CARD...``, one card or up to N at a time); if
                                     he looked, as nine cards (P02, P03)
``dealt_too_many SEAT N unnoticed``  before the first card; SEAT takes N more and nobody
                                     notices: he draws as usual until it is found
                                     (``nine_cards``)
``exposed_card CARD``                before the first card; the eldest hand chooses
                                     ``new_deal`` or ``play_on`` (P04)
``drew_out_of_turn SEAT``            in the winner's turn, SEAT takes the top card now and
                                     skips his draw, and the winner may claim points before he
                                     draws; found out after the draw, SEAT and the winner swap
                                     what they drew and no points are due (P05)
``drew_two SEAT``                    right after the draw (two hands).  The winner lifted two:
                                     the adversary takes his choice of them.  The loser lifted
                                     two: at the next draw the adversary chooses of the top two
                                     (P06, P07)
``overdrew SEAT``                    right after the draw: SEAT kept the next card too, and
                                     nobody noticed (those who drew after him took each the
                                     card after theirs); no points until it is found
                                     (``nine_cards``)
``played_with_seven SEAT``           right after the draw: SEAT did not draw; his card goes
                                     back; he takes two at his next draw; points, claimed until
                                     that draw (P08)
``nine_cards SEAT``                  during the play: SEAT is found holding more than his
                                     number, the others holding theirs, his hand as it is (a
                                     surplus from ``overdrew`` or ``dealt_too_many ...
                                     unnoticed``); points; he skips a draw a card too many
                                     (P09).  Where SEAT holds his number, the old meaning
                                     (he took the top card too many now) stands, deprecated
``both_too_many``                    during the play: every seat is found holding too many,
                                     hands as they are; each skips a draw a card too many; no
                                     points (P10, S3); where none does, deprecated as above
``led_out_of_turn SEAT``             SEAT leads instead of the leader; until every other
                                     player has played to it the lead may be taken back
                                     (``take_back``); points if the table gives any (P11)
``revoke SEAT``                      in the end-game, SEAT's next card breaks the duties; his
                                     end-game tricks (all, or from the revoke on) go to his
                                     adversary with their brisques and last trick: those won
                                     are moved at once, those still to come are the
                                     adversary's (P12); with more than two cards a trick, the
                                     adversary is the next opponent on his left (A27); one
                                     revoke a hand for the same players
===================================  ==========================================================

A surplus that is never found, or found too late for the draws to be skipped,
stays in the hand into the end-game; the hand then ends when a player of the
next trick has no card left to play.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from bezique.actions import Action, Kind, ScoreEvent
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
        raise _fail(
            name, "this variant has no penalty table (penalties), so it referees no irregularity"
        )
    saved = _snapshot(state)
    try:
        if report is not None and action.kind == Kind.IRREGULAR:
            report(state, name, args)
        else:
            _claim(state, name, args)
    except IllegalActionError:
        _restore(state, *saved)
        raise
    state.mark_changed()


_KEPT = ("history", "decks")
"""State the referee never changes, left out of its copy (records can make them long)."""
_GROWN = ("events", "event_hands")
"""State the referee only adds to: put back by its length."""


def _snapshot(state: GameState) -> tuple[GameState, dict[str, list[Any]], dict[str, int]]:
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


def _restore(
    state: GameState, saved: GameState, lists: dict[str, list[Any]], lengths: dict[str, int]
) -> None:
    """Put ``state`` back as :func:`_snapshot` found it (the turn is never changed)."""
    turn = state.turn
    state.__dict__.update(saved.__dict__)
    state.turn = turn
    for name, value in lists.items():
        setattr(state, name, value)
        del value[lengths.get(name, len(value)) :]


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
    """A card is played: points not yet claimed lapse; a revoke or a lead out of turn is noted.

    A short hand's points stay open until his next draw (``until: draw``).
    """
    notes = book(state)
    notes["claims"] = [c for c in notes["claims"] if c["until"] in ("trick", "draw")]
    if notes["revoking"] == seat:
        notes["revoking"] = -1
        _forfeit(state, seat, _adversary(state, seat))
    led = notes["led_out"]
    if led is not None and len(state.trick) + 1 == len(state.trick_order):
        notes["led_out"] = None  # every other player has played to it: it stands
        stands = [c for c in notes["claims"] if "take_back" not in c["options"]]
        for claim in stands:
            if claim["until"] == "trick":
                claim["until"] = "card"  # its points may be claimed until the next card
        notes["claims"] = stands


def draw_round(state: GameState) -> bool:
    """Draw for everyone, minding skipped and extra draws; True if play waits for a choice."""
    notes = book(state)
    notes["claims"] = [c for c in notes["claims"] if c["until"] in ("trick", "card", "draw")]
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
    _drawn(notes)
    return False


def _drawn(notes: dict[str, Any]) -> None:
    """The seats of ``notes["drew"]`` have drawn: a short hand's points lapse (P08)."""
    notes["claims"] = [
        c for c in notes["claims"] if c["until"] != "draw" or c["offender"] not in notes["drew"]
    ]


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
            "no such claim is open now: it is made after the irregularity is reported, "
            "before the next card is played or drawn (for a short hand, before his next draw)",
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
    detail = f"seat {claim['offender']}: {name.replace('_', ' ')}"
    if option == "add":
        event = ScoreEvent(seat, claim["points"], f"penalties.{name}", detail)
    else:
        event = ScoreEvent(claim["offender"], -claim["points"], f"penalties.{name}", detail)
    notes["claims"].remove(claim)
    state.score([event])


def _choose(state: GameState, remedy: dict[str, Any], name: str, args: list[str]) -> None:
    valid = _VALID.get(remedy["name"], _listed)
    if name != remedy["name"] or not valid(state, remedy, args):
        choices = ", ".join(f"claim {remedy['name']} {o}" for o in remedy["options"])
        if remedy["name"] == "dealt_too_many":
            choices = (
                f"claim dealt_too_many return CARD..., naming from 1 to {remedy['count']} "
                f"of seat {remedy['seat']}'s cards ({choices})"
            )
        raise _fail(name, f"play waits for seat {remedy['chooser']} to choose: {choices}")
    book(state)["remedy"] = None
    state.phase = remedy["phase"]
    state.to_act = remedy["to_act"]
    _REMEDIES[name](state, remedy, args)


def _listed(state: GameState, remedy: dict[str, Any], args: list[str]) -> bool:
    """Whether ``args`` is one of the remedy's listed choices."""
    return " ".join(args) in remedy["options"]


def _valid_return(state: GameState, remedy: dict[str, Any], args: list[str]) -> bool:
    """Whether ``args`` returns from 1 to the surplus's count of the dealer's cards."""
    if not args or args[0] != "return" or not 0 < len(args) - 1 <= remedy["count"]:
        return False
    held = [state.deck.card_text(c) for c in state.hands[remedy["seat"]]]
    for text in args[1:]:
        if text not in held:
            return False
        held.remove(text)
    return True


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
    if not (text.isascii() and text.isdigit() and len(text) < 4) or int(text) >= state.players:
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
    drew = _last_drawers(state)
    for seat in seats:
        if seat not in drew:
            raise _fail(name, f"seat {seat} did not draw at the last draw")


def _last_drawers(state: GameState) -> list[int]:
    """The seats that drew at the last draw, in the order they drew."""
    notes = book(state)
    if "drew" in notes:
        return list(notes["drew"])
    return [state.leader, *state._others[state.leader]]


def _number(state: GameState, seat: int) -> int:
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


def _surplus(state: GameState, name: str) -> list[int]:
    """Each seat's cards beyond his number (negative: short), found during the play.

    While the stock lasts his number is :func:`_number`.  In the end-game, where
    every seat plays every trick, each should hold as many as the fewest.
    """
    if state.phase not in ("play", "turn"):
        raise _fail(name, "only during the play of the hand, between cards")
    if state.stock_left():
        return [len(state.hands[seat]) - _number(state, seat) for seat in range(state.players)]
    if len(state.trick_order) < state.players:
        raise _fail(name, "not in the end-game's duels, where some players sit out the trick")
    played = [state.phase == "turn" or seat in state.trick_seats for seat in range(state.players)]
    counts = [len(hand) + done for hand, done in zip(state.hands, played, strict=True)]
    found = _found_in_endgame(state)
    return [count - min(counts) - known for count, known in zip(counts, found, strict=True)]


def _found_in_endgame(state: GameState) -> list[int]:
    """Each seat's cards too many already found in the end-game (kept in the hand)."""
    found: list[int] = book(state).get("found_in_endgame") or [0] * state.players
    return found


def _settle_surplus(state: GameState, surplus: list[int]) -> None:
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


def _known(state: GameState, seat: int) -> bool:
    """Whether ``seat`` is already to skip a draw or to take two."""
    notes = book(state)
    return bool(notes["skip"][seat] or notes["extra"][seat])


def _deprecated(old: str, new: str) -> None:
    """Warn that ``old``, with no card too many in hand, still makes one up (issue 11)."""
    warnings.warn(
        f"'{old}' where no card too many is held is deprecated: it gives the top card of "
        f"the stock as if drawn one too many; record the over-draw where it happened "
        f"('{new}' right after the draw), then '{old}' where it is found",
        DeprecationWarning,
        stacklevel=5,
    )


def _two_hands(state: GameState, name: str) -> None:
    if state.players != 2:
        raise _fail(name, "the sources give this procedure for the two-hand game only")


# ---------------------------------------------------------------------- reports


def _dealt_too_few(state: GameState, name: str, args: list[str]) -> None:
    _at_deal(state, name)
    seat, count, flag = _seat_count(state, name, args)
    looked = flag == "looked"
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
    seat, count, flag = _seat_count(state, name, args, ("looked", "unnoticed"))
    if not 0 < count < (len(state.stock) - count) // state.players:
        raise _fail(name, "say how many cards too many (his skipped draws must fit in the stock)")
    for _ in range(count):
        state.give(seat, state.stock.pop())
    if flag == "unnoticed":
        return  # play goes on with the surplus in his hand; found later, it is nine_cards
    if seat != state.dealer:
        book(state)["skip"][seat] += count  # S0: no draw till back to his number (A35)
    elif flag == "looked":
        book(state)["skip"][seat] += count
        _open_points(state, "nine_cards", seat)
    else:
        _wait(state, name, _eldest(state), _returns(state, seat), {"seat": seat, "count": count})


def _returns(state: GameState, seat: int) -> list[str]:
    """The listed choices of the surplus's return: one card at a time, one per face held.

    A claim may also name several cards at once, up to the count still to return.
    """
    return [
        f"return {text}" for text in sorted({state.deck.card_text(c) for c in state.hands[seat]})
    ]


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
    # He plays the next trick with a card short: the points may be claimed until he
    # draws again, however the trick's cards fall (S0, S3, S4; issue 11).
    _open_points(state, name, seat, until="draw")


def _overdrew(state: GameState, name: str, args: list[str]) -> None:
    """SEAT kept a card too many at the last draw, unnoticed: the next card of the stock.

    Those who drew after him took each the card after the one they took, so
    their cards move along by one.  No penalty yet: it is ``nine_cards`` when
    found.
    """
    seat = _one_seat(state, name, args)
    _just_drew(state, name, seat)
    order = _last_drawers(state)
    later = order[order.index(seat) + 1 :]
    for other in reversed(later):
        card = state.hands[other][-1]
        state.take(other, card)
        state.stock.append(card)
    for other in [seat, *later]:
        state.give(other, state.stock.pop())


def _nine_cards(state: GameState, name: str, args: list[str]) -> None:
    """SEAT is found with a card too many (his hand as it is): points; he skips a draw."""
    seat = _one_seat(state, name, args)
    surplus = _surplus(state, name)
    if surplus[seat] == 0 and _found_in_endgame(state)[seat]:
        raise _fail(name, f"seat {seat}'s cards too many were found already: the penalty is once")
    if surplus[seat] == 0 and not _known(state, seat):
        _in_stock_play(state, name, state.players + 1)
        _deprecated(f"irregular nine_cards {seat}", f"irregular overdrew {seat}")
        state.give(seat, state.stock.pop())
        book(state)["skip"][seat] += 1
        _open_points(state, name, seat)
        return
    held = len(state.hands[seat])
    if surplus[seat] <= 0:
        skips, extra = book(state)["skip"][seat], book(state)["extra"][seat]
        known = " (he already skips a draw)" if skips == 1 else ""
        known = f" (he already skips {skips} draws)" if skips > 1 else known
        known = " (he already takes two at his next draw)" if extra else known
        raise _fail(
            name,
            f"seat {seat} holds {held} cards, {held - surplus[seat]} being his number now"
            f"{known}: not a card too many",
        )
    for other, extra in enumerate(surplus):
        if other != seat and extra:
            count = len(state.hands[other])
            both = "; both hold too many: irregular both_too_many" if extra > 0 else ""
            raise _fail(
                name,
                f"seat {other} holds {count} cards, not his number {count - extra}{both}",
            )
    _settle_surplus(state, surplus)
    _open_points(state, name, seat)


def _both_too_many(state: GameState, name: str, args: list[str]) -> None:
    """Every seat is found with too many (their hands as they are): each skips a draw (S3)."""
    if args:
        raise _fail(name, "takes no arguments")
    surplus = _surplus(state, name)
    if not any(surplus) and not any(_known(state, s) for s in range(state.players)):
        _in_stock_play(state, name, 2 * state.players)
        _deprecated("irregular both_too_many", "irregular overdrew SEAT")
        for seat in range(state.players):
            state.give(seat, state.stock.pop())
            book(state)["skip"][seat] += 1
        return
    right = [str(seat) for seat, extra in enumerate(surplus) if extra <= 0]
    if right:
        raise _fail(name, f"seat {', '.join(right)} does not hold a card too many")
    _settle_surplus(state, surplus)


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
    for text in args[1:]:  # checked by _valid_return: the cards are in the dealer's hand
        card = next(c for c in state.hands[seat] if state.deck.card_text(c) == text)
        state.take(seat, card)
        state.stock.append(card)
    left = remedy["count"] - (len(args) - 1)
    if left:
        _wait(
            state,
            "dealt_too_many",
            remedy["chooser"],
            _returns(state, seat),
            {"seat": seat, "count": left},
        )


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
        _drawn(notes)
    elif taken in state.hands[1 - chooser]:
        _swap_last(state, chooser, 1 - chooser)


_VALID = {"dealt_too_many": _valid_return}
"""Remedies whose choice is checked otherwise than against the listed choices."""

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
    "overdrew": _overdrew,
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


def _seat_count(
    state: GameState, name: str, args: list[str], flags: tuple[str, ...] = ("looked",)
) -> tuple[int, int, str]:
    """Read ``SEAT COUNT [FLAG]``; return the seat, the count and the flag (or "")."""
    flag = args[2] if len(args) == 3 else ""
    counted = len(args) > 1 and args[1].isascii() and args[1].isdigit() and len(args[1]) < 5
    if len(args) not in (2, 3) or (flag and flag not in flags) or not counted:
        words = " or ".join(f"'{f}'" for f in flags)
        raise _fail(name, f"write 'irregular {name} SEAT COUNT', then {words} if so")
    return _seat(state, name, args[0]), int(args[1]), flag


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
