"""The ``search`` player: information-set Monte Carlo tree search over sampled worlds.

Each iteration deals the cards the seat has not seen at random, consistent with
its view (:class:`~bezique.worlds.WorldSampler`), and walks one tree shared by
every world (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): at
each node the actions legal in this world are chosen among by UCB1, counting a
child's chances only in the worlds where it was legal ("availability"); one new
node is added, the hand is played out at random to its end
(:meth:`GameState.playout <bezique.game.GameState.playout>`, the rules' one
path), and the result goes back up the path, each node scored for the side that
chose it.  A result is the game won or lost when the game ends in the hand,
else each side's lead in the points scored from now to the hand's end, squashed
into 0..1.

Once the stock is gone and only one hand holds cards the seat has not seen (the
two-hand end-game, where every card is known), the rest of the hand is solved
exactly instead (:mod:`bezique.players.endgame`).

The budget is ``iterations=N`` (the default, so that a game does not depend on
the machine) or ``seconds=S`` (wall time a decision); ``c=`` is UCB1's
exploration constant.  Spec: ``search``, ``search:iterations=2000``,
``search:seconds=1``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from bezique.actions import Action
from bezique.game import GameState
from bezique.players import Options, float_option, int_option, unknown_options
from bezique.players.endgame import solvable, solve
from bezique.state import GAME_OVER
from bezique.views import View
from bezique.worlds import WorldSampler

__all__ = ["DEFAULT_ITERATIONS", "SearchPlayer", "factory"]

DEFAULT_ITERATIONS = 1000
"""Iterations a decision when the spec gives no budget."""
DEFAULT_C = 0.7
"""UCB1's exploration constant when the spec gives none (rewards lie in 0..1)."""
SCALE = 250.0
"""Points of lead that make a result of about 0.88 (``tanh(1)``, squashed)."""


class _Node:
    """One node of the tree: an action's statistics, for the side that chose it."""

    __slots__ = ("available", "children", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.side = side


class SearchPlayer:
    """Information-set MCTS with random play-outs; the two-hand end-game solved exactly."""

    def __init__(
        self,
        name: str = "search",
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = DEFAULT_C,
        horizon: int | None = None,
    ) -> None:
        """A searcher with a budget of ``iterations`` or ``seconds`` a decision."""
        self.name = name
        self.iterations = iterations if iterations is not None or seconds else DEFAULT_ITERATIONS
        self.seconds = seconds
        self.c = c
        self.horizon = horizon
        """At most this many tricks played out after the tree (None: to the hand's end)."""
        self.last_iterations = 0
        """How many iterations the last decision ran (for the benchmark)."""

    def __repr__(self) -> str:
        """``SearchPlayer('search:iterations=500')``."""
        return f"SearchPlayer({self.name!r})"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action the search finds best for ``view``'s seat."""
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        sampler = WorldSampler(view)
        if _determined(view):
            world = sampler.sample(rng)
            if solvable(world):
                return solve(world, world.side_of[view.seat])[1]
        return self.search(sampler, legal, rng)

    def search(self, sampler: WorldSampler, legal: Sequence[Action], rng: random.Random) -> Action:
        """Run the budget's iterations from ``sampler``'s worlds; the most visited action."""
        root = _Node(-1)
        stop = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.iterations
        done = 0
        while (budget is None or done < budget) and (stop is None or time.perf_counter() < stop):
            self.iterate(root, sampler.sample(rng), rng)
            done += 1
        self.last_iterations = done
        best = max(legal, key=lambda a: _visits(root, a))
        return best

    def iterate(self, root: _Node, world: GameState, rng: random.Random) -> None:
        """One iteration: select and expand in ``world``, play it out, score the path."""
        hand_no = world.hand_no
        start = list(world.scores)
        node = root
        path = [root]
        c = self.c
        log = math.log
        sqrt = math.sqrt
        while world.phase != GAME_OVER and world.hand_no == hand_no:
            legal = world.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(rng.random() * len(untried))]
                child = children[action] = _Node(world.side_of[world.to_act])
                world.apply(action)
                path.append(child)
                break
            best_score = -1.0
            chosen = legal[0]
            for action in legal:
                child = children[action]
                score = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
                child.available += 1
                if score > best_score:
                    best_score, chosen = score, action
            node = children[chosen]
            world.apply(chosen)
            path.append(node)
        if world.phase != GAME_OVER and world.hand_no == hand_no:
            world.playout(rng, 1, tricks=self.horizon)
        rewards = _rewards(world, start)
        for visited in path:
            visited.visits += 1
            if visited.side >= 0:
                visited.total += rewards[visited.side]


def _visits(root: _Node, action: Action) -> int:
    child = root.children.get(action)
    return child.visits if child is not None else -1


def _determined(view: View) -> bool:
    """Whether the view places every card: no stock, and one hand at most holds unseen cards."""
    return (
        view.stock_size == 0
        and view.position["turn_up"] < 0
        and sum(1 for count in view.hidden if count) <= 1
    )


def _rewards(world: GameState, start: list[int]) -> list[float]:
    """Each side's result in 0..1: the game's, or its lead in points gained, squashed."""
    sides = len(start)
    if world.phase == GAME_OVER:
        if world.winner < 0:
            return [0.5] * sides
        return [1.0 if side == world.winner else 0.0 for side in range(sides)]
    gained = [now - before for now, before in zip(world.scores, start, strict=True)]
    total = sum(gained)
    others = max(sides - 1, 1)
    return [0.5 + 0.5 * math.tanh((mine - (total - mine) / others) / SCALE) for mine in gained]


def factory(spec: str, options: Options) -> SearchPlayer:
    """The ``search`` player and its options.

    ``iterations=N`` (1 to 10,000,000), ``seconds=S``, ``c=C`` and ``horizon=T``
    (tricks played out after the tree; default: to the hand's end).
    """
    unknown_options(spec, options, ("iterations", "seconds", "c", "horizon"))
    iterations = int_option(spec, options, "iterations", 1, 10_000_000)
    seconds = float_option(spec, options, "seconds", 0.001, 3600.0)
    c = float_option(spec, options, "c", 0.0, 100.0)
    horizon = int_option(spec, options, "horizon", 1, 1000)
    return SearchPlayer(
        spec,
        iterations=iterations,
        seconds=seconds,
        c=DEFAULT_C if c is None else c,
        horizon=horizon,
    )
