"""``bezique sheet``: keep the score sheet of a game played with real cards, at the terminal.

``new`` starts a sheet file, ``add`` enters a score (or a hand's trumps, the stock
gone, the hand over) in words, ``undo`` and ``fix`` correct it, ``show`` checks a
saved sheet again and prints it with its totals, ``export`` writes it as CSV or
HTML.  Every rule is :mod:`bezique.sheet`'s: this module only reads the words and
writes the file.  The file is written whole or not at all (a new file beside it,
renamed over it: :func:`bezique.reading.safeio.write_output`), and only once the
sheet has taken the entry, so a refusal leaves the file as it was.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from bezique.cards import CardError
from bezique.errors import BeziqueError
from bezique.reading.safeio import check_output, write_output
from bezique.rules.pinned import recorded_as
from bezique.rules.ruleset import is_variant_name, ruleset_for
from bezique.sheet.model import Entry, EntryTally, Sheet, SheetError, read_sheet
from bezique.sheet.render import (
    entry_said,
    entry_words,
    sheet_csv,
    sheet_html,
    sheet_text,
)
from bezique.variant import load_variant

__all__ = ["parse_entry", "run_sheet"]

HAND_OVER = ("hand over", "end of hand", "hand end")
"""The words of a hand's end (``bezique sheet add FILE hand over``)."""
STOCK_GONE = ("stock gone", "the stock is gone", "stock is gone")
"""The words of the stock gone (declarations end)."""
PENALTY = "penalty"
"""The first word of a penalty (``penalty Bob drew out of turn add``)."""
TRUMPS = "trumps"
"""The first word of a hand's trump suit (``trumps H``)."""
_WHOLE_DIGITS = 6
"""A count longer than this is refused by its length (the schema's bound is 1000)."""


def run_sheet(args: argparse.Namespace) -> int:
    """Run ``bezique sheet ACTION``."""
    handlers = {
        "new": _new,
        "add": _add,
        "undo": _undo,
        "fix": _fix,
        "show": _show,
        "export": _export,
    }
    return handlers[args.sheet_command](args)


# ---------------------------------------------------------------------------- reading words


def parse_entry(sheet: Sheet, words: Sequence[str]) -> Entry:
    """The :class:`~bezique.sheet.Entry` ``words`` say on ``sheet``; else SheetError.

    ``PLAYER NAME... [CARD...] [COUNT]`` for a score (the longest run of words that
    names a score of the variant is its name); ``penalty OFFENDER NAME... [add|deduct]
    [by CLAIMANT]`` for a penalty of the variant's table; ``trumps SUIT``, ``stock
    gone`` or ``hand over`` for the others.
    """
    if not words:
        raise SheetError("say what was scored: PLAYER NAME [CARDS] [COUNT], or hand over")
    said = " ".join(word.lower() for word in words)
    if words[0].lower() == PENALTY:
        return _penalty(sheet, words[1:])
    seat, named = _player(sheet, words)
    if seat is None:
        if said in HAND_OVER:
            return Entry("hand_end")
        if said in STOCK_GONE:
            return Entry("stock_gone")
        if words[0].lower() == TRUMPS:
            return Entry("trumps", suit=_suit(sheet, words[1:]))
        raise SheetError(
            f"{words[0]!r} is not a player of the sheet ({', '.join(sheet.players)}); "
            f"without a player: {TRUMPS} SUIT, {STOCK_GONE[0]}, {HAND_OVER[0]}"
        )
    rest = list(words[named:])
    if not rest:
        raise SheetError(f"say what {sheet.players[seat]} scored: a name, then cards or a count")
    for length in range(len(rest), 0, -1):
        name = " ".join(rest[:length])
        if _is_score(sheet, name):
            return _score(sheet, seat, name, rest[length:])
    sheet.kind(" ".join(rest))  # refused: it says which scores the variant has
    raise SheetError("say what was scored")  # (not reached)


def _penalty(sheet: Sheet, words: Sequence[str]) -> Entry:
    """``OFFENDER NAME... [add|deduct] [by CLAIMANT]``: a penalty entry."""
    offender, named = _player(sheet, words)
    if offender is None:
        raise SheetError(
            f"{PENALTY}: name the offender first, one of {', '.join(sheet.players)} "
            f"({PENALTY} PLAYER NAME [add|deduct] [by PLAYER])"
        )
    rest = [word.lower() for word in words[named:]]
    claimant = -1
    if "by" in rest:
        at = rest.index("by")
        found, length = _player(sheet, words[named + at + 1 :])
        if found is None or at + 1 + length != len(rest):
            raise SheetError(f"{PENALTY}: 'by' is followed by the claimant's name, last")
        claimant, rest = found, rest[:at]
    option = rest.pop() if rest and rest[-1] in ("add", "deduct") else ""
    if not rest:
        raise SheetError(f"{PENALTY}: say which (drew out of turn, nine cards, ...)")
    return Entry(PENALTY, offender, " ".join(rest), option=option, claimant=claimant)


def _player(sheet: Sheet, words: Sequence[str]) -> tuple[int | None, int]:
    """The seat of the player the first words name (case aside), and how many words it took.

    The longest name wins, so a player may be called with several words (``Ann Lee``).
    """
    folded = [" ".join(name.casefold().split()) for name in sheet.players]
    longest = max(len(name.split()) for name in folded)
    for length in range(min(len(words), longest), 0, -1):
        said = " ".join(words[:length]).casefold()
        if said in folded:
            return folded.index(said), length
    return None, 0


def _is_score(sheet: Sheet, name: str) -> bool:
    try:
        sheet.kind(name)
    except SheetError:
        return False
    return True


def _score(sheet: Sheet, seat: int, name: str, rest: Sequence[str]) -> Entry:
    """A score entry of ``name`` by ``seat``: the cards shown, or a count of cards (brisques)."""
    kind = sheet.kind(name)
    if kind.per_card:
        if len(rest) != 1:
            raise SheetError(f"{kind.words} takes one count: how many ({kind.words} 5)")
        return Entry("score", seat, kind.key, count=_count(rest[0], kind.words))
    numbers = [word for word in rest if word.lstrip("+-").isdigit()]
    if numbers:
        raise SheetError(
            f"{kind.words} takes no count ({numbers[0]!r}); name the cards shown, or none"
        )
    deck = sheet.rules.deck
    try:
        cards = tuple(deck.face_text(deck.parse_face(word)) for word in rest)
    except CardError as exc:
        raise SheetError(f"{kind.words}: {exc}") from None
    return Entry("score", seat, kind.key, cards)


def _count(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > _WHOLE_DIGITS:
        raise SheetError(f"{what}: {text[:24]!r} is not a count (a whole number, 0 or more)")
    return int(text)


def _suit(sheet: Sheet, words: Sequence[str]) -> str:
    suits = sheet.rules.deck.suits
    if len(words) != 1 or words[0].upper() not in suits:
        raise SheetError(f"trumps: name one suit of {' '.join(suits)} (trumps H)")
    return str(words[0].upper())


# ---------------------------------------------------------------------------- the actions


def _new(args: argparse.Namespace) -> int:
    check_output(args.file, overwrite=args.overwrite)
    variant, overrides = _variant(args.variant, args.house)
    players = [name.strip() for name in args.players.split(",")]
    if not all(players) or len(set(players)) != len(players):
        raise SheetError(f"--players {args.players!r}: each player once, by a name, commas between")
    dealer = args.dealer
    text = Sheet(variant, players, dealer, overrides).dumps()
    Sheet.from_json(json.loads(text), "the new sheet")  # as a later read will check it
    write_output(args.file, text, overwrite=args.overwrite)
    print(
        f"{args.file}: a sheet of {variant}{' with house rules' if overrides else ''} for "
        f"{', '.join(players)}; {players[dealer]} deals first"
    )
    return 0


def _variant(name: str | None, house: str | None) -> tuple[str, dict[str, object]]:
    """The registered variant and the overrides a sheet keeps for ``--variant``/``--house``."""
    if name is not None and not is_variant_name(name):
        raise SheetError(
            f"--variant {name!r}: a registered variant's name (bezique variants lists "
            "them); a house-rule file goes in --house"
        )
    if house is None:
        if name is None:
            raise SheetError("say the variant: --variant NAME, or --house FILE.yaml")
        ruleset_for(name)  # an unknown name is told here
        return name, {}
    base, overrides = recorded_as(load_variant(house))
    if name is not None and name != base:
        raise SheetError(
            f"--house {house}: its rules build on {base}, not {name}; name --variant {base}, "
            "or leave --variant out"
        )
    return base, overrides


def _add(args: argparse.Namespace) -> int:
    sheet = read_sheet(args.file)
    entry = parse_entry(sheet, args.words)
    try:
        done = sheet.add(entry)
    except SheetError as exc:
        raise SheetError(f"{args.file}: {exc}") from None
    _save(args.file, sheet)
    _say_entry(sheet, len(sheet.entries) - 1, done)
    _say_totals(sheet)
    return 0


def _undo(args: argparse.Namespace) -> int:
    sheet = read_sheet(args.file)
    number = len(sheet.entries) - 1
    if number < 0:
        raise SheetError(f"{args.file}: the sheet has no entry to undo")
    said = entry_words(sheet, sheet.entries[number])
    sheet.undo()
    _save(args.file, sheet)
    print(f"took back entry {number}: {said}")
    _say_totals(sheet)
    return 0


def _fix(args: argparse.Namespace) -> int:
    sheet = read_sheet(args.file)
    number = args.number
    entry = parse_entry(sheet, args.words)
    try:
        sheet.fix(number, entry)
    except SheetError as exc:
        raise SheetError(f"{args.file}: {exc}") from None
    _save(args.file, sheet)
    _say_entry(sheet, number, sheet.tally().entries[number])
    _say_totals(sheet)
    return 0


def _show(args: argparse.Namespace) -> int:
    sys.stdout.write(sheet_text(read_sheet(args.file)))
    return 0


def _export(args: argparse.Namespace) -> int:

    out = args.csv if args.csv is not None else args.html
    check_output(out, overwrite=args.overwrite)
    if os.path.abspath(out) == os.path.abspath(args.file):
        raise BeziqueError(f"{out}: is the sheet itself; name another file")
    sheet = read_sheet(args.file)
    text = sheet_csv(sheet) if args.csv is not None else sheet_html(sheet)
    write_output(out, text, overwrite=args.overwrite)
    print(f"{out}: the sheet of {args.file} as {'CSV' if args.csv is not None else 'HTML'}")
    return 0


# ---------------------------------------------------------------------------- saying it


def _save(path: str, sheet: Sheet) -> None:
    """Write the sheet over its file, whole (a new file beside it, renamed over it)."""
    write_output(path, sheet.dumps(), overwrite=True)


def _say_entry(sheet: Sheet, number: int, done: EntryTally) -> None:
    """Print what entry ``number`` scored, in which hand, and which checks ran."""
    entry = sheet.entries[number]
    said = f"entry {number}, hand {done.hand + 1}: {entry_words(sheet, entry)}"
    print(said + entry_said(sheet, entry, done.events))
    if done.checks:
        print(f"checked: {'; '.join(done.checks)}")


def _say_totals(sheet: Sheet) -> None:
    """Print the totals (and the game's end, when it has come)."""
    tally = sheet.tally()
    side_of = sheet.rules.side_of
    sides = [
        " and ".join(n for seat, n in enumerate(sheet.players) if side_of[seat] == side)
        for side in range(len(tally.scores))
    ]
    print("totals: " + ", ".join(f"{s} {p}" for s, p in zip(sides, tally.scores, strict=True)))
    if tally.over:
        won = "the game is drawn" if tally.winner < 0 else f"{sides[tally.winner]} won the game"
        print(won)
