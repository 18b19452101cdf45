"""Random-player simulations and the speed benchmark.

Both drive games through :meth:`GameState.playout`, which draws each decision
uniformly at random from the legal choices; ``bench(api=True)`` drives the
public :meth:`~GameState.legal_actions` / :meth:`~GameState.apply` loop instead.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from statistics import fmean
from typing import Any

from bezique.game import GameState, new_game, ruleset_for
from bezique.record import record_of
from bezique.ruleset import Ruleset


def _game_seeds(seed: int, count: int) -> list[int]:
    master = random.Random(seed)
    return [master.randrange(2**63) for _ in range(count)]


def simulate(
    variant: str, games: int, seed: int, save_dir: str | Path | None = None
) -> dict[str, Any]:
    """Play ``games`` games between random players; return score statistics.

    With ``save_dir``, each game's record is written there as ``game-NNNN.json``.
    """
    rules = ruleset_for(variant)
    out = Path(save_dir) if save_dir is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    finals: list[list[int]] = []
    wins: Counter[int] = Counter()
    hands = decisions = 0
    rule_points: Counter[str] = Counter()
    rule_counts: Counter[str] = Counter()
    for number, game_seed in enumerate(_game_seeds(seed, games)):
        state = new_game(rules, seed=game_seed)
        decisions += state.playout(random.Random(game_seed ^ 0x5EED), hands=None)
        hands += state.hand_no + 1
        finals.append(list(state.scores))
        wins[state.winner] += 1
        for event in state.events:
            rule_points[event.rule] += event.points
            rule_counts[event.rule] += 1
        if out is not None:
            path = out / f"game-{number:04d}.json"
            path.write_text(json.dumps(record_of(state), indent=1) + "\n", encoding="utf-8")
    return _statistics(rules, games, seed, finals, wins, hands, decisions, rule_points, rule_counts)


def _statistics(
    rules: Ruleset,
    games: int,
    seed: int,
    finals: list[list[int]],
    wins: Counter[int],
    hands: int,
    decisions: int,
    rule_points: Counter[str],
    rule_counts: Counter[str],
) -> dict[str, Any]:
    sides = range(max(rules.side_of) + 1)
    names = [
        "+".join(str(seat) for seat, s in enumerate(rules.side_of) if s == side) for side in sides
    ]
    return {
        "variant": rules.variant.name,
        "games": games,
        "seed": seed,
        "hands": hands,
        "hands_per_game": hands / games if games else 0.0,
        "decisions_per_game": decisions / games if games else 0.0,
        "sides": names,
        "wins": [wins[s] for s in sides],
        "mean_final_score": [fmean(f[s] for f in finals) if finals else 0.0 for s in sides],
        "mean_points_per_hand": {rule: rule_points[rule] / hands for rule in sorted(rule_points)}
        if hands
        else {},
        "times_per_hand": {rule: rule_counts[rule] / hands for rule in sorted(rule_counts)}
        if hands
        else {},
    }


def format_statistics(stats: dict[str, Any]) -> str:
    """Write simulation statistics as a few readable lines."""
    names = stats["sides"]
    lines = [
        f"variant {stats['variant']}: {stats['games']} games, seed {stats['seed']}",
        f"hands per game {stats['hands_per_game']:.2f}, decisions per game "
        f"{stats['decisions_per_game']:.1f}",
        "wins by seat: " + _by_side(names, [str(w) for w in stats["wins"]]),
        "mean final score by seat: "
        + _by_side(names, [f"{v:.1f}" for v in stats["mean_final_score"]]),
        "points per hand by rule (times per hand):",
    ]
    for rule, points in stats["mean_points_per_hand"].items():
        lines.append(f"  {rule:<34} {points:8.2f}  ({stats['times_per_hand'][rule]:.3f})")
    return "\n".join(lines)


def _by_side(names: list[str], values: list[str]) -> str:
    """``0: 12, 1: 7``, or ``0+2: 12, 1+3: 7`` with partnerships."""
    return ", ".join(f"{name}: {value}" for name, value in zip(names, values, strict=True))


def bench(
    variant: str, deals: int, seed: int, api: bool = False, compiled: bool = True
) -> dict[str, Any]:
    """Play ``deals`` random deals in this process and measure the speed.

    A deal is one hand from the deal to its last trick (or to the card that
    wins the game).  Deals are played by :meth:`GameState.playout` (with a
    plugin's compiled random trick unless ``compiled`` is false), or with
    ``api`` by the public ``legal_actions()``/``apply()`` loop.  Returns deals
    and decisions per second and peak memory.
    """
    rules = ruleset_for(variant)
    mode = "api" if api else "playout" if compiled and rules.random_trick else "card-by-card"
    rng = random.Random(seed)
    game_seeds = iter(_game_seeds(seed, deals + 1))
    played = decisions = 0
    state: GameState | None = None
    start = time.perf_counter()
    while played < deals:
        if state is None or state.is_over():
            state = new_game(rules, seed=next(game_seeds))
        if api:
            decisions += _random_api_hand(state, rng)
        else:
            decisions += state.playout(rng, compiled=compiled)
        played += 1
    seconds = time.perf_counter() - start
    return {
        "variant": rules.variant.name,
        "mode": mode,
        "deals": played,
        "decisions": decisions,
        "seconds": seconds,
        "deals_per_s": played / seconds,
        "decisions_per_s": decisions / seconds,
        "peak_memory_mib": _peak_memory_mib(),
        "python": sys.version.split()[0],
    }


def _random_api_hand(state: GameState, rng: random.Random) -> int:
    """Play one hand by the public API: list the legal actions, apply one at random."""
    hand = state.hand_no
    decisions = 0
    draw = rng.random
    while not state.is_over() and state.hand_no == hand:
        legal = state.legal_actions()
        state.apply(legal[int(draw() * len(legal))])
        decisions += 1
    return decisions


def _peak_memory_mib() -> float:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on this platform
        return float("nan")
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def format_bench(result: dict[str, Any]) -> str:
    """Write a benchmark result as one readable line."""
    return (
        f"{result['variant']} ({result['mode']}): {result['deals']} deals in "
        f"{result['seconds']:.2f} s: {result['deals_per_s']:.0f} deals/s, "
        f"{result['decisions_per_s']:.0f} decisions/s, peak memory "
        f"{result['peak_memory_mib']:.1f} MiB"
    )
