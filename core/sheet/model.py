"""A score sheet's data, its reading as untrusted input, and its tally by the variant's rules."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from bezique.actions import ScoreEvent
from bezique.cards import CardError
from bezique.errors import BeziqueError, IllegalActionError, RecordError
from bezique.hookspecs import DRAWN_GAME, SHEET_HOOKS, SheetEntryKind
from bezique.reading.safeio import decode_text, read_regular
from bezique.records.recordcheck import read_json
from bezique.rules.hooks import HookFunction, resolve_hook
from bezique.rules.ruleset import Ruleset, ruleset_for

FORMAT = "bezique-sheet/1"
"""The ``format`` of a sheet file."""
MAX_SHEET_BYTES = 1024 * 1024
"""The largest sheet file read."""
MAX_ENTRIES = 5000
"""The most entries a sheet holds (the schema says so too)."""

CHECK_TABLE = "the variant's table"
CHECK_PENALTY = "the variant's penalty table and how it awards (penalties.award)"
CHECK_STOCK = "no declaration once the stock is gone"
CHECK_MOST = "no more than the packs hold in a hand"
CHECK_COPIES = "no more copies of a card than the packs hold"
CHECK_CARDS = (
    "the cards form the combination (and the class rules, where the variant's plugins check them)"
)


class SheetError(BeziqueError):
    """A sheet that cannot be read, or an entry the variant's rules refuse (says where)."""


@dataclass(frozen=True)
class Entry:
    """One line of a sheet, as its file holds it (see the schema)."""

    kind: str
    """``score``, ``penalty``, ``trumps``, ``stock_gone`` or ``hand_end``."""
    player: int = -1
    """The seat that scored; of a penalty, the offender."""
    name: str = ""
    cards: tuple[str, ...] = ()
    count: int = 1
    suit: str = ""
    option: str = ""
    """How a penalty is claimed: ``add`` (to the claimant) or ``deduct`` (from the offender)."""
    claimant: int = -1
    """Who claims a penalty (-1: the offender's one opponent, in a game of two)."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        """The entry of a file's (schema-checked) object."""
        return cls(
            data["kind"],
            data.get("player", -1),
            data.get("name", ""),
            tuple(data.get("cards", ())),
            data.get("count", 1),
            data.get("suit", ""),
            data.get("option", ""),
            data.get("claimant", -1),
        )

    def to_json(self) -> dict[str, Any]:
        """The entry as the file holds it."""
        found: dict[str, Any] = {"kind": self.kind}
        if self.player >= 0:
            found["player"] = self.player
        if self.name:
            found["name"] = self.name
        if self.cards:
            found["cards"] = list(self.cards)
        if self.count != 1:
            found["count"] = self.count
        if self.suit:
            found["suit"] = self.suit
        if self.option:
            found["option"] = self.option
        if self.claimant >= 0:
            found["claimant"] = self.claimant
        return found


@dataclass(frozen=True)
class PenaltyOffer:
    """An irregularity of the variant's penalty table that a sheet may enter, and how."""

    name: str
    """As an entry names it (``drew out of turn``)."""
    points: int
    options: tuple[str, ...]
    """How the player not at fault may claim it: ``add``, ``deduct``, or either."""
    words: str = ""
    """The irregularity in a player's words (``drawing out of turn``), the variant's
    (:meth:`~bezique.rules.words.Words.irregularity`)."""


@dataclass
class EntryTally:
    """What one entry scored, in which hand, and which checks were made on it."""

    hand: int
    events: list[ScoreEvent]
    checks: list[str]


@dataclass
class Tally:
    """A sheet's totals worked out from its entries."""

    scores: list[int]
    """Each side's total."""
    hands: list[list[int]] = field(default_factory=list)
    """Each hand's points, per side (settlement events in the last hand)."""
    entries: list[EntryTally] = field(default_factory=list)
    winner: int = -1
    """The winning side, or -1 (see :attr:`over`)."""
    over: bool = False


def sheet_hooks(rules: Ruleset) -> dict[str, HookFunction]:
    """The sheet's hooks of ``rules``' plugins, resolved once per ruleset as the game's are.

    Each is called with its spec's arguments in order; a plugin that fails, or answers
    what the hook may not, is a :class:`~bezique.errors.PluginHookError` naming it
    (:func:`~bezique.rules.hooks.resolve_hook`).
    """
    return rules.compiled(
        _HOOKS_KEY, lambda: {name: resolve_hook(rules.manager, name) for name in SHEET_HOOKS}
    )


_HOOKS_KEY = "bezique.sheet.hooks"


@functools.cache
def sheet_schema() -> dict[str, Any]:
    """The JSON Schema of sheet files (``schemas/sheet.schema.json``)."""
    text = (files("bezique.schemas") / "sheet.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _words_key(text: str) -> str:
    """A name as the sheet compares it: lower case, spaces for underscores, no leading 'the'."""
    said = " ".join(text.replace("_", " ").lower().split())
    return said[4:] if said.startswith("the ") else said


def penalty_key(name: str) -> str:
    """A penalty's key in the variant's table, from its name as typed (``nine cards``)."""
    return _words_key(name).replace(" ", "_")


class Sheet:
    """A score sheet of one game: its variant, players, first dealer and entries."""

    def __init__(
        self,
        variant: str,
        players: Sequence[str],
        first_dealer: int = 0,
        overrides: Mapping[str, Any] | None = None,
        entries: Sequence[Entry] = (),
    ) -> None:
        """A sheet of ``variant``; raise :class:`SheetError` if the players do not fit it."""
        self.variant = variant
        self.overrides: dict[str, Any] = dict(overrides or {})
        try:
            self.rules: Ruleset = ruleset_for(variant, self.overrides)
        except BeziqueError as exc:
            raise SheetError(f"variant: {exc}") from None
        if len(players) != self.rules.players:
            raise SheetError(
                f"players: {len(players)} named, but {variant} is played by {self.rules.players}"
            )
        if not 0 <= first_dealer < len(players):
            raise SheetError(
                f"first_dealer: {first_dealer} is not a seat (0 to {len(players) - 1})"
            )
        self.players = list(players)
        self.first_dealer = first_dealer
        self.entries: list[Entry] = list(entries)
        self.kinds = self._kinds()
        self.names = {_words_key(k.key): k for k in self.kinds.values()}
        self.names.update({_words_key(k.words): k for k in self.kinds.values()})

    def _kinds(self) -> dict[str, SheetEntryKind]:
        """The entries the plugins score, a later plugin's replacing one of the same key."""
        answer = sheet_hooks(self.rules)["bezique_sheet_entries"](self.rules)
        return {kind.key: kind for kind in answer or ()}

    # ------------------------------------------------------------------ the file

    def to_json(self) -> dict[str, Any]:
        """The sheet as its file holds it."""
        return {
            "format": FORMAT,
            "variant": self.variant,
            "overrides": self.overrides,
            "players": self.players,
            "first_dealer": self.first_dealer,
            "entries": [e.to_json() for e in self.entries],
        }

    def dumps(self) -> str:
        """The sheet's file text."""
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: Any, where: str = "sheet") -> Sheet:
        """Read a sheet's parsed JSON, checked against the schema; errors say where."""
        import jsonschema  # here: `bezique variants` and the parser's making never need it

        validator = jsonschema.Draft202012Validator(sheet_schema())
        error = jsonschema.exceptions.best_match(validator.iter_errors(data))
        if error is not None:
            path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
            raise SheetError(f"{where}: {path.lstrip('.') or 'the sheet'}: {error.message}")
        try:
            sheet = cls(
                data["variant"],
                data["players"],
                data.get("first_dealer", 0),
                data.get("overrides", {}),
                [Entry.from_json(e) for e in data["entries"]],
            )
        except SheetError as exc:
            raise SheetError(f"{where}: {exc}") from None
        try:
            sheet.tally()
        except SheetError as exc:
            raise SheetError(f"{where}: {exc}") from None
        return sheet

    # ------------------------------------------------------------------ entries

    def add(self, entry: Entry) -> EntryTally:
        """Add ``entry`` if the rules allow it (else :class:`SheetError`, nothing added)."""
        self.entries.append(entry)
        try:
            return self.tally().entries[-1]
        except BaseException:  # a refusal, or a plugin's failure: nothing half-added
            self.entries.pop()
            raise

    def undo(self) -> Entry:
        """Remove the last entry and return it."""
        if not self.entries:
            raise SheetError("the sheet has no entry to undo")
        return self.entries.pop()

    def fix(self, index: int, entry: Entry) -> None:
        """Replace entry ``index`` (from 0) with ``entry``, if the sheet still adds up."""
        if not 0 <= index < len(self.entries):
            raise SheetError(f"no entry {index}: the sheet has {len(self.entries)}")
        old = self.entries[index]
        self.entries[index] = entry
        try:
            self.tally()
        except BaseException:  # a refusal, or a plugin's failure: the old entry stands
            self.entries[index] = old
            raise

    def kind(self, name: str) -> SheetEntryKind:
        """The entry kind called ``name`` (its words or key), or :class:`SheetError`."""
        found = self.names.get(_words_key(name))
        if found is None:
            known = ", ".join(sorted(k.words for k in self.kinds.values()))
            raise SheetError(f"{self.variant} has no score called {name!r} (it has: {known})")
        return found

    def penalties(self) -> list[PenaltyOffer]:
        """The penalties of points the variant's table awards, each with how it is claimed.

        Asked of the plugins as an entry is (:func:`~bezique.hookspecs.bezique_sheet_penalty`),
        for each penalty the table names and each way of claiming it: the offer is
        what they award, so that a page offers only what the sheet then accepts.
        """
        table = self.rules.data.get("penalties") or {}
        side_of = self.rules.side_of
        claimant = next(s for s in range(len(side_of)) if side_of[s] != side_of[0])
        award = sheet_hooks(self.rules)["bezique_sheet_penalty"]
        offers = []
        for key, value in table.items():
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            options, points = [], 0
            for option in ("add", "deduct"):
                try:
                    events = award(self.rules, key, 0, claimant, option)
                except IllegalActionError:
                    continue
                if events:
                    options.append(option)
                    points = abs(events[0].points)
            if options:
                said = self.rules.words.irregularity(key)
                offers.append(PenaltyOffer(key.replace("_", " "), points, tuple(options), said))
        return offers

    # ------------------------------------------------------------------ the tally

    def tally(self) -> Tally:
        """Work out the totals from the entries, checking each (:class:`SheetError`)."""
        return _Tallier(self).run()


class _Tallier:
    """One pass over a sheet's entries, keeping what the hand so far allows."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.rules = sheet.rules
        self.hooks = sheet_hooks(sheet.rules)
        self.side_of = self.rules.side_of
        sides = max(self.side_of) + 1
        self.tally = Tally([0] * sides)
        self.counted = 0
        self.reached = False
        """A side has reached the target mid-hand (see :meth:`_same_trick`)."""
        self._new_hand()

    def _new_hand(self) -> None:
        self.tally.hands.append([0] * len(self.tally.scores))
        self.declared: list[list[tuple[str, tuple[int, ...]]]] = [[] for _ in self.side_of]
        self.used: dict[str, int] = {}
        self.trump = -1
        self.stock_gone = False
        self.last_trick = -1
        self.brisques = [0] * len(self.side_of)

    def run(self) -> Tally:
        for index, entry in enumerate(self.sheet.entries):
            if self.reached and not self._same_trick(entry):
                self._ask_winner(hand_over=False)
            if self.tally.over:
                raise SheetError(f"entries[{index}]: the game is over: {self._result()}")
            try:
                self.tally.entries.append(self._entry(entry))
            except (SheetError, CardError) as exc:
                raise SheetError(f"entries[{index}]: {exc}") from None
        if self.reached:
            self._ask_winner(hand_over=False)
        return self.tally

    def _same_trick(self, entry: Entry) -> bool:
        """Whether ``entry`` may be scored by the trick before it (brisques, the last trick).

        A side that reaches the target mid-hand wins once that trick's scores are all
        entered: the game asks who has won after a trick's scores, not between them.
        """
        if entry.kind != "score":
            return False
        kind = self.sheet.names.get(_words_key(entry.name))
        return kind is not None and kind.after_stock and not kind.cards  # not a declaration

    def _result(self) -> str:
        if self.tally.winner < 0:
            return "drawn"
        return f"won by {self.side_name(self.tally.winner)}"

    def side_name(self, side: int) -> str:
        """A side in words: its players' names."""
        return " and ".join(
            name for seat, name in enumerate(self.sheet.players) if self.side_of[seat] == side
        )

    def _entry(self, entry: Entry) -> EntryTally:
        hand = len(self.tally.hands) - 1
        if entry.kind == "hand_end":
            return EntryTally(hand, self._hand_end(), [])
        if entry.kind == "stock_gone":
            self.stock_gone = True
            return EntryTally(hand, [], [])
        if entry.kind == "trumps":
            self.trump = self.rules.deck.suit_index(entry.suit)
            return EntryTally(hand, [], [])
        if not 0 <= entry.player < len(self.side_of):
            raise SheetError(f"player {entry.player} is not a seat of the game")
        if entry.kind == "penalty":
            return EntryTally(hand, self._penalty(entry), [CHECK_PENALTY])
        kind = self.sheet.kind(entry.name)
        checks = [CHECK_TABLE]
        if not kind.after_stock:
            checks.append(CHECK_STOCK)
            if self.stock_gone:
                raise SheetError(
                    f"{kind.words} after the stock is gone: the end-game is played without "
                    "declarations"
                )
        count = entry.count if kind.per_card else 1
        if kind.most:
            checks.append(CHECK_MOST)
            pool = kind.pool or kind.key
            if self.used.get(pool, 0) + count > kind.most:
                raise SheetError(
                    f"{count} {kind.words} would make {self.used.get(pool, 0) + count} "
                    "in the hand, "
                    f"and the packs hold {kind.most} at most"
                )
            self.used[pool] = self.used.get(pool, 0) + count
        declared = list(self.declared[entry.player])
        faces: tuple[int, ...] = ()
        if entry.cards:
            faces, made = self._cards(entry, kind)
            checks.extend(made)
        elif kind.cards:
            checks.append(f"not made without the cards: {CHECK_COPIES}; {CHECK_CARDS}")
        if kind.key == "last_trick":
            self.last_trick = self.side_of[entry.player]
        if kind.per_card and kind.key == "brisques" and not kind.points:
            self.brisques[entry.player] += count
        scores = self.hooks["bezique_sheet_scores"]
        events = scores(self.rules, entry.player, kind.key, count, declared, faces, self.trump)
        if events is None:
            points = kind.points * count
            events = [ScoreEvent(entry.player, points, kind.key, " ".join(entry.cards))]
        for event in events:
            self._score(event)
        if self.rules.target is not None:
            self.reached = max(self.tally.scores) >= self.rules.target
        return EntryTally(hand, list(events), checks)

    def _penalty(self, entry: Entry) -> list[ScoreEvent]:
        """The scores of a penalty entered: the variant's table's, as its plugins award it."""
        offender, claimant = entry.player, entry.claimant
        if claimant < 0:
            others = [s for s in range(len(self.side_of)) if s != offender]
            if len(others) != 1:
                raise SheetError("a penalty in a game of more than two: say who claims it")
            claimant = others[0]
        if not 0 <= claimant < len(self.side_of):
            raise SheetError(f"claimant {claimant} is not a seat of the game")
        if self.side_of[claimant] == self.side_of[offender]:
            raise SheetError(
                f"{self.sheet.players[claimant]} is on the offender's side and cannot claim "
                "the penalty"
            )
        caller = self.hooks["bezique_sheet_penalty"]
        name = penalty_key(entry.name)
        try:
            events = caller(self.rules, name, offender, claimant, entry.option)
        except IllegalActionError as exc:
            raise SheetError(f"refused ({self.rules.words.rule(exc.rule)}): {exc}") from None
        if events is None:
            raise SheetError("no plugin of this variant awards penalties (the referee does)")
        for event in events:
            self._score(event)
        return list(events)

    def _cards(self, entry: Entry, kind: SheetEntryKind) -> tuple[tuple[int, ...], list[str]]:
        """The faces ``entry`` names, checked; and the checks made."""
        deck = self.rules.deck
        faces = tuple(deck.parse_face(text) for text in entry.cards)
        if len(faces) != kind.cards:
            raise SheetError(f"{kind.words} shows {kind.cards} cards, not {len(faces)}")
        packs = deck.packs
        for face in set(faces):
            if faces.count(face) > packs:
                raise SheetError(
                    f"{faces.count(face)} of {deck.face_text(face)}: the {packs} packs hold "
                    f"{packs} at most"
                )
        caller = self.hooks["bezique_sheet_declaration_problem"]
        declared = self.declared[entry.player]
        problem = caller(self.rules, list(declared), kind.key, faces, self.trump)
        if problem:
            raise SheetError(problem)
        declared.append((kind.key, faces))
        return faces, [CHECK_COPIES, CHECK_CARDS] if problem is not None else [CHECK_COPIES]

    def _score(self, event: ScoreEvent) -> None:
        side = self.side_of[event.player]
        self.tally.scores[side] += event.points
        self.tally.hands[-1][side] += event.points
        if event.rule == "brisques":
            self.counted += event.points

    def _ask_winner(self, hand_over: bool) -> None:
        caller = self.hooks["bezique_sheet_winner"]
        winner = caller(self.rules, list(self.tally.scores), hand_over, self.last_trick)
        if winner is None or winner == -1:
            return
        self.tally.over = True
        self.tally.winner = -1 if winner == DRAWN_GAME else winner

    def _hand_end(self) -> list[ScoreEvent]:
        rules = self.rules
        self.reached = False
        hand_end = self.hooks["bezique_sheet_hand_end"]
        events = list(hand_end(rules, list(self.tally.scores), list(self.brisques)) or ())
        for event in events:
            self._score(event)
        self._ask_winner(hand_over=True)
        if self.tally.over:
            settle = self.hooks["bezique_sheet_settlement"]
            scores = list(self.tally.scores)
            settled = list(settle(rules, scores, self.tally.winner, self.counted) or ())
            for event in settled:
                self._score(event)
            events.extend(settled)
        else:
            self._new_hand()
        return events


def read_sheet(path: str | os.PathLike[str]) -> Sheet:
    """Read and check the sheet file ``path`` (:class:`SheetError` says where and what)."""
    return Sheet.from_json(read_json_file(path, MAX_SHEET_BYTES, "a sheet"), os.fspath(path))


def read_json_file(path: str | os.PathLike[str], limit: int, what: str) -> Any:
    """The JSON of the file ``path``, read as untrusted input: at most ``limit`` bytes, UTF-8.

    A leading byte order mark is dropped, as records' is (:func:`decode_text`).
    ``what`` names the file in the refusal of a larger one (``a sheet``); every refusal
    is a :class:`SheetError` that says where and what.
    """
    where = os.fspath(path)
    try:
        raw = read_regular(path, limit + 1)
    except OSError as exc:
        raise SheetError(f"{where}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise SheetError(f"{where}: larger than {limit} bytes, the most {what} may be")
    try:
        return read_json(decode_text(raw), where)
    except UnicodeDecodeError:
        raise SheetError(f"{where}: not UTF-8 text") from None
    except RecordError as exc:
        raise SheetError(str(exc)) from None
