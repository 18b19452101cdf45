"""``bezique compare``: rule texts compared by simulation, on the same seeds.

:func:`compare` plays game ``i`` of every variant from the same seed (see
:mod:`bezique.compare.games`), then works out each variant's figures and each pair's
paired differences with 95% intervals (:mod:`bezique.compare.stats`).  The result is
a :class:`Comparison`: the games' summaries and the JSON-able :attr:`~Comparison.result`
(keys stable; ``format`` names its version), which :mod:`bezique.compare.text`
writes as tables, :mod:`bezique.compare.plot` draws and :mod:`bezique.compare.page`
puts on a page.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from bezique.compare.games import (
    BRISQUES,
    CLASSES,
    DECLARATIONS,
    LAST_TRICK,
    PENALTIES,
    SEVENS,
    GameSummary,
    Progress,
    check,
    combination_names,
    labels_of,
    play_all,
    rule_class,
)
from bezique.compare.stats import Figure, Figures, difference, estimate
from bezique.errors import BeziqueError
from bezique.reading.safeio import check_output
from bezique.rules.ruleset import Ruleset
from bezique.simulation.simulate import game_seeds, terminal_progress
from bezique.simulation.tournament import split_players

FORMAT = "bezique-compare/1"
"""The ``format`` of the JSON result."""

MEASURED = (
    "95% intervals: t for means and ratios, Wilson for shares; the game is the unit",
    "points are all seats' together (a side's: its seats'); the first player leads the "
    "game's first trick",
    "differences B - A are paired game by game (the same seeds); * the interval leaves out 0",
)
"""How the figures are measured, in words (under the tables' title)."""


@dataclass
class Comparison:
    """A comparison played: the variants, their rules, each variant's games, and the result."""

    labels: list[str]
    rules: list[Ruleset]
    games: list[list[GameSummary]]
    """For each variant, its games in order (game ``i`` of each from the same seed)."""
    result: dict[str, Any]


def compare(
    variants: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    players: str = "heuristic",
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Play ``games`` games of every variant on the same seeds; return the comparison.

    ``players`` is one player spec for every seat or a comma list, one a seat.  The
    result is the same for any ``jobs`` and on a cluster (``scheduler``).  Ctrl-C
    stops the run: the figures are of the games finished, ``interrupted`` true.
    """
    specs = split_players(players)
    rules = check(variants, specs, games, jobs, scheduler)
    seeds = list(game_seeds(seed, games))
    rows, interrupted = play_all(
        variants, specs, seeds, jobs=jobs, scheduler=scheduler, progress=progress
    )
    labels = labels_of(variants, rules)
    by_variant = [[row[v] for row in rows] for v in range(len(variants))]
    result = {
        "format": FORMAT,
        "variants": labels,
        "titles": [r.variant.title for r in rules],
        "players": [spec.strip() for spec in specs],
        "seed": seed,
        "games": len(rows),
        "games_requested": games,
        "interrupted": interrupted,
        "measured": list(MEASURED),
        **figures(labels, rules, by_variant),
    }
    return Comparison(labels, rules, by_variant, result)


ALWAYS_SHOWN = (DECLARATIONS, BRISQUES, LAST_TRICK, SEVENS, PENALTIES)
"""The classes of points always in the tables, scored or not (no penalty is a figure too:
bots never play out of turn)."""


def figures(
    labels: Sequence[str], rules: Sequence[Ruleset], games: Sequence[Sequence[GameSummary]]
) -> dict[str, Any]:
    """The ``per_variant`` and ``pairs`` parts of the result."""
    table = Figures([combination_names(r) for r in rules])
    scored = {rule for variant in games for game in variant for rule, _ in game.rule_points}
    order = sorted(
        scored, key=lambda rule: (CLASSES.index(rule_class(rule, table.combinations)), rule)
    )
    scored_classes = {rule_class(rule, table.combinations) for rule in order}
    classes = [c for c in CLASSES if c in ALWAYS_SHOWN or c in scored_classes]
    parts: list[tuple[str, list[Figure]]] = [
        ("figures", table.main()),
        ("points_per_hand_by_class", table.by_class(classes)),
        ("points_per_hand_by_rule", table.by_rule(order)),
    ]
    per_variant = [
        {
            "variant": label,
            **{name: {f.key: estimate(played, f).json() for f in group} for name, group in parts},
        }
        for label, played in zip(labels, games, strict=True)
    ]
    pairs = [
        {
            "a": labels[i],
            "b": labels[j],
            **{
                name: {f.key: difference(games[i], games[j], f).json() for f in group}
                for name, group in parts
            },
        }
        for i, j in combinations(range(len(labels)), 2)
    ]
    _not_used(rules, per_variant, pairs)
    words = {f.key: f.label for f in table.main()}
    words.update({rule: rule_words(rule, rules) for rule in order})
    return {
        "labels": words,
        "rules": {r: rule_class(r, table.combinations) for r in order},
        "per_variant": per_variant,
        "pairs": pairs,
    }


def rule_words(rule: str, rules: Sequence[Ruleset]) -> str:
    """A score event's rule in words: each variant's that has any, the different ones joined.

    Joined by `` / `` in the variants' order: "the last trick of the stock / the last
    trick", where one scores the trick that empties the stock and the other the final one.
    """
    said = list(dict.fromkeys(r.words[rule] for r in rules if rule in r.words))
    if said:
        return " / ".join(said)
    return rules[0].words.say(rule) if rules else rule


NOT_USED = {"value": None, "low": None, "high": None}
"""An estimate that does not apply to a variant (JSON nulls; ``n/a`` in the tables)."""


def _not_used(
    rules: Sequence[Ruleset], per_variant: list[dict[str, Any]], pairs: list[dict[str, Any]]
) -> None:
    """Leave out the figure of hands ending over the target where there is no target.

    A game of one deal (``game.end: one_deal``: Rubicon, six- and eight-pack) has no
    target: such a variant has no figure of hands ending over it, nor a difference of it.
    """
    unused = {v["variant"] for v, r in zip(per_variant, rules, strict=True) if r.one_deal}
    for variant in per_variant:
        if variant["variant"] in unused:
            variant["figures"]["both_over_target"] = dict(NOT_USED)
    for pair in pairs:
        if pair["a"] in unused or pair["b"] in unused:
            pair["figures"]["both_over_target"] = {
                "difference": None,
                "low": None,
                "high": None,
                "excludes_zero": False,
            }


def run_command(args: argparse.Namespace) -> int:
    """``bezique compare``: play, print the tables or JSON, write the plot and the page."""
    if args.bench:
        from bezique.compare.bench import format_bench, run_bench

        extra = [
            f"--{name}"
            for name in ("scheduler", "plot", "html", "overwrite")
            if getattr(args, name)
        ]
        if extra:
            raise BeziqueError(f"--bench times processes on this machine; leave out {extra[0]}")

        found = run_bench(args.variants, args.games, args.seed, args.players, args.jobs)
        print(json.dumps(found, indent=2) if args.json else format_bench(found))
        return 0
    from bezique.compare.text import print_tables

    plot_check(args.plot)
    if args.overwrite and not (args.plot or args.html):
        raise BeziqueError("--overwrite goes with --plot FILE or --html FILE")
    outputs_check(args.plot, args.html, args.overwrite)
    total = args.games
    label = "compare " + ", ".join(args.variants)
    with terminal_progress(sys.stderr, total, label) as progress:
        done = compare(
            args.variants,
            args.games,
            args.seed,
            players=args.players,
            jobs=args.jobs,
            scheduler=args.scheduler,
            progress=progress,
        )
    if args.plot:
        from bezique.compare.plot import write_plot

        write_plot(done, args.plot, overwrite=args.overwrite)
    if args.html:
        from bezique.compare.page import write_page

        write_page(done, args.html, overwrite=args.overwrite)
    if args.json:
        print(json.dumps(done.result, indent=2))
    else:
        print_tables(done.result, sys.stdout)
    return 130 if done.result["interrupted"] else 0


def outputs_check(plot: str | None, html: str | None, overwrite: bool = False) -> None:
    """Before playing: the plot and the page can be written, and are not one file.

    So a long run is never played to fail at its end for a missing folder, a file
    that exists (without ``overwrite``), a link or a FIFO at the name.
    """
    named = [(option, path) for option, path in (("--plot", plot), ("--html", html)) if path]
    if len(named) == 2 and Path(named[0][1]).resolve() == Path(named[1][1]).resolve():
        raise BeziqueError(f"--plot and --html name the same file {plot}; name two files")
    for option, path in named:
        check_output(path, overwrite=overwrite, label=f"{option} {path}")


def plot_check(plot: str | None) -> None:
    """Before playing: a plot's file must be PNG or SVG, and matplotlib installed."""
    if plot is None:
        return
    if not plot.lower().endswith((".png", ".svg")):
        raise BeziqueError(f"--plot {plot}: the file must end in .png or .svg")
    from bezique.compare.plot import need_matplotlib

    need_matplotlib()
