"""Game records: what was played, as JSON, and how to replay it anywhere.

A record (schema: ``schemas/record.schema.json``, format ``bezique-record/2``)
holds the variant by registered name with the overrides merged over it (a
house-rule file's game: the registered variant it builds on, with overrides that
make its rules), and pins the rules played: the variant's
merged data (``variant_data``), the digest of its canonical JSON form
(``variant_digest``) and the bezique version that wrote it (``bezique``).  Then
come the seed, the stacked decks of the first hands (card texts, top card
first), the first dealer, whether it is a refereed game (``referee``, written
only when true), optional ``headers`` (players, date, event, place,
comment: PGN's tag pairs) and the actions in the text notation of
:mod:`bezique.actions`.

Replaying a record rebuilds the game exactly, from the rules it carries, with no
variant file; when the variant it names now merges to other rules (or cannot be
loaded here) a :class:`~bezique.rules.pinned.RulesWarning` says so, and the ``rules``
policy can refuse instead or play by the variant as it is now
(:mod:`bezique.rules.pinned`).  An illegal action is reported with its index and the
rule that forbids it.  Older ``bezique-record/1`` records (the variant named
only) still replay by the variant as it loads now, with a
:class:`DeprecationWarning`.

A record names its variant by registered name; one that names it by a path
replays by the rules it carries, and the file is never read (a
``bezique-record/1`` record that names a path carries no rules: it is refused).

A record file is untrusted input.  :func:`load_record` reads regular files only
and at most :data:`MAX_RECORD_BYTES` (+1) of them, refuses duplicate keys,
``NaN`` and ``Infinity``, numbers of more than :data:`MAX_DIGITS` digits and
nesting deeper than :data:`MAX_RECORD_DEPTH`, checks the schema (a whole float
such as ``1.0`` is not an integer), and reports every problem as
``FILE: $.json.path: message`` (:mod:`bezique.records.recordcheck`).  The carried rules
are checked exactly as a variant file is.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bezique import __version__
from bezique.errors import BeziqueError, RecordError
from bezique.game import GameState, new_game, ruleset_for
from bezique.reading.safeio import decode_text, read_regular
from bezique.records.recordcheck import (
    FORMATS,
    MAX_CONTAINERS,
    MAX_DIGITS,
    MAX_RECORD_BYTES,
    MAX_RECORD_DEPTH,
    RECORD_FORMAT,
    RECORD_FORMAT_V1,
    check_headers,
    check_record,
    read_json,
    record_schema,
)
from bezique.rules.pinned import (
    POLICIES,
    RECORDED,
    STRICT,
    RulesWarning,
    not_a_name,
    pinned_rules,
    recorded_as,
)
from bezique.rules.pinned import variant_digest as _variant_digest
from bezique.rules.ruleset import Ruleset

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

# --------------------------------------------------------------------------- writing


def record_of(state: GameState, headers: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return the record of ``state``: everything needed to replay it anywhere, actions as text.

    The variant is named by registered name, never by a file's path: a game of a
    house-rule file is named by the registered variant the file builds on, with
    overrides that make the file's rules of it (:func:`bezique.rules.pinned.recorded_as`).

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
    name, overrides = recorded_as(variant, state.variant_spec, state.overrides)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "bezique": __version__,
        "variant": name,
        "overrides": overrides,
        "variant_digest": _variant_digest(variant),
        "seed": state.seed,
        "decks": [[deck.card_text(c) for c in order] for order in state.decks],
        "first_dealer": state.first_dealer,
        **({"referee": True} if state.at_table else {}),
        "actions": texts,
        "variant_data": copy.deepcopy(variant.data),
    }
    if headers:
        record["headers"] = copy.deepcopy(dict(headers))
        check_headers(record, "<headers>", state.players)
    return record


def _fresh_game(state: GameState) -> GameState:
    deck = state.deck
    return new_game(
        state.rules,
        seed=state.seed,
        decks=[[deck.card_text(c) for c in order] for order in state.decks],
        first_dealer=state.first_dealer,
        referee=state.at_table,
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
    """Parse and validate a record's text; raise :class:`RecordError` saying where and what.

    The text is UTF-8; a leading byte order mark is dropped.
    """
    try:
        text = decode_text(raw)
    except UnicodeDecodeError as exc:
        raise RecordError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: record is larger than {MAX_RECORD_BYTES} bytes")
    data = read_json(text, where)
    check_record(data, where)
    return dict(data)


# --------------------------------------------------------------------------- replaying


def replay(data: Mapping[str, Any], where: str = "<record>", *, rules: str = RECORDED) -> GameState:
    """Replay a validated record and return the final state.

    A ``bezique-record/2`` record replays by the rules it carries; ``rules``
    says what to do when the variant it names now merges to other rules or
    cannot be loaded here (``recorded``: go on, with a
    :class:`~bezique.rules.pinned.RulesWarning`; ``strict``: refuse; ``current``:
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
        if not_a_name(spec):
            raise RecordError(f"{where}: {not_a_name(spec)}")
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
        ruleset, spec, overrides = pinned_rules(
            spec,
            overrides,
            data.get("variant_data"),
            data["variant_digest"],
            where,
            rules,
            version=data.get("bezique"),
        )
    if "headers" in data:
        check_headers(data, where, ruleset.players)
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
