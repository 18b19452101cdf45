"""Game records: what was played, as JSON, and how to replay it.

A record (schema: ``schemas/record.schema.json``) holds the variant (a
registered name or a YAML path), the overrides merged over it, the seed, the
stacked decks of the first hands (card texts, top card first), the first dealer,
whether it is a refereed game (``referee``, written only when true) and the
actions in the text notation of :mod:`bezique.actions`.  Replaying it
through the rules rebuilds the game exactly; an illegal action is reported with
its index and the rule that forbids it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema

from bezique.errors import BeziqueError, RecordError
from bezique.game import GameState, new_game

RECORD_FORMAT = "bezique-record/1"
MAX_RECORD_BYTES = 4 * 1024 * 1024
"""Records larger than this are refused before parsing."""


def record_schema() -> dict[str, Any]:
    """Return the JSON Schema of game records."""
    text = (files("bezique.schemas") / "record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def record_of(state: GameState) -> dict[str, Any]:
    """Return the record of ``state``: everything needed to replay it, actions as text."""
    replay = _fresh_game(state)
    texts = []
    for action in state.history:
        texts.append(replay.action_text(action))
        replay.apply(action)
    deck = state.deck
    return {
        "format": RECORD_FORMAT,
        "variant": state.variant_spec,
        "overrides": dict(state.overrides),
        "seed": state.seed,
        "decks": [[deck.card_text(c) for c in order] for order in state.decks],
        "first_dealer": state.first_dealer,
        **({"referee": True} if state.referee else {}),
        "actions": texts,
    }


def _fresh_game(state: GameState) -> GameState:
    deck = state.deck
    return new_game(
        state.rules,
        seed=state.seed,
        decks=[[deck.card_text(c) for c in order] for order in state.decks],
        first_dealer=state.first_dealer,
        referee=state.referee,
    )


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file; raise :class:`RecordError` saying where and what."""
    where = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"{where}: cannot read: {exc.strerror or exc}") from exc
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: record is larger than {MAX_RECORD_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RecordError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from exc
    except RecursionError as exc:
        raise RecordError(f"{where}: JSON nested too deeply") from exc
    check_record(data, where)
    return dict(data)


def check_record(data: Any, where: str = "<record>") -> None:
    """Validate ``data`` against the record schema; raise :class:`RecordError` listing problems."""
    validator = jsonschema.Draft202012Validator(record_schema())
    problems = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path)))
    if problems:
        lines = [f"{where}: {_json_path(e.absolute_path)}: {e.message}" for e in problems]
        raise RecordError("\n".join(lines))


def _json_path(path: Any) -> str:
    parts = [f"[{p}]" if isinstance(p, int) else f".{p}" for p in path]
    return "$" + "".join(parts)


def replay(data: Mapping[str, Any], where: str = "<record>") -> GameState:
    """Replay a validated record and return the final state.

    Raise :class:`RecordError` for a variant, deck or action the rules refuse;
    an action's error gives its index (from 0) and the rule's explanation.
    """
    try:
        state = new_game(
            data["variant"],
            overrides=data.get("overrides") or None,
            seed=data.get("seed", 0),
            decks=data.get("decks") or None,
            first_dealer=data.get("first_dealer", 0),
            referee=data.get("referee", False),
        )
    except BeziqueError as exc:
        raise RecordError(f"{where}: {exc}") from exc
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
