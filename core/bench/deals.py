"""The speed benchmark: random deals on the one rules path, in CPU time.

``bezique bench`` plays random deals of a variant through
:meth:`GameState.playout <bezique.game.GameState.playout>` (or, with ``api``,
through the public ``legal_actions()``/``apply()`` loop) and reports deals,
decisions and cards played per CPU-second.  A figure from a shared machine
means little alone, so the benchmark also measures ratios within one run, its
rounds alternated so that both sides see the same machine:

- ``baseline``: ordinary random playouts against :mod:`bezique.bench.baseline`, a
  straight-line playout of the same game with no framework;
- ``reference``: any variant against another (every shipped variant against
  ``ordinary``, say), in decisions per CPU-second.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from bezique.actions import Action, Kind
from bezique.bench import baseline
from bezique.game import GameState, new_game, ruleset_for
from bezique.rules.ruleset import Ruleset
from bezique.simulation.simulate import game_seeds

ROUNDS = 5
"""How many alternated rounds a ratio is measured over (the median is reported)."""

BATCH = 1000
"""The most deals played between two stops of the clock (to count their cards): the
histories a benchmark keeps alive are those of one batch, so its memory is bounded."""


class Sample:
    """What one run of deals played and the CPU time it took."""

    def __init__(self) -> None:
        """An empty sample."""
        self.deals = 0
        self.decisions = 0
        self.cards = 0
        self.cpu_seconds = 0.0
        self.wall_seconds = 0.0

    def add(self, other: Sample) -> None:
        """Add another sample's counts and times to this one."""
        self.deals += other.deals
        self.decisions += other.decisions
        self.cards += other.cards
        self.cpu_seconds += other.cpu_seconds
        self.wall_seconds += other.wall_seconds

    def rate(self, what: str) -> float:
        """``deals``, ``decisions`` or ``cards`` per CPU-second."""
        count: int = getattr(self, what)
        return count / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


class VariantDeals:
    """Random deals of one variant, played on demand from one seed."""

    def __init__(self, variant: str, seed: int, api: bool = False) -> None:
        """Deals of ``variant``: games seeded from ``seed``, random choices from it too."""
        self.rules: Ruleset = ruleset_for(variant)
        self.api = api
        self.rng = random.Random(seed)
        self.seeds = game_seeds(seed, sys.maxsize)
        self.state: GameState | None = None

    def play(self, deals: int) -> Sample:
        """Play ``deals`` more deals; return what they played and the time they took.

        The deals are played in batches of at most :data:`BATCH` deals, the clock
        stopped between batches to count their cards, so the histories kept for
        counting are a batch's, whatever the number of deals.
        """
        sample = Sample()
        left = deals
        while left > 0:
            batch = min(left, BATCH)
            self._play_batch(batch, sample)
            left -= batch
        return sample

    def _play_batch(self, deals: int, sample: Sample) -> None:
        """Play ``deals`` deals into ``sample``; their cards are counted once the clock stops."""
        played: list[tuple[list[Action], int, int]] = []
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(deals):
            state = self.state
            if state is None or state.is_over():
                state = self.state = new_game(self.rules, seed=next(self.seeds))
            before = len(state.history)
            if self.api:
                sample.decisions += _random_api_hand(state, self.rng)
            else:
                sample.decisions += state.playout(self.rng)
            played.append((state.history, before, len(state.history)))
            sample.deals += 1
        sample.cpu_seconds += time.process_time() - cpu
        sample.wall_seconds += time.perf_counter() - wall
        for history, start, end in played:
            sample.cards += sum(1 for a in history[start:end] if a.kind is Kind.PLAY)


class BaselineDeals:
    """Deals of :mod:`bezique.bench.baseline`, the straight-line playout, on demand."""

    def __init__(self, seed: int) -> None:
        """Deals whose shuffles and choices are drawn from ``seed``."""
        self.rng = random.Random(seed)
        self.dealt = 0

    def play(self, deals: int) -> Sample:
        """Play ``deals`` more deals; return what they played and the time they took."""
        sample = Sample()
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(deals):
            sample.decisions += baseline.play_deal(self.rng, self.dealt % 2)[1]
            self.dealt += 1
            sample.deals += 1
        sample.cpu_seconds = time.process_time() - cpu
        sample.wall_seconds = time.perf_counter() - wall
        sample.cards = 32 * deals  # every card of the pack is played in a deal
        return sample


Player = Callable[[int], Sample]
"""Plays so many deals and says what it played (:meth:`VariantDeals.play`)."""


def bench(variant: str, deals: int, seed: int, api: bool = False) -> dict[str, Any]:
    """Play ``deals`` random deals of ``variant`` in this process and measure the speed.

    A deal is one hand from the deal to its last trick (or to the card that
    wins the game).  Returns deals, decisions and cards per CPU-second (and
    per wall-clock second), and peak memory.
    """
    player = VariantDeals(variant, seed, api)
    sample = player.play(deals)
    return {
        "variant": player.rules.variant.name,
        "mode": "api" if api else "playout",
        "deals": sample.deals,
        "decisions": sample.decisions,
        "cards": sample.cards,
        "cpu_seconds": sample.cpu_seconds,
        "seconds": sample.wall_seconds,
        "deals_per_s": sample.rate("deals"),
        "decisions_per_s": sample.rate("decisions"),
        "cards_per_s": sample.rate("cards"),
        "peak_memory_mib": _peak_memory_mib(),
        "python": sys.version.split()[0],
    }


def alternate(first: Player, second: Player, deals: int, what: str) -> dict[str, Any]:
    """Time ``first`` and ``second`` in alternated rounds; their ``what`` rates and ratio.

    Each of :data:`ROUNDS` rounds plays ``deals`` deals of each (split in
    halves, ``first``'s before and after ``second``'s, so a drift in the
    machine's speed falls on both alike).  The ratio is the median over the
    rounds of ``first``'s rate over ``second``'s.
    """
    first(max(1, deals // 10))  # warm both up: tables compiled, caches filled
    second(max(1, deals // 10))
    ratios: list[float] = []
    totals = Sample(), Sample()
    for _ in range(ROUNDS):
        a = first(deals // 2 or 1)
        b = second(deals)
        a.add(first(deals - deals // 2 or 1))
        totals[0].add(a)
        totals[1].add(b)
        if b.rate(what) > 0:
            ratios.append(a.rate(what) / b.rate(what))
    ratios.sort()
    return {
        "measure": f"{what} per CPU-second",
        "rounds": ROUNDS,
        "first": totals[0].rate(what),
        "second": totals[1].rate(what),
        "ratio": ratios[len(ratios) // 2] if ratios else 0.0,
        "ratios": ratios,
    }


def against_baseline(deals: int, seed: int) -> dict[str, Any]:
    """Ordinary random playouts against the straight-line baseline, in deals per CPU-second."""
    result = alternate(
        VariantDeals("ordinary", seed).play, BaselineDeals(seed).play, deals, "deals"
    )
    return {"variant": "ordinary", "reference": "baseline", **result}


def against_variant(variant: str, reference: str, deals: int, seed: int) -> dict[str, Any]:
    """``variant`` against ``reference`` in decisions per CPU-second, alternated."""
    mine = VariantDeals(variant, seed)
    theirs = VariantDeals(reference, seed)
    result = alternate(mine.play, theirs.play, deals, "decisions")
    return {"variant": mine.rules.variant.name, "reference": reference, **result}


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
        f"{result['cpu_seconds']:.2f} CPU-s: {result['deals_per_s']:.0f} deals/s, "
        f"{result['decisions_per_s']:.0f} decisions/s, {result['cards_per_s']:.0f} cards/s, "
        f"peak memory {result['peak_memory_mib']:.1f} MiB"
    )


def format_ratio(result: dict[str, Any]) -> str:
    """Write an alternated comparison as one readable line."""
    spread = ", ".join(f"{r:.2f}" for r in result["ratios"])
    return (
        f"{result['variant']} / {result['reference']}: {result['ratio']:.2f}x "
        f"({result['measure']}: {result['first']:.0f} / {result['second']:.0f}; "
        f"median of {result['rounds']} alternated rounds: {spread})"
    )
