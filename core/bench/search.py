"""The search benchmark (``bezique bench --search``): iterations a CPU-second, and their parts.

Positions are taken from seeded random games of the variant (every few
decisions, where the seat to act has a choice and the stock lasts: the search's
ground, the end-game being solved instead).  For each, the ``search`` player
decides with a fixed budget of iterations, and the CPU time is counted.  The
parts of an iteration are timed on the same positions: one world dealt from a
:class:`~bezique.players.worlds.WorldSampler` (what each iteration does), a
:func:`~bezique.players.worlds.sample_world` from scratch (the sampler built too), a
``clone()``, and a play-out from the position as an iteration runs it (its
horizon of tricks, the turns declared greedily).
So that a figure means something on a shared machine, random deals of the
variant (:mod:`bezique.bench.deals`'s playouts) are timed in rounds alternated with
the search, and the iterations are also given per random deal played in the
same CPU time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bezique.bench.deals import VariantDeals
from bezique.game import GameState, new_game, ruleset_for
from bezique.players import player_for
from bezique.players.rollout import greedy_turns
from bezique.players.search import DEFAULT_HORIZON, SearchPlayer
from bezique.players.worlds import WorldSampler, sample_world

REPEATS = 200
"""How many times each part is timed per position."""
ROUNDS = 3
"""Alternated rounds of search and random deals."""


def search_positions(variant: str, count: int, seed: int) -> list[GameState]:
    """``count`` positions of seeded random games where the search decides."""
    rules = ruleset_for(variant)
    rng = random.Random(seed)
    found: list[GameState] = []
    state = new_game(rules, seed=rng.randrange(1 << 30))
    while len(found) < count:
        if state.is_over():
            state = new_game(rules, seed=rng.randrange(1 << 30))
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and state.stock_left() and rng.random() < 0.1:
            found.append(state.clone())
        state.apply(legal[rng.randrange(len(legal))])
    return found


def _cpu(work: Callable[[], object], repeats: int) -> float:
    """CPU seconds a call of ``work`` takes, over ``repeats`` calls."""
    start = time.process_time()
    for _ in range(repeats):
        work()
    return (time.process_time() - start) / repeats


def search_bench(variant: str, positions: int, iterations: int, seed: int) -> dict[str, Any]:
    """Time the search and its parts on ``positions`` positions of ``variant``."""
    states = search_positions(variant, positions, seed)
    player = player_for(f"search:iterations={iterations}")  # as a tournament makes it
    assert isinstance(player, SearchPlayer)
    deals = VariantDeals(variant, seed)
    deals.play(5)  # warm up the tables
    rng = random.Random(seed)
    done, search_cpu, deal_cpu, dealt = 0, 0.0, 0.0, 0
    share = max(1, len(states) // ROUNDS)
    for start in range(0, len(states), share):
        began = time.process_time()
        for state in states[start : start + share]:
            view = state.view(state.to_act)
            player.choose(view, state.legal_actions(), rng)
            done += player.last_iterations
        search_cpu += time.process_time() - began
        sample = deals.play(20)
        deal_cpu += sample.cpu_seconds
        dealt += sample.deals
    parts = _parts(states, rng)
    rate = done / search_cpu if search_cpu else 0.0
    deal_rate = dealt / deal_cpu if deal_cpu else 0.0
    return {
        "variant": ruleset_for(variant).variant.name,
        "positions": len(states),
        "iterations": done,
        "cpu_seconds": search_cpu,
        "iterations_per_s": rate,
        "random_deals_per_s": deal_rate,
        "iterations_per_random_deal": rate / deal_rate if deal_rate else 0.0,
        **parts,
    }


def _parts(states: list[GameState], rng: random.Random) -> dict[str, float]:
    """Microseconds of CPU for each part of an iteration, averaged over the positions."""
    world = sampled = clone = playout = 0.0
    for state in states:
        view = state.view(state.to_act)
        world += _cpu(partial(WorldSampler(view).sample, rng), REPEATS)
        sampled += _cpu(partial(sample_world, view, rng), REPEATS // 4)
        clone += _cpu(state.clone, REPEATS)
        playout += _cpu(partial(_play_out, state, rng), REPEATS // 4)
    count = len(states) or 1
    return {
        "world_us": 1e6 * world / count,
        "sample_world_us": 1e6 * sampled / count,
        "clone_us": 1e6 * clone / count,
        "playout_us": 1e6 * playout / count,
    }


def _play_out(state: GameState, rng: random.Random) -> None:
    """A play-out as a search iteration runs it: its horizon, its turns declared greedily."""
    state.clone().playout(rng, 1, tricks=DEFAULT_HORIZON, turns=greedy_turns(state.rules))


def format_search_bench(result: dict[str, Any]) -> str:
    """Write the search benchmark as a few readable lines."""
    return "\n".join(
        [
            f"{result['variant']} search: {result['iterations']} iterations on "
            f"{result['positions']} positions in {result['cpu_seconds']:.2f} CPU-s: "
            f"{result['iterations_per_s']:.0f} iterations/s",
            f"  alternated with random deals ({result['random_deals_per_s']:.0f} deals/s): "
            f"{result['iterations_per_random_deal']:.2f} iterations per random deal's time",
            f"  per call, CPU: a world from its sampler {result['world_us']:.1f} us, "
            f"sample_world {result['sample_world_us']:.1f} us, "
            f"clone() {result['clone_us']:.1f} us, "
            f"a play-out ({DEFAULT_HORIZON} tricks, greedy turns) {result['playout_us']:.1f} us",
        ]
    )
