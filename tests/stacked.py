"""Stacked deals that several test modules play (pytest puts tests/ on the import path)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bezique.game import GameState
from bezique.testing import scenario

RANKS = "ATKQJ987"
SUITS = "SHDC"


def royal_deal(variant: str = "ordinary") -> GameState:
    """Seat 1 deals; seat 0 holds two kings of hearts, the queen, ace, ten and knave of
    hearts (trumps: the nine turned up), AS and AC; seat 1 only low cards."""
    return scenario(
        variant,
        hands=[
            ["KH", "QH", "KH", "AH", "TH", "JH", "AS", "AC"],
            ["7S", "8S", "7C", "8C", "9S", "9C", "8D", "7D"],
        ],
        turn_up="9H",
        dealer=1,
    )


def through_stock(
    end1: Sequence[str], end0: Sequence[str]
) -> tuple[list[list[str]], str, list[str], list[str], list[str]]:
    """A deck in which seat 1 leads and wins all 24 tricks of the stock.

    ``end1`` and ``end0`` are the hands the seats hold when the stock is gone;
    the last card of ``end0`` is the turn-up (the loser of the last trick takes
    it).  The other 48 cards are split: seat 1 plays the trumps and the highest
    cards, seat 0 the lowest, so every lead wins.  Returns the hands, the
    turn-up, the stock, seat 1's plays and seat 0's plays.
    """
    trump = SUITS.index(end0[-1][1])
    rest = Counter({rank + suit: 2 for suit in SUITS for rank in RANKS})
    rest.subtract(Counter([*end1, *end0]))
    cards = sorted(rest.elements(), key=lambda c: (SUITS.index(c[1]) != trump, RANKS.index(c[0])))
    leads, follows = cards[:24], cards[24:]
    draws1, draws0 = [*leads[8:], *end1], [*follows[8:], *end0]
    stock = [card for pair in zip(draws1, draws0, strict=True) for card in pair][:-1]
    return [follows[:8], leads[:8]], end0[-1], stock, leads, follows
