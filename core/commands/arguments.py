"""The ``bezique`` command's arguments: its parser, and the bounds every number is held to.

:func:`build_parser` describes every subcommand's arguments (their help is the
command's ``--help``); :mod:`bezique.commands.cli` runs what they ask.  Every subcommand
has a description and examples (its ``--help`` ends with them; :func:`examples_of` reads
them back, :func:`subcommands` walks the commands), so the manual page
(:mod:`bezique.commands.manpage`) and the shell completion are made from this one parser.
Numbers are read by :func:`whole_number`, which refuses a text that is not one, or out
of its bounds, in words, and reads no more digits than a bound can have.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from bezique import COMPILED, MAX_SEED, __version__
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
    "CommandHelp",
    "build_parser",
    "examples_of",
    "subcommands",
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


class CommandHelp(argparse.HelpFormatter):
    """``--help`` with the description wrapped to the terminal and the examples as written.

    A paragraph (text between blank lines) whose lines are indented is kept line by line,
    as the examples are; any other is filled to the width, as argparse fills text.
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        filled = []
        for paragraph in text.split("\n\n"):
            lines = paragraph.splitlines()
            if any(line.startswith(" ") for line in lines):
                filled.append("\n".join(indent + line for line in lines))
            else:
                filled.append(super()._fill_text(paragraph, width, indent))
        return "\n\n".join(filled)


EXAMPLES_HEADING = "examples:"
"""The line of a command's ``--help`` the examples follow."""
_EXAMPLE_INDENT = "  "


def _epilog(examples: tuple[str, ...]) -> str:
    """The end of a command's ``--help``: its examples, one command line each."""
    return "\n".join([EXAMPLES_HEADING, *(_EXAMPLE_INDENT + line for line in examples)])


def examples_of(parser: argparse.ArgumentParser) -> list[str]:
    """The example command lines a command's ``--help`` ends with (``bezique ...``)."""
    lines = (parser.epilog or "").splitlines()
    if EXAMPLES_HEADING not in lines:
        return []
    after = lines[lines.index(EXAMPLES_HEADING) + 1 :]
    return [line.strip() for line in after if line.startswith(_EXAMPLE_INDENT) and line.strip()]


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """Every subcommand under ``parser``, depth first: its words (``sheet add``) and parser."""
    found: list[tuple[str, argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append((name, sub))
                found.extend((f"{name} {words}", deeper) for words, deeper in subcommands(sub))
    return found


def _command(
    commands: Any, name: str, summary: str, description: str, *examples: str
) -> argparse.ArgumentParser:
    """Add the subcommand ``name``: its line in the list, its description, its examples."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog=_epilog(examples),
        formatter_class=CommandHelp,
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``bezique`` command."""
    parser = argparse.ArgumentParser(
        prog="bezique",
        description=f"{DESCRIPTION}\n\n{MORE_HELP}",
        epilog=_epilog(
            (
                "bezique variants",
                "bezique play --variant grand",
                "bezique rules ordinary",
                "bezique manpage --output bezique.1",
            )
        ),
        formatter_class=CommandHelp,
    )
    built = " (compiled)" if COMPILED else ""
    parser.add_argument("--version", action="version", version=f"bezique {__version__}{built}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    _command(
        commands,
        "variants",
        "list the variants with a one-line summary each",
        "List every variant installed, the shipped ones and those plugins add: a line "
        "each, its name and what sets it apart. A plugin or variant file that cannot be "
        "loaded is reported on standard error, and the exit status is then 1.",
        "bezique variants",
    )

    plugins = _command(
        commands,
        "plugins",
        "list the installed plugins: distribution, version, hooks, variants",
        "List the installed plugins: the distribution each comes from and its version, "
        "the hooks it implements and the variants it ships. A plugin that cannot be "
        "loaded is listed with its problem.",
        "bezique plugins",
        "bezique plugins --json",
    )
    plugins.add_argument("--json", action="store_true", help="print the list as JSON")

    schema = _command(
        commands,
        "schema",
        "print the JSON Schema of variant files, with every plugin's sections",
        "Print the JSON Schema variant files are checked against: the kernel's sections "
        "with those of every installed plugin. An editor given it completes and checks a "
        "variant file as it is typed.",
        "bezique schema",
        "bezique schema --overlay",
    )
    schema.add_argument(
        "--overlay",
        action="store_true",
        help="the schema of a house-rule file that extends another (every key optional)",
    )

    serve = _command(
        commands,
        "serve",
        "the web table: play in a browser, against bots and friends",
        "Serve the web table on this machine: open the address it prints in a browser "
        "and play against bots and friends. The tables are kept in an SQLite file (--db) "
        "and outlive a restart. Needs the web extra: pip install 'bezique[web]'.",
        "bezique serve",
        "bezique serve --port 8080 --db evening-tables.sqlite",
    )
    web_arguments(serve)

    serve_bench = _command(
        commands,
        "serve-bench",
        "the web table under load: N games at once against a real server, timed",
        "Start the web table's server in a process of its own and play N games at once "
        "against it, a person's seat played at random from the seed and bots in the "
        "others; print the moves a second, the latency of a person's move and the "
        "server's CPU time, and check every game was finished and stored. Needs the web "
        "extra.",
        "bezique serve-bench --tables 20",
        "bezique serve-bench --tables 100 --target 300 --json",
    )
    load_arguments(serve_bench)

    validate = _command(
        commands,
        "validate",
        "check variant files; print every problem",
        "Check variant files (or installed variants, by name) against the schema and "
        "the rules' own sense, and print every problem found as FILE:LINE:COL: message; "
        "a file with none is printed as FILE: ok. Exit status 1 when any has a problem.",
        "bezique validate ordinary",
        "bezique validate house.yaml",
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="variant YAML files or names")

    sources = _command(
        commands,
        "sources",
        "the bibliography: every source code and reading id the files cite",
        "Print the bibliography: a line for each rule text the variant files cite (its "
        "code, title, edition and year) and for each reading of a doubtful passage (its "
        "id and question). With a CODE, that whole entry: for a source what the project "
        "uses of it; for a reading each answer, the texts behind it and the setting "
        "that selects it.",
        "bezique sources",
        "bezique sources S0",
        "bezique sources A33",
    )
    sources.add_argument(
        "code", nargs="?", metavar="CODE", help="one entry: a source (S0, BIC-R) or reading (A33)"
    )

    replay = _command(
        commands,
        "replay",
        "replay a game record; print hand and game scores",
        "Replay a game record action by action through the rules, and print its "
        "headers, each hand's points, the game's totals and the winner. A record whose "
        "variant has other rules now than it carries is replayed by the rules it "
        "carries, with a note (see --rules).",
        "bezique replay game.json",
        "bezique replay game.json --json --rules strict",
    )
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

    simulate = _command(
        commands,
        "simulate",
        "play random players; print score statistics",
        "Play games between random players and print the statistics of their scores. "
        "The same variant and seed give the same games; --save keeps each game's record "
        "for bezique replay.",
        "bezique simulate --variant grand --games 200 --seed 7",
        "bezique simulate --games 10 --save records",
    )
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

    bench = _command(
        commands,
        "bench",
        "measure random deals per second",
        "Measure how fast the rules run: random deals a second, or their ratio to "
        "another variant's (--reference) or to the straight-line baseline (--baseline). "
        "With --search, the search player's iterations a CPU-second instead; with "
        "--decisions, what players' choices gain over the heuristic's.",
        "bezique bench --deals 500",
        "bezique bench --variant grand --reference ordinary",
        "bezique bench --search --positions 5 --iterations 200",
        "bezique bench --startup --rounds 5",
        "bezique bench --records --json",
    )
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
    compare.add_argument(
        "--startup",
        action="store_true",
        help="time the start-up instead: the CPU time of bezique --help and bezique variants "
        "as whole processes, as a ratio to python -c pass (see --rounds)",
    )
    compare.add_argument(
        "--records",
        action="store_true",
        help="time saved games instead: from_json (every check) against to_json on random "
        "games of several variants, as a ratio (see --rounds)",
    )
    bench.add_argument(
        "--rounds",
        type=whole_number(1, 100),
        help="with --startup or --records: alternated rounds, the median reported (default "
        "7 with --startup, 5 with --records)",
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
    _genealogy_parser(commands)
    _sheet_parser(commands)
    _club_parser(commands)
    _manual_parsers(commands)
    return parser


DESCRIPTION = "Play, referee and compare the rules of Bezique."
"""What ``bezique`` is, in a line (its ``--help`` and its manual page begin with it)."""
MORE_HELP = (
    "Each command's --help says what it does, with examples; bezique manpage prints "
    "them all as one manual page, and bezique completion the shell's completion script."
)
"""Where ``bezique --help`` sends a reader for more."""


SHELLS = ("bash", "zsh")
"""The shells ``bezique completion`` writes a script for."""


def _manual_parsers(commands: Any) -> None:
    """``bezique manpage`` and ``bezique completion``: the help for a system's manual and shell."""
    manpage = _command(
        commands,
        "manpage",
        "print the manual page bezique(1), made from this command's own help",
        "Print the manual page bezique(1) in roff, made from the same parser as every "
        "--help: each command with its options and examples. With --output, write it "
        "to FILE instead (read it with man -l FILE, or install it in a man1 folder).",
        "bezique manpage --output bezique.1",
        "bezique manpage --output bezique.1 --overwrite",
    )
    manpage.add_argument("--output", metavar="FILE", help="write the page to FILE")
    _add_overwrite(manpage, "with --output: replace FILE if it exists")
    completion = _command(
        commands,
        "completion",
        "print the shell completion script for bash or zsh",
        "Print the script that completes bezique's commands and options in bash or zsh, "
        "made from this command's parser by shtab (the completion extra: pip install "
        "'bezique[completion]').",
        "bezique completion bash",
        "bezique completion zsh",
    )
    completion.add_argument("shell", choices=SHELLS, help="the shell: bash or zsh")


def _rulebook_parsers(commands: Any) -> None:
    """The ``rules`` and ``diff`` subcommands' arguments (run by ``bezique.rulebook.command``)."""
    rules = _command(
        commands,
        "rules",
        "print a variant's complete rulebook, each rule with its source",
        "Print the rulebook of a variant from its merged data: a sentence a "
        "rule, with its citation, the parent it is inherited from, and the prose of "
        "the procedures its plugins carry out.",
        "bezique rules ordinary",
        "bezique rules grand --format html --output grand.html",
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
    diff = _command(
        commands,
        "diff",
        "compare variants rule by rule; exit 0 when equal, 1 when they differ",
        "Compare the merged rules of two or more variants rule by rule (never "
        "their files' text), grouped by rulebook section. Two variants: a line in words "
        "for each side, with its citation. Three or more: a matrix of the rules on which "
        "any of them differs. Exit status 0 when the rules are equal, 1 when they differ, "
        "2 when a variant cannot be read.",
        "bezique diff ordinary polish",
        "bezique diff eb1875 hoyle1909 modern-article --sources",
    )
    diff.add_argument(
        "variants", metavar="VARIANT", nargs="+", help="variant names or YAML paths (two or more)"
    )
    diff.add_argument("--json", action="store_true", help="print the differences as JSON")
    diff.add_argument(
        "--sources", action="store_true", help="show the rules said alike but cited otherwise too"
    )


def _genealogy_parser(commands: Any) -> None:
    """The ``genealogy`` subcommand's arguments (run by ``bezique.compare.genealogyshow``)."""
    genealogy = _command(
        commands,
        "genealogy",
        "the rule texts on a timeline, beside a tree computed from their rules",
        "Place the rule texts on a timeline by year (each preset under the "
        "source it follows), with the derivations the bibliography asserts and the rules "
        "and readings each rests on, beside a tree computed from the rules alone: the "
        "distance between two variants is the number of rules on which their merged rules "
        "differ (as bezique diff counts them), and the texts are joined by UPGMA. House "
        "rules hang on the variant they extend. Says where the asserted and the computed "
        "trees disagree.",
        "bezique genealogy",
        "bezique genealogy --format html --output genealogy.html",
        "bezique genealogy ordinary rubicon six-pack --format svg --output tree.svg",
    )
    genealogy.add_argument(
        "variants",
        nargs="*",
        metavar="VARIANT",
        help="variant names or YAML paths (default: every variant; the variant a house "
        "rule extends is taken in too)",
    )
    genealogy.add_argument(
        "--format",
        choices=("text", "svg", "html"),
        default="text",
        help="text (default: timeline, derivations, an ASCII tree), svg (the figure), or "
        "one standalone HTML page (the figure and the tables)",
    )
    genealogy.add_argument("--output", metavar="FILE", help="write it to FILE")
    _add_overwrite(genealogy, "with --output: replace FILE if it exists")


def _tournament_parser(commands: Any) -> None:
    """The ``tournament`` subcommand's arguments."""
    tour = _command(
        commands,
        "tournament",
        "play players against each other on paired deals; wins, points and Elo",
        "Every pair of players plays the same deals in every seating of the pair: "
        "two-hand A-B then B-A; with partnerships A holds one side and B the other, then "
        "swapped; three-hand and four-hand each for himself: A alone against B in every "
        "other seat, in each seat in turn, then B alone against A (three-hand: 6 games a "
        "deal). A game is won by the player holding the side that won it (in three-hand, "
        "a win of either seat of the player holding two is his); a drawn game counts half "
        "to each. "
        "Points are the mean final score of the sides a player holds. Elo ratings are "
        "fitted jointly by maximum likelihood, anchored at 0 on the first player named "
        "'random', or else on the first player listed.",
        "bezique tournament --players random,heuristic --games 50",
        "bezique tournament --variant three-hand --players heuristic,search:iterations=500 "
        "--jobs 2 --json",
        "bezique tournament --players random,heuristic --scheduler tcp://127.0.0.1:8786",
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
    _add_scheduler(tour)
    tour.add_argument("--json", action="store_true", help="print the results as one JSON document")


def _add_jobs(parser: argparse.ArgumentParser) -> None:
    """``--jobs J``: processes playing the games (a tournament's, a comparison's)."""
    parser.add_argument(
        "--jobs",
        type=whole_number(1, MAX_JOBS),
        default=1,
        help=f"processes playing the games (1-{MAX_JOBS}); the result is the same for any",
    )


def _add_scheduler(parser: argparse.ArgumentParser) -> None:
    """``--scheduler ADDRESS``: a Dask cluster plays the games (a tournament's, a comparison's)."""
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="send the games to this Dask distributed scheduler (tcp://HOST:PORT; the "
        "bezique[dask] extra); the result is the same as in one process",
    )


def _add_overwrite(parser: argparse.ArgumentParser, what: str) -> None:
    """``--overwrite``: an output file that exists may be replaced (``what`` says which)."""
    parser.add_argument("--overwrite", action="store_true", help=what)


def _add_seed(parser: argparse.ArgumentParser, what: str) -> None:
    """``--seed S`` (default 0), said to be the seed of ``what``."""
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0, help=what)


def _compare_parser(commands: Any) -> None:
    """The ``compare`` subcommand's arguments."""
    comp = _command(
        commands,
        "compare",
        "compare variants by simulation on the same seeds; figures with 95%% intervals",
        "Play the same games (the same seeds: common random numbers) in every "
        "variant named, and print for each variant its figures with 95% intervals (points "
        "per hand by rule, points and hands per game, tricks per hand, the first player's "
        "share of wins, the share of points from declarations, lead changes, hands ending "
        "with both over the target), then for each pair the paired differences, marked * "
        "where the interval leaves out zero.",
        "bezique compare ordinary polish --games 200 --jobs 2",
        "bezique compare ordinary grand --html compare.html --plot compare.svg",
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
    _add_scheduler(comp)
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
    play = _command(
        commands,
        "play",
        "play a game at the terminal against bots",
        "Play a game at the terminal against bots. Type a menu number or an "
        "action (play QS, declare bezique QS JD, exchange 7H, draw), or help, hint, rules, "
        "quit. The record is saved after each move, on quit and at the end of input, to "
        "--save FILE (default bezique-game.json in the current directory); a new game "
        "writes over a file that exists only with --overwrite. --resume FILE continues a "
        "saved game, with the seats and bots it recorded, and saves back to FILE.",
        "bezique play",
        "bezique play --variant grand --against search:iterations=2000 --save mine.json",
        "bezique play --resume mine.json",
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
    sheet = _command(
        commands,
        "sheet",
        "keep the score sheet of a game played with real cards, checked by the rules",
        "Keep the score sheet of a game played with real cards: new, add, undo, "
        "fix, show, export. Every entry is checked by the variant's rules; the totals are "
        "worked out again from the entries each time.",
        "bezique sheet new evening.json --players Ann,Bob",
        "bezique sheet add evening.json Ann royal marriage KS QS",
        "bezique sheet show evening.json",
    )
    actions = sheet.add_subparsers(dest="sheet_command", required=True, metavar="ACTION")
    new = _command(
        actions,
        "new",
        "start a sheet file",
        "Start the score sheet of a game played with real cards: the variant (a "
        "registered name; --house adds a house-rule file's rules, kept in the sheet itself), "
        "the players in seat order and the first dealer.",
        "bezique sheet new evening.json --players Ann,Bob --dealer 1",
        "bezique sheet new evening.json --variant rubicon --players Ann,Bob",
        "bezique sheet new evening.json --house ours.yaml --players Ann,Bob",
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
    add = _command(
        actions,
        "add",
        "enter a score on the sheet",
        "Enter what a player scored, in words: 'Ann royal marriage KS QS' (the "
        "cards are optional; named, they are checked), 'Bob brisques 5', 'Ann last trick'; "
        "or, with no player, 'trumps H', 'stock gone', 'hand over'. Prints the points and "
        "the checks made; an entry the rules refuse is not written.",
        "bezique sheet add evening.json trumps H",
        "bezique sheet add evening.json Ann royal marriage KS QS",
        "bezique sheet add evening.json Bob brisques 5",
        "bezique sheet add evening.json hand over",
    )
    add.add_argument("file", metavar="FILE", help="the sheet file")
    add.add_argument("words", nargs="+", metavar="WORDS", help=words)
    undo = _command(
        actions,
        "undo",
        "take back the last entry",
        "Take back the last entry of the sheet: the file is written again without it.",
        "bezique sheet undo evening.json",
    )
    undo.add_argument("file", metavar="FILE", help="the sheet file")
    fix = _command(
        actions,
        "fix",
        "replace entry N (as show numbers them) by another",
        "Replace entry N, as show numbers the entries, by the one the words say. The "
        "sheet is checked again from that entry on, as add checks an entry; what the "
        "rules refuse is not written.",
        "bezique sheet fix evening.json 3 Bob brisques 6",
    )
    fix.add_argument("file", metavar="FILE", help="the sheet file")
    fix.add_argument("number", type=whole_number(0, 99_999), metavar="N", help="as show gives it")
    fix.add_argument("words", nargs="+", metavar="WORDS", help=words)
    show = _command(
        actions,
        "show",
        "check a saved sheet again; print it and its totals",
        "Check a saved sheet again, entry by entry, by the variant's rules, and print "
        "its entries, numbered, and the totals.",
        "bezique sheet show evening.json",
    )
    show.add_argument("file", metavar="FILE", help="the sheet file")
    export = _command(
        actions,
        "export",
        "write the sheet as CSV (a row a hand) or HTML",
        "Write the sheet as a CSV file, a row a hand with the running totals, or as a "
        "printable HTML page.",
        "bezique sheet export evening.json --csv evening.csv",
        "bezique sheet export evening.json --html evening.html --overwrite",
    )
    export.add_argument("file", metavar="FILE", help="the sheet file")
    into = export.add_mutually_exclusive_group(required=True)
    into.add_argument("--csv", metavar="OUT", help="a CSV file: a row a hand, running totals")
    into.add_argument("--html", metavar="OUT", help="a printable HTML page")
    _add_overwrite(export, "replace OUT if it exists")


def _club_parser(commands: Any) -> None:
    """``bezique club ACTION``: a club's players and games (run by ``bezique.sheet``)."""
    club = _command(
        commands,
        "club",
        "the club: players, finished score sheets by evening, ladder, luck",
        "Keep a club's games in one SQLite file: its players, the finished score "
        "sheets by evening, the ladder of wins, points and Elo ratings, and each "
        "player's luck in the cards. What a subcommand refuses changes nothing.",
        "bezique club add-player Ann",
        "bezique club add-game evening.json --evening 2026-12-03",
        "bezique club --db friday.sqlite ladder",
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
    add = _command(
        actions,
        "add-player",
        "a new club player",
        "Add a player to the club by name; the names on the sheets added must be "
        "the club's players'.",
        "bezique club add-player Ann",
    )
    add.add_argument("name", metavar="NAME", help="the player's name, as the sheets give it")
    _command(
        actions,
        "players",
        "list the club's players",
        "List the club's players, a name a line.",
        "bezique club players",
    )
    game = _command(
        actions,
        "add-game",
        "add a finished game's score sheet",
        "Add a finished game's score sheet (as bezique sheet keeps it) to the club, "
        "on the evening it was played; its players must be the club's.",
        "bezique club add-game evening.json",
        "bezique club add-game evening.json --evening 2026-12-03",
    )
    game.add_argument("sheet", metavar="SHEET.json", help="a finished game's sheet file")
    game.add_argument("--evening", metavar="YYYY-MM-DD", help="the evening (default: today)")
    games = _command(
        actions,
        "games",
        "list the games, by evening",
        "List the club's games by evening: each game's number, variant, scores and result.",
        "bezique club games",
        "bezique club games --evening 2026-12-03",
    )
    games.add_argument("--evening", metavar="YYYY-MM-DD", help="that evening's games only")
    ladder = _command(
        actions,
        "ladder",
        "games, wins, points share and Elo (95%% interval) of every player",
        "Print the ladder: every player's games, wins, share of the points and Elo "
        "rating with its 95% interval, fitted over all the club's games.",
        "bezique club ladder",
        "bezique club ladder --json",
    )
    ladder.add_argument("--json", action="store_true", help="print the ladder as JSON")
    export = _command(
        actions,
        "export",
        "write the whole club to one JSON file",
        "Write the whole club, its players and every game's sheet, to one JSON file, "
        "which import reads back.",
        "bezique club export club.json",
    )
    export.add_argument("file", metavar="FILE", help="the club file to write (JSON)")
    export.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    load = _command(
        actions,
        "import",
        "add a club file's players and games (all or none)",
        "Add the players and games of a club file (as export writes it) to this club: "
        "all of them, or, when any is refused, none.",
        "bezique club --db new-club.sqlite import club.json",
    )
    load.add_argument("file", metavar="FILE", help="a club file, as export writes it")
    luck = _command(
        actions,
        "luck",
        "the declarations a hand NAME set down, against the heuristic bot's on dealt hands",
        "Compare the points a hand the player declared in the club's games with what "
        "the heuristic bot declares on hands dealt at random in the same variants, each "
        "with its 95% interval.",
        "bezique club luck Ann",
        "bezique club luck Ann --hands 500 --seed 3 --json",
    )
    luck.add_argument("name", metavar="NAME", help="the club player")
    luck.add_argument(
        "--hands",
        type=int,
        default=LUCK_HANDS,
        metavar="N",
        help=f"simulated hands a variant (1-2000; default {LUCK_HANDS})",
    )
    luck.add_argument("--seed", type=int, default=0, help="seed of the simulated deals")
    luck.add_argument("--json", action="store_true", help="print the figures as JSON")
