"""Tournaments: every pair of players on the same deals, seats swapped, and the ladder.

For each pair (A, B) of the players listed, each deal (a game seed drawn from the
tournament's seed, the same deals for every pair) is played once for every seating
of the pair (:func:`seatings`): in two-hand A-B and B-A; with partnerships A holds
one side's seats and B the other's, then swapped; in multi-hand games without
partnerships A alone against B in every other seat, in each seat in turn, and B
alone against A likewise (three-hand: six games a deal).

A game is won by the player who holds the side that won it (``state.winner``); a
drawn game counts half to each.  A player's points in a game are the mean final
score of the sides it holds.  Each seat's player draws its chance from a generator
of its own, seeded from the tournament's seed, the game's number and the seat, so a
tournament is the same however many processes play it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from bezique.errors import BeziqueError, PlayerError
from bezique.game import new_game, ruleset_for
from bezique.players import decide, player_for
from bezique.rules.ruleset import Ruleset
from bezique.simulation.cluster import check_scheduler, cluster_map
from bezique.simulation.parallel import ordered_map, parts_of
from bezique.simulation.ratings import PairResult, elo_from_fraction, fit_elo, wilson
from bezique.simulation.simulate import Progress, game_seeds, terminal_progress

MAX_PLAYERS = 12
"""The most players one tournament takes (66 pairs)."""

Seating = tuple[int, ...]
"""For each side of the game, who holds it: 0 the pair's first player, 1 the second."""


@dataclass(frozen=True)
class Game:
    """One game to play: its number in the tournament, its deal and who sits where."""

    number: int
    pair: int
    deal_seed: int
    seating: int
    seats: tuple[str, ...]
    """The spec of the player in each seat."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning side (-1: drawn) and each side's final score."""

    winner: int
    scores: tuple[int, ...]


def seatings(side_of: Sequence[int]) -> list[Seating]:
    """The seatings of a pair on one deal: each side held alone by A, then each by B.

    Two sides give two seatings (A-B, B-A); three sides six; four sides eight.
    """
    sides = max(side_of) + 1
    found: dict[Seating, None] = {}
    for alone in (0, 1):
        for side in range(sides):
            found[tuple(alone if s == side else 1 - alone for s in range(sides))] = None
    return list(found)


def seat_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the generator of the player in ``seat`` of game number ``game``."""
    digest = hashlib.blake2b(f"{seed}/{game}/{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def labels(specs: Sequence[str]) -> list[str]:
    """The players' names in the tables: the spec, with ``#1``, ``#2``... when repeated."""
    stripped = [spec.strip() for spec in specs]
    counts = {spec: stripped.count(spec) for spec in stripped}
    seen: dict[str, int] = {}
    named = []
    for spec in stripped:
        seen[spec] = seen.get(spec, 0) + 1
        named.append(f"{spec}#{seen[spec]}" if counts[spec] > 1 else spec)
    return named


def split_players(text: str) -> list[str]:
    """Split ``--players`` into player specs.

    Commas part the players, and a ``KEY=VALUE`` item after a comma is one more option
    of the player before it (``search:iterations=9,seconds=1``).
    """
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if "=" in item and ":" not in item and specs:
            specs[-1] += f",{item}"
        else:
            specs.append(item)
    return specs


def tournament(
    variant: str,
    specs: Sequence[str],
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play the tournament; return its results as JSON-able data (see the module docstring).

    ``games`` is the number of games a pair, rounded up to whole deals (each deal is
    played in every seating).  ``jobs`` processes play the games, or the Dask cluster
    whose scheduler is at ``scheduler``; the result is the same for any number and
    on a cluster.  ``progress`` is called after each game (in game order).
    """
    _check_players(specs)
    check_scheduler(scheduler)
    if jobs < 1:
        raise BeziqueError(f"jobs must be at least 1, not {jobs}")
    if games < 1:
        raise BeziqueError(f"games must be at least 1, not {games}")
    rules = ruleset_for(variant, overrides)
    ways = seatings(rules.side_of)
    deals = math.ceil(games / len(ways))
    plan = _plan(specs, ways, list(game_seeds(seed, deals)), rules.side_of)
    how = (variant, overrides, seed)
    outcomes = list(_outcomes(rules, how, plan, jobs, scheduler, progress))
    result = _summary(rules, specs, ways, plan, outcomes)
    result.update(seed=seed, games_asked=games, deals=deals, seatings=len(ways))
    return result


def planned_games(
    variant: str, specs: Sequence[str], games: int, overrides: Mapping[str, Any] | None = None
) -> int:
    """How many games :func:`tournament` will play in all.

    The games a pair, rounded up to whole deals, times the pairs.
    """
    ways = len(seatings(ruleset_for(variant, overrides).side_of))
    pairs = len(specs) * (len(specs) - 1) // 2
    return math.ceil(games / ways) * ways * pairs


def run_command(args: argparse.Namespace) -> int:
    """``bezique tournament``: play, print the tables or JSON (a progress bar on a terminal)."""
    specs = split_players(args.players)
    _check_players(specs)
    check_scheduler(args.scheduler)
    if args.scheduler is not None and args.jobs != 1:
        raise BeziqueError("--jobs counts processes on this machine; leave it out with --scheduler")
    total = planned_games(args.variant, specs, args.games)
    name = ruleset_for(args.variant).variant.name
    with terminal_progress(sys.stderr, total, f"tournament {name}") as progress:
        result = tournament(
            args.variant,
            specs,
            args.games,
            args.seed,
            jobs=args.jobs,
            scheduler=args.scheduler,
            progress=progress,
        )
    print(json.dumps(result, indent=2) if args.json else format_tournament(result))
    return 0


def _check_players(specs: Sequence[str]) -> None:
    if not 2 <= len(specs) <= MAX_PLAYERS:
        raise PlayerError(f"a tournament takes from 2 to {MAX_PLAYERS} players, not {len(specs)}")
    for spec in specs:
        player_for(spec)


def _plan(
    specs: Sequence[str], ways: Sequence[Seating], deal_seeds: Sequence[int], side_of: Sequence[int]
) -> list[Game]:
    """Every game in order: pair by pair, deal by deal, seating by seating."""
    plan: list[Game] = []
    for pair, players in enumerate(combinations(range(len(specs)), 2)):
        for deal_seed in deal_seeds:
            for number, holders in enumerate(ways):
                seats = tuple(specs[players[holders[side]]].strip() for side in side_of)
                plan.append(Game(len(plan), pair, deal_seed, number, seats))
    return plan


def _outcomes(
    rules: Ruleset,
    how: tuple[str, Mapping[str, Any] | None, int],
    plan: Sequence[Game],
    jobs: int,
    scheduler: str | None,
    progress: Progress | None,
) -> Iterator[Outcome]:
    """Play the games, in ``jobs`` processes or on a cluster; yield the outcomes in game order.

    ``how`` is the variant, its overrides and the seed: each worker process loads the
    rules once from the first two.
    """
    seed = how[2]
    if scheduler is not None:
        results: Iterator[Outcome] = cluster_map(scheduler, play_on_cluster, parts_of(plan), *how)
    elif jobs == 1:
        results = (_play(rules, seed, game) for game in plan)
    else:
        results = ordered_map(play_games, plan, jobs, _start_worker, how)
    yield from _counted(results, len(plan), progress)


def _counted(
    outcomes: Iterator[Outcome], total: int, progress: Progress | None
) -> Iterator[Outcome]:
    for done, outcome in enumerate(outcomes, 1):
        if progress is not None:
            progress(done, total)
        yield outcome


_WORKER: list[tuple[Ruleset, int]] = []
"""In a worker process: the tournament's rules and seed, set when the process starts."""


def _start_worker(variant: str, overrides: Mapping[str, Any] | None, seed: int) -> None:
    """Start a worker: load the rules once."""
    _WORKER[:] = [(ruleset_for(variant, overrides), seed)]


def play_games(games: Sequence[Game]) -> list[Outcome]:
    """A worker's task: play ``games`` (players made afresh from their specs)."""
    rules, seed = _WORKER[0]
    return [_play(rules, seed, game) for game in games]


_CLUSTER_RULES: dict[tuple[str, str], Ruleset] = {}
"""On a cluster's worker: the rules of each variant and overrides, loaded once."""


def play_on_cluster(
    variant: str, overrides: Mapping[str, Any] | None, seed: int, games: Sequence[Game]
) -> list[Outcome]:
    """A cluster's task: play ``games`` of the tournament of ``seed`` (rules loaded once)."""
    key = (variant, json.dumps(overrides, sort_keys=True))
    if key not in _CLUSTER_RULES:
        _CLUSTER_RULES[key] = ruleset_for(variant, overrides)
    rules = _CLUSTER_RULES[key]
    return [_play(rules, seed, game) for game in games]


def _play(rules: Ruleset, seed: int, game: Game) -> Outcome:
    state = new_game(rules, seed=game.deal_seed)
    players = [player_for(spec) for spec in game.seats]
    rngs = [random.Random(seat_seed(seed, game.number, seat)) for seat in range(len(game.seats))]
    while not state.is_over():
        seat = state.to_act
        state.apply(decide(players[seat], state, rngs[seat]))
    return Outcome(state.winner, tuple(state.scores))


def _summary(
    rules: Ruleset,
    specs: Sequence[str],
    ways: Sequence[Seating],
    plan: Sequence[Game],
    outcomes: Sequence[Outcome],
) -> dict[str, Any]:
    names = labels(specs)
    pairs = list(combinations(range(len(specs)), 2))
    tallies = [[0.0] * 6 for _ in pairs]  # won A, won B, drawn, points A, points B, games
    for game, outcome in zip(plan, outcomes, strict=True):
        holders = ways[game.seating]
        tally = tallies[game.pair]
        if outcome.winner < 0:
            tally[2] += 1
        else:
            tally[holders[outcome.winner]] += 1
        for who in (0, 1):
            held = [score for side, score in enumerate(outcome.scores) if holders[side] == who]
            tally[3 + who] += sum(held) / len(held)
        tally[5] += 1
    rows = [_pair_row(names, pair, tally) for pair, tally in zip(pairs, tallies, strict=True)]
    anchor = anchor_of(specs)
    results = [
        PairResult(a, b, won_a + drawn / 2, int(n))
        for (a, b), (won_a, _, drawn, _, _, n) in zip(pairs, tallies, strict=True)
    ]
    fit = fit_elo(len(specs), results, anchor)
    elo = [
        {
            "player": names[i],
            "elo": None if fit.ratings is None else fit.ratings[i],
            "error": None if fit.errors is None else fit.errors[i],
            "interval": None if fit.ratings is None else list(fit.interval(i) or ()),
        }
        for i in range(len(specs))
    ]
    return {
        "variant": rules.variant.name,
        "players": names,
        "specs": [spec.strip() for spec in specs],
        "games_per_pair": len(plan) // len(pairs),
        "pairs": rows,
        "elo": {"anchor": names[anchor], "finite": fit.ratings is not None, "ratings": elo},
    }


def anchor_of(specs: Sequence[str]) -> int:
    """The player whose Elo is 0: the first named ``random``, or else the first listed."""
    return next((i for i, spec in enumerate(specs) if spec.strip() == "random"), 0)


def _pair_row(
    names: Sequence[str], pair: tuple[int, int], tally: Sequence[float]
) -> dict[str, Any]:
    won_a, won_b, drawn, points_a, points_b, games = tally
    n = int(games)
    share = (won_a + drawn / 2) / n
    difference = elo_from_fraction(share)
    return {
        "players": [names[pair[0]], names[pair[1]]],
        "games": n,
        "wins": [int(won_a), int(won_b)],
        "drawn": int(drawn),
        "share": share,
        "interval": list(wilson(won_a + drawn / 2, n)),
        "elo_difference": difference if math.isfinite(difference) else None,
        "points_per_game": [points_a / n, points_b / n],
        "points_difference": (points_a - points_b) / n,
    }


HOW_GAMES_COUNT = (
    "a game is won by the player holding the side that won it; a drawn game counts half to each;\n"
    "a player's points: the mean final score of the sides it holds"
)
"""How a game counts, in words (under the text output's title)."""

PAIR_COLUMNS = (
    "A",
    "B",
    "games",
    "won A",
    "won B",
    "drawn",
    "A's share",
    "95% interval",
    "Elo A-B",
    "points A",
    "points B",
    "A-B",
)
"""The columns of the table of pairs (A the pair's first player, B the second)."""


def format_tournament(result: dict[str, Any]) -> str:
    """Write a tournament's results as aligned tables."""
    per_pair = result["games_per_pair"]
    rounded = (
        f" ({result['games_asked']} asked, rounded up to whole deals)"
        if per_pair != result["games_asked"]
        else ""
    )
    lines = [
        f"tournament: variant {result['variant']}, seed {result['seed']}, "
        f"players {', '.join(result['players'])}",
        f"{per_pair} games a pair{rounded}: {_count(result['deals'], 'deal')}, each played "
        f"in {_count(result['seatings'], 'seating')} of the pair",
        HOW_GAMES_COUNT,
        "",
        *text_table(
            PAIR_COLUMNS,
            [_pair_cells(row) for row in result["pairs"]],
            left=2,
        ),
        "",
    ]
    elo = result["elo"]
    lines.append(
        "Elo: all players fitted together by maximum likelihood (Bradley-Terry, a draw half a win);"
    )
    lines.append(f"95% intervals from the Fisher information; anchor: {elo['anchor']} = 0")
    if not elo["finite"]:
        lines.append(
            "no finite Elo estimate: a player (or group) won or lost every game it played\n"
            "against the others; play more games"
        )
        return "\n".join(lines)
    cells = [
        [e["player"], f"{e['elo']:+.0f}", f"{e['interval'][0]:+.0f}..{e['interval'][1]:+.0f}"]
        for e in elo["ratings"]
    ]
    lines.extend(text_table(["player", "Elo", "95% interval"], cells, left=1))
    return "\n".join(lines)


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _pair_cells(row: dict[str, Any]) -> list[str]:
    low, high = row["interval"]
    elo = row["elo_difference"]
    shown = f"{elo:+.0f}" if elo is not None else ("+inf" if row["share"] > 0.5 else "-inf")
    points = row["points_per_game"]
    return [
        *row["players"],
        str(row["games"]),
        *(str(w) for w in row["wins"]),
        str(row["drawn"]),
        f"{row['share']:.3f}",
        f"{low:.3f}..{high:.3f}",
        shown,
        f"{points[0]:.1f}",
        f"{points[1]:.1f}",
        f"{row['points_difference']:+.1f}",
    ]


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int) -> list[str]:
    """Lines of a table: the first ``left`` columns flush left, the others flush right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(w) if i < left else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(header), *(line(r) for r in rows)]
