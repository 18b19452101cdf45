"""``bezique club --db FILE ...``: the club's players, games, ladder, file and luck.

Each subcommand is one transaction on the club (:mod:`bezique.sheet.club`): what it
refuses changes nothing.  The database is the table store's SQLite file, opened by
the caller (the command line) and handed in as a connection.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bezique.sheet.club import Club


def run_club(args: argparse.Namespace, connect: Callable[[str], sqlite3.Connection]) -> int:
    """Run one ``bezique club`` subcommand on the club in ``connect(args.db)``."""
    from bezique.sheet.club import Club, ClubError

    db = connect(args.db)
    try:
        return _HANDLERS[args.club_command](Club(db), args)
    except sqlite3.Error as exc:  # busy past the timeout, a disk full: nothing was kept
        raise ClubError(f"{args.db}: cannot use the club's file: {exc}") from None
    finally:
        db.close()


def _add_player(club: Club, args: argparse.Namespace) -> int:
    print(f"added {club.add_player(args.name)}")
    return 0


def _players(club: Club, args: argparse.Namespace) -> int:
    for name in club.players():
        print(name)
    return 0


def _add_game(club: Club, args: argparse.Namespace) -> int:
    from bezique.sheet.model import read_sheet

    sheet = read_sheet(args.sheet)
    number = club.add_game(sheet, args.evening or date.today().isoformat())
    print(f"added game {number}")
    return 0


def _games(club: Club, args: argparse.Namespace) -> int:
    for game in club.games(args.evening):
        tally = game.sheet.tally()
        side_of = game.sheet.rules.side_of
        sides = [
            " and ".join(n for seat, n in enumerate(game.players) if side_of[seat] == side)
            for side in range(len(tally.scores))
        ]
        scores = ", ".join(
            f"{who} {points}" for who, points in zip(sides, tally.scores, strict=True)
        )
        result = "drawn" if tally.winner < 0 else f"won by {sides[tally.winner]}"
        print(f"{game.evening}  game {game.number}  {game.sheet.variant}: {scores}; {result}")
    return 0


def _ladder(club: Club, args: argparse.Namespace) -> int:
    rows = club.ladder()
    if args.json:
        print(json.dumps([row.to_json() for row in rows], indent=1, ensure_ascii=False))
        return 0
    width = max([len("player"), *(len(row.name) for row in rows)])
    print(f"{'player':<{width}}  games   wins  points     Elo  95% interval")
    for row in rows:
        share = "-" if row.points_share is None else f"{row.points_share:.1%}"
        elo = "-" if row.elo is None else f"{row.elo:+.0f}"
        span = "-" if row.interval is None else f"{row.interval[0]:+.0f} to {row.interval[1]:+.0f}"
        span = "(anchor)" if row.anchor else span
        print(f"{row.name:<{width}}  {row.games:5d}  {row.wins:5g}  {share:>6}  {elo:>6}  {span}")
    anchor = [row.name for row in rows if row.anchor]
    if anchor:
        print(f"95% intervals from the Fisher information; anchor: {anchor[0]} = 0")
    elif any(row.games for row in rows):
        print(
            "no Elo yet: it needs every player to have won and lost, against a chain of "
            "players reaching every other"
        )
    return 0


def _export(club: Club, args: argparse.Namespace) -> int:
    from bezique.reading.safeio import write_output

    data = club.export()
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    write_output(args.file, text, overwrite=args.overwrite)
    print(f"wrote {len(data['players'])} players and {len(data['games'])} games to {args.file}")
    return 0


def _import(club: Club, args: argparse.Namespace) -> int:
    from bezique.sheet.club import MAX_CLUB_BYTES, ClubError
    from bezique.sheet.model import SheetError, read_json_file

    where = os.fspath(args.file)
    try:
        data = read_json_file(where, MAX_CLUB_BYTES, "a club file")
    except SheetError as exc:
        raise ClubError(str(exc)) from None
    players, games = club.import_(data, where)
    print(f"added {players} players and {games} games from {where}")
    return 0


def _luck(club: Club, args: argparse.Namespace) -> int:
    found = club.luck(args.name, args.hands, args.seed)
    if args.json:
        print(json.dumps([luck.to_json() for luck in found], indent=1, ensure_ascii=False))
        return 0
    if not found:
        print(f"{args.name} has no game in the club")
    for luck in found:
        print(f"{luck.title or luck.variant}: points declared a hand (95% interval)")
        for who, mean in ((args.name, luck.player), ("heuristic bot", luck.bot)):
            print(
                f"  {who}: {mean.mean:.1f} ({mean.low:.1f} to {mean.high:.1f}) "
                f"over {mean.count} hands"
            )
    return 0


_HANDLERS: dict[str, Callable[[Club, argparse.Namespace], int]] = {
    "add-player": _add_player,
    "players": _players,
    "add-game": _add_game,
    "games": _games,
    "ladder": _ladder,
    "export": _export,
    "import": _import,
    "luck": _luck,
}
