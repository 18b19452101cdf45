"""The ordinary game's procedures in words, for a variant's rulebook (``bezique rules``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.hookspecs import RuleProse, hookimpl


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """Free play and the draw, the winner's turn to declare, and what the end-game takes back."""
    prose = [
        RuleProse(
            "play",
            "ordinary.free_play",
            "While cards are left in the stock a player may play any card he holds: he "
            "need not follow suit, nor try to win.  The trick's winner draws the top card "
            "of the stock first, the others after him in turn, and he leads to the next "
            "trick.",
            "S0 play and draw paragraphs; S2 play; A32 for the order of the draw",
        ),
    ]
    if "open_cards" not in data:  # Polish bezique declares from the open rows instead
        prose.append(
            RuleProse(
                "declarations",
                "ordinary.winner_declares",
                "Only the trick's winner may declare, between winning it and drawing.  What "
                "he declares he lays face up on the table; those cards stay his, to be played "
                "from the table as if from his hand, and a card played away breaks the "
                "combinations it was in.",
                "S0 declaring paragraph",
            )
        )
    if data.get("declarations", {}).get("per_trick") == "one":
        prose.append(
            RuleProse(
                "declarations",
                "ordinary.announced",
                "A combination shown beside the one scored is announced: it may be scored "
                "after a later trick its holder wins, so long as none of its cards has been "
                "played.",
                "F325-F326; S3 declaring; A05",
            )
        )
    if "open_cards" not in data:
        prose.append(_stock_exhausted(data))
    return prose


def _stock_exhausted(data: Mapping[str, Any]) -> RuleProse:
    """Declared cards back in hand once the stock is gone (a turn-up only where there is one)."""
    emptied = (
        "When the last card of the stock and the turned-up card have been drawn"
        if data.get("trumps", {}).get("mode") == "turn_up"
        else "When the last card of the stock has been drawn"
    )
    return RuleProse(
        "endgame",
        "ordinary.stock_exhausted",
        f"{emptied}, each player takes his declared cards back into his hand; nothing more "
        "is declared, and an announced combination not yet scored lapses.",
        "S0 paragraph on the last eight tricks",
    )
