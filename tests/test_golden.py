"""Golden playthroughs: every stored seeded game replays to the same views, ledger and scores.

The files under ``tests/golden/`` are written by ``tests/golden_playthroughs.py`` (its
docstring says when they may change). Each game's record is replayed action by action
through the public API; after every action the digest of every seat's view and of the
legal actions must match the stored one, and at the end the points of each hand, the
scores and the winner.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden_playthroughs import FORMAT, GAMES, GOLDEN, REFEREED, digest, shipped_variants
from quick import quick_for_one

from bezique.game import new_game
from bezique.records.record import hand_summaries

pytestmark = pytest.mark.filterwarnings(
    # The refereed games cover the deprecated report forms on purpose.
    "ignore::DeprecationWarning"
)


def _load(variant: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{variant}.json").read_text(encoding="utf-8"))
    return data


def test_every_shipped_variant_has_its_golden_file() -> None:
    stored = sorted(path.stem for path in Path(GOLDEN).glob("*.json"))
    assert stored == shipped_variants()


@pytest.mark.parametrize("variant", quick_for_one(shipped_variants()))
def test_golden_games_replay_unchanged(variant: str) -> None:
    data = _load(variant)
    assert data["format"] == FORMAT and data["variant"] == variant
    games = data["games"]
    assert len(games) == GAMES
    assert sum(game["refereed"] for game in games) == REFEREED
    for game in games:
        record = game["record"]
        where = f"{variant} seed {game['seed']}"
        state = new_game(
            record["variant"],
            overrides=record["overrides"] or None,
            seed=record["seed"],
            decks=record["decks"] or None,
            first_dealer=record["first_dealer"],
            referee=record.get("referee", False),
        )
        digests = game["digests"].split()
        assert len(game["actions"]) == len(digests), where
        for index, (text, expected) in enumerate(zip(game["actions"], digests, strict=True)):
            state.apply(text)
            assert digest(state) == expected, f"{where}: action {index} ({text!r}) differs"
        assert [hand["points"] for hand in hand_summaries(state)] == game["ledger"], where
        assert list(state.scores) == game["scores"], where
        assert state.winner == game["winner"], where


def test_refereed_golden_games_report_irregularities() -> None:
    """The refereed games really exercise the referee: reports accepted in each variant."""
    for variant in shipped_variants():
        reports = [
            text
            for game in _load(variant)["games"]
            if game["refereed"]
            for text in game["actions"]
            if text.startswith("irregular ")
        ]
        assert reports, f"{variant}: no irregularity accepted in its refereed golden games"
