"""The search's and the heuristic's choices on seeded positions, recorded to show play unchanged.

A change that makes the players faster must not change what they play.  This records,
for seeded positions of random games of the ordinary game, Grand and four-hand
bezique, the ``search`` player's chosen action at a fixed budget of iterations with
the visits and mean results of the root's actions (so that any change in what an
iteration does shows, not only a changed choice), and the ``heuristic``'s choice on
thousands of positions; ``tests/test_search_choices.py`` replays the quick part.

``python tests/search_choices.py`` checks every recorded choice against the players
as they are now and says which differ; ``--write`` records them anew (only in a
commit that means to change play, and says why).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

from bezique.game import GameState, new_game, ruleset_for
from bezique.players import player_for
from bezique.players.search import SearchPlayer

RECORD = Path(__file__).with_name("search_choices.json")
VARIANTS = ("ordinary", "grand", "four-hand")
SEARCH_POSITIONS = {"ordinary": 50, "grand": 30, "four-hand": 30}
"""Positions a variant whose search is recorded (the full run)."""
SEARCH_ITERATIONS = 300
HEURISTIC_POSITIONS = 1500
"""Positions a variant whose heuristic choice is recorded (the full run)."""
QUICK_SEARCH = 4
"""Of the recorded search positions, how many of each variant the quick test replays."""
QUICK_HEURISTIC = 300
"""Of the heuristic positions, how many of each variant the quick test replays."""


def positions(variant: str, count: int, seed: int, every: float) -> list[GameState]:
    """``count`` positions of seeded random games where the seat to act has a choice."""
    rules = ruleset_for(variant)
    rng = random.Random(seed)
    found: list[GameState] = []
    state = new_game(rules, seed=rng.randrange(1 << 30))
    while len(found) < count:
        if state.is_over() or state.hand_no > 0:
            state = new_game(rules, seed=rng.randrange(1 << 30))
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < every:
            found.append(state.clone())
        state.apply(legal[rng.randrange(len(legal))])
    return found


def search_choice(state: GameState, seed: int) -> dict[str, Any]:
    """The search's choice in ``state`` from ``seed``, with its root's statistics."""
    player = player_for(f"search:iterations={SEARCH_ITERATIONS}")
    assert isinstance(player, SearchPlayer)
    rng = random.Random(seed)
    action = player.choose(state.view(state.to_act), state.legal_actions(), rng)
    return {
        "action": state.action_text(action),
        "iterations": player.last_iterations,
        "root": root_statistics(player.last_root),
        "next_draw": rng.getrandbits(32),
    }


def root_statistics(root: Any) -> list[list[Any]] | None:
    """Each root action's key, visits, mean result and availability, in key order.

    A key's kind is written as its number: the compiled build keeps it as a plain int.
    """
    if root is None:
        return None
    return sorted(
        [KIND_IN_KEY.sub(r"\1", repr(key)), child.visits, round(child.total, 9), child.available]
        for key, child in root.children.items()
    )


KIND_IN_KEY = re.compile(r"<Kind\.\w+: (\d+)>")
"""An action's kind as ``repr`` writes an enum member, in a tree's key."""


def heuristic_choices(state_list: list[GameState]) -> list[str]:
    """The heuristic's choice at each position."""
    player = player_for("heuristic")
    rng = random.Random(0)
    return [
        state.action_text(player.choose(state.view(state.to_act), state.legal_actions(), rng))
        for state in state_list
    ]


def search_positions(variant: str, count: int) -> list[GameState]:
    """The search's recorded positions of ``variant`` (the first ``count``)."""
    return positions(variant, SEARCH_POSITIONS[variant], seed=7, every=0.08)[:count]


def heuristic_positions(variant: str, count: int) -> list[GameState]:
    """The heuristic's recorded positions of ``variant`` (the first ``count``)."""
    return positions(variant, HEURISTIC_POSITIONS, seed=11, every=0.5)[:count]


def record(quick: bool) -> dict[str, Any]:
    """Every choice (or the quick test's part) as the players make them now."""
    result: dict[str, Any] = {}
    for variant in VARIANTS:
        searched = search_positions(variant, QUICK_SEARCH if quick else SEARCH_POSITIONS[variant])
        heuristic = heuristic_positions(variant, QUICK_HEURISTIC if quick else HEURISTIC_POSITIONS)
        result[variant] = {
            "search": [search_choice(state, index) for index, state in enumerate(searched)],
            "heuristic": heuristic_choices(heuristic),
        }
    return result


def differences(found: dict[str, Any], recorded: dict[str, Any]) -> list[str]:
    """Where ``found`` differs from ``recorded`` (only the positions ``found`` holds)."""
    wrong: list[str] = []
    for variant, parts in found.items():
        for part, choices in parts.items():
            for index, choice in enumerate(choices):
                if choice != recorded[variant][part][index]:
                    wrong.append(f"{variant} {part} position {index}: {choice} != recorded")
    return wrong


def main(argv: list[str] | None = None) -> int:
    """Check (or with ``--write`` record) every choice; 1 if any differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the choices anew")
    args = parser.parse_args(argv)
    found = record(quick=False)
    if args.write:
        RECORD.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
        return 0
    wrong = differences(found, json.loads(RECORD.read_text(encoding="utf-8")))
    for line in wrong[:20]:
        print(line)
    total = sum(len(c) for parts in found.values() for c in parts.values())
    print(f"{total} choices, {len(wrong)} differ")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
