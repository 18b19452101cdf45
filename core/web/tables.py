"""The tables of the web server: a game, its seats, and every action stored as it is taken.

A :class:`Table` is a game (:class:`~bezique.game.GameState`) with a seat for each
player: a person (who holds a token, given once in the seat's link) or a bot (a
player spec, :func:`bezique.players.player_for`).  :meth:`Table.act` applies a
seat's action, stores it (:mod:`bezique.web.store`) and only then returns, so an
acknowledged action is never lost; if the store fails the game is put back as it was.
A table restarts from its store by replaying its actions (:meth:`Table.resume`).

This module knows no web framework: the server (:mod:`bezique.web.app`) calls it
under one lock a table, and sends each seat what :mod:`bezique.web.seatview` makes of
the table for that seat.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bezique.actions import TABLE_KINDS, Action
from bezique.errors import BeziqueError, IllegalActionError, PlayerError
from bezique.game import GameState, new_game
from bezique.players import parse_spec, player_for
from bezique.records.journal import Journal
from bezique.records.record import record_of
from bezique.rulebook.book import list_label
from bezique.variant import Variant, load_variant_text
from bezique.web.store import Store

MAX_SEATS = 4
"""The most seats a table has (the four-hand games)."""
MAX_NAME = 40
"""The longest name a seat may be given."""
LOG_LINES = 80
"""How many lines of what happened a table keeps for its pages."""
INLINE_BOTS = frozenset({"random", "heuristic"})
"""The bots that decide at once, in the server's own process; every other one thinks
in the pool of processes (:mod:`bezique.web.bots`)."""
MAX_SEARCH_ITERATIONS = 5000
"""The most iterations a bot at a web table may be given (its thinking budget)."""
HUMAN, BOT = "human", "bot"
"""The kinds of seat."""
BOT_WORDS = {"heuristic": "steady", "random": "beginner", "search": "thinking"}
"""What the lobby calls each kind of bot: a bot seat left unnamed is named ``steady bot``."""
LOBBY_BOTS = ("heuristic", "random", "search:iterations=400")
"""The bots the lobby offers for a seat, as player specs, the first its choice for an empty seat."""


class SetupError(BeziqueError):
    """A table cannot be set up as asked (a variant, a seat, a seed); says which and why."""


@dataclass(frozen=True)
class Seat:
    """One seat at a table: a person, who holds a token, or a bot, by its player spec."""

    kind: str
    name: str
    spec: str = ""
    """The bot's player spec (``heuristic``, ``search:iterations=400``); ``""`` for a person."""
    token_hash: str = ""
    """The SHA-256 of the person's token (the token itself is given once, in his link)."""

    def to_json(self) -> dict[str, str]:
        """The seat as stored."""
        return {"kind": self.kind, "name": self.name, "spec": self.spec, "token": self.token_hash}


def token_hash(token: str) -> str:
    """The hash of a seat's token, as the store keeps it."""
    return hashlib.sha256(token.encode("utf-8", errors="replace")).hexdigest()


class Table:
    """A game at the server: its seats, its journal, its store."""

    def __init__(
        self, table_id: str, setup: Mapping[str, Any], state: GameState, store: Store
    ) -> None:
        """A table ``table_id`` set up as ``setup`` (see :func:`new_table`) playing ``state``."""
        self.id = table_id
        self.setup = dict(setup)
        self.state = state
        self.store = store
        self.seats = [Seat(s["kind"], s["name"], s["spec"], s["token"]) for s in setup["seats"]]
        self.journal = Journal([seat.name for seat in self.seats])
        self.title: str = setup.get("title") or list_label(state.rules)
        """What the table's header calls its game: a house rule told from its parent.

        Set when the table is made, while the pasted house rule is at hand (the table
        keeps only its parent and its overrides)."""
        self.thinking = -1
        """The bot seat now thinking, or -1."""

    # --- who is who ---------------------------------------------------------------------

    def seat_of(self, token: object) -> int | None:
        """The seat whose token ``token`` is, or None (a wrong token, or none)."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        wanted = token_hash(token)
        found = None
        for number, seat in enumerate(self.seats):
            if seat.kind == HUMAN and hmac.compare_digest(seat.token_hash, wanted):
                found = number
        return found

    def bot_to_act(self) -> int | None:
        """The bot seat whose move it is, or None (a person's move, or the game over)."""
        state = self.state
        if state.is_over() or self.seats[state.to_act].kind != BOT:
            return None
        return state.to_act

    # --- acting ---------------------------------------------------------------------------

    def act(self, seat: int, action: Action | str) -> Action:
        """Apply ``seat``'s action, store it, log it; the action applied.

        Refused (:class:`~bezique.errors.IllegalActionError`, the game unchanged) when it
        is not the seat's move (a table action, at a refereed table, may come from any
        seat) or the rules refuse it.
        """
        state = self.state
        parsed = state.parse_action(action) if isinstance(action, str) else action
        own_move = state.to_act == seat and not state.is_over()
        if not own_move and not (parsed.kind in TABLE_KINDS and state.at_table):
            raise IllegalActionError(
                f"it is not your move: {self.seats[state.to_act].name} is to play"
                if not state.is_over()
                else "the game is over",
                "play.turn",
            )
        before = state.clone()
        moment = self.journal.before(state, parsed)
        state.apply(parsed)
        try:
            self.store.add_action(self.id, len(state.history) - 1, moment.text)
        except Exception:
            self.state = before
            raise
        self.journal.after(state, moment)
        del self.journal.log[:-LOG_LINES]
        return parsed

    def bot_rng(self) -> random.Random:
        """The chance a bot draws from for the next action: fixed by the seed and the move."""
        return random.Random(f"{self.state.seed}:{len(self.state.history)}")

    def record(self) -> dict[str, Any]:
        """The game's ``bezique-record/2`` record, the seats' names as its players."""
        return record_of(self.state, {"players": [seat.name for seat in self.seats]})

    # --- making and resuming --------------------------------------------------------------

    @classmethod
    def resume(
        cls, table_id: str, setup: Mapping[str, Any], actions: Sequence[str], store: Store
    ) -> Table:
        """The table as its store holds it: the game set up again and its actions replayed.

        An action that no longer replays (the rules changed since) ends the replay
        there, and the actions after it are taken out of the store.
        """
        table = cls(table_id, setup, game_of(setup), store)
        for number, text in enumerate(actions):
            moment = None
            try:
                parsed = table.state.parse_action(text)
                moment = table.journal.before(table.state, parsed)
                table.state.apply(parsed)
            except BeziqueError:
                store.remove_actions_from(table_id, number)
                break
            table.journal.after(table.state, moment)
        del table.journal.log[:-LOG_LINES]
        return table


def game_of(setup: Mapping[str, Any]) -> GameState:
    """The game a table's setup starts: its variant and overrides, seed, decks and dealer."""
    return new_game(
        setup["variant"],
        overrides=setup["overrides"],
        seed=setup["seed"],
        decks=setup.get("decks") or None,
        first_dealer=setup.get("first_dealer", 0),
        referee=bool(setup.get("referee", False)),
    )


def new_table(
    store: Store,
    *,
    variant: str | Variant,
    seats: Sequence[Mapping[str, Any]],
    overrides: Mapping[str, Any] | None = None,
    seed: int | None = None,
    prefix: Sequence[str] = (),
    decks: Sequence[Sequence[str]] = (),
    first_dealer: int = 0,
    referee: bool = False,
) -> tuple[Table, dict[int, str]]:
    """Set up and store a table; the table and each person's seat token.

    ``variant``: a registered name or a loaded variant (a house rule pasted in a page),
    ``overrides`` merged over it;
    ``seats``: one mapping a seat, ``{"kind": "human" | "bot", "name": ..., "spec": ...}``;
    ``prefix``: actions already played (a game played on from a record's position), which
    must replay; ``referee``: a refereed game (irregularities reported and penalised, see
    :mod:`bezique.plugins.referee`).  Raise :class:`SetupError` saying what is wrong.
    """
    state = _started(variant, overrides, seed, decks, first_dealer)
    checked = _checked_seats(seats, state.players)
    tokens = {n: secrets.token_urlsafe(24) for n, s in enumerate(checked) if s["kind"] == HUMAN}
    for number, token in tokens.items():
        checked[number]["token"] = token_hash(token)
    saved = state.to_json()
    setup = {
        "variant": saved["variant"],
        "overrides": saved["overrides"],
        "seed": state.seed,
        "decks": saved["decks"],
        "first_dealer": state.first_dealer,
        "referee": referee,
        "title": list_label(state.rules),
        "seats": checked,
    }
    table_id = secrets.token_hex(8)
    table = Table(table_id, setup, game_of(setup), store)
    _play_prefix(table, prefix)
    store.add_table(table_id, setup)
    for number, text in enumerate(prefix):
        store.add_action(table_id, number, text)
    return table, tokens


def _started(
    variant: str | Variant,
    overrides: Mapping[str, Any] | None,
    seed: int | None,
    decks: Sequence[Sequence[str]],
    dealer: int,
) -> GameState:
    try:
        return new_game(
            variant, overrides=overrides, seed=seed, decks=decks or None, first_dealer=dealer
        )
    except BeziqueError as exc:
        raise SetupError(str(exc)) from None


def _play_prefix(table: Table, prefix: Sequence[str]) -> None:
    for number, text in enumerate(prefix):
        try:
            table.state.apply(text)
        except BeziqueError as exc:
            raise SetupError(f"action {number + 1} ({text!r}) does not replay: {exc}") from None


def _checked_seats(seats: Sequence[Mapping[str, Any]], players: int) -> list[dict[str, str]]:
    if not isinstance(seats, Sequence) or len(seats) != players:
        raise SetupError(f"seats: this variant is played by {players}; give one seat each")
    checked = [_checked_seat(number, seat) for number, seat in enumerate(seats)]
    if not any(seat["kind"] == HUMAN for seat in checked):
        raise SetupError("seats: give at least one seat to a person")
    _number_unnamed_bots(checked, [not (seat.get("name") or "").strip() for seat in seats])
    return checked


def lobby_bots() -> list[dict[str, str]]:
    """The lobby's bots: each one's spec and its words (``a steady bot (heuristic)``)."""
    offered = []
    for spec in LOBBY_BOTS:
        kind = parse_spec(spec)[0]
        offered.append({"spec": spec, "words": f"a {bot_name(spec)} ({kind})"})
    return offered


def bot_name(spec: str) -> str:
    """The name of an unnamed bot seat: the lobby's word for its kind (``steady bot``)."""
    kind = parse_spec(spec)[0]
    return f"{BOT_WORDS.get(kind, kind)} bot"


def _number_unnamed_bots(checked: list[dict[str, str]], unnamed: list[bool]) -> None:
    """Number the bots named for their kind when another seat has the same name.

    By seat (``steady bot 2``, ``steady bot 3``), so that no two seats share a name.
    """
    names = [seat["name"] for seat in checked]
    for number, seat in enumerate(checked):
        if seat["kind"] == BOT and unnamed[number] and names.count(seat["name"]) > 1:
            seat["name"] = f"{seat['name']} {number + 1}"


def _checked_seat(number: int, seat: Mapping[str, Any]) -> dict[str, str]:
    where = f"seats[{number + 1}]"
    if not isinstance(seat, Mapping):
        raise SetupError(f"{where}: must be an object with kind, name and spec")
    kind, name, spec = seat.get("kind"), seat.get("name") or "", seat.get("spec") or ""
    if kind not in (HUMAN, BOT):
        raise SetupError(f"{where}: kind must be {HUMAN!r} or {BOT!r}")
    if not isinstance(name, str) or not isinstance(spec, str) or len(name) > MAX_NAME:
        raise SetupError(f"{where}: name and spec must be texts, the name of {MAX_NAME} at most")
    if kind == BOT:
        spec = spec or "heuristic"
        try:
            player_for(spec)
            iterations = parse_spec(spec)[1].get("iterations", "0")
        except PlayerError as exc:
            raise SetupError(f"{where}: {exc}") from None
        if not iterations.isdigit() or int(iterations) > MAX_SEARCH_ITERATIONS:
            raise SetupError(
                f"{where}: a bot here thinks for at most {MAX_SEARCH_ITERATIONS} iterations"
            )
        name = name.strip() or bot_name(spec)
    return {"kind": kind, "name": name.strip() or f"seat {number + 1}", "spec": spec, "token": ""}


def house_variant(text: str) -> Variant:
    """A house rule pasted into a page, loaded as the file ``house.yaml``.

    Raise :class:`~bezique.errors.VariantError` with every problem at ``house.yaml:LINE:COL``.
    """
    return load_variant_text(text, "house.yaml")
