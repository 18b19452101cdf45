"""The ``search`` player: information-set Monte Carlo tree search over sampled worlds.

Each iteration deals the cards the seat has not seen at random, consistent with
its view (:class:`~bezique.players.worlds.WorldSampler`), and walks one tree shared by
every world (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): at
each node of its own side the actions legal in this world are chosen among by
UCB1, counting a child's chances only in the worlds where it was legal
("availability"), and the other sides choose as the model player would; one new
node is added, and the hand is played out at random
(:meth:`GameState.playout <bezique.game.GameState.playout>`, the rules' one
path; turns declared greedily, :mod:`bezique.players.rollout`) for
:data:`DEFAULT_HORIZON` tricks or to the hand's end; the result goes back up the
path, each node scored for the side that chose it.  A result is the game won or
lost when the game ends, else each side's lead in the points scored from now,
with what its hands are worth to hold when the play-out stopped inside the hand
(the heuristic's count, :func:`~bezique.players.cardvalues.held_worth`, its two
parts weighed by what they turned out to be worth in play,
:mod:`bezique.players.calibration`), squashed into 0..1.

The other sides' choices in the tree are a model player's (the ``heuristic``, by
default), asked from their own view of the world as it stands: the tree then
branches on the searching side's choices and on the worlds only, and looks
about twice as deep for the same iterations (the site's strength ladder gives the trials).
With ``model=none`` every side is chosen for by UCB1, each for itself.

The most visited action is chosen, except that a prior player's choice (the
``heuristic``'s, by default) stands unless the search's did better by a margin
in mean result: at the budgets a game can afford, the tree search alone plays
worse than the heuristic (its play-outs play the cards at random), and it is
strongest as the heuristic's check.  In the last :data:`LATE_TRICKS` tricks
before the stock runs out the margin is :data:`DEFAULT_LATE_MARGIN`, nought: there
the play-outs reach the end of the stock, and the search's own choice was the
better one (``bezique bench --decisions``, :mod:`bezique.bench.decisions`).

Once the stock is gone and only one hand holds cards the seat has not seen (the
two-hand end-game, where every card is known), the rest of the hand is solved
exactly instead (:mod:`bezique.players.endgame`), up to a number of positions.

The budget is ``iterations=N`` (the default, so that a game does not depend on the
machine) or ``seconds=S`` (wall time a decision); ``c=`` is UCB1's exploration constant,
``horizon=`` the play-outs' tricks, ``playouts=random`` turns them to uniform chance,
``worth=counted`` values held hands by the heuristic's count at face value,
``late_margin=`` is the margin near the stock's end. A plugin's variant may fit weights
of its own and give them as ``SearchPlayer(worth=fit_held_weights(rules))``. Spec:
``search``, ``search:iterations=2000``, ``search:seconds=1``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from bezique.actions import Action
from bezique.engine.state import GAME_OVER
from bezique.engine.views import View
from bezique.errors import PlayerError
from bezique.game import GameState
from bezique.players import Options, Player, float_option, int_option, player_for, unknown_options
from bezique.players.calibration import (
    HELD_WEIGHTS,
    HORIZON,
    UNIT_WEIGHTS,
    HeldWeights,
    ahead,
    side_worth,
)
from bezique.players.endgame import TooLarge, hand_gains, solvable, solve
from bezique.players.rollout import TurnPolicy, greedy_turns
from bezique.players.worlds import WorldSampler

__all__ = ["DEFAULT_ITERATIONS", "SearchPlayer", "factory", "near_stock_end"]

DEFAULT_ITERATIONS = 1000
"""Iterations a decision when the spec gives no budget."""
DEFAULT_HORIZON = HORIZON
"""Tricks a play-out runs after the tree when the spec does not say (``horizon=0``: to the
hand's end); a play-out stopped short counts what the hands hold too, by weights fitted
after play-outs of this length."""
SOLVER_NODES = 100_000
"""The positions the exact solver may search at the default budget (in proportion to the
iterations at others); an end-game with more is left to the tree search."""
DEFAULT_C = 0.2
"""UCB1's exploration constant when the spec gives none (rewards lie in 0..1)."""
DEFAULT_MARGIN = 0.06
"""How much better than the prior's choice, in mean result, the search's must be to stand."""
DEFAULT_LATE_MARGIN = 0.0
"""The margin in the last :data:`LATE_TRICKS` tricks before the stock runs out."""
LATE_TRICKS = 4
"""Tricks before the stock runs out (a card drawn by every seat each, the turn-up counted)
in which :attr:`SearchPlayer.late_margin` applies instead of the margin."""
SCALE = 250.0
"""Points of lead that make a result of about 0.88 (``tanh(1)``, squashed)."""


class _Node:
    """One node of the tree: an action's statistics, for the side that chose it."""

    __slots__ = ("available", "children", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.children: dict[Key, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.side = side


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchPlayer:
    """Information-set MCTS checking a prior player; the two-hand end-game solved exactly."""

    def __init__(
        self,
        name: str = "search",
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = DEFAULT_C,
        horizon: int | None = DEFAULT_HORIZON,
        greedy: bool = True,
        prior: Player | None = None,
        margin: float = DEFAULT_MARGIN,
        late_margin: float = DEFAULT_LATE_MARGIN,
        model: Player | None = None,
        worth: HeldWeights = HELD_WEIGHTS,
    ) -> None:
        """A searcher with a budget of ``iterations`` or ``seconds`` a decision."""
        self.name = name
        self.iterations = iterations if iterations is not None or seconds else DEFAULT_ITERATIONS
        """Iterations a decision (None: as many as :attr:`seconds` allow)."""
        self.seconds = seconds
        """Wall-clock seconds a decision (None: no time limit)."""
        self.c = c
        """UCB1's exploration constant."""
        self.horizon = horizon
        """At most this many tricks played out after the tree (None: to the hand's end)."""
        self.greedy = greedy
        """Whether play-outs declare greedily (:func:`greedy_turns`) rather than at random."""
        self.prior = prior
        """The player whose choice stands unless the search finds better (None: no prior)."""
        self.margin = margin
        """How much better (in mean result, 0..1) an action must be than :attr:`prior`'s."""
        self.late_margin = late_margin
        """The margin in the last :data:`LATE_TRICKS` tricks before the stock runs out."""
        self.scale = SCALE
        """Points of lead that make a result of about 0.88 (see :data:`SCALE`)."""
        self.model = model
        """The player the other sides are taken to be in the tree (None: searched by UCB1)."""
        self.weights = worth
        """How a stopped play-out's held hands are valued (:mod:`~bezique.players.calibration`)."""
        self.turns: TurnPolicy | None = None
        self.last_iterations = 0
        """How many iterations the last decision ran (for the benchmark)."""
        self.last_root: _Node | None = None
        """The root of the last decision's tree (None: it searched none), for analysis."""

    def __repr__(self) -> str:
        """``SearchPlayer('search:iterations=500')``."""
        return f"SearchPlayer({self.name!r})"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action the search finds best for ``view``'s seat."""
        self.last_iterations = 0
        self.last_root = None
        self.turns = greedy_turns(view.rules) if self.greedy else None
        if len(legal) == 1:
            return legal[0]
        sampler = WorldSampler(view)
        if _determined(view):
            world = sampler.sample(rng)
            if solvable(world):
                try:
                    return solve(world, world.side_of[view.seat], self.max_nodes())[1]
                except TooLarge:
                    pass  # (six- and eight-pack end-games: too many; the tree search decides)
        return self.search(sampler, legal, rng)

    def max_nodes(self) -> int:
        """The most positions the exact solver may search: the budget's share of them."""
        return SOLVER_NODES * (self.iterations or DEFAULT_ITERATIONS) // DEFAULT_ITERATIONS

    def search(self, sampler: WorldSampler, legal: Sequence[Action], rng: random.Random) -> Action:
        """Run the budget's iterations from ``sampler``'s worlds; the most visited action.

        With a prior, its choice stands when it did nearly as well (:meth:`prefer_prior`).
        """
        root = self.last_root = _Node(-1)
        stop = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.iterations
        done = 0
        while (budget is None or done < budget) and (stop is None or time.perf_counter() < stop):
            world = sampler.sample(rng)
            world._unrestored()  # discarded after the iteration: no copy kept to restore it
            self.iterate(root, world, rng)
            done += 1
        self.last_iterations = done
        card_key = sampler.template.card_key
        best = max(legal, key=lambda action: _visits(root, _key(action, card_key)))
        if self.prior is None:
            return best
        view = sampler.view
        margin = self.late_margin if near_stock_end(view) else self.margin
        return self.prefer_prior(root, best, self.prior.choose(view, legal, rng), card_key, margin)

    def prefer_prior(
        self,
        root: _Node,
        best: Action,
        hint: Action,
        card_key: list[int],
        margin: float | None = None,
    ) -> Action:
        """The prior's choice ``hint``, unless the search's ``best`` did better by ``margin``.

        ``margin`` is :attr:`margin` when not given.
        """
        chosen = root.children.get(_key(best, card_key))
        hinted = root.children.get(_key(hint, card_key))
        if chosen is None or hinted is None or not hinted.visits:
            return best
        gain = chosen.total / chosen.visits - hinted.total / hinted.visits
        return best if gain > (self.margin if margin is None else margin) else hint

    def iterate(self, root: _Node, world: GameState, rng: random.Random) -> None:
        """One iteration: select and expand in ``world``, play it out, score the path."""
        hand_no = world.hand_no
        start = list(world.scores)
        node = root
        path = [root]
        c = self.c
        log = math.log
        sqrt = math.sqrt
        card_key = world.card_key
        model = self.model
        mine = world.side_of[world.to_act]  # the searching side acts at the root
        while world.phase != GAME_OVER and world.hand_no == hand_no:
            children = node.children
            legal = world.legal_actions()
            if model is not None and world.side_of[world.to_act] != mine and len(legal) > 1:
                action = model.choose(world.view(world.to_act), legal, rng)
                key = _key(action, card_key)
                child = children.get(key)
                new = child is None
                if child is None:
                    child = children[key] = _Node(world.side_of[world.to_act])
                world.apply(action)
                path.append(child)
                node = child
                if new:
                    break
                continue
            keyed: list[tuple[Key, Action]] = []
            untried: list[tuple[Key, Action]] = []
            for action in legal:
                cards = action.cards
                if len(cards) == 1:  # (_key, inlined for a card played)
                    key = (action.kind, card_key[cards[0]], action.combo)
                else:
                    key = _key(action, card_key)
                keyed.append((key, action))
                known = children.get(key)
                if known is None:
                    untried.append((key, action))
                else:  # every child legal in this world was available
                    known.available += 1
            if untried:
                key, action = untried[int(rng.random() * len(untried))]
                child = children[key] = _Node(world.side_of[world.to_act])
                world.apply(action)
                path.append(child)
                break
            best_score = -1.0
            chosen = keyed[0]
            for pair in keyed:
                child = children[pair[0]]
                visits = child.visits
                score = child.total / visits + c * sqrt(log(child.available) / visits)
                if score > best_score:
                    best_score, chosen = score, pair
            node = children[chosen[0]]
            world.apply(chosen[1])
            path.append(node)
        if world.phase != GAME_OVER and world.hand_no == hand_no:
            world.playout(rng, 1, tricks=self.horizon, turns=self.turns)
        weights = self.weights if world.hand_no == hand_no else None
        rewards = _rewards(world, hand_no, start, weights, self.scale)
        for visited in path:
            visited.visits += 1
            if visited.side >= 0:
                visited.total += rewards[visited.side]


Key = tuple[int, object, str]
"""A tree node's action: its kind, its cards' faces (as ``state.card_key`` has them: one
card's, or a tuple of them) and its combination, so that copies of a card in the worlds'
hands are one choice."""


def _key(action: Action, card_key: list[int]) -> Key:
    cards = action.cards
    if len(cards) == 1:
        return (action.kind, card_key[cards[0]], action.combo)
    return (action.kind, tuple(map(card_key.__getitem__, cards)), action.combo)


def _visits(root: _Node, key: Key) -> int:
    child = root.children.get(key)
    return child.visits if child is not None else -1


def near_stock_end(view: View) -> bool:
    """Whether the stock (the turn-up counted) lasts at most :data:`LATE_TRICKS` more tricks."""
    stock = view.stock_size + (int(view.position["turn_up"]) >= 0)
    return 0 < stock <= LATE_TRICKS * view.rules.players


def _determined(view: View) -> bool:
    """Whether the view places every card: no stock, and one hand at most holds unseen cards."""
    return (
        view.stock_size == 0
        and view.position["turn_up"] < 0
        and sum(1 for count in view.hidden if count) <= 1
    )


def _rewards(
    world: GameState,
    hand_no: int,
    start: list[int],
    weights: HeldWeights | None,
    scale: float = SCALE,
) -> list[float]:
    """Each side's result in 0..1: the game's, or its lead in points gained, squashed.

    With ``weights`` (a play-out stopped inside the hand), what each side's hands
    are worth to hold is added to its points: the heuristic's count of them
    (:func:`~bezique.players.calibration.side_worth`), its parts weighed by what
    they turned out to be worth in play.
    """
    sides = len(start)
    if world.phase == GAME_OVER and world.hand_no == hand_no:
        if world.winner < 0:
            return [0.5] * sides
        return [1.0 if side == world.winner else 0.0 for side in range(sides)]
    gained = [float(points) for points in hand_gains(world, hand_no, start)]
    if weights is not None:
        stocked = world.stock_left() > 0
        for side, worth in enumerate(side_worth(world)):
            gained[side] += weights.value(worth, stocked)
    return [0.5 + 0.5 * math.tanh(ahead(gained, side) / scale) for side in range(sides)]


def factory(spec: str, options: Options) -> SearchPlayer:
    """The ``search`` player and its options.

    ``iterations=N`` (1 to 10,000,000), ``seconds=S``, ``c=C``, ``horizon=T`` (tricks
    played out after the tree, 0: to the hand's end; default :data:`DEFAULT_HORIZON`),
    ``playouts=greedy`` (declare the most; the default) or ``random``, ``prior=NAME``
    (the player whose choice stands unless the search finds one better by ``margin=M``,
    :data:`DEFAULT_MARGIN`, or by ``late_margin=M`` in the last :data:`LATE_TRICKS` tricks
    before the stock runs out, :data:`DEFAULT_LATE_MARGIN`; default ``heuristic``;
    ``none``: the search's choice always),
    ``model=NAME`` (the player the other sides are taken to be in the tree; default
    ``heuristic``; ``none``: they are searched too).  Neither may be a search.
    ``worth=fitted`` (the default) values the held hands of a stopped play-out by the
    fitted weights (:data:`~bezique.players.calibration.HELD_WEIGHTS`), ``worth=counted``
    by the heuristic's count at face value.
    """
    unknown_options(
        spec,
        options,
        (
            "iterations",
            "seconds",
            "c",
            "horizon",
            "playouts",
            "prior",
            "margin",
            "late_margin",
            "model",
            "worth",
        ),
    )
    iterations = int_option(spec, options, "iterations", 1, 10_000_000)
    seconds = float_option(spec, options, "seconds", 0.001, 3600.0)
    c = float_option(spec, options, "c", 0.0, 100.0)
    horizon = int_option(spec, options, "horizon", 0, 1000)
    playouts = options.get("playouts", "greedy")
    if playouts not in ("greedy", "random"):
        raise PlayerError(f"player {spec!r}: playouts must be greedy or random, not {playouts!r}")
    margin = float_option(spec, options, "margin", 0.0, 1.0)
    late_margin = float_option(spec, options, "late_margin", 0.0, 1.0)
    worth = options.get("worth", "fitted")
    if worth not in ("fitted", "counted"):
        raise PlayerError(f"player {spec!r}: worth must be fitted or counted, not {worth!r}")
    return SearchPlayer(
        spec,
        iterations=iterations,
        seconds=seconds,
        c=DEFAULT_C if c is None else c,
        horizon=DEFAULT_HORIZON if horizon is None else horizon or None,
        greedy=playouts == "greedy",
        prior=_named_player(spec, options, "prior"),
        margin=DEFAULT_MARGIN if margin is None else margin,
        late_margin=DEFAULT_LATE_MARGIN if late_margin is None else late_margin,
        model=_named_player(spec, options, "model"),
        worth=HELD_WEIGHTS if worth == "fitted" else UNIT_WEIGHTS,
    )


def _named_player(spec: str, options: Options, key: str) -> Player | None:
    """The player option ``key`` names (default ``heuristic``; ``none``: None), never a search."""
    named = options.get(key, "heuristic")
    if named.partition(":")[0] == "search":
        raise PlayerError(f"player {spec!r}: the {key} may not be a search")
    return None if named == "none" else player_for(named)
