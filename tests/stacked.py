"""Stacked deals that several test modules play (pytest puts tests/ on the import path)."""

from __future__ import annotations

from bezique.game import GameState
from bezique.testing import scenario


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
