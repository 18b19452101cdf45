"""Environment steps a second against the game's own loop: ``python -m bezique.rl.bench``.

Both play random games of a variant: the game's own loop chooses among
:meth:`~bezique.game.GameState.legal_actions` and calls
:meth:`~bezique.game.GameState.apply`; the PettingZoo environment observes the agent
to act (its observation array and action mask), chooses among the masked indices
and steps.  The two are timed in alternating rounds of the same run, so that the
machine's load falls on both alike, and the figure is the ratio of their rates.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from bezique.game import GAME_OVER, new_game, ruleset_for
from bezique.rl.pettingzoo import BeziqueEnv


def own_loop(variant: str, steps: int, seed: int) -> float:
    """Seconds the game's own loop takes for ``steps`` random actions."""
    rules = ruleset_for(variant)
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        if state.phase == GAME_OVER:
            state = new_game(rules, seed=rng.getrandbits(63))
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    return time.perf_counter() - start


def environment(variant: str, steps: int, seed: int) -> float:
    """Seconds the PettingZoo environment takes for ``steps`` random masked steps."""
    env = BeziqueEnv(variant)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for _ in range(steps):
        seen, _, done, cut, _ = env.last()
        if done or cut:
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Time both in alternating rounds; print each rate and the ratio."""
    parser = argparse.ArgumentParser(
        prog="python -m bezique.rl.bench",
        description="PettingZoo environment steps a second against the game's own apply loop",
    )
    parser.add_argument("--variant", default="ordinary")
    parser.add_argument("--steps", type=int, default=2000, help="steps a round (default 2000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each (default 3)")
    args = parser.parse_args(argv)
    own = env = 0.0
    for round_no in range(args.rounds):
        own += own_loop(args.variant, args.steps, round_no)
        env += environment(args.variant, args.steps, round_no)
    total = args.steps * args.rounds
    print(
        f"{args.variant}: the game's own loop {total / own:,.0f} actions a second, "
        f"the PettingZoo environment {total / env:,.0f} steps a second "
        f"(observation and mask included): {env / own:.1f} times slower"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
