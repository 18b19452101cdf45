"""Golden playthroughs: seeded games of every shipped variant, stored to catch any change of play.

Each file ``tests/golden/VARIANT.json`` holds :data:`GAMES` seeded games of one variant. A
game is its record (as ``bezique.records.record.record_of`` writes it), the points each player
scored in each hand, and a short digest of what the game looks like after every action:
every seat's observation and the legal actions' text (see :func:`digest`). The first
:data:`REFEREED` games of each variant also report irregularities at random moments, as
a referee would, so the penalty procedures are covered too.

The digest is taken over the public views (``observation`` and ``legal_actions``), not
over ``to_json``, so a change of the saved state's layout leaves the files valid while
any change of play, score, legality or notation does not.

``tests/test_golden.py`` replays every file and compares. The files change only in a
commit that fixes a defect, and that commit says which files change and why.
Regenerate them with::

    python tests/golden_playthroughs.py            # every shipped variant
    python tests/golden_playthroughs.py grand      # one variant
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import warnings
from pathlib import Path
from typing import Any

from bezique.errors import BeziqueError
from bezique.game import GameState, new_game
from bezique.records.record import hand_summaries, record_of, replay
from bezique.testing import (
    TABLE_CLAIMS,
    TABLE_REPORTS,
    note_table_action,
    random_table_action,
)

GOLDEN = Path(__file__).resolve().parent / "golden"
VARIANTS = Path(__file__).resolve().parent.parent / "variants"
GAMES = 20
"""Seeded games stored per variant."""
REFEREED = 5
"""Of them, how many also report irregularities at random moments."""
MAX_ACTIONS = 4000
"""A game longer than this is cut (no shipped variant comes near it with random play)."""
REPORT_CHANCE = 0.1
"""In a refereed game, the chance before each action of trying a report or a claim."""
FORMAT = "bezique-golden/1"
DIGEST_CHARS = 10
"""Hexadecimal digits kept of each digest (40 bits: a chance change goes unseen once in 10**12)."""
RECORD_KEYS = ("format", "variant", "overrides", "seed", "decks", "first_dealer", "referee")
"""What a stored game keeps of its record besides the actions (not the rules it carries: the
files check play, not the layout of the variant's data)."""

REPORTS = TABLE_REPORTS
"""Reports tried at random in refereed games; the rules refuse those that do not fit."""
CLAIMS = TABLE_CLAIMS
"""Options tried for a claim open after a report."""


def shipped_variants() -> list[str]:
    """Return the names of the variant files the project ships, sorted."""
    return sorted(path.stem for path in VARIANTS.glob("*.yaml"))


def digest(state: GameState) -> str:
    """Return a short digest of what every seat sees and may do now.

    Every seat's observation (the seat to act's holds its legal actions), less its
    cumulative event list, which the scores and the per-hand ledger cover.
    """
    views = []
    for seat in range(state.players):
        view = state.observation(seat)
        view.pop("events", None)
        views.append(view)
    text = json.dumps(views, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


def _try(state: GameState, text: str) -> bool:
    """Apply ``text`` if the rules accept it now; a refused action must change nothing."""
    before = state.to_json()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # old forms are covered too
            state.apply(text)
    except BeziqueError:
        if state.to_json() != before:
            raise AssertionError(f"refused {text!r} changed the state") from None
        return False
    return True


def _referee_step(state: GameState, rng: random.Random, last: list[str]) -> bool:
    """Try one random report, or a claim on the last one accepted; say if it was accepted.

    ``last`` holds the name of the last report accepted, if any.
    """
    text = random_table_action(state, rng, last)
    accepted = _try(state, text)
    note_table_action(text, accepted, last)
    return accepted


def play_game(variant: str, seed: int, refereed: bool) -> tuple[GameState, list[str]]:
    """Play one seeded random game; return the final state and the digest after each action."""
    state = new_game(variant, seed=seed, referee=refereed)
    rng = random.Random(f"golden {variant} {seed}")
    digests: list[str] = []
    last: list[str] = []
    while not state.is_over() and len(digests) < MAX_ACTIONS:
        if refereed and rng.random() < REPORT_CHANCE and _referee_step(state, rng, last):
            digests.append(digest(state))
            continue
        state.apply(rng.choice(state.legal_actions()))
        digests.append(digest(state))
    return state, digests


def golden_game(variant: str, seed: int, refereed: bool) -> dict[str, Any]:
    """Return the stored form of one game: record, ledger by hand, digests, final scores."""
    state, digests = play_game(variant, seed, refereed)
    record = record_of(state)
    if replay(record).to_json() != state.to_json():
        raise AssertionError(f"{variant} seed {seed}: the record does not replay the game")
    return {
        "seed": seed,
        "refereed": refereed,
        "record": {key: record[key] for key in RECORD_KEYS if key in record},
        "actions": record["actions"],
        "ledger": [hand["points"] for hand in hand_summaries(state)],
        "scores": list(state.scores),
        "winner": state.winner,
        "digests": " ".join(digests),
    }


def golden_file(variant: str) -> dict[str, Any]:
    """Return the whole golden file of ``variant``."""
    games = [golden_game(variant, seed, seed < REFEREED) for seed in range(GAMES)]
    return {"format": FORMAT, "variant": variant, "games": games}


def write(variant: str) -> Path:
    """Regenerate the golden file of ``variant`` and return its path."""
    GOLDEN.mkdir(exist_ok=True)
    path = GOLDEN / f"{variant}.json"
    data = golden_file(variant)
    games = ",\n".join(
        json.dumps(game, sort_keys=True, separators=(",", ":")) for game in data["games"]
    )
    head = json.dumps({k: v for k, v in data.items() if k != "games"}, sort_keys=True)
    path.write_text(f'{head[:-1]}, "games": [\n{games}\n]}}\n', encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    """Regenerate the golden files named (default: every shipped variant)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="variant names (default: all shipped)")
    args = parser.parse_args(argv)
    for variant in args.variants or shipped_variants():
        path = write(variant)
        print(f"{path.relative_to(GOLDEN.parent.parent)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
