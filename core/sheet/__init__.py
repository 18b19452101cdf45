"""The score sheet of a game played with real cards, checked by the variant's rules.

A sheet holds the variant (with house-rule overrides), the players and the first
dealer, and a list of entries: what a player scored, by name (``bezique``,
``royal marriage``, ``brisques`` with a count), optionally with the cards shown; a
hand's trump suit; the stock gone; the hand's end.  Totals are never stored: they are
worked out again from the entries each time (:meth:`Sheet.tally`), with the points
of the variant's merged table as its plugins give them
(:func:`bezique.hookspecs.bezique_sheet_entries`), the game's end by its rules
(:func:`~bezique.hookspecs.bezique_sheet_winner`) and its settlement
(:func:`~bezique.hookspecs.bezique_sheet_settlement`).  An entry that could not
have happened is refused in words naming the rule; a check that needs cards the
entry did not name is not made, and each entry's tally says which checks ran.

The sheet file (``bezique-sheet/1``, ``schemas/sheet.schema.json``) is read as
untrusted input, as records are: a size cap, the schema, and an error located at the
entry (``FILE: entries[3]: ...``).
"""

from __future__ import annotations

from bezique.sheet.model import (
    FORMAT,
    MAX_ENTRIES,
    MAX_SHEET_BYTES,
    Entry,
    EntryTally,
    PenaltyOffer,
    Sheet,
    SheetError,
    Tally,
    read_sheet,
    sheet_schema,
)
from bezique.sheet.render import sheet_csv, sheet_html, sheet_text

__all__ = [
    "FORMAT",
    "MAX_ENTRIES",
    "MAX_SHEET_BYTES",
    "Entry",
    "EntryTally",
    "PenaltyOffer",
    "Sheet",
    "SheetError",
    "Tally",
    "read_sheet",
    "sheet_csv",
    "sheet_html",
    "sheet_schema",
    "sheet_text",
]
