"""Playing the games of ``bezique compare``: every variant on the same seeds, in order.

Game number ``i`` of a comparison is played once in every variant, all from the
same game seed (the ``i``-th of :func:`bezique.simulation.simulate.game_seeds`): common random
numbers, so the variants are measured on the same deals wherever their packs
agree.  Each seat's player draws its chance from a generator seeded from the game
seed and the seat (:func:`decision_seed`), never from the game's number or the
process, so a game's result is the same in one process, in ``jobs`` processes or on
a Dask cluster (:func:`play_all`).

What a game leaves behind is a :class:`GameSummary`: small, picklable, enough for
every figure of :mod:`bezique.compare.stats`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from bezique.actions import Kind
from bezique.errors import BeziqueError
from bezique.game import GameState, new_game, ruleset_for
from bezique.players import Player, decide, player_for
from bezique.rules.ruleset import Ruleset
from bezique.simulation.cluster import check_scheduler, cluster_map
from bezique.simulation.parallel import ordered_map, parts_of
from bezique.simulation.simulate import ctrl_c_between_games

DECLARATIONS = "declarations"
BRISQUES = "brisques"
LAST_TRICK = "last trick"
SEVENS = "sevens"
PENALTIES = "penalties"
OTHER = "other"
SETTLEMENT = "settlement"
CLASSES = (DECLARATIONS, BRISQUES, LAST_TRICK, SEVENS, PENALTIES, OTHER, SETTLEMENT)
"""The classes of what scored, in the order of the tables (see :func:`rule_class`)."""

MAX_VARIANTS = 8
"""The most variants one comparison takes (28 pairs)."""


class GameSummary(NamedTuple):
    """What one game of one variant leaves for the statistics."""

    hands: int
    """Hands played (dealt), the last one included."""
    tricks: int
    """Tricks played in the whole game."""
    scores: tuple[int, ...]
    """Each side's final score (settlement included)."""
    winner: int
    """The side that won; -1: a drawn game."""
    first_side: int
    """The side of the seat that led the game's first trick (the first dealer's left)."""
    rule_points: tuple[tuple[str, int], ...]
    """Points scored by all seats together under each rule, sorted by rule."""
    hand_points: tuple[int, ...]
    """Points scored by all seats together in each hand (the settlement left out)."""
    lead_changes: int
    """How often the side ahead changed (see :func:`score_flow`)."""
    both_over: int
    """Hands that ended with two or more sides at or over the target (none where one deal is
    the game: it has no target)."""


def decision_seed(game_seed: int, seat: int) -> int:
    """The seed of the generator of the player in ``seat`` of the game of ``game_seed``."""
    digest = hashlib.blake2b(f"compare/{game_seed}/{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def combination_names(rules: Ruleset) -> frozenset[str]:
    """The names of the variant's combinations (the rules its declarations score under)."""
    table = rules.data.get("declarations", {}).get("combinations", {})
    return frozenset(table)


def rule_class(rule: str, combinations: frozenset[str]) -> str:
    """Which of :data:`CLASSES` a score event's rule belongs to.

    A combination of the variant or a carte blanche: declarations; the brisques; the
    last trick; the seven of trumps (turned up, exchanged, declared, played);
    penalties; a Rubicon game's settlement; anything else (a lift's bonus, a deal's
    scores voided): other.
    """
    if rule in combinations or rule.startswith("carte_blanche"):
        return DECLARATIONS
    if rule == "brisques":
        return BRISQUES
    if rule == "last_trick":
        return LAST_TRICK
    if rule.startswith("seven_of_trumps"):
        return SEVENS
    if rule.startswith("penalties."):
        return PENALTIES
    if rule.startswith("rubicon."):
        return SETTLEMENT
    return OTHER


def score_flow(state: GameState, combinations: frozenset[str]) -> tuple[tuple[int, ...], int, int]:
    """The points of each hand, the changes of lead and the hands ending with two over.

    The events are followed one by one, the settlement's left out.  The side ahead is
    the one strictly above every other; an event that ties the totals leaves the
    lead where it was, and the first side ahead is no change.  A hand's end is its
    last event (a hand without events ends on the totals before it).
    """
    sides = max(state.side_of) + 1
    totals = [0] * sides
    by_hand = [0] * (state.hand_no + 1)
    at_end: list[tuple[int, ...] | None] = [None] * (state.hand_no + 1)
    leader, changes = -1, 0
    for event, hand in zip(state.events, state.event_hands, strict=True):
        if rule_class(event.rule, combinations) == SETTLEMENT:
            continue
        totals[state.side_of[event.player]] += event.points
        by_hand[hand] += event.points
        at_end[hand] = tuple(totals)
        best = max(totals)
        if totals.count(best) == 1:
            ahead = totals.index(best)
            changes += leader not in (-1, ahead)
            leader = ahead
    both, last = 0, (0,) * sides
    target = state.rules.target
    if target is None:  # one deal is the game: no target to be over
        return tuple(by_hand), changes, 0
    for ended in at_end:
        last = ended or last
        both += sum(total >= target for total in last) >= 2
    return tuple(by_hand), changes, both


def play_game(rules: Ruleset, specs: Sequence[str], game_seed: int) -> GameSummary:
    """Play one game of ``rules`` from ``game_seed``; ``specs``: one player spec, or one a seat."""
    state = new_game(rules, seed=game_seed)
    seats = len(state.side_of)
    players: list[Player] = [player_for(spec) for spec in seats_of(specs, seats)]
    rngs = [random.Random(decision_seed(game_seed, seat)) for seat in range(seats)]
    first = -1
    while not state.is_over():
        seat = state.to_act
        action = decide(players[seat], state, rngs[seat])
        if first < 0 and action.kind == Kind.PLAY:
            first = seat
        state.apply(action)
    return summarize(state, first)


def seats_of(specs: Sequence[str], seats: int) -> list[str]:
    """The player spec of each of ``seats`` seats: one spec for all, or one a seat."""
    if len(specs) == 1:
        return list(specs) * seats
    if len(specs) != seats:
        raise BeziqueError(
            f"--players names {len(specs)} players for {seats} seats; name one player for "
            "every seat, or one a seat"
        )
    return list(specs)


def summarize(state: GameState, first_seat: int) -> GameSummary:
    """The summary of a finished game; ``first_seat`` led its first trick."""
    combinations = combination_names(state.rules)
    points: dict[str, int] = {}
    for event in state.events:
        points[event.rule] = points.get(event.rule, 0) + event.points
    hand_points, changes, both = score_flow(state, combinations)
    seats = len(state.side_of)
    plays = sum(1 for action in state.history if action.kind == Kind.PLAY)
    return GameSummary(
        hands=state.hand_no + 1,
        tricks=plays // seats,
        scores=tuple(state.scores),
        winner=state.winner,
        first_side=state.side_of[first_seat] if first_seat >= 0 else -1,
        rule_points=tuple(sorted(points.items())),
        hand_points=hand_points,
        lead_changes=changes,
        both_over=both,
    )


def check(
    variants: Sequence[str],
    specs: Sequence[str],
    games: int,
    jobs: int,
    scheduler: str | None = None,
) -> list[Ruleset]:
    """Refuse bad arguments with one clear line each; return the variants' rules."""
    check_scheduler(scheduler)
    if not 2 <= len(variants) <= MAX_VARIANTS:
        raise BeziqueError(f"compare takes from 2 to {MAX_VARIANTS} variants, not {len(variants)}")
    if games < 1 or jobs < 1:
        raise BeziqueError("games and jobs must be at least 1")
    for spec in specs:
        player_for(spec)
    rules = rules_of(variants)
    for variant, ruleset in zip(variants, rules, strict=True):
        try:
            seats_of(specs, len(ruleset.side_of))
        except BeziqueError as exc:
            raise BeziqueError(f"{variant}: {exc}") from None
    labels = labels_of(variants, rules)
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise BeziqueError(f"variant {twice[0]} is named twice; name each variant once")
    return rules


def labels_of(variants: Sequence[str], rules: Sequence[Ruleset]) -> list[str]:
    """The variants' names in the tables: the variant's name, or what was typed if two agree."""
    names = [r.variant.name for r in rules]
    return [
        name if names.count(name) == 1 else typed
        for name, typed in zip(names, variants, strict=True)
    ]


# ------------------------------------------------------------------ many games, many processes

Row = list[GameSummary]
"""One game played in every variant, in the order the variants were named."""

_RULES: dict[tuple[str, ...], list[Ruleset]] = {}
"""In any process: the rules of the variants, loaded once for each list of variants."""


def rules_of(variants: Sequence[str]) -> list[Ruleset]:
    """The rules of ``variants``, loaded once a process (a worker plays many tasks)."""
    key = tuple(variants)
    if key not in _RULES:
        _RULES[key] = [ruleset_for(variant) for variant in variants]
    return _RULES[key]


def play_games(variants: Sequence[str], specs: Sequence[str], seeds: Sequence[int]) -> list[Row]:
    """Play the games of ``seeds`` in every variant: one row a game."""
    rules = rules_of(variants)
    return [[play_game(r, specs, seed) for r in rules] for seed in seeds]


Progress = Callable[[int, int], None]


def play_all(
    variants: Sequence[str],
    specs: Sequence[str],
    seeds: Sequence[int],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> tuple[list[Row], bool]:
    """Play every game in every variant; return the rows in game order and whether interrupted.

    Ctrl-C (or ``progress`` raising :exc:`KeyboardInterrupt`) stops after the game being
    played (one process) or drops the games in flight (processes, cluster): the rows
    are always the first games, without a gap.
    """
    rows: list[Row] = []
    interrupted = False
    with ctrl_c_between_games() as pressed:
        try:
            for row in _rows(variants, specs, seeds, jobs, scheduler):
                rows.append(row)
                if progress is not None:
                    progress(len(rows), len(seeds))
                if pressed():
                    break
        except KeyboardInterrupt:
            interrupted = True
        interrupted = interrupted or pressed()
    return rows, interrupted


def _rows(
    variants: Sequence[str],
    specs: Sequence[str],
    seeds: Sequence[int],
    jobs: int,
    scheduler: str | None,
) -> Iterator[Row]:
    if scheduler is not None:
        yield from cluster_map(scheduler, play_games, parts_of(seeds), list(variants), list(specs))
    elif jobs == 1:
        for seed in seeds:  # (one at a time: the progress bar and Ctrl-C see every game)
            yield from play_games(variants, specs, (seed,))
    else:
        how = (tuple(variants), tuple(specs))
        yield from ordered_map(_worker_games, seeds, jobs, _start_worker, how)


_WORKER: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
"""In a worker process: the variants and the players' specs, set when it starts."""


def _start_worker(variants: tuple[str, ...], specs: tuple[str, ...]) -> None:
    """Start a worker: load the variants' rules once."""
    _WORKER[:] = [(variants, specs)]
    rules_of(variants)


def _worker_games(seeds: Sequence[int]) -> list[Row]:
    """A worker's task: the games of ``seeds`` in every variant."""
    variants, specs = _WORKER[0]
    return play_games(variants, specs, seeds)
