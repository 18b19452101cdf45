"""Sentences from a variant's data: the variant, the table, the deal, trumps, declaring.

Each function takes the merged data and returns :class:`~bezique.rulebook.sections.Said`
sentences for the keys it knows, or none when the variant has no such section.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bezique.rulebook.sections import Said
from bezique.rules.english import capital, listed, number, rank, suit, value

Data = Mapping[str, Any]


def about(data: Data) -> list[Said]:
    """The variant's names and summary, and the plugins whose procedures it plays."""
    covers = ("name", "summary") + (("title",) if "title" in data else ())
    plugins = [str(p) for p in data["plugins"]]
    return [
        Said(
            "about",
            "about",
            f"Variant {data['name']}: {data['summary']}",
            covers,
            ("source",),
            str(data["name"]),
        ),
        Said(
            "table",
            "plugins",
            (
                f"The game's procedures are those of the plugins {listed(plugins)}, a later "
                "one answering first where two answer."
                if len(plugins) > 1
                else f"The game's procedures are those of the {plugins[0]} plugin."
            ),
            ("plugins",),
            ("source",),
            value(plugins),
        ),
    ]


def table(data: Data) -> list[Said]:
    """How many play, and whether for themselves or in partnerships."""
    players = int(data["players"])
    alone = "in partnerships" if "partnerships" in data else "each for himself"
    return [
        Said(
            "table",
            "players",
            f"{capital(number(players))} players play, {alone}.",
            ("players",),
            ("source",),
            str(players),
        )
    ]


def cards(data: Data) -> list[Said]:
    """The pack: suits, ranks and packs shuffled together."""
    pack = data["cards"]
    suits, ranks, packs = list(pack["suits"]), list(pack["ranks"]), int(pack["packs"])
    size = len(suits) * len(ranks)
    many = "one pack" if packs == 1 else f"{number(packs)} packs shuffled together"
    return [
        Said(
            "deal",
            "cards.pack",
            f"The game is played with {many}, each of {size} cards: {number(len(ranks))} "
            f"ranks in each of the suits {listed(suit(s) for s in suits)}; "
            f"{packs * size} cards in all.",
            ("cards.suits", "cards.packs"),
            ("cards", "source"),
            f"{packs} x {size}",
        ),
        Said(
            "deal",
            "cards.ranks",
            f"In each suit the cards rank, from the highest: {listed(rank(r) for r in ranks)}.",
            ("cards.ranks",),
            ("cards", "source"),
            value(ranks),
        ),
    ]


def deal(data: Data) -> list[Said]:
    """How many cards each is dealt, in what packets, and who leads and deals next."""
    d, pack = data["deal"], data["cards"]
    packets = [str(p) for p in d["packets"]]
    total = len(pack["suits"]) * len(pack["ranks"]) * int(pack["packs"])
    left = total - int(d["hand_size"]) * int(data["players"])
    return [
        Said(
            "deal",
            "deal.hand_size",
            f"Each player is dealt {d['hand_size']} cards, in packets of {listed(packets)}; "
            f"the {left} cards left over are the stock.",
            ("deal.hand_size", "deal.packets"),
            ("deal", "source"),
            f"{d['hand_size']} ({'-'.join(packets)})",
        ),
        Said(
            "deal",
            "deal.turns",
            "The dealer deals from his left; the player on his left leads to the first "
            "trick, and the deal passes to the left after each hand.",
            ("deal.first_lead", "deal.next_dealer"),
            ("deal", "source"),
            f"{d['first_lead']}, {d['next_dealer']}",
        ),
    ]


FIXED_BY = {
    "marriage_or_sequence": ", or of a sequence declared before any marriage",
    "marriage": "; a sequence cannot be declared before trumps are named",
}


def trumps(data: Data) -> list[Said]:
    """How the trump suit is chosen."""
    t = data["trumps"]
    covers = ("trumps.mode",) + (("trumps.fixed_by",) if "fixed_by" in t else ())
    if t["mode"] == "turn_up":
        text = (
            "Once the hands are dealt the next card is turned up: its suit is trumps, and "
            "it lies face up at the bottom of the stock, to be drawn last."
        )
    else:  # fixed_by absent: marriage_or_sequence, the default the ordinary plugin declares
        text = (
            "No card is turned up: the suit of the first marriage declared becomes trumps"
            f"{FIXED_BY[t.get('fixed_by', 'marriage_or_sequence')]}, and until then only "
            "combinations that need no trump suit can be declared."
        )
    return [Said("trumps", "trumps.mode", text, covers, ("trumps", "source"), value(t["mode"]))]


def trick(data: Data) -> list[Said]:
    """Who wins a trick."""
    return [
        Said(
            "play",
            "trick.identical_cards",
            "A trick is won by the highest trump in it, else by the highest card of the suit "
            "led; of two identical cards (copies from different packs) the one played first "
            "wins.",
            ("trick.identical_cards",),
            ("trick", "source"),
            str(data["trick"]["identical_cards"]),
        )
    ]
