"""The saved-game benchmark (``bezique bench --records``): reading a state back against writing it.

Seeded random games of several variants (:data:`RECORD_VARIANTS`, a few games
each) are played to their end; each finished state is written with
:meth:`GameState.to_json <bezique.game.GameState.to_json>` and read back with
:func:`bezique.game.from_json`, which checks everything (it replays the history
and compares every key with what the replay gives).  The two are timed in CPU
time over all the games, in alternated rounds (the garbage collector run before
each and held off while it is timed, see :func:`_cpu`), and the median ratio of the
rounds is reported: how many times the cost of writing a saved game reading it
back takes.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from bezique.game import GameState, from_json, new_game, ruleset_for

RECORD_VARIANTS = ("ordinary", "polish", "three-hand", "four-hand-partners", "rubicon")
"""The variants whose games are saved and read back."""

RECORD_GAMES = 3
"""Games of each variant."""

RECORD_ROUNDS = 5
"""Rounds when not told."""


def random_games(variants: Sequence[str], games: int, seed: int) -> list[GameState]:
    """Finished games of seeded random play: ``games`` of each variant."""
    rng = random.Random(seed)
    finished = []
    for variant in variants:
        rules = ruleset_for(variant)
        for _ in range(games):
            state = new_game(rules, seed=rng.randrange(1 << 30))
            while not state.is_over():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            finished.append(state)
    return finished


def _cpu(work: Callable[[], object]) -> float:
    """CPU seconds ``work`` takes, the garbage collector run before and held off meanwhile.

    As :mod:`timeit` does: else a collection of the objects the other side left (the
    replays make many) lands in whichever side is timed when it comes, and
    ``to_json``, the smaller, was measured up to four times its cost.
    """
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.process_time()
        work()
        return time.process_time() - start
    finally:
        if was_enabled:
            gc.enable()


def records_bench(rounds: int, seed: int) -> dict[str, Any]:
    """Time ``to_json`` and ``from_json`` of the games in ``rounds`` alternated rounds."""
    states = random_games(RECORD_VARIANTS, RECORD_GAMES, seed)
    saved = [state.to_json() for state in states]
    write: list[float] = []
    read: list[float] = []
    for _ in range(rounds):
        write.append(_cpu(lambda: [state.to_json() for state in states]))
        read.append(_cpu(lambda: [from_json(data) for data in saved]))
    actions = sum(len(state.history) for state in states)
    return {
        "variants": list(RECORD_VARIANTS),
        "games": len(states),
        "actions": actions,
        "seed": seed,
        "rounds": rounds,
        "to_json_ms_per_game": statistics.median(write) * 1000 / len(states),
        "from_json_ms_per_game": statistics.median(read) * 1000 / len(states),
        "ratio": statistics.median(r / max(w, 1e-9) for r, w in zip(read, write, strict=True)),
    }


def format_records(result: dict[str, Any]) -> str:
    """The result as lines: the games, each side's time a game, the ratio."""
    return "\n".join(
        [
            f"saved games: {result['games']} random games of {', '.join(result['variants'])} "
            f"(seed {result['seed']}, {result['actions']} actions)",
            f"CPU time, median of {result['rounds']} alternated rounds",
            f"to_json    {result['to_json_ms_per_game']:8.2f} ms a game",
            f"from_json  {result['from_json_ms_per_game']:8.2f} ms a game",
            f"from_json / to_json  {result['ratio']:.1f}x",
        ]
    )
