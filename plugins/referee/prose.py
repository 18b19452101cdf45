"""How the referee deals with irregularities, in words, for a variant's rulebook."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.hookspecs import RuleProse, hookimpl


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """Reports and claims, the remedies that wait for the injured player, and no table."""
    if "penalties" not in data:
        return [
            RuleProse(
                "penalties",
                "referee.none",
                "The variant has no penalty table, so no irregularity is refereed.",
            )
        ]
    return [
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


WORDS: Mapping[str, str] = {
    "phase.remedy": "choose the remedy",
    "penalties.dealt_too_few": "penalty: too few cards dealt",
    "penalties.dealt_too_many": "penalty: too many cards dealt",
    "penalties.exposed_card": "penalty: a card exposed in the deal",
    "penalties.drew_out_of_turn": "penalty: drawing out of turn",
    "penalties.drew_two": "penalty: two cards drawn",
    "penalties.played_with_seven": "penalty: playing with seven cards",
    "penalties.overdrew": "penalty: a card too many drawn",
    "penalties.nine_cards": "penalty: holding nine cards",
    "penalties.both_too_many": "penalty: both players with too many cards",
    "penalties.led_out_of_turn": "penalty: a lead out of turn",
    "penalties.revoke": "penalty: a revoke",
    "penalties.new_deal": "a new deal (the deal's scores taken back)",
}
"""The words of the referee's phase and of its penalties' score keys."""


@hookimpl
def bezique_words() -> Mapping[str, str]:
    """The referee's keys in a player's words (:mod:`bezique.rules.words`)."""
    return WORDS
