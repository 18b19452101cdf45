"""Polish bezique's procedures in words, for a variant's rulebook (``bezique rules``)."""

from __future__ import annotations

from bezique.hookspecs import RuleProse, hookimpl


@hookimpl
def bezique_describe_rules() -> list[RuleProse]:
    """The open rows, declaring from them only, and the seven's exchanged turn-up."""
    return [
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


@hookimpl
def bezique_words() -> dict[str, str]:
    """Polish bezique's own sense of a score key (:mod:`bezique.rules.words`)."""
    return {"seven_of_trumps.declare_points": "the seven of trumps won in a trick"}
