"""Polish bezique's open cards and procedures in words, for a rulebook (``bezique rules``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.hookspecs import RuleProse, hookimpl
from bezique.rules.english import listed, rank, value


@hookimpl
def bezique_describe_rules(data: Mapping[str, Any]) -> list[RuleProse]:
    """The cards laid open, the open rows, declaring from them only, the seven's turn-up."""
    return [
        *open_cards(data),
        RuleProse(
            "open_cards",
            "polish.rows",
            "Open cards are never played again: they serve only in declaring, and stay "
            "face up before their winner to the end of the hand, the last eight tricks "
            "included.  The other cards won go to the winner's tricks as usual.",
            "S0 Polish section; A20b, A20d",
        ),
        RuleProse(
            "declarations",
            "polish.declaring",
            "Only the trick's winner declares, before drawing, and only from his open cards: "
            "every combination must hold a card of the trick just won, nothing in the hand "
            "counts, and what he leaves undeclared is lost for that trick.  Declaring goes on "
            "through the last eight tricks.",
            "S0 Polish section; A20a, A20c",
        ),
        RuleProse(
            "seven",
            "polish.seven",
            "The turned-up card taken for a seven of trumps counts as a card of that trick: "
            "an open card if it is a scoring card, a brisque if it is an ace or a ten.",
            "S0 Polish section; A21",
        ),
    ]


def open_cards(data: Mapping[str, Any]) -> list[RuleProse]:
    """Which cards won in tricks are laid face up (the variant's ``open_cards``)."""
    o = data.get("open_cards")
    if o is None:
        return []
    plain = listed(rank(r, plural=True) for r in o["ranks"])
    trumps = listed(rank(r, plural=True) for r in o["trump_ranks"])
    also = f", and {trumps} of trumps" if o["trump_ranks"] else ""
    return [
        RuleProse(
            "open_cards",
            "open_cards",
            f"The {plain} of any suit{also} won in a trick are laid face up before their "
            "winner; combinations are declared from these open cards only.",
            covers=("open_cards.ranks", "open_cards.trump_ranks"),
            setting=True,
            value=f"{value(o['ranks'])} / {value(o['trump_ranks'])}",
            cited=("open_cards", "source"),
        )
    ]


@hookimpl
def bezique_words() -> dict[str, str]:
    """Polish bezique's own sense of a score key (:mod:`bezique.rules.words`)."""
    return {
        "seven_of_trumps.declare_points": "the seven of trumps won in a trick",
        "place.open": "open cards",
    }
