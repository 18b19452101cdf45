"""The score sheet on the web: sheets of games played with real cards, kept in the store.

A sheet (:class:`bezique.sheet.Sheet`) is stored as its file's JSON with the hash of
its edit token; the token is given once, in the link's fragment (``/sheet/ID#TOKEN``),
as a table's seat tokens are.  Anyone with the id may read the sheet; only the
token's holder may change it.  Every change is checked by the sheet's rules
(:meth:`~bezique.sheet.Sheet.add`, :meth:`~bezique.sheet.Sheet.fix`), stored, and
only then answered; a refusal changes nothing.  Totals are never stored: each answer
works them out again from the entries (:func:`sheet_view`).
"""

from __future__ import annotations

import functools
import hmac
import re
import secrets
from collections.abc import Mapping
from typing import Any

import jsonschema

from bezique.errors import BeziqueError
from bezique.rulebook.book import list_label
from bezique.rules.pinned import recorded_as
from bezique.rules.ruleset import is_variant_name
from bezique.sheet import MAX_ENTRIES, Entry, Sheet, SheetError, sheet_csv, sheet_html, sheet_schema
from bezique.sheet.render import entry_said, entry_words
from bezique.web.store import Store
from bezique.web.tables import house_variant, token_hash

MAX_TOKEN = 200
"""The longest edit token looked at (a longer one is wrong)."""
KINDS = ("score", "penalty", "trumps", "stock_gone", "hand_end")
"""The kinds of entry a page may send (the sheet file's)."""
ENTRY_AT = re.compile(r"^entries\[(\d+)\]: ")
"""Where the library's refusal says the entry is."""


class SheetRequestError(BeziqueError):
    """A sheet request refused: its status (400, 403 or 404) and what is wrong."""

    def __init__(self, message: str, status: int = 400) -> None:
        """Refused with ``status`` saying ``message``."""
        super().__init__(message)
        self.status = status


def create_sheet(store: Store, data: Mapping[str, Any]) -> tuple[str, str, Sheet]:
    """Set up and store a new sheet from a page's request; its id, edit token and sheet.

    ``data``: ``variant`` (a registered name) or ``house`` (a variant file's text, which
    must build on a registered variant), ``players`` (their names), ``first_dealer``
    (a seat, 0 the first).
    """
    house = data.get("house")
    overrides: dict[str, Any] = {}
    if house is not None:
        if not isinstance(house, str):
            raise SheetRequestError("house: must be the text of a variant file")
        variant, overrides = recorded_as(house_variant(house))
        if not is_variant_name(variant):
            raise SheetRequestError(
                "house: the rules must build on a registered variant (extends: ordinary, ...)"
            )
    else:
        variant = data.get("variant", "ordinary")
        if not isinstance(variant, str) or not is_variant_name(variant):
            raise SheetRequestError("variant: must be a variant's name (never a file's)")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise SheetRequestError("players: must be a list of the players' names")
    names = [p.strip()[:100] or f"player {n + 1}" for n, p in enumerate(players)]
    dealer = data.get("first_dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise SheetRequestError("first_dealer: must be a seat's number (0 the first)")
    sheet = Sheet(variant, names, dealer, overrides)
    token = secrets.token_urlsafe(24)
    sheet_id = secrets.token_hex(8)
    store.add_sheet(sheet_id, sheet.to_json(), token_hash(token))
    return sheet_id, token, sheet


def load_sheet(store: Store, sheet_id: str, token: str | None = None) -> Sheet:
    """The stored sheet ``sheet_id`` (404 if none); with ``token``, checked as its editor's (403).

    A stored sheet is read as untrusted input is (the schema, the rules).
    """
    found = store.sheet(sheet_id) if len(sheet_id) <= 64 else None
    if found is None:
        raise SheetRequestError(f"there is no sheet {sheet_id[:64]!r}", 404)
    data, hashed = found
    if token is not None and not _token_fits(token, hashed):
        raise SheetRequestError("this link's token is not the one that edits this sheet", 403)
    return Sheet.from_json(data, "the stored sheet")


def _token_fits(token: str, hashed: str) -> bool:
    if not token or len(token) > MAX_TOKEN:
        return False
    return hmac.compare_digest(token_hash(token), hashed)


def entry_of(data: Any) -> Entry:
    """The entry a page sent (checked against the sheet file's schema), or 400 saying why."""
    if not isinstance(data, dict):
        raise SheetRequestError("an entry is a JSON object")
    kind = data.get("kind", "score")
    if kind not in KINDS:
        raise SheetRequestError(f"kind: one of {', '.join(KINDS)}")
    fields = {"kind": kind}
    fields.update({k: v for k, v in data.items() if k in ("player", "name", "cards", "count")})
    if kind == "trumps":
        fields = {"kind": kind, "suit": data.get("suit")}
    elif kind == "penalty":
        named = ("player", "name", "option", "claimant")
        fields = {"kind": kind, **{k: v for k, v in data.items() if k in named}}
    elif kind != "score":
        fields = {"kind": kind}
    elif not fields.get("cards"):
        fields.pop("cards", None)
    error = jsonschema.exceptions.best_match(_entry_validator().iter_errors(fields))
    if error is not None:
        where = ".".join(str(p) for p in error.absolute_path) or "the entry"
        raise SheetRequestError(f"{where}: {error.message}")
    return Entry.from_json(fields)


@functools.cache
def _entry_validator() -> jsonschema.Draft202012Validator:
    """The sheet file schema's check of one entry."""
    defs = sheet_schema()["$defs"]
    return jsonschema.Draft202012Validator({"$defs": defs, "$ref": "#/$defs/entry"})


def _said(error: SheetError) -> SheetError:
    """A refusal as a page says it: ``entry 3: ...`` (numbered as the page numbers them)."""
    return SheetError(ENTRY_AT.sub(r"entry \1: ", str(error), count=1))


def add_entry(store: Store, sheet_id: str, token: str, data: Any) -> Sheet:
    """Add the page's entry to the sheet if its rules allow it, store it; the sheet."""
    sheet = load_sheet(store, sheet_id, token)
    entry = entry_of(data)
    if len(sheet.entries) >= MAX_ENTRIES:
        raise SheetRequestError(f"the sheet is full: a sheet holds at most {MAX_ENTRIES} entries")
    try:
        sheet.add(entry)
    except SheetError as exc:
        raise _said(exc) from None
    store.set_sheet(sheet_id, sheet.to_json())
    return sheet


def undo_entry(store: Store, sheet_id: str, token: str) -> Sheet:
    """Take back the sheet's last entry, store it; the sheet."""
    sheet = load_sheet(store, sheet_id, token)
    sheet.undo()
    store.set_sheet(sheet_id, sheet.to_json())
    return sheet


def fix_entry(store: Store, sheet_id: str, token: str, number: int, data: Any) -> Sheet:
    """Replace entry ``number`` (0 the first) if the sheet still adds up, store it; the sheet."""
    sheet = load_sheet(store, sheet_id, token)
    entry = entry_of(data)
    try:
        sheet.fix(number, entry)
    except SheetError as exc:
        raise _said(exc) from None
    store.set_sheet(sheet_id, sheet.to_json())
    return sheet


def sheet_view(sheet_id: str, sheet: Sheet) -> dict[str, Any]:
    """What the page shows: the entries in words, what each scored, the checks, the totals."""
    tally = sheet.tally()
    rules = sheet.rules
    sides = _sides(sheet)
    entries = []
    for number, (entry, done) in enumerate(zip(sheet.entries, tally.entries, strict=True)):
        entries.append(
            {
                "number": number,
                "hand": done.hand + 1,
                "entry": entry.to_json(),
                "words": entry_words(sheet, entry),
                "points": sum(e.points for e in done.events),
                "said": entry_said(sheet, entry, done.events),
                "scored": [
                    {
                        "side": sides[rules.side_of[e.player]],
                        "points": e.points,
                        "words": rules.words.say(e.rule),
                    }
                    for e in done.events
                ],
                "checks": done.checks,
            }
        )
    return {
        "id": sheet_id,
        "variant": sheet.variant,
        "title": list_label(rules),
        "overrides": sheet.overrides,
        "players": sheet.players,
        "first_dealer": sheet.first_dealer,
        "sides": sides,
        "side_of": list(rules.side_of),
        "names": [
            {
                "key": kind.key,
                "name": kind.words,
                "points": kind.points,
                "cards": kind.cards,
                "per_card": kind.per_card,
                "after_stock": kind.after_stock,
            }
            for kind in sheet.kinds.values()
        ],
        "penalties": [
            {
                "name": offer.name,
                "words": offer.words,
                "points": offer.points,
                "options": list(offer.options),
            }
            for offer in sheet.penalties()
        ],
        "suits": list(rules.deck.suits),
        "entries": entries,
        "hands": tally.hands,
        "scores": tally.scores,
        "over": tally.over,
        "winner": sides[tally.winner] if tally.over and tally.winner >= 0 else None,
    }


def _sides(sheet: Sheet) -> list[str]:
    side_of = sheet.rules.side_of
    return [
        " and ".join(n for seat, n in enumerate(sheet.players) if side_of[seat] == side)
        for side in range(max(side_of) + 1)
    ]


def download(sheet: Sheet, sheet_id: str, form: str) -> tuple[str, str, str]:
    """The sheet as a file: its text, media type and file name (``json``, ``csv``, ``html``)."""
    name = f"bezique-sheet-{sheet_id}.{form}"
    if form == "json":
        return sheet.dumps(), "application/json", name
    if form == "csv":
        return sheet_csv(sheet), "text/csv; charset=utf-8", name
    if form == "html":
        return sheet_html(sheet), "text/html; charset=utf-8", name
    raise SheetRequestError("a sheet is downloaded as json, csv or html", 404)
