"""The club: its players, its evenings and the finished sheets of the games they played.

A :class:`Club` works on an open SQLite connection whose schema the table store
brings up to date (its tables ``club_players``, ``club_evenings``, ``club_games`` and
``club_seats`` are a migration of :data:`bezique.web.store.MIGRATIONS`); each method
that writes is one transaction, all of it or none.  A game is a finished sheet
(:class:`~bezique.sheet.Sheet`, its tally over) whose players are all club players,
kept as the sheet's JSON with its evening and the club player at each seat; its
totals are worked out again from the entries whenever they are needed.

The ladder fits every player's Elo rating with the tournament's fit
(:func:`bezique.simulation.ratings.fit_elo`): each game is a result between every two
players on different sides (a win, a loss, or half each when neither side of the two
won).  The luck of a player compares the declarations they set down a hand with those
the heuristic bot sets down on dealt hands of the same variant.

The club's file (``bezique-club/1``, :meth:`Club.export` and :meth:`Club.import_`) is
read as untrusted input: a size cap, every sheet read and checked again, errors
located (``FILE: games[2].sheet: ...``), and nothing added unless everything is.
"""

from __future__ import annotations

import json
import math
import random
import re
import sqlite3
import statistics
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from typing import Any

from bezique.errors import BeziqueError
from bezique.game import new_game
from bezique.players import decide, player_for
from bezique.rules.ruleset import Ruleset
from bezique.sheet.model import MAX_SHEET_BYTES, Sheet, SheetError
from bezique.simulation.ratings import Z95, EloFit, PairResult, fit_elo
from bezique.simulation.simulate import game_seeds

FORMAT = "bezique-club/1"
"""The format name of the club's file."""
MAX_CLUB_BYTES = 64 * 1024 * 1024
"""The largest club file :meth:`Club.import_` reads."""
MAX_GAMES = 10_000
"""The most games one club file may hold."""
MAX_NAME = 60
"""The longest player's name, in characters."""
MAX_LUCK_HANDS = 2000
"""The most simulated hands :meth:`Club.luck` plays."""
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


class ClubError(BeziqueError):
    """A club command refused: an unknown player, an unfinished sheet, a bad club file."""


@dataclass(frozen=True)
class ClubGame:
    """A game of the club: its number, evening, the club player at each seat, and sheet."""

    number: int
    evening: str
    players: tuple[str, ...]
    sheet: Sheet


@dataclass(frozen=True)
class LadderRow:
    """One player's line of the ladder."""

    name: str
    games: int
    wins: float
    """Games won, half a game for each drawn one."""
    points_share: float | None
    """The player's side's points over all sides' points, in their games (None: no game)."""
    elo: float | None
    interval: tuple[float, float] | None
    anchor: bool = False
    """Whether the Elo ratings are anchored at this player's (0, no interval)."""

    def to_json(self) -> dict[str, Any]:
        """The row as plain JSON data."""
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "points_share": self.points_share,
            "elo": self.elo,
            "elo_interval": list(self.interval) if self.interval is not None else None,
            "elo_anchor": self.anchor,
        }


@dataclass(frozen=True)
class Mean:
    """A mean of ``count`` values with its 95% interval (normal approximation)."""

    mean: float
    low: float
    high: float
    count: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Mean:
        """The mean of ``values`` (0 with an empty interval if there are none)."""
        if not values:
            return cls(0.0, 0.0, 0.0, 0)
        mean = statistics.fmean(values)
        spread = statistics.stdev(values) if len(values) > 1 else 0.0
        half = Z95 * spread / math.sqrt(len(values))
        return cls(mean, mean - half, mean + half, len(values))

    def to_json(self) -> dict[str, Any]:
        """The mean as plain JSON data."""
        return {"mean": self.mean, "interval": [self.low, self.high], "hands": self.count}


@dataclass(frozen=True)
class Luck:
    """One variant's declaration points a hand: the player's and the heuristic bot's."""

    variant: str
    """The variant's name, with its house rules' overrides as JSON where the sheets had some."""
    player: Mean
    bot: Mean
    title: str = ""
    """The variant in words: its title, and "with house rules" where the sheets had some."""

    def to_json(self) -> dict[str, Any]:
        """The comparison as plain JSON data."""
        return {
            "variant": self.variant,
            "title": self.title,
            "player": self.player.to_json(),
            "bot": self.bot.to_json(),
        }


def player_name(text: str) -> str:
    """A player's name as the club keeps it (spaces trimmed), or :class:`ClubError`."""
    name = " ".join(text.split())
    if not name:
        raise ClubError("a player's name cannot be empty")
    if len(name) > MAX_NAME:
        raise ClubError(f"{name[:20]!r}...: a name is at most {MAX_NAME} characters")
    if any(not char.isprintable() for char in name):
        raise ClubError(f"{name!r}: a name has no control characters")
    return name


def evening_day(text: str) -> str:
    """An evening's date, ``YYYY-MM-DD``, or :class:`ClubError`."""
    try:
        if _DAY.fullmatch(text) is None:
            raise ValueError
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise ClubError(f"{text!r}: an evening is a date, YYYY-MM-DD") from None


class Club:
    """The club kept in the store's SQLite database (see the module docstring)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        """The club of ``db``, a connection in autocommit mode with the store's schema."""
        self._db = db

    @contextmanager
    def _write(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ------------------------------------------------------------------ players

    def add_player(self, name: str) -> str:
        """Add a player; return the name as kept (:class:`ClubError` if taken)."""
        with self._write():
            return self._add_player(name)

    def _add_player(self, text: str) -> str:
        name = player_name(text)
        if self._player_id(name) is not None:
            raise ClubError(f"{name!r} is a club player already")
        self._db.execute("INSERT INTO club_players (name) VALUES (?)", (name,))
        return name

    def _player_id(self, name: str) -> int | None:
        row = self._db.execute("SELECT id FROM club_players WHERE name = ?", (name,)).fetchone()
        return None if row is None else int(row[0])

    def players(self) -> list[str]:
        """Every club player's name, in the order they joined."""
        return [n for (n,) in self._db.execute("SELECT name FROM club_players ORDER BY id")]

    # ------------------------------------------------------------------ games

    def add_game(self, sheet: Sheet, evening: str) -> int:
        """Add a finished sheet's game on ``evening``; return its number."""
        with self._write():
            return self._add_game(sheet, evening, "sheet")

    def _add_game(self, sheet: Sheet, evening: str, where: str) -> int:
        number, _ = self._add_game_once(sheet, evening, where, again=True)
        return number

    def _add_game_once(
        self, sheet: Sheet, evening: str, where: str, *, again: bool
    ) -> tuple[int, bool]:
        """Add the game (or, unless ``again``, find the same sheet that evening); say if new."""
        day = evening_day(evening)
        tally = sheet.tally()
        if not tally.over:
            raise ClubError(f"{where}: the game is not finished (no side has won yet)")
        seats = [self._seat(name, where) for name in sheet.players]
        if len(set(seats)) != len(seats):
            raise ClubError(f"{where}: a player is named at two seats")
        self._db.execute("INSERT OR IGNORE INTO club_evenings (day) VALUES (?)", (day,))
        (evening_id,) = self._db.execute(
            "SELECT id FROM club_evenings WHERE day = ?", (day,)
        ).fetchone()
        text = json.dumps(sheet.to_json(), sort_keys=True, ensure_ascii=False)
        if not again:
            same = self._db.execute(
                "SELECT id FROM club_games WHERE evening_id = ? AND sheet = ?", (evening_id, text)
            ).fetchone()
            if same is not None:
                return int(same[0]), False
        cursor = self._db.execute(
            "INSERT INTO club_games (evening_id, sheet) VALUES (?, ?)", (evening_id, text)
        )
        number = int(cursor.lastrowid or 0)
        self._db.executemany(
            "INSERT INTO club_seats (game_id, seat, player_id) VALUES (?, ?, ?)",
            [(number, seat, player) for seat, player in enumerate(seats)],
        )
        return number, True

    def _seat(self, name: str, where: str) -> int:
        found = self._player_id(name)
        if found is None:
            raise ClubError(f"{where}: {name!r} is not a club player (add-player first)")
        return found

    def games(self, evening: str | None = None) -> list[ClubGame]:
        """The club's games, the oldest first; with ``evening``, that evening's only."""
        query = (
            "SELECT g.id, e.day, g.sheet FROM club_games g "
            "JOIN club_evenings e ON e.id = g.evening_id"
        )
        params: tuple[str, ...] = ()
        if evening is not None:
            query += " WHERE e.day = ?"
            params = (evening_day(evening),)
        found = []
        for number, day, text in self._db.execute(query + " ORDER BY e.day, g.id", params):
            seats = self._db.execute(
                "SELECT p.name FROM club_seats s JOIN club_players p ON p.id = s.player_id "
                "WHERE s.game_id = ? ORDER BY s.seat",
                (number,),
            ).fetchall()
            sheet = Sheet.from_json(json.loads(text), f"game {number}")
            found.append(ClubGame(number, day, tuple(n for (n,) in seats), sheet))
        return found

    # ------------------------------------------------------------------ the ladder

    def results(self) -> tuple[list[str], list[PairResult]]:
        """The players with a game, and every game's pairwise results between them."""
        games = self.games()
        named = [n for n in self.players() if any(n in g.players for g in games)]
        index = {name: i for i, name in enumerate(named)}
        results = []
        for game in games:
            tally = game.sheet.tally()
            side_of = game.sheet.rules.side_of
            for a, first in enumerate(game.players):
                for b in range(a + 1, len(game.players)):
                    if side_of[a] == side_of[b]:
                        continue
                    score = 0.5
                    if tally.winner == side_of[a]:
                        score = 1.0
                    elif tally.winner == side_of[b]:
                        score = 0.0
                    results.append(PairResult(index[first], index[game.players[b]], score, 1))
        return named, results

    def ladder(self) -> list[LadderRow]:
        """Every club player's line: games, wins, points share and Elo with its interval.

        The Elo ratings are fitted jointly over the players with a game, the first of
        them (by joining) at 0; they are None when the fit has no finite answer.
        """
        named, results = self.results()
        fit = fit_elo(len(named), results) if named else EloFit(0, None, None)
        games: dict[str, int] = {}
        wins: dict[str, float] = {}
        own: dict[str, int] = {}
        total: dict[str, int] = {}
        for game in self.games():
            tally = game.sheet.tally()
            side_of = game.sheet.rules.side_of
            for seat, name in enumerate(game.players):
                side = side_of[seat]
                games[name] = games.get(name, 0) + 1
                won = 1.0 if tally.winner == side else 0.5 if tally.winner < 0 else 0.0
                wins[name] = wins.get(name, 0.0) + won
                own[name] = own.get(name, 0) + tally.scores[side]
                total[name] = total.get(name, 0) + sum(tally.scores)
        rows = []
        for name in self.players():
            at = named.index(name) if name in named else -1
            rows.append(
                LadderRow(
                    name,
                    games.get(name, 0),
                    wins.get(name, 0.0),
                    own[name] / total[name] if total.get(name) else None,
                    fit.ratings[at] if at >= 0 and fit.ratings is not None else None,
                    fit.interval(at) if at >= 0 else None,
                    at == fit.anchor and fit.ratings is not None,
                )
            )
        rows.sort(key=lambda r: (r.elo is None, -(r.elo or 0.0), -r.wins, r.name))
        return rows

    # ------------------------------------------------------------------ the file

    def export(self) -> dict[str, Any]:
        """The whole club as one JSON document (``bezique-club/1``)."""
        return {
            "format": FORMAT,
            "players": self.players(),
            "games": [{"evening": g.evening, "sheet": g.sheet.to_json()} for g in self.games()],
        }

    def import_(self, data: Any, where: str = "club") -> tuple[int, int]:
        """Add a club document's players (those not yet in) and games, all or none.

        A game the club has already (the same sheet on the same evening) is not added
        again, so a file imported twice adds its games once.  Return how many players
        and games were added; :class:`ClubError` says where the document is wrong, and
        then nothing is added.
        """
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ClubError(f"{where}: not a club file (its format must be {FORMAT!r})")
        extra = set(data) - {"format", "players", "games"}
        if extra:
            raise ClubError(f"{where}: unknown key {sorted(extra)[0]!r}")
        players, games = data.get("players"), data.get("games")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ClubError(f"{where}: players: a list of names")
        if not isinstance(games, list) or len(games) > MAX_GAMES:
            raise ClubError(f"{where}: games: a list of at most {MAX_GAMES} games")
        with self._write():
            known = set(self.players())
            added = 0
            for number, name in enumerate(players):
                try:
                    if player_name(name) not in known:
                        known.add(self._add_player(name))
                        added += 1
                except ClubError as exc:
                    raise ClubError(f"{where}: players[{number}]: {exc}") from None
            new_games = sum(
                self._import_game(game, f"{where}: games[{number}]")
                for number, game in enumerate(games)
            )
        return added, new_games

    def _import_game(self, game: Any, where: str) -> bool:
        if not isinstance(game, Mapping) or set(game) != {"evening", "sheet"}:
            raise ClubError(f"{where}: a game is an object with an evening and a sheet")
        if not isinstance(game["evening"], str):
            raise ClubError(f"{where}.evening: a date, YYYY-MM-DD")
        try:
            day = evening_day(game["evening"])
        except ClubError as exc:
            raise ClubError(f"{where}.evening: {exc}") from None
        if len(json.dumps(game["sheet"])) > MAX_SHEET_BYTES:
            raise ClubError(f"{where}.sheet: larger than {MAX_SHEET_BYTES} bytes")
        try:
            sheet = Sheet.from_json(game["sheet"], f"{where}.sheet")
        except SheetError as exc:
            raise ClubError(str(exc)) from None
        return self._add_game_once(sheet, day, f"{where}.sheet", again=False)[1]

    # ------------------------------------------------------------------ luck

    def luck(self, name: str, hands: int, seed: int) -> list[Luck]:
        """The declaration points ``name`` set down a hand, against the heuristic bot's.

        For each variant ``name`` played (with the sheet's house rules), the points
        of the combinations they declared in each hand of their sheets, and the same
        for ``hands`` simulated hands of one seat each: the heuristic bot playing every
        seat of the first hand of deals drawn from ``seed``, each seat a hand.
        """
        if not 1 <= hands <= MAX_LUCK_HANDS:
            raise ClubError(f"--hands {hands}: from 1 to {MAX_LUCK_HANDS}")
        wanted = player_name(name)
        if self._player_id(wanted) is None:
            raise ClubError(f"{wanted!r} is not a club player")
        own: dict[str, list[float]] = {}
        rules_of: dict[str, Ruleset] = {}
        titles: dict[str, str] = {}
        for game in self.games():
            if wanted not in game.players:
                continue
            sheet = game.sheet
            key, title = sheet.variant, sheet.rules.variant.title
            if sheet.overrides:
                key += " " + json.dumps(sheet.overrides, sort_keys=True)
                title += " with house rules"
            titles[key] = title
            rules_of.setdefault(key, sheet.rules)
            own.setdefault(key, []).extend(_declared(sheet, game.players.index(wanted)))
        return [
            Luck(
                key,
                Mean.of(own[key]),
                Mean.of(_bot_declared(rules_of[key], hands, seed)),
                titles[key],
            )
            for key in sorted(own)
        ]


def _declared(sheet: Sheet, seat: int) -> list[float]:
    """The points of the combinations ``seat`` declared in each hand of ``sheet``."""
    tally = sheet.tally()
    combos = set(sheet.rules.combo_names)
    points = [0.0] * len(tally.hands)
    for entry, counted in zip(sheet.entries, tally.entries, strict=True):
        if entry.player == seat:
            points[counted.hand] += sum(e.points for e in counted.events if e.rule in combos)
    return points


def _bot_declared(rules: Ruleset, hands: int, seed: int) -> list[float]:
    """The combinations' points of each seat in the first hand of heuristic-bot deals."""
    bot = player_for("heuristic")
    combos = set(rules.combo_names)
    deals = -(-hands // rules.players)
    points: list[float] = []
    for deal_seed in game_seeds(seed, deals):
        state = new_game(rules, seed=deal_seed)
        rng = random.Random(deal_seed)
        while not state.is_over() and state.hand_no == 0:
            state.apply(decide(bot, state, rng))
        seats = [0.0] * rules.players
        for event, hand in zip(state.events, state.event_hands, strict=True):
            if hand == 0 and event.rule in combos:
                seats[event.player] += event.points
        points.extend(seats)
    return points[:hands]
