"""The decision benchmark (``bezique bench --decisions``): what choices gain over the heuristic's.

A game of a thousand points is a slow and noisy judge of one change to a bot
(the ladder's 200 games take an hour, and their 95% interval is some fourteen
points of share wide).  This benchmark judges decisions instead.  Positions are taken from
seeded games the ``heuristic`` plays against itself (about one decision in twelve
where the seat to act has a choice and the stock lasts: the search's ground).  At
each, every player given decides from the seat's view, and its choice is set
against the heuristic's.  Where the two differ, each action is worth the lead its
side has at the hand's end (its points gained minus the mean of the others',
:func:`~bezique.players.calibration.ahead`) when the hand is then played out by
the heuristic in every seat, averaged over :data:`ORDERS` orders of the stock, the
same orders for both actions so that the difference is not the draw's.  The
actions are played in the real position, the unseen cards where they are: the
gain is the choice's against the heuristic's actual hands.

For each player: the decisions, how many differ from the heuristic's and how many
of those gained, and the mean gain a decision in points with its standard error,
over all positions and apart for the last
:data:`~bezique.players.search.LATE_TRICKS` tricks before the stock runs out.
The players decide on the same positions, so their figures are paired: each
player after the first is also given as its gains less the first's, position by
position, with that difference's standard error (narrower than either figure's
when the two choose alike).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from bezique.actions import Action
from bezique.game import GameState, new_game, ruleset_for
from bezique.players import decide, player_for
from bezique.players.calibration import ahead, play_on
from bezique.players.endgame import hand_gains
from bezique.players.search import near_stock_end
from bezique.simulation.simulate import Progress
from bezique.simulation.tournament import text_table

__all__ = [
    "ORDERS",
    "action_worth",
    "action_worths",
    "decision_bench",
    "decision_positions",
    "format_decisions",
    "mean_and_error",
]

ORDERS = 40
"""Orders of the stock an action's worth is averaged over."""
SHARE = 0.08
"""The share of the heuristic's decisions (with a choice, the stock lasting) taken."""


def decision_positions(variant: str, count: int, seed: int) -> list[GameState]:
    """``count`` positions of seeded heuristic self-play where the seat has a choice."""
    rules = ruleset_for(variant)
    heuristic = player_for("heuristic")
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        state = new_game(rules, seed=rng.randrange(1 << 62))
        while not state.is_over() and len(found) < count:
            if state.stock_left() and len(state.legal_actions()) > 1 and rng.random() < SHARE:
                found.append(state.clone())
            state.apply(decide(heuristic, state, rng))
    return found


def action_worth(state: GameState, action: Action, orders: int, seed: int) -> float:
    """The mean lead at the hand's end of the side to act, ``action`` played then the heuristic's.

    Over ``orders`` orders of the stock, drawn from ``seed`` (the same for every action):
    the mean of :func:`action_worths`.
    """
    return sum(action_worths(state, action, orders, seed)) / orders


def action_worths(state: GameState, action: Action, orders: int, seed: int) -> list[float]:
    """The lead at the hand's end of the side to act, ``action`` played then the heuristic's.

    One for each of ``orders`` orders of the stock, drawn from ``seed`` (the same for
    every action, so that two actions' leads are paired order by order).
    """
    heuristic = player_for("heuristic")
    side = state.side_of[state.to_act]
    start = list(state.scores)
    rng = random.Random(seed)
    worths = []
    for _ in range(orders):
        world = state.clone()
        rng.shuffle(world.stock)
        world.apply(action)
        play_on(world, heuristic, rng)
        worths.append(ahead(hand_gains(world, state.hand_no, start), side))
    return worths


def decision_bench(
    variant: str,
    specs: Sequence[str],
    positions: int,
    seed: int,
    orders: int = ORDERS,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Each player's gains over the heuristic's choices (the module docstring), as JSON data.

    ``progress`` is called with the positions done and the total (for every player).
    """
    players = [player_for(spec) for spec in specs]
    found = decision_positions(variant, positions, seed)
    heuristic = player_for("heuristic")
    late = [near_stock_end(state.view(state.to_act)) for state in found]
    seeds = [seed * 100_003 + index for index in range(len(found))]
    hints = [decide(heuristic, found[i], random.Random(seeds[i])) for i in range(len(found))]
    worths: dict[tuple[int, Action], float] = {}  # each action's worth, once for every player

    def worth(index: int, action: Action) -> float:
        key = (index, action)
        if key not in worths:
            worths[key] = action_worth(found[index], action, orders, seeds[index])
        return worths[key]

    rows = []
    first: list[float | None] = []
    for number, player in enumerate(players):
        gains: list[float | None] = []
        for index, state in enumerate(found):
            chosen = decide(player, state, random.Random(seeds[index]))
            hint = hints[index]
            gains.append(None if chosen == hint else worth(index, chosen) - worth(index, hint))
            if progress is not None:
                progress(number * len(found) + index + 1, len(players) * len(found))
        if not number:
            first = gains
        row = _row(specs[number], gains, late)
        row["against_first"] = _paired(gains, first) if number else None
        rows.append(row)
    return {
        "variant": ruleset_for(variant).variant.name,
        "positions": len(found),
        "late_positions": sum(late),
        "seed": seed,
        "orders": orders,
        "players": rows,
    }


def _row(spec: str, gains: Sequence[float | None], late: Sequence[bool]) -> dict[str, Any]:
    """A player's figures: overall, in the late positions and in the others."""
    row: dict[str, Any] = {"player": spec}
    for part, keep in (("all", (True, False)), ("late", (True,)), ("rest", (False,))):
        chosen = [gain for gain, is_late in zip(gains, late, strict=True) if is_late in keep]
        row[part] = _summary(chosen)
    return row


def _summary(gains: Sequence[float | None]) -> dict[str, Any]:
    """Decisions, differing choices, those that gained, the mean gain and its standard error.

    A decision where the choice was the heuristic's gains nought.
    """
    mean, error = mean_and_error([gain or 0.0 for gain in gains])
    differing = [gain for gain in gains if gain is not None]
    return {
        "decisions": len(gains),
        "differing": len(differing),
        "gained": sum(1 for gain in differing if gain > 0),
        "mean_gain": mean,
        "standard_error": error,
    }


def mean_and_error(values: Sequence[float]) -> tuple[float, float | None]:
    """The mean of ``values`` and its standard error (None for fewer than two)."""
    count = len(values)
    mean = sum(values) / count if count else 0.0
    if count < 2:
        return mean, None
    spread = sum((value - mean) ** 2 for value in values) / (count - 1)
    return mean, math.sqrt(spread / count)


def _paired(gains: Sequence[float | None], first: Sequence[float | None]) -> dict[str, Any]:
    """A player's gains less the first player's, position by position: their mean and error.

    The players decide on the same positions, so the difference is nought wherever they
    chose alike, and its error is that of the positions where they chose apart.
    """
    differences = [(gain or 0.0) - (other or 0.0) for gain, other in zip(gains, first, strict=True)]
    mean, error = mean_and_error(differences)
    return {
        "apart": sum(1 for difference in differences if difference),
        "mean_difference": mean,
        "standard_error": error,
    }


def format_decisions(result: dict[str, Any]) -> str:
    """The benchmark as lines of text: one row a player."""
    header = ["player", "differs", "gained", "gain a decision (se)", "late", "rest"]
    paired = len(result["players"]) > 1
    if paired:
        header.append("against the first (se)")
    rows = []
    for row in result["players"]:
        every = row["all"]
        cells = [
            row["player"],
            str(every["differing"]),
            str(every["gained"]),
            _points(every),
            _points(row["late"]),
            _points(row["rest"]),
        ]
        if paired:
            cells.append(_difference(row["against_first"]))
        rows.append(cells)
    lines = [
        f"{result['variant']} decisions: {result['positions']} positions of heuristic self-play "
        f"(seed {result['seed']}), {result['late_positions']} of them late; an action's worth is "
        f"its lead at the hand's end, the heuristic playing on, "
        f"over {result['orders']} stock orders",
        *text_table(header, rows, 1),
    ]
    return "\n".join(lines)


def _difference(paired: dict[str, Any] | None) -> str:
    """The mean paired difference and its error (``-``: the first player)."""
    if paired is None:
        return "-"
    return _signed(paired["mean_difference"], paired["standard_error"])


def _points(summary: dict[str, Any]) -> str:
    """The mean gain and its standard error (``-``: no decisions)."""
    if not summary["decisions"]:
        return "-"
    return _signed(summary["mean_gain"], summary["standard_error"])


def _signed(mean: float, error: float | None) -> str:
    """``+1.41 (0.62)``: a mean in points, signed, and its standard error if there is one."""
    shown = "" if error is None else f" ({error:.2f})"
    return f"{mean:+.2f}{shown}"
