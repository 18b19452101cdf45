"""The referee plugin: irregularities at a real table and the penalties the variant gives.

A record of a game played with real cards may hold two more kinds of action, the
kernel's *table actions*, which anyone may take at any time and which this plugin
carries out:

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
paragraph, S3's and S4's (P01-P12); the points and the
award mode are the variant's ``penalties`` table (A28).

A game started with ``new_game(..., referee=True)`` (a record's ``"referee":
true``) is a refereed game, a game at a real table (``state.at_table``): there
the winner of every trick that a draw follows ends his turn with ``draw`` even
when he has nothing to declare, so that a report can come before his draw
(drawing out of turn, P05).  This plugin asks for that stop
(``bezique_wait_before_draw``); the kernel makes it, and any table action may
come there.

The plugin joins every game of a variant that lists ``ordinary``
(``bezique_joins``), so the variants need not list it and the rules that records
carry are those they always were; a variant may still list ``referee`` itself.  It
is reached only through hooks (:mod:`bezique.hookspecs`, "table actions"): it
takes the table actions, lists the choices of its ``remedy`` phase and, in a hand
where a report or claim was accepted, answers the table hooks: the cards a
revoker plays, a card played, who takes a revoker's tricks, and the draw with its
skipped and doubled draws (held while a choice of two cards is due).  Its state is
``state.extra["referee"]``, dropped at every deal; its data is the variant's
``penalties`` section.  The procedures are in :mod:`.reports` (the reports, and
:func:`~.reports.act`), :mod:`.claims` (claims and remedies), :mod:`.play` (what
they change in play), :mod:`.moments` (when a report is in time) and :mod:`.book`
(the hand's record and the tools they share).

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
                                     what they drew and no points are due (P05).  With
                                     ``penalties.seen_cards: shown`` (Portland law 29), in the
                                     winner's turn the card goes back, no points, and both
                                     cards of the draw are shown
``drew_two SEAT``                    right after the draw (two hands).  The winner lifted two:
                                     the adversary takes his choice of them (or, with
                                     ``seen_cards: shown``, law 28, each keeps his and both are
                                     shown).  The loser lifted two: at the next draw the
                                     adversary chooses of the top two (P06, P07, law 30)
``overdrew SEAT``                    right after the draw: SEAT kept the next card too, and
                                     nobody noticed (those who drew after him took each the
                                     card after theirs); no points until it is found
                                     (``nine_cards``)
``played_with_seven SEAT``           right after the draw: SEAT did not draw; his card goes
                                     back; he takes two at his next draw; points, claimed until
                                     that draw (P08)
``nine_cards SEAT``                  during the play, after any number of tricks: SEAT is
                                     found holding more than his number, the others holding
                                     theirs, his hand as it is (a surplus from ``overdrew``
                                     or ``dealt_too_many ... unnoticed``); points; he skips a
                                     draw a card too many (P09).  Where SEAT holds his
                                     number: refused if another seat holds too many; where
                                     every seat holds his, the old meaning (he took the top
                                     card too many now) stands, deprecated
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

from typing import TYPE_CHECKING

from bezique.hookspecs import DRAWN, HELD, PhaseChoices, hookimpl
from bezique.plugins.referee import play
from bezique.plugins.referee.book import KEY, REMEDY
from bezique.plugins.referee.prose import bezique_describe_rules as bezique_describe_rules
from bezique.plugins.referee.prose import bezique_words as bezique_words
from bezique.plugins.referee.reports import act
from bezique.plugins.referee.sheet import bezique_sheet_penalty as bezique_sheet_penalty

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bezique.actions import Action
    from bezique.hookstate import HookState

__all__ = ["KEY", "REMEDY"]
"""What the plugin offers others: where its state is kept, and the name of its phase."""


@hookimpl
def bezique_joins() -> Sequence[str]:
    """Join every game of a variant built on the ordinary game."""
    return ["ordinary"]


@hookimpl
def bezique_table_action(state: HookState, action: Action) -> bool:
    """Carry out a report or a claim, or refuse it changing nothing."""
    act(state, action)
    return True


@hookimpl
def bezique_wait_before_draw() -> bool:
    """In a refereed game, the winner's draw waits for his ``draw``: a report may come first."""
    return True


@hookimpl
def bezique_phase_choices(state: HookState) -> PhaseChoices | None:
    """In the ``remedy`` phase: the injured player's choices."""
    if state.phase != REMEDY:
        return None
    return PhaseChoices(
        play.remedies(state),
        f"play waits for seat {state.to_act} to choose after an irregularity",
        "penalties",
        play.remedies_shown(state),
    )


@hookimpl
def bezique_adjust_plays(state: HookState, player: int, cards: list[int]) -> list[int]:
    """A revoke reported: the revoker plays a card the end-game duties forbid."""
    return play.adjust_plays(state, player, cards)


@hookimpl
def bezique_before_play(state: HookState, player: int, card: int) -> None:
    """Claims lapse; a revoke is carried out; a lead out of turn stands."""
    play.on_play(state, player, card)


@hookimpl
def bezique_trick_owner(state: HookState, winner: int) -> int:
    """A revoker's tricks go to his adversary."""
    return play.trick_owner(state, winner)


@hookimpl
def bezique_draw(state: HookState) -> str:
    """Draw minding skipped and doubled draws; hold it while a choice of two cards is due."""
    return HELD if play.draw_round(state) else DRAWN


@hookimpl
def bezique_after_deal(state: HookState) -> None:
    """A new hand: the record of the last one goes."""
    state.extra.pop(KEY, None)
