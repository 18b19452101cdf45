"""The web table's store: one SQLite file holding every table and every action taken.

Everything the server must not lose goes through :class:`Store`, and nothing else
touches the database, so that a shared database could replace this one module when
one server process is no longer enough.  The file runs in write-ahead-log mode with
``synchronous=NORMAL``: :meth:`Store.add_action` returns only once the action is
committed to the log file, and the server acknowledges an action only after it
returns, so a crash of the server's process loses no acknowledged action.  The log
is synced to disk at each checkpoint rather than at every commit: a crash of the
machine itself (power lost) may lose the last actions.  (Syncing at every commit
stalled the whole server for each action, 0.3-1.3 ms on a busy disk.)  A table is kept
as its setup (the variant by registered name and overrides, the seed, the seats, the
hashes of the seats' tokens) and the texts of its actions in order: the game is the
replay of them (:mod:`bezique.web.tables`).

The database carries a schema version (``PRAGMA user_version``); :data:`MIGRATIONS`
takes an older file to the present one, and a newer file is refused.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bezique.errors import BeziqueError

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        setup TEXT NOT NULL
    );
    CREATE TABLE actions (
        table_id TEXT NOT NULL REFERENCES tables(id),
        number INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (table_id, number)
    );
    CREATE TABLE records (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        record TEXT NOT NULL
    );
    """,
    # the club (bezique.sheet.club): its players, evenings, games (finished sheets) and
    # the club player at each seat of a game
    """
    CREATE TABLE club_players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE club_evenings (
        id INTEGER PRIMARY KEY,
        day TEXT NOT NULL UNIQUE
    );
    CREATE TABLE club_games (
        id INTEGER PRIMARY KEY,
        evening_id INTEGER NOT NULL REFERENCES club_evenings(id),
        sheet TEXT NOT NULL
    );
    CREATE TABLE club_seats (
        game_id INTEGER NOT NULL REFERENCES club_games(id),
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES club_players(id),
        PRIMARY KEY (game_id, seat)
    );
    """,
    # the score sheets of games played with real cards (bezique.web.sheets): the sheet
    # file's JSON and the hash of its edit token
    """
    CREATE TABLE sheets (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        sheet TEXT NOT NULL,
        token TEXT NOT NULL
    );
    """,
)
"""The schema, one script a version: version N is the first N scripts run in order."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The version of the schema this module writes."""


class StoreError(BeziqueError):
    """The store cannot be opened or written (a newer schema, a file that is no database)."""


class Store:
    """The tables, their actions, the uploaded records and the score sheets, in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the database at ``path`` and bring its schema up to date."""
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot use it as the table store: {exc}") from None

    def _migrate(self) -> None:
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer bezique (store schema {version}; this one "
                f"reads up to {SCHEMA_VERSION}); use that version or another --db file"
            )
        for number in range(version, SCHEMA_VERSION):  # each step whole or not at all
            self._db.executescript(
                f"BEGIN IMMEDIATE; {MIGRATIONS[number]} PRAGMA user_version={number + 1}; COMMIT;"
            )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self._lock)

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    # --- tables -------------------------------------------------------------------------

    def add_table(self, table_id: str, setup: Mapping[str, Any]) -> None:
        """Store a new table's setup (plain JSON data)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables (id, created, setup) VALUES (?, ?, ?)",
                (table_id, time.time(), json.dumps(setup, sort_keys=True)),
            )

    def add_action(self, table_id: str, number: int, text: str) -> None:
        """Store the table's action ``number`` (0 the first), committed when this returns."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO actions (table_id, number, text) VALUES (?, ?, ?)",
                (table_id, number, text),
            )

    def remove_actions_from(self, table_id: str, number: int) -> None:
        """Take back the table's actions from ``number`` on (an undo, or a failed replay)."""
        with self._transaction():
            self._db.execute(
                "DELETE FROM actions WHERE table_id = ? AND number >= ?", (table_id, number)
            )

    def table_ids(self) -> list[str]:
        """Every table's id, the oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT id FROM tables ORDER BY created, id").fetchall()
        return [row[0] for row in rows]

    def table(self, table_id: str) -> tuple[dict[str, Any], list[str]] | None:
        """The table's setup and its actions' texts in order, or None if there is none."""
        with self._lock:
            row = self._db.execute("SELECT setup FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            actions = self._db.execute(
                "SELECT text FROM actions WHERE table_id = ? ORDER BY number", (table_id,)
            ).fetchall()
        return json.loads(row[0]), [text for (text,) in actions]

    # --- records ----------------------------------------------------------------------

    def add_record(self, record_id: str, record: Mapping[str, Any]) -> None:
        """Store an uploaded record (already checked to replay)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO records (id, created, record) VALUES (?, ?, ?)",
                (record_id, time.time(), json.dumps(record, sort_keys=True)),
            )

    def record(self, record_id: str) -> dict[str, Any] | None:
        """The uploaded record ``record_id``, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT record FROM records WHERE id = ?", (record_id,)
            ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    # --- score sheets -----------------------------------------------------------------

    def add_sheet(self, sheet_id: str, sheet: Mapping[str, Any], token_hash: str) -> None:
        """Store a new score sheet (its file's JSON) with the hash of its edit token."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO sheets (id, created, sheet, token) VALUES (?, ?, ?, ?)",
                (sheet_id, time.time(), json.dumps(sheet, sort_keys=True), token_hash),
            )

    def set_sheet(self, sheet_id: str, sheet: Mapping[str, Any]) -> None:
        """Store the sheet's new JSON (an entry added, undone or fixed), committed on return."""
        with self._transaction():
            self._db.execute(
                "UPDATE sheets SET sheet = ? WHERE id = ?",
                (json.dumps(sheet, sort_keys=True), sheet_id),
            )

    def sheet(self, sheet_id: str) -> tuple[dict[str, Any], str] | None:
        """The sheet ``sheet_id``'s JSON and its edit token's hash, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT sheet, token FROM sheets WHERE id = ?", (sheet_id,)
            ).fetchone()
        return None if row is None else (dict(json.loads(row[0])), str(row[1]))


class _Transaction:
    """One write, all of it or none: ``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK``)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock

    def __enter__(self) -> None:
        self._lock.acquire()
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            self._db.execute("ROLLBACK" if kind is not None else "COMMIT")
        finally:
            self._lock.release()


def rows(store: Store) -> Iterator[tuple[str, dict[str, Any], list[str]]]:
    """Every stored table: its id, setup and actions (what a restarted server resumes)."""
    for table_id in store.table_ids():
        found = store.table(table_id)
        if found is not None:
            yield table_id, *found


def open_database(path: str | Path) -> sqlite3.Connection:
    """The store's database at ``path``, its schema up to date, for a terminal command.

    The connection is in autocommit mode: its user (the club, :mod:`bezique.sheet.club`)
    runs its own transactions.  :class:`StoreError` if the file cannot be used.
    """
    return Store(path)._db
