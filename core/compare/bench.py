"""``bezique compare --bench``: the speed of comparisons, one process against several.

Rounds of the same comparison alternate between one process and ``jobs`` processes
(``1, J`` then ``J, 1``, and so on, so a change of the machine's load over the run
weighs on both alike).  Each round plays the same games, so the rounds also check
that the processes give the games of one process.  Reported: the games per second
(wall clock, a game of each variant counted as one) of each, their ratio (the goal
is 1.7 or more with two processes on two cores), and each variant's games per
second in the one-process rounds.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from bezique.compare.games import Row, check, play_all, play_game, rules_of
from bezique.simulation.simulate import game_seeds
from bezique.simulation.tournament import split_players

TARGET = 1.7
"""The ratio the speed goal asks of two processes on a two-core machine."""

ROUNDS = 2
"""Rounds of each kind: one process, then several, alternated."""


def run_bench(
    variants: Sequence[str], games: int, seed: int, players: str, jobs: int, rounds: int = ROUNDS
) -> dict[str, Any]:
    """Time ``rounds`` rounds of each kind (see the module docstring); return the figures."""
    specs = split_players(players)
    check(variants, specs, games, jobs)
    many = max(2, jobs)
    seeds = list(game_seeds(seed, games))
    seconds: dict[int, list[float]] = {1: [], many: []}
    per_variant = [0.0] * len(variants)
    results: list[list[Row]] = []
    load = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    for number in range(2 * rounds):
        kind = 1 if number % 4 in (0, 3) else many
        start = time.perf_counter()
        if kind == 1:
            rows = _timed(variants, specs, seeds, per_variant)
        else:
            rows, _ = play_all(variants, specs, seeds, jobs=many)
        seconds[kind].append(time.perf_counter() - start)
        results.append(rows)
    played = games * len(variants)
    speed = {kind: played * len(times) / sum(times) for kind, times in seconds.items()}
    return {
        "variants": list(variants),
        "players": [spec.strip() for spec in specs],
        "games_per_round": games,
        "rounds": rounds,
        "jobs": [1, many],
        "cpus": os.cpu_count(),
        "load_average_at_start": load,
        "seconds": {str(kind): times for kind, times in seconds.items()},
        "games_per_second": {str(kind): value for kind, value in speed.items()},
        "ratio": speed[many] / speed[1],
        "target": TARGET,
        "per_variant_games_per_second": {
            v: games * rounds / spent for v, spent in zip(variants, per_variant, strict=True)
        },
        "identical": all(rows == results[0] for rows in results),
    }


def _timed(
    variants: Sequence[str], specs: Sequence[str], seeds: Sequence[int], spent: list[float]
) -> list[Row]:
    """Play as one process does, adding each variant's time to ``spent``."""
    rules = rules_of(variants)
    rows = []
    for seed in seeds:
        row = []
        for n, ruleset in enumerate(rules):
            start = time.perf_counter()
            row.append(play_game(ruleset, specs, seed))
            spent[n] += time.perf_counter() - start
        rows.append(row)
    return rows


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"


def format_bench(found: dict[str, Any]) -> str:
    """The benchmark's figures as a few lines."""
    one, many = found["jobs"]
    speed = found["games_per_second"]
    lines = [
        f"compare {', '.join(found['variants'])}: {_games(found['games_per_round'])} a variant "
        f"a round, {found['rounds']} rounds each of --jobs {one} and --jobs {many}, "
        f"alternated; players {', '.join(found['players'])}",
        f"cpus {found['cpus']}, load average at the start "
        + (", ".join(f"{x:.2f}" for x in found["load_average_at_start"] or []) or "unknown"),
        f"--jobs {one}: {speed[str(one)]:.2f} games/s (rounds "
        + ", ".join(f"{s:.1f}" for s in found["seconds"][str(one)])
        + " s)",
        f"--jobs {many}: {speed[str(many)]:.2f} games/s (rounds "
        + ", ".join(f"{s:.1f}" for s in found["seconds"][str(many)])
        + " s)",
        f"ratio {found['ratio']:.2f} (goal {found['target']} or more with 2 processes on 2 cores)",
        "results identical in every round: " + ("yes" if found["identical"] else "NO"),
        "games per second of each variant (--jobs 1 rounds):",
    ]
    lines.extend(
        f"  {name:<24} {value:8.2f}"
        for name, value in found["per_variant_games_per_second"].items()
    )
    return "\n".join(lines)
