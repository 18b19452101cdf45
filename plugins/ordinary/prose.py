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


WORDS: Mapping[str, str] = {
    # the combinations of the shipped tables
    "marriage": "marriage",
    "royal_marriage": "royal marriage",
    "sequence": "sequence",
    "plain_sequence": "plain sequence",
    "bezique": "bezique",
    "double_bezique": "double bezique",
    "triple_bezique": "triple bezique",
    "quadruple_bezique": "quadruple bezique",
    "four_aces": "four aces",
    "four_tens": "four tens",
    "four_kings": "four kings",
    "four_queens": "four queens",
    "four_knaves": "four knaves",
    "four_trump_aces": "four trump aces",
    "four_trump_tens": "four trump tens",
    "four_trump_kings": "four trump kings",
    "four_trump_queens": "four trump queens",
    "four_trump_knaves": "four trump knaves",
    # the classes a declared card keeps
    "class.marriages": "a marriage or sequence",
    "class.beziques": "a bezique",
    "class.quartets": "four of a kind",
    # the score events
    "carte_blanche": "carte blanche",
    "carte_blanche.from_opponent": "carte blanche, paid by each opponent",
    "brisques": "brisques, aces and tens won",
    "last_trick": "the last trick",
    "seven_of_trumps.turn_up_points": "the seven of trumps turned up",
    "seven_of_trumps.exchange_points": "the seven of trumps exchanged for the turn-up",
    "seven_of_trumps.declare_points": "the seven of trumps shown",
    "seven_of_trumps.on_play": "the seven of trumps played",
}
"""The words of the ordinary game's combinations, declared-card classes and score events."""


LAST_TRICK_WORDS = {
    "stock_exhausting": "the last trick of the stock",
    "final": "the last trick",
}
"""The last trick's bonus in words, by the trick that scores it (``last_trick.which``):
S0's is the trick that empties the stock, with eight more tricks to play after it."""


@hookimpl
def bezique_words(data: Mapping[str, Any]) -> Mapping[str, str]:
    """The ordinary game's keys in a player's words (:mod:`bezique.rules.words`)."""
    which = (data.get("last_trick") or {}).get("which")
    if which in LAST_TRICK_WORDS:
        return {**WORDS, "last_trick": LAST_TRICK_WORDS[which]}
    return WORDS
