"""How the referee deals with irregularities, and the penalty table, in words, for a rulebook."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.hookspecs import RuleProse, hookimpl
from bezique.rules.words import IRREGULARITY

AWARD = {
    "injured_chooses": (
        "the injured player either adds them to his own score or takes them off the offender's"
    ),
    "opponent_adds": "they are added to the offender's opponent's score",
    "offender_deducts": "they are taken off the offender's score",
}
"""How penalty points are awarded, by ``penalties.award``."""

PENALTIES = {
    "drew_out_of_turn": "drawing out of turn (claimed before the injured player draws)",
    "played_with_seven": "playing with a card short, having failed to draw (two cards are "
    "taken at the next draw)",
    "nine_cards": "being found, at any time of the play, holding more cards than his number "
    "while the others hold theirs, dealt or drawn too many (he then plays without drawing, "
    "one draw missed for each card too many)",
    "led_out_of_turn": "leading out of turn (the lead stands once every player has played to it)",
}
"""The irregularities whose points the penalty table sets, in words."""

SOURCE = ("penalties", "source")
"""Where the penalty table's citation is."""


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """The penalty table, then reports and claims, the remedies, and no table."""
    if "penalties" not in data:
        return [
            RuleProse(
                "penalties",
                "referee.none",
                "The variant has no penalty table, so no irregularity is refereed.",
            )
        ]
    return [
        *penalty_table(data["penalties"]),
        RuleProse(
            "penalties",
            "referee.claims",
            "An irregularity is reported when it happens, and is accepted only at the moment "
            "the rules deal with it.  A player of another side than the offender claims the "
            "points before the next card is played or drawn (for a short hand, before his "
            "next draw); a late claim, or one by the wrong player, is refused.",
            "S0 penalties paragraph; S3; S4; P01-P12",
        ),
        RuleProse(
            "penalties",
            "referee.remedies",
            "Where play cannot go on until the injured player chooses (a short deal made up "
            "or dealt again, an exposed card, two cards lifted, the dealer's surplus put "
            "back), the game waits for his choice.",
            "S0 penalties paragraph; S3 on drawing; A35",
        ),
    ]


def _setting(key: str, text: str, value: str) -> RuleProse:
    """A rule of the penalty table: what ``penalties.KEY`` says, cited from the table."""
    path = f"penalties.{key}"
    return RuleProse(
        "penalties", path, text, covers=(path,), setting=True, value=value, cited=SOURCE
    )


def penalty_table(p: Mapping[str, Any]) -> list[RuleProse]:
    """Each penalty's points, how they are awarded, what is seen at the draw, and a revoke."""
    said = [_setting("award", f"Penalty points: {AWARD[p['award']]}.", str(p["award"]))]
    for key, what in PENALTIES.items():
        points = int(p[key])
        text = (
            f"No penalty is scored for {what}."
            if points == 0
            else f"{what.capitalize()} costs {points}."
        )
        said.append(_setting(key, text, str(points)))
    if "seen_cards" in p:
        seen = (
            "A winner who lifts two cards at the draw lets his adversary take his choice of "
            "them; a loser who draws the winner's card keeps it, and the winner may claim the "
            "points for drawing out of turn before his own draw."
            if p["seen_cards"] == "choice"
            else "A winner who sees two cards at the draw shows his own, the top one, to his "
            "adversary, and each keeps his card; a loser who takes the top card puts it back "
            "and shows his own, the next, with no points due, unless the winner has drawn "
            "already, when it is too late."
        )
        later = (
            " A loser who lifts two after the winner has drawn gives his adversary the choice "
            "of the two cards at the next draw."
        )
        said.append(_setting("seen_cards", seen + later, str(p["seen_cards"])))
    scope = (
        "all the tricks of the end-game"
        if p["revoke"] == "all_endgame_tricks"
        else "the tricks that remain to be played"
    )
    revoke = (
        f"A revoke, or a failure to win when able, in the end-game forfeits {scope} "
        "to the adversary."
    )
    said.append(_setting("revoke", revoke, str(p["revoke"])))
    return said


IRREGULARITIES: Mapping[str, str] = {
    "dealt_too_few": "too few cards dealt",
    "dealt_too_many": "too many cards dealt",
    "exposed_card": "a card exposed in the deal",
    "drew_out_of_turn": "drawing out of turn",
    "drew_two": "two cards drawn",
    "played_with_seven": "playing with seven cards",
    "overdrew": "a card too many drawn",
    "nine_cards": "holding nine cards",
    "both_too_many": "both players with too many cards",
    "led_out_of_turn": "a lead out of turn",
    "revoke": "a revoke",
}
"""Each irregularity of the penalty table in a player's words (``holding nine cards``)."""

WORDS: Mapping[str, str] = {
    "phase.remedy": "choose the remedy",
    **{f"penalties.{name}": f"penalty: {said}" for name, said in IRREGULARITIES.items()},
    **{IRREGULARITY + name: said for name, said in IRREGULARITIES.items()},
    "penalties.new_deal": "a new deal (the deal's scores taken back)",
}
"""The words of the referee's phase, of its penalties' score keys (``penalty: a revoke``)
and of its irregularities (:meth:`~bezique.rules.words.Words.irregularity`)."""


@hookimpl
def bezique_words() -> Mapping[str, str]:
    """The referee's keys in a player's words (:mod:`bezique.rules.words`)."""
    return WORDS
