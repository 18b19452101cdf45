"""The sections of a rulebook, in order, and what a sentence made from the data carries."""

from __future__ import annotations

from typing import NamedTuple

SECTIONS: dict[str, str] = {
    "about": "The variant",
    "table": "Players and procedures",
    "deal": "Cards and the deal",
    "trumps": "Trumps",
    "play": "Play while the stock lasts",
    "declarations": "Declarations",
    "score_table": "The score table",
    "carte_blanche": "Carte blanche",
    "seven": "The seven of trumps",
    "brisques": "Brisques and the last trick",
    "endgame": "The end-game",
    "game": "Scoring out and the game",
    "penalties": "Penalties",
    "open_cards": "Polish bezique: the open cards",
    "partnerships": "Partnerships",
    "rubicon": "Rubicon: the settlement",
    "lift": "The lift",
    "other": "Other settings",
}
"""Each section's id and heading, in the order a rulebook gives them; a plugin's own
section (a name not here) follows them, headed by its name."""


def heading(section: str) -> str:
    """The heading of ``section`` (a plugin's own section: its name, in words)."""
    return SECTIONS.get(section) or section.replace("_", " ").capitalize()


def order(section: str) -> int:
    """Where ``section`` comes in a rulebook (a plugin's own section: after all of these)."""
    return list(SECTIONS).index(section) if section in SECTIONS else len(SECTIONS)


class Said(NamedTuple):
    """One sentence made from a variant's data, before its citation and origin are found."""

    section: str
    key: str
    text: str
    covers: tuple[str, ...]
    """The dotted paths of the data it states (each a leaf: a value that is no mapping)."""
    source: tuple[str, ...] | str
    """The path of the ``source:`` text it cites (``("deal", "source")``), or, as a
    string, the citation itself (a rule of a section whose text is about other rules)."""
    value: str
    """The values it states, in short (a cell of ``bezique diff``'s matrix)."""
