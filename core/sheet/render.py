"""A score sheet shown: as text for the terminal, CSV (a row a hand) and a printable HTML page."""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence

from bezique.actions import ScoreEvent
from bezique.sheet.model import Entry, Sheet, Tally, penalty_key


def _sides(sheet: Sheet) -> list[str]:
    """Each side's name: its players'."""
    sides = max(sheet.rules.side_of) + 1
    return [
        " and ".join(n for seat, n in enumerate(sheet.players) if sheet.rules.side_of[seat] == side)
        for side in range(sides)
    ]


def _result(sheet: Sheet, tally: Tally) -> str:
    """The game's state in words."""
    if not tally.over:
        return "the game goes on"
    if tally.winner < 0:
        return "the game is drawn"
    return f"{_sides(sheet)[tally.winner]} won the game"


def penalty_words(sheet: Sheet, entry: Entry) -> str:
    """A penalty entry in a player's words: the offender, the irregularity, who claims it.

    ``penalty on Bob for drawing out of turn`` (the irregularity in the variant's words,
    :meth:`~bezique.rules.words.Words.irregularity`), then ``, claimed by Cy`` when the
    claimant is named; how it was claimed shows in whose points it changed.
    """
    done = sheet.rules.words.irregularity(penalty_key(entry.name))
    said = f"penalty on {sheet.players[entry.player]} for {done}"
    if entry.claimant >= 0:
        said += f", claimed by {sheet.players[entry.claimant]}"
    return said


def entry_words(sheet: Sheet, entry: Entry) -> str:
    """How an entry is said, everywhere a person reads it: as it is typed at the terminal.

    Who, the score's name, then the cards shown or the count (``Ann royal marriage KH
    QH``, ``Bob brisques, aces and tens won 9``); ``trumps H``, ``the stock is gone``,
    ``hand over``; a penalty in a player's words, as :func:`penalty_words` says it (the
    terminal takes it as ``penalty Bob drew out of turn add``).
    """
    if entry.kind == "hand_end":
        return "hand over"
    if entry.kind == "stock_gone":
        return "the stock is gone"
    if entry.kind == "trumps":
        return f"trumps {entry.suit}"
    if entry.kind == "penalty":
        return penalty_words(sheet, entry)
    kind = sheet.kind(entry.name)
    extra = [str(entry.count)] if kind.per_card else list(entry.cards)
    return " ".join([sheet.players[entry.player], kind.words, *extra])


def events_words(sheet: Sheet, events: Sequence[ScoreEvent]) -> str:
    """Score events in words: each player's points and the rule (``Ann +20 (the last trick)``)."""
    say = sheet.rules.words.say
    return ", ".join(f"{sheet.players[e.player]} {e.points:+d} ({say(e.rule)})" for e in events)


def scored_words(sheet: Sheet, entry: Entry, events: Sequence[ScoreEvent]) -> str:
    """What an entry scored, in words: :func:`events_words`, of a penalty only who scored.

    A penalty's words say the irregularity already, so its points read ``Ann +20``.
    """
    if entry.kind != "penalty":
        return events_words(sheet, events)
    return ", ".join(f"{sheet.players[e.player]} {e.points:+d}" for e in events)


def scored_alone(entry: Entry, events: Sequence[ScoreEvent]) -> bool:
    """Whether a score entry scored for its player alone, said as its points (``+40``).

    Otherwise (a penalty, a carte blanche paid by the opponents) each event is said
    (:func:`scored_words`).
    """
    return entry.kind == "score" and all(e.player == entry.player for e in events)


def points_said(sheet: Sheet, entry: Entry, events: Sequence[ScoreEvent]) -> str:
    """What an entry scored, as the sheet says it after the entry's words.

    ``+40`` when it scored for its player alone (:func:`scored_alone`), else each
    event (:func:`scored_words`); nothing when it scored nothing.
    """
    if scored_alone(entry, events):
        return f"{sum(e.points for e in events):+d}"
    return scored_words(sheet, entry, events) if events else ""


def entry_said(sheet: Sheet, entry: Entry, events: Sequence[ScoreEvent]) -> str:
    """The end of an entry's line: `` +40``, ``: Ann +20, …`` or nothing (:func:`points_said`)."""
    said = points_said(sheet, entry, events)
    if not said:
        return ""
    return f" {said}" if scored_alone(entry, events) else f": {said}"


def sheet_text(sheet: Sheet) -> str:
    """The entries, what each scored and which checks ran, each hand's points and the totals."""
    tally = sheet.tally()
    names = sheet.players
    lines = [f"{sheet.variant}: {', '.join(names)}"]
    for number, (entry, done) in enumerate(zip(sheet.entries, tally.entries, strict=True)):
        said = f"{number:>3}  hand {done.hand + 1}  {entry_words(sheet, entry)}"
        if done.events:
            said += f"  {points_said(sheet, entry, done.events)}"
        lines.append(said)
        if done.checks:
            lines.append(f"       checked: {'; '.join(done.checks)}")
    sides = _sides(sheet)
    for hand, scored in enumerate(tally.hands):
        lines.append(
            f"hand {hand + 1}: " + ", ".join(f"{s} {p}" for s, p in zip(sides, scored, strict=True))
        )
    lines.append(
        "totals: " + ", ".join(f"{s} {p}" for s, p in zip(sides, tally.scores, strict=True))
    )
    lines.append(_result(sheet, tally))
    return "\n".join(lines) + "\n"


def sheet_csv(sheet: Sheet) -> str:
    """A row a hand: its number, each side's points in it, and each side's running total."""
    tally = sheet.tally()
    sides = _sides(sheet)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["hand", *sides, *(f"{s} total" for s in sides)])
    running = [0] * len(sides)
    for hand, points in enumerate(tally.hands):
        running = [r + p for r, p in zip(running, points, strict=True)]
        writer.writerow([hand + 1, *points, *running])
    return out.getvalue()


def sheet_html(sheet: Sheet) -> str:
    """A printable score sheet: a row a hand, the running totals and the result."""
    tally = sheet.tally()
    sides = [html.escape(s) for s in _sides(sheet)]
    rows = []
    running = [0] * len(sides)
    for hand, points in enumerate(tally.hands):
        running = [r + p for r, p in zip(running, points, strict=True)]
        cells = "".join(f"<td>{p}</td><td>{r}</td>" for p, r in zip(points, running, strict=True))
        rows.append(f"<tr><td>{hand + 1}</td>{cells}</tr>")
    pairs = "".join(f"<th>{s}</th><th>total</th>" for s in sides)
    title = html.escape(f"{sheet.variant}: score sheet")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>body{{font-family:serif}}table{{border-collapse:collapse}}"
        "td,th{border:1px solid #000;padding:.2em .6em;text-align:right}</style></head><body>"
        f"<h1>{title}</h1><table><thead><tr><th>hand</th>{pairs}</tr></thead><tbody>"
        + "".join(rows)
        + f"</tbody></table><p>{html.escape(_result(sheet, tally))}</p>"
        "</body></html>\n"
    )
