"""Game records: what was played, as JSON, and how to replay it anywhere.

A record (schema: ``schemas/record.schema.json``, format ``bezique-record/2``)
holds the variant as it was named (a registered name or a YAML path as typed)
with the overrides merged over it, and pins the rules played: the variant's
merged data (``variant_data``), the digest of its canonical JSON form
(``variant_digest``) and the bezique version that wrote it (``bezique``).  Then
come the seed, the stacked decks of the first hands (card texts, top card
first), the first dealer, whether it is a refereed game (``referee``, written
only when true), optional ``headers`` (players, date, event, place,
comment: PGN's tag pairs) and the actions in the text notation of
:mod:`bezique.actions`.

Replaying a record rebuilds the game exactly, from the rules it carries, with no
variant file; when the variant it names now merges to other rules (or cannot be
loaded here) a :class:`~bezique.pinned.RulesWarning` says so, and the ``rules``
policy can refuse instead or play by the variant as it is now
(:mod:`bezique.pinned`).  An illegal action is reported with its index and the
rule that forbids it.  Older ``bezique-record/1`` records (the variant named
only) still replay by the variant as it loads now, with a
:class:`DeprecationWarning`.

A record file is untrusted input.  :func:`load_record` reads regular files only
and at most :data:`MAX_RECORD_BYTES` (+1) of them, refuses duplicate keys,
``NaN`` and ``Infinity``, numbers of more than :data:`MAX_DIGITS` digits and
nesting deeper than :data:`MAX_RECORD_DEPTH`, checks the schema (a whole float
such as ``1.0`` is not an integer), and reports every problem as
``FILE: $.json.path: message``.  The carried rules are checked exactly as a
variant file is.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import warnings
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.protocols import Validator
from jsonschema.validators import extend

from bezique import __version__
from bezique.errors import BeziqueError, RecordError
from bezique.game import GameState, new_game, ruleset_for
from bezique.pinned import POLICIES, RECORDED, STRICT, RulesWarning, pinned_ruleset
from bezique.pinned import variant_digest as _variant_digest
from bezique.ruleset import Ruleset
from bezique.safeio import read_regular
from bezique.yamlsafe import MAX_NODES

__all__ = [
    "FORMATS",
    "MAX_CONTAINERS",
    "MAX_DIGITS",
    "MAX_RECORD_BYTES",
    "MAX_RECORD_DEPTH",
    "POLICIES",
    "RECORD_FORMAT",
    "RECORD_FORMAT_V1",
    "RulesWarning",
    "check_record",
    "hand_summaries",
    "load_record",
    "parse_record",
    "record_of",
    "record_schema",
    "replay",
]

RECORD_FORMAT = "bezique-record/2"
"""The format :func:`record_of` writes: the rules carried and pinned."""
RECORD_FORMAT_V1 = "bezique-record/1"
"""The older format: the variant named only (replayed with a DeprecationWarning)."""
FORMATS = (RECORD_FORMAT, RECORD_FORMAT_V1)
"""Every format :func:`replay` reads."""
MAX_RECORD_BYTES = 4 * 1024 * 1024
"""Records larger than this are refused; no more than one byte past it is read."""
MAX_RECORD_DEPTH = 40
"""The deepest a record's JSON may nest (carried rules and overrides need 34 at most)."""
MAX_DIGITS = 40
"""The most digits a number in a record may have (seeds have 20 at most)."""


def record_schema() -> dict[str, Any]:
    """Return (a fresh copy of) the JSON Schema of game records."""
    text = (files("bezique.schemas") / "record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> Validator:
    """A Draft 2020-12 validator of records in which a whole float (``1.0``) is not an integer."""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    strict = extend(jsonschema.Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    validator: Validator = strict(record_schema())
    return validator


# --------------------------------------------------------------------------- writing


def record_of(state: GameState, headers: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return the record of ``state``: everything needed to replay it anywhere, actions as text.

    ``headers`` (optional) are the record's tag pairs: ``players`` (a name per
    seat), ``date`` (``YYYY-MM-DD``), ``event``, ``place``, ``comment``; a bad
    one raises :class:`RecordError`.
    """
    replayed = _fresh_game(state)
    texts = []
    for action in state.history:
        texts.append(replayed.action_text(action))
        replayed.apply(action)
    deck = state.deck
    variant = state.rules.variant
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "bezique": __version__,
        "variant": state.variant_spec,
        "overrides": copy.deepcopy(state.overrides),
        "variant_digest": _variant_digest(variant),
        "seed": state.seed,
        "decks": [[deck.card_text(c) for c in order] for order in state.decks],
        "first_dealer": state.first_dealer,
        **({"referee": True} if state.referee else {}),
        "actions": texts,
        "variant_data": copy.deepcopy(variant.data),
    }
    if headers:
        record["headers"] = copy.deepcopy(dict(headers))
        _check_headers(record, "<headers>", state.players)
    return record


@functools.cache
def _headers_validator() -> Validator:
    """The validator of a record's headers alone."""
    strict = type(_validator())
    validator: Validator = strict(record_schema()["properties"]["headers"])
    return validator


def _check_headers(record: Mapping[str, Any], where: str, players: int) -> None:
    """Check the record's headers against the schema and the number of seats."""
    problems = [
        f"{where}: {_json_path(('headers', *e.absolute_path))}: {_message(e)}"
        for e in _headers_validator().iter_errors(record["headers"])
    ]
    if problems:
        raise RecordError("\n".join(sorted(problems)))
    names = record["headers"].get("players")
    if names is not None and len(names) != players:
        raise RecordError(
            f"{where}: $.headers.players: names {len(names)} player(s), but the variant "
            f"seats {players}; give one name for each seat, seat 0 first"
        )


def _fresh_game(state: GameState) -> GameState:
    deck = state.deck
    return new_game(
        state.rules,
        seed=state.seed,
        decks=[[deck.card_text(c) for c in order] for order in state.decks],
        first_dealer=state.first_dealer,
        referee=state.referee,
    )


# --------------------------------------------------------------------------- reading


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file; raise :class:`RecordError` saying where and what.

    Only a regular file is read (a FIFO or a device is refused before it is
    opened for reading), and at most :data:`MAX_RECORD_BYTES` + 1 bytes of it.
    """
    where = str(path)
    try:
        raw = read_regular(path, MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"{where}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: record is larger than {MAX_RECORD_BYTES} bytes")
    return parse_record(raw, where)


def parse_record(raw: bytes | str, where: str = "<record>") -> dict[str, Any]:
    """Parse and validate a record's text; raise :class:`RecordError` saying where and what."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(
                f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})"
            ) from None
    else:
        text = raw
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: record is larger than {MAX_RECORD_BYTES} bytes")
    try:
        data = json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise RecordError(
            f"{where}: JSON nested too deeply (a record nests {MAX_RECORD_DEPTH} levels at most)"
        ) from None
    check_record(data, where)
    return dict(data)


class _Refused:
    """A JSON value a record may not hold, left where it was read to say where it is."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return self.what


class _Object(dict[str, Any]):
    """A JSON object in which some key is written more than once."""

    __slots__ = ("repeated",)

    def __init__(self, pairs: list[tuple[str, Any]], repeated: list[str]) -> None:
        super().__init__(pairs)
        self.repeated = repeated


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) == len(pairs):
        return data
    seen: set[str] = set()
    repeated = [k for k, _ in pairs if k in seen or seen.add(k)]  # type: ignore[func-returns-value]
    return _Object(pairs, list(dict.fromkeys(repeated)))


def _int(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        return _Refused(
            f"a number of {digits} digits (a record's numbers have {MAX_DIGITS} at most)"
        )
    return int(text)


def _float(text: str) -> float | _Refused:
    value = float(text) if len(text) <= 400 else math.inf
    if math.isfinite(value):
        return value
    return _Refused(f"{text[:24]}{'...' if len(text) > 24 else ''} is too large a number")


def _constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a number a record may hold (JSON has no {name})")


_LIMIT = 10**MAX_DIGITS


def _value_problems(data: Any) -> list[str]:
    """Find values a record may not hold, without recursion: ``$.path: what`` each.

    Duplicate keys, ``NaN``/``Infinity`` and too long numbers (as read by
    :func:`parse_record`, or given as Python values), nesting deeper than
    :data:`MAX_RECORD_DEPTH`, ``overrides`` or ``variant_data`` holding more
    values than a variant file may, more than :data:`MAX_CONTAINERS` lists and
    objects in all.
    """
    problems: list[tuple[str, str]] = []
    root = _scalar_problem(data)
    if root:
        return [f"$: {root}"]
    containers = 0
    for key in getattr(data, "repeated", ()):
        problems.append(("$", f"the key {key!r} is given more than once"))
    for top in _subtrees(data):
        path0, value0 = top
        limit = _VALUE_LIMITS.get(str(path0[0])) if path0 else None
        problem = _scalar_problem(value0)
        if problem:
            problems.append((_json_path(path0), problem))
        values = 1
        stack: list[tuple[Any, tuple[str | int, ...]]] = [(value0, path0)]
        while stack and len(problems) < 20:
            value, path = stack.pop()
            if len(path) >= MAX_RECORD_DEPTH:
                where = _json_path(path)
                problems.append((where, f"nested more than {MAX_RECORD_DEPTH} levels deep"))
                continue
            if isinstance(value, dict):
                if path:
                    for key in getattr(value, "repeated", ()):
                        where = _json_path(path)
                        problems.append((where, f"the key {key!r} is given more than once"))
                items: Any = value.items()
            elif isinstance(value, list):
                items = enumerate(value)
            else:
                continue
            values += len(value)
            if limit is not None and values > limit:
                what = f"holds more than {limit} values, more than a variant file may"
                problems.append((_json_path(path0), what))
                break
            for key, item in items:
                if isinstance(item, dict | list):
                    containers += 1
                    if containers > MAX_CONTAINERS:
                        what = f"holds more than {MAX_CONTAINERS} lists and objects"
                        return _sorted_problems([*problems, ("$", what)])
                    stack.append((item, (*path, key)))
                else:
                    problem = _scalar_problem(item)
                    if problem:
                        problems.append((_json_path((*path, key)), problem))
    return _sorted_problems(problems)


MAX_CONTAINERS = 30_000
"""The most lists and objects a record may hold in all (its decks, rules and overrides)."""
_VALUE_LIMITS = {"overrides": MAX_NODES, "variant_data": MAX_NODES}
"""The most values the parts of a record merged as variant data may hold."""


def _subtrees(data: Any) -> list[tuple[tuple[str | int, ...], Any]]:
    """The record's top-level values with their paths (after its own repeated keys)."""
    if isinstance(data, dict):
        return [((key,), value) for key, value in data.items()]
    return [((), data)]


def _sorted_problems(problems: list[tuple[str, str]]) -> list[str]:
    return [f"{where}: {what}" for where, what in sorted(problems)]


def _scalar_problem(value: Any) -> str:
    kind = value.__class__
    if kind is _Refused:
        return str(value.what)
    if kind is float and not math.isfinite(value):
        return f"{value} is not a number a record may hold"
    if kind is int and not -_LIMIT < value < _LIMIT:
        return f"a number of more than {MAX_DIGITS} digits"
    return ""


def check_record(data: Any, where: str = "<record>") -> None:
    """Validate ``data`` as a record; raise :class:`RecordError` listing every problem.

    The values first (no duplicate keys, NaN, Infinity, too long numbers or
    too deep nesting), then the schema.
    """
    problems = [f"{where}: {p}" for p in _value_problems(data)]
    if not problems:
        problems = _schema_problems(data, where)
    if problems:
        raise RecordError("\n".join(problems))


def _schema_problems(data: Any, where: str) -> list[str]:
    problems: list[str] = []
    for error in sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.path]):
        if list(error.schema_path)[:1] == ["else"]:  # a key of bezique-record/2 in a /1 record
            newer = [k for k in _NEWER_KEYS if isinstance(data, dict) and k in data]
            problems += [f"{where}: $.{key}: {_NOT_IN_V1}" for key in newer]
        else:
            problems.append(f"{where}: {_json_path(error.absolute_path)}: {_message(error)}")
    return list(dict.fromkeys(problems))


_NEWER_KEYS = ("bezique", "variant_digest", "variant_data", "headers")
"""The keys that came with bezique-record/2 (in the schema's ``else``)."""
_NOT_IN_V1 = (
    f"is not a key of {RECORD_FORMAT_V1} records (it came with {RECORD_FORMAT}); "
    f"write format {RECORD_FORMAT!r}"
)


def _message(error: jsonschema.ValidationError) -> str:
    text = str(error.message)
    return text if len(text) <= 300 else text[:297] + "..."


def _json_path(path: Any) -> str:
    parts = [f"[{p}]" if isinstance(p, int) else f".{p}" for p in path]
    return "$" + "".join(parts)


# --------------------------------------------------------------------------- replaying


def replay(data: Mapping[str, Any], where: str = "<record>", *, rules: str = RECORDED) -> GameState:
    """Replay a validated record and return the final state.

    A ``bezique-record/2`` record replays by the rules it carries; ``rules``
    says what to do when the variant it names now merges to other rules or
    cannot be loaded here (``recorded``: go on, with a
    :class:`~bezique.pinned.RulesWarning`; ``strict``: refuse; ``current``:
    play by the variant as it is now, with a warning).  A ``bezique-record/1``
    record replays by the variant as it loads now, with a
    :class:`DeprecationWarning` (``strict`` refuses it: there is nothing to
    check it against).

    Raise :class:`RecordError` for a variant, deck or action the rules refuse;
    an action's error gives its index (from 0) and the rule's explanation.
    """
    if rules not in POLICIES:
        raise RecordError(f"rules policy {rules!r}: use one of {', '.join(POLICIES)}")
    spec = data["variant"]
    overrides = data.get("overrides") or {}
    ruleset: Ruleset
    if data.get("format") == RECORD_FORMAT_V1:
        warnings.warn(
            f"{where}: a {RECORD_FORMAT_V1} record names its variant without its rules, so it "
            f"replays by the variant as it loads here now; records are now written as "
            f"{RECORD_FORMAT}, which carry the rules (record_of(replay(old)) converts one)",
            DeprecationWarning,
            stacklevel=2,
        )
        if rules == STRICT:
            raise RecordError(
                f"{where}: a {RECORD_FORMAT_V1} record carries no rules to check the variant "
                f"{spec!r} against; replay it with the rules 'recorded' or 'current'"
            )
        try:
            ruleset = ruleset_for(spec, overrides or None)
        except BeziqueError as exc:
            raise RecordError(f"{where}: {exc}") from exc
    else:
        ruleset = pinned_ruleset(
            spec,
            overrides,
            data.get("variant_data"),
            data["variant_digest"],
            where,
            rules,
            version=data.get("bezique"),
        )
    if "headers" in data:
        _check_headers(data, where, ruleset.players)
    try:
        state = new_game(
            ruleset,
            seed=data.get("seed", 0),
            decks=data.get("decks") or None,
            first_dealer=data.get("first_dealer", 0),
            referee=data.get("referee", False),
        )
    except BeziqueError as exc:
        raise RecordError(f"{where}: {exc}") from exc
    state.variant_spec = spec
    state.overrides = copy.deepcopy(dict(overrides))
    for index, text in enumerate(data["actions"]):
        try:
            state.apply(text)
        except BeziqueError as exc:
            raise RecordError(
                f"{where}: action {index} ({text!r}, seat {state.to_act}, hand {state.hand_no}): "
                f"{exc}"
            ) from exc
    return state


def hand_summaries(state: GameState) -> list[dict[str, Any]]:
    """Return, for each hand dealt, the points each player scored in it."""
    hands = [[0] * state.players for _ in range(state.hand_no + 1)]
    for hand, event in zip(state.event_hands, state.events, strict=True):
        hands[hand][event.player] += event.points
    return [{"hand": i, "points": points} for i, points in enumerate(hands)]
