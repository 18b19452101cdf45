"""OpenSpiel's IS-MCTS bot against this project's bots: ``python -m bezique.rl.tournament``.

Each game is one deal (the game's ``one_deal`` parameter); the seats alternate game by
game; the project's bot decides from its seat's view (:func:`bezique.players.decide`),
its action then numbered for the OpenSpiel state.  Equal iterations: the IS-MCTS bot's
simulations and the search bot's iterations are the same number.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np
import pyspiel

from bezique.players import decide, player_for
from bezique.rl.openspiel import GAME_TYPE, BeziqueGame


def ismcts_bot(game: BeziqueGame, iterations: int, seed: int) -> Any:
    """OpenSpiel's IS-MCTS bot: ``iterations`` simulations a decision, random roll-outs.

    It plays whichever seat is to act when it is asked (``bot.step(state)``).
    """
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=iterations, random_state=rng
    )


def match(
    variant: str, games: int, iterations: int, opponent: str = "search", seed: int = 0
) -> list[float]:
    """Play ``games`` one-deal games, IS-MCTS against ``opponent`` at equal iterations.

    The seats alternate game by game; the opponent is a player of this project
    (:func:`bezique.players.player_for`, ``search:iterations=N``).  Return IS-MCTS's
    return in each game (above 0 won, -1 lost, 0 drawn).
    """
    game = pyspiel.load_game(GAME_TYPE.short_name, {"variant": variant, "one_deal": True})
    assert isinstance(game, BeziqueGame)
    spec = f"{opponent}:iterations={iterations}" if opponent == "search" else opponent
    player = player_for(spec)
    results = []
    for number in range(games):
        seat = number % game.rules.players
        bot = ismcts_bot(game, iterations, seed + number)
        rng = random.Random(seed + number)
        state = game.new_initial_state()
        state.apply_action((seed + number) % game.deals)
        while not state.is_terminal():
            inner = state.inner
            assert inner is not None
            if inner.to_act == seat:
                state.apply_action(bot.step(state))
            else:
                chosen = decide(player, inner, rng)
                state.apply_action(game.space.index(inner, chosen))
        results.append(state.returns()[seat])
    return results


def main(argv: list[str] | None = None) -> int:
    """``python -m bezique.rl.tournament``: IS-MCTS against the search bot, the results."""
    parser = argparse.ArgumentParser(
        prog="python -m bezique.rl.tournament",
        description="OpenSpiel's IS-MCTS bot against this project's search bot, one deal a game",
    )
    parser.add_argument("--variant", default="ordinary", help="a registered variant")
    parser.add_argument("--games", type=int, default=10, help="deals to play (default 10)")
    parser.add_argument(
        "--iterations", type=int, default=100, help="each bot's budget a decision (default 100)"
    )
    parser.add_argument(
        "--opponent", default="search", help="the project's player (default search)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (default 0)")
    args = parser.parse_args(argv)
    results = match(args.variant, args.games, args.iterations, args.opponent, args.seed)
    won = sum(1 for r in results if r > 0)
    lost = sum(1 for r in results if r < 0)
    print(
        f"IS-MCTS ({args.iterations} simulations) against {args.opponent} "
        f"({args.iterations} iterations), {args.variant}, {len(results)} deals: "
        f"won {won}, lost {lost}, drawn {len(results) - won - lost}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
