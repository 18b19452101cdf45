"""Words for rule sentences: cards, ranks, suits, lists and numbers said in English.

The kernel's rulebook (:mod:`bezique.rulebook`) and the plugins, which say their own
settings and procedures (:func:`bezique.hookspecs.bezique_describe_rules`), both say
things so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

RANKS = {
    "A": ("ace", "aces"),
    "T": ("ten", "tens"),
    "K": ("king", "kings"),
    "Q": ("queen", "queens"),
    "J": ("knave", "knaves"),
    "9": ("nine", "nines"),
    "8": ("eight", "eights"),
    "7": ("seven", "sevens"),
}
"""The name of each rank letter of a piquet pack, singular and plural."""

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
"""The name of each suit letter."""

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
"""Small whole numbers in words (for counts of players and packs, never points)."""


def rank(letter: str, plural: bool = False) -> str:
    """The name of a rank (``K`` -> ``king``); an unknown letter is named by itself."""
    names = RANKS.get(letter)
    if names is None:
        return f"{letter}s" if plural else letter
    return names[1] if plural else names[0]


def suit(letter: str) -> str:
    """The name of a suit (``S`` -> ``spades``); an unknown letter is named by itself."""
    return SUITS.get(letter, letter)


def card(text: str) -> str:
    """A card in words: ``QS`` -> ``the queen of spades``."""
    return f"the {rank(text[:-1])} of {suit(text[-1])}" if len(text) >= 2 else text


def number(count: int) -> str:
    """A small count in words (``3`` -> ``three``), a larger one in digits."""
    return NUMBERS[count] if 0 <= count < len(NUMBERS) else str(count)


def listed(items: Iterable[str], last: str = "and") -> str:
    """Join ``items`` as English does: ``a``, ``a and b``, ``a, b and c``."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def label(name: str) -> str:
    """A combination's name for people: ``royal_marriage`` -> ``Royal marriage``."""
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def capital(text: str) -> str:
    """``text`` with its first letter a capital."""
    return text[:1].upper() + text[1:]


def value(data: Any) -> str:
    """A setting's value in short, for a matrix cell: ``[3, 2, 3]`` -> ``3 2 3``."""
    if isinstance(data, bool):
        return "yes" if data else "no"
    if isinstance(data, Mapping):
        return "; ".join(f"{k} {value(v)}" for k, v in data.items())
    if isinstance(data, Sequence) and not isinstance(data, str):
        return " ".join(value(item) for item in data)
    return str(data)
