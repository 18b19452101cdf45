"""The ``bezique`` command's arguments: its parser, and the bounds every number is held to.

:func:`build_parser` describes every subcommand's arguments (their help is the
command's ``--help``); :mod:`bezique.commands.cli` runs what they ask.  Numbers are read by
:func:`whole_number`, which refuses a text that is not one, or out of its bounds, in
words, and reads no more digits than a bound can have.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from bezique import MAX_SEED, __version__
from bezique.web.command import add_arguments as web_arguments
from bezique.web.command import add_bench_arguments as load_arguments

__all__ = [
    "BENCH_DEALS",
    "BENCH_ITERATIONS",
    "BENCH_PLAYERS",
    "BENCH_POSITIONS",
    "MAX_COMPARE_GAMES",
    "MAX_DEALS",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_PAIR_GAMES",
    "MAX_SEED",
    "build_parser",
    "whole_number",
]

MAX_GAMES = 1_000_000
"""The most games one ``bezique simulate`` plays (about an hour on one core)."""

MAX_DEALS = 10_000_000
"""The most deals one ``bezique bench`` plays."""

MAX_PAIR_GAMES = 100_000
"""The most games a pair one ``bezique tournament`` plays."""

MAX_COMPARE_GAMES = 100_000
"""The most games a variant one ``bezique compare`` plays (its games' summaries are kept)."""

MAX_JOBS = 64
"""The most processes one ``bezique tournament`` plays in."""


BENCH_DEALS = 2000
"""The deals ``bezique bench`` plays when not told (not with ``--search`` or ``--decisions``)."""
BENCH_POSITIONS = 30
"""The positions ``bench --search`` times and ``bench --decisions`` judges when not told."""
BENCH_ITERATIONS = 1000
"""The iterations a decision ``bench --search`` times when not told."""
BENCH_PLAYERS = "search"
"""The players ``bench --decisions`` judges when not told."""
_WHOLE = re.compile(r"[+-]?[0-9]+")
_MOST_DIGITS = 30
"""Longer numbers are refused by their length (int() of a huge text is slow)."""


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """Return an argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        digits = text.strip()
        if not _WHOLE.fullmatch(digits):
            raise argparse.ArgumentTypeError(f"{_short(text)} is not a whole number")
        if len(digits.lstrip("+-")) > _MOST_DIGITS:
            sign = "at least" if digits.startswith("-") else "at most"
            bound = low if digits.startswith("-") else high
            raise argparse.ArgumentTypeError(
                f"{_short(text)} ({len(digits.lstrip('+-'))} digits) must be {sign} {bound}"
            )
        value = int(digits)
        if value < low:
            raise argparse.ArgumentTypeError(
                f"{text!r} must not be negative" if low == 0 else f"{text!r} must be at least {low}"
            )
        if value > high:
            raise argparse.ArgumentTypeError(f"{text!r} must be at most {high}")
        return value

    return parse


def _short(text: str, limit: int = 24) -> str:
    """``text`` quoted, cut at ``limit`` characters (a refused argument may be huge)."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``bezique`` command."""
    parser = argparse.ArgumentParser(
        prog="bezique", description="Play, referee and compare the rules of Bezique."
    )
    parser.add_argument("--version", action="version", version=f"bezique {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser("variants", help="list the variants with a one-line summary each")

    plugins = commands.add_parser(
        "plugins", help="list the installed plugins: distribution, version, hooks, variants"
    )
    plugins.add_argument("--json", action="store_true", help="print the list as JSON")

    schema = commands.add_parser(
        "schema", help="print the JSON Schema of variant files, with every plugin's sections"
    )
    schema.add_argument(
        "--overlay",
        action="store_true",
        help="the schema of a house-rule file that extends another (every key optional)",
    )

    serve = commands.add_parser(
        "serve", help="the web table: play in a browser, against bots and friends"
    )
    web_arguments(serve)

    serve_bench = commands.add_parser(
        "serve-bench",
        help="the web table under load: N games at once against a real server, timed",
    )
    load_arguments(serve_bench)

    validate = commands.add_parser("validate", help="check variant files; print every problem")
    validate.add_argument("files", nargs="+", metavar="FILE", help="variant YAML files or names")

    sources = commands.add_parser(
        "sources", help="the bibliography: every source code and reading id the files cite"
    )
    sources.add_argument(
        "code", nargs="?", metavar="CODE", help="one entry: a source (S0, BIC-R) or reading (A33)"
    )

    replay = commands.add_parser("replay", help="replay a game record; print hand and game scores")
    replay.add_argument("file", metavar="FILE", help="a game record (JSON)")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.add_argument(
        "--rules",
        choices=("recorded", "strict", "current"),
        default="recorded",
        help="when the variant named now merges to other rules than the record carries: play "
        "by the rules recorded and say so (default), refuse (strict), or play by the variant "
        "as it is now (current)",
    )

    simulate = commands.add_parser("simulate", help="play random players; print score statistics")
    simulate.add_argument("--variant", default="ordinary", help="variant name or YAML path")
    simulate.add_argument(
        "--games",
        type=whole_number(1, MAX_GAMES),
        default=100,
        help=f"games to play (1-{MAX_GAMES})",
    )
    _add_seed(simulate, "seed of the simulation")
    simulate.add_argument("--json", action="store_true", help="print the statistics as JSON")
    simulate.add_argument(
        "--save", metavar="DIR", help="write each game's record into DIR (new or empty)"
    )
    _add_overwrite(
        simulate, "with --save: first delete the game-NNNN.json records of an earlier run in DIR"
    )

    bench = commands.add_parser("bench", help="measure random deals per second")
    bench.add_argument("--variant", default="ordinary", help="variant name or YAML path")
    bench.add_argument(
        "--deals",
        type=whole_number(1, MAX_DEALS),
        help=f"deals to play (1-{MAX_DEALS}; default {BENCH_DEALS}); not with --search or "
        "--decisions",
    )
    _add_seed(bench, "seed of the random players")
    bench.add_argument("--json", action="store_true", help="print the result as JSON")
    bench.add_argument(
        "--api",
        action="store_true",
        help="drive the public legal_actions()/apply() loop instead of the playout fast path",
    )
    bench.add_argument(
        "--card-by-card",
        action="store_true",
        help="deprecated, no effect: every playout is card by card through the hooks",
    )
    compare = bench.add_mutually_exclusive_group()
    compare.add_argument(
        "--baseline",
        action="store_true",
        help="alternate ordinary playouts with the straight-line baseline; print the ratio",
    )
    compare.add_argument(
        "--reference",
        metavar="VARIANT",
        help="alternate --variant with this variant; print the ratio of decisions per CPU-second",
    )
    compare.add_argument(
        "--search",
        action="store_true",
        help="time the search player instead: iterations per CPU-second, and the cost of "
        "sample_world, clone() and a play-out (see --positions, --iterations)",
    )
    compare.add_argument(
        "--decisions",
        action="store_true",
        help="judge players' choices instead: what each gains over the heuristic's, in points "
        "a decision, on positions of heuristic self-play (see --players, --positions)",
    )
    bench.add_argument(
        "--positions",
        type=whole_number(1, 10_000),
        help=f"with --search: positions timed; with --decisions: positions judged (default "
        f"{BENCH_POSITIONS})",
    )
    bench.add_argument(
        "--players",
        help=f"with --decisions: player specs, comma-separated (default {BENCH_PLAYERS}; "
        "search,search:late_margin=0.06)",
    )
    bench.add_argument(
        "--iterations",
        type=whole_number(1, 1_000_000),
        help=f"with --search: iterations a decision (default {BENCH_ITERATIONS})",
    )
    _tournament_parser(commands)
    _compare_parser(commands)
    _play_parser(commands)
    _rulebook_parsers(commands)
    _sheet_parser(commands)
    _club_parser(commands)
    return parser


def _rulebook_parsers(commands: Any) -> None:
    """The ``rules`` and ``diff`` subcommands' arguments (run by ``bezique.rulebook.command``)."""
    rules = commands.add_parser(
        "rules",
        help="print a variant's complete rulebook, each rule with its source",
        description="Print the rulebook of a variant from its merged data: a sentence a "
        "rule, with its citation, the parent it is inherited from, and the prose of "
        "the procedures its plugins carry out.",
    )
    rules.add_argument("variant", metavar="VARIANT", help="variant name or YAML path")
    rules.add_argument(
        "--format",
        choices=("text", "markdown", "html"),
        default="text",
        help="text (default, wrapped to the terminal), markdown, or one standalone HTML page",
    )
    rules.add_argument("--output", metavar="FILE", help="write the rulebook to FILE")
    _add_overwrite(rules, "with --output: replace FILE if it exists")
    diff = commands.add_parser(
        "diff",
        help="compare variants rule by rule; exit 0 when equal, 1 when they differ",
        description="Compare the merged rules of two or more variants rule by rule (never "
        "their files' text), grouped by rulebook section. Two variants: a line in words "
        "for each side, with its citation. Three or more: a matrix of the rules on which "
        "any of them differs. Exit status 0 when the rules are equal, 1 when they differ, "
        "2 when a variant cannot be read.",
    )
    diff.add_argument(
        "variants", metavar="VARIANT", nargs="+", help="variant names or YAML paths (two or more)"
    )
    diff.add_argument("--json", action="store_true", help="print the differences as JSON")
    diff.add_argument(
        "--sources", action="store_true", help="show the rules said alike but cited otherwise too"
    )


def _tournament_parser(commands: Any) -> None:
    """The ``tournament`` subcommand's arguments."""
    tour = commands.add_parser(
        "tournament",
        help="play players against each other on paired deals; wins, points and Elo",
        description="Every pair of players plays the same deals in every seating of the pair: "
        "two-hand A-B then B-A; with partnerships A holds one side and B the other, then "
        "swapped; three-hand and four-hand each for himself: A alone against B in every "
        "other seat, in each seat in turn, then B alone against A (three-hand: 6 games a "
        "deal). A game is won by the player holding the side that won it (in three-hand, "
        "a win of either seat of the player holding two is his); a drawn game counts half "
        "to each. "
        "Points are the mean final score of the sides a player holds. Elo ratings are "
        "fitted jointly by maximum likelihood, anchored at 0 on the first player named "
        "'random', or else on the first player listed.",
    )
    tour.add_argument("--variant", default="ordinary", help="variant name or YAML path")
    tour.add_argument(
        "--players",
        required=True,
        metavar="A,B[,C...]",
        help="player specs, comma-separated (random, heuristic, search:iterations=500); "
        "a KEY=VALUE after a comma is one more option of the player before it; a spec given "
        "twice is named NAME#1, NAME#2",
    )
    tour.add_argument(
        "--games",
        type=whole_number(1, MAX_PAIR_GAMES),
        default=100,
        help=f"games a pair (1-{MAX_PAIR_GAMES}), rounded up to whole deals (every seating)",
    )
    _add_seed(tour, "seed of the deals")
    _add_jobs(tour)
    tour.add_argument("--json", action="store_true", help="print the results as one JSON document")


def _add_jobs(parser: argparse.ArgumentParser) -> None:
    """``--jobs J``: processes playing the games (a tournament's, a comparison's)."""
    parser.add_argument(
        "--jobs",
        type=whole_number(1, MAX_JOBS),
        default=1,
        help=f"processes playing the games (1-{MAX_JOBS}); the result is the same for any",
    )


def _add_overwrite(parser: argparse.ArgumentParser, what: str) -> None:
    """``--overwrite``: an output file that exists may be replaced (``what`` says which)."""
    parser.add_argument("--overwrite", action="store_true", help=what)


def _add_seed(parser: argparse.ArgumentParser, what: str) -> None:
    """``--seed S`` (default 0), said to be the seed of ``what``."""
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0, help=what)


def _compare_parser(commands: Any) -> None:
    """The ``compare`` subcommand's arguments."""
    comp = commands.add_parser(
        "compare",
        help="compare variants by simulation on the same seeds; figures with 95%% intervals",
        description="Play the same games (the same seeds: common random numbers) in every "
        "variant named, and print for each variant its figures with 95% intervals (points "
        "per hand by rule, points and hands per game, tricks per hand, the first player's "
        "share of wins, the share of points from declarations, lead changes, hands ending "
        "with both over the target), then for each pair the paired differences, marked * "
        "where the interval leaves out zero.",
    )
    comp.add_argument("variants", nargs="+", metavar="VARIANT", help="variant names or YAML paths")
    comp.add_argument(
        "--games",
        type=whole_number(1, MAX_COMPARE_GAMES),
        default=100,
        help=f"games a variant (1-{MAX_COMPARE_GAMES})",
    )
    comp.add_argument(
        "--players",
        default="heuristic",
        metavar="SPEC[,SPEC...]",
        help="the player of every seat (default heuristic), or one spec a seat, comma-separated",
    )
    _add_seed(comp, "seed of the games")
    _add_jobs(comp)
    comp.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="send the games to this Dask distributed scheduler (tcp://HOST:PORT; the "
        "bezique[dask] extra); the result is the same as in one process",
    )
    comp.add_argument("--json", action="store_true", help="print the result as one JSON document")
    comp.add_argument("--plot", metavar="FILE", help="draw the figures into FILE (.png or .svg)")
    comp.add_argument("--html", metavar="FILE", help="write one page: tables, plots, rule diff")
    _add_overwrite(comp, "replace the files of --plot and --html if they exist")
    comp.add_argument(
        "--bench",
        action="store_true",
        help="measure games per second instead: --jobs 1 and --jobs 2 (or J) alternated, "
        "their ratio, and each variant's games per second",
    )


def _play_parser(commands: Any) -> None:
    """The parser of ``bezique play`` (a game at the terminal against bots)."""
    play = commands.add_parser(
        "play",
        help="play a game at the terminal against bots",
        description="Play a game at the terminal against bots. Type a menu number or an "
        "action (play QS, declare bezique QS JD, exchange 7H, draw), or help, hint, rules, "
        "quit. The record is saved after each move, on quit and at the end of input, to "
        "--save FILE (default bezique-game.json in the current directory); a new game "
        "writes over a file that exists only with --overwrite. --resume FILE continues a "
        "saved game, with the seats and bots it recorded, and saves back to FILE.",
    )
    play.add_argument("--variant", help="variant name or YAML path (default: ordinary)")
    play.add_argument(
        "--against",
        metavar="NAME",
        help="the bot of every other seat, a player spec (default: heuristic; random, "
        "search:iterations=2000 ...)",
    )
    play.add_argument(
        "--seat", type=whole_number(0, 63), help="your seat (default: 0, who deals the first hand)"
    )
    play.add_argument(
        "--seed",
        type=whole_number(0, MAX_SEED),
        help="seed of the deals and the bots (default: random)",
    )
    play.add_argument(
        "--save", metavar="FILE", help="where the record goes (default: bezique-game.json, new)"
    )
    play.add_argument("--resume", metavar="FILE", help="continue the game a saved record holds")
    _add_overwrite(play, "start the new game even if the file of --save exists, replacing it")


def _sheet_parser(commands: Any) -> None:
    """``bezique sheet ACTION``: a real game's score sheet (run by ``bezique.sheet.command``)."""
    sheet = commands.add_parser(
        "sheet",
        help="keep the score sheet of a game played with real cards, checked by the rules",
        description="Keep the score sheet of a game played with real cards: new, add, undo, "
        "fix, show, export. Every entry is checked by the variant's rules; the totals are "
        "worked out again from the entries each time.",
    )
    actions = sheet.add_subparsers(dest="sheet_command", required=True, metavar="ACTION")
    new = actions.add_parser(
        "new",
        help="start a sheet file",
        description="Start the score sheet of a game played with real cards: the variant (a "
        "registered name; --house adds a house-rule file's rules, kept in the sheet itself), "
        "the players in seat order and the first dealer.",
    )
    new.add_argument("file", metavar="FILE", help="the sheet file to write (JSON)")
    new.add_argument("--variant", help="variant name (default: the one --house builds on)")
    new.add_argument("--house", metavar="FILE.yaml", help="a house-rule file over the variant")
    new.add_argument(
        "--players", required=True, metavar="A,B[,C,D]", help="the players' names, in seat order"
    )
    new.add_argument(
        "--dealer",
        type=whole_number(0, 7),
        default=0,
        metavar="N",
        help="the seat that deals first (from 0; default 0)",
    )
    _add_overwrite(new, "replace FILE if it exists")
    words = "[PLAYER] what was scored: Ann royal marriage KS QS; Bob brisques 5; hand over"
    add = actions.add_parser(
        "add",
        help="enter a score on the sheet",
        description="Enter what a player scored, in words: 'Ann royal marriage KS QS' (the "
        "cards are optional; named, they are checked), 'Bob brisques 5', 'Ann last trick'; "
        "or, with no player, 'trumps H', 'stock gone', 'hand over'. Prints the points and "
        "the checks made; an entry the rules refuse is not written.",
    )
    add.add_argument("file", metavar="FILE", help="the sheet file")
    add.add_argument("words", nargs="+", metavar="WORDS", help=words)
    undo = actions.add_parser("undo", help="take back the last entry")
    undo.add_argument("file", metavar="FILE", help="the sheet file")
    fix = actions.add_parser("fix", help="replace entry N (as show numbers them) by another")
    fix.add_argument("file", metavar="FILE", help="the sheet file")
    fix.add_argument("number", type=whole_number(0, 99_999), metavar="N", help="as show gives it")
    fix.add_argument("words", nargs="+", metavar="WORDS", help=words)
    show = actions.add_parser("show", help="check a saved sheet again; print it and its totals")
    show.add_argument("file", metavar="FILE", help="the sheet file")
    export = actions.add_parser("export", help="write the sheet as CSV (a row a hand) or HTML")
    export.add_argument("file", metavar="FILE", help="the sheet file")
    into = export.add_mutually_exclusive_group(required=True)
    into.add_argument("--csv", metavar="OUT", help="a CSV file: a row a hand, running totals")
    into.add_argument("--html", metavar="OUT", help="a printable HTML page")
    _add_overwrite(export, "replace OUT if it exists")


def _club_parser(commands: Any) -> None:
    club = commands.add_parser(
        "club", help="the club: players, finished score sheets by evening, ladder, luck"
    )
    add_club_arguments(club)


CLUB_DB = "bezique-club.sqlite"
"""The club's file when ``--db`` names none (in the current folder)."""
LUCK_HANDS = 200
"""The simulated hands ``club luck`` plays when not told."""


def add_club_arguments(parser: argparse.ArgumentParser) -> None:
    """The options and subcommands of ``bezique club``."""
    parser.add_argument(
        "--db",
        default=CLUB_DB,
        metavar="FILE",
        help=f"the SQLite file the club is kept in (default ./{CLUB_DB})",
    )
    actions = parser.add_subparsers(dest="club_command", required=True, metavar="ACTION")
    add = actions.add_parser("add-player", help="a new club player")
    add.add_argument("name", metavar="NAME")
    actions.add_parser("players", help="list the club's players")
    game = actions.add_parser("add-game", help="add a finished game's score sheet")
    game.add_argument("sheet", metavar="SHEET.json")
    game.add_argument("--evening", metavar="YYYY-MM-DD", help="the evening (default: today)")
    games = actions.add_parser("games", help="list the games, by evening")
    games.add_argument("--evening", metavar="YYYY-MM-DD", help="that evening's games only")
    ladder = actions.add_parser(
        "ladder", help="games, wins, points share and Elo (95%% interval) of every player"
    )
    ladder.add_argument("--json", action="store_true", help="print the ladder as JSON")
    export = actions.add_parser("export", help="write the whole club to one JSON file")
    export.add_argument("file", metavar="FILE")
    export.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    load = actions.add_parser("import", help="add a club file's players and games (all or none)")
    load.add_argument("file", metavar="FILE")
    luck = actions.add_parser(
        "luck",
        help="the declarations a hand NAME set down, against the heuristic bot's on dealt hands",
    )
    luck.add_argument("name", metavar="NAME")
    luck.add_argument(
        "--hands",
        type=int,
        default=LUCK_HANDS,
        metavar="N",
        help=f"simulated hands a variant (1-2000; default {LUCK_HANDS})",
    )
    luck.add_argument("--seed", type=int, default=0, help="seed of the simulated deals")
    luck.add_argument("--json", action="store_true", help="print the figures as JSON")
