r"""The ``bezique`` command line.

Commands: ``variants``, ``plugins``, ``schema``, ``serve``, ``serve-bench``,
``validate``, ``sources``, ``replay``, ``simulate``, ``bench``, ``tournament``,
``compare``, ``play``, ``rules``, ``diff``, ``genealogy``, ``sheet``, ``club``,
``manpage`` and ``completion``.
Every error a user can cause is printed as one or more ``bezique: ...`` lines
(file errors as ``FILE:LINE:COL: message``) with exit status 1; usage errors
exit with 2.  No command prints a traceback for bad input.  The arguments each
command takes are :mod:`bezique.commands.arguments`'.

A command whose output cannot be written fails: with standard output closed
(``>&-``) or full, it says so on stderr and exits with 1.  A reader that goes
away (``| head -1``) ends the command quietly, with status 0: what was read was
what was wanted.

Output never fails on an encoding that cannot show a character (an ASCII
terminal, ``LC_ALL=C``): stdout and stderr write such a character as a
backslash escape (``\xe9``), and give back the original bytes of a file name
the system handed over undecodable (``surrogateescape``).
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import io
import json
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from bezique.commands import sources as sources_command
from bezique.commands.arguments import (  # (the bounds were this module's; kept importable from it)
    BENCH_DEALS,
    BENCH_ITERATIONS,
    BENCH_PLAYERS,
    BENCH_POSITIONS,
    MAX_COMPARE_GAMES,
    MAX_DEALS,
    MAX_GAMES,
    MAX_JOBS,
    MAX_PAIR_GAMES,
    MAX_SEED,
    build_parser,
)
from bezique.errors import BeziqueError, PluginHookError

__all__ = [
    "MAX_COMPARE_GAMES",
    "MAX_DEALS",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_PAIR_GAMES",
    "MAX_SEED",
    "OUTPUT_ERRORS",
    "TRACEBACK_ENV",
    "build_parser",
    "main",
]

OUTPUT_ERRORS = "bezique.escape"
"""The encoding error handler of the command's stdout and stderr (see the module docstring)."""


def _escape(error: UnicodeError) -> tuple[str | bytes, int]:
    """Write what cannot be encoded: escaped bytes back as they were, the rest escaped."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chunk = error.object[error.start : error.end]
    if all(0xDC80 <= ord(char) <= 0xDCFF for char in chunk):
        return bytes(ord(char) - 0xDC00 for char in chunk), error.end
    return chunk.encode("ascii", "backslashreplace").decode("ascii"), error.end


codecs.register_error(OUTPUT_ERRORS, _escape)


def _safe_output() -> None:
    """Make stdout and stderr write, never raise, what their encoding cannot show."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # closed or detached: let it be
                reconfigure(errors=OUTPUT_ERRORS)


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process started with it closed: writing it fails."""

    def write(self, text: str) -> int:
        """Refuse: the command's output has nowhere to go."""
        raise OSError(errno.EBADF, "closed; the command's output cannot be written", STDOUT)


STDOUT = "standard output"
"""How a message names the command's standard output."""


def _standard_streams() -> None:
    """Give a standard stream the process started without a harmless file descriptor.

    So no file the command opens later takes descriptor 0, 1 or 2 (and a process it
    starts never writes into it).  Standard input then reads nothing, standard error
    writes nowhere, and standard output refuses to be written (:class:`_ClosedOutput`).
    """
    for number, name in enumerate(("stdin", "stdout", "stderr")):
        if getattr(sys, name) is not None:
            continue
        handle = os.open(os.devnull, os.O_RDONLY if number == 0 else os.O_WRONLY)
        if handle != number:
            os.dup2(handle, number)
            os.close(handle)
        if number == 1:
            sys.stdout = _ClosedOutput()
        else:
            stream = open(number, "r" if number == 0 else "w", closefd=False)  # noqa: SIM115
            setattr(sys, name, stream)  # (for the whole run: nothing to close)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    _standard_streams()
    _safe_output()
    args = build_parser().parse_args(argv)
    try:
        status = _run(args)
        _flush_stdout()
        return status
    except PluginHookError as exc:
        return _plugin_failed(exc)
    except BeziqueError as exc:
        for line in str(exc).splitlines() or ["error"]:
            print(f"bezique: {line}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``| head``): nothing more to say
        _discard_stdout()
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"bezique: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a defect: say where in one line, not a traceback
        return _failed(exc)


def _flush_stdout() -> None:
    """Write out what standard output holds, so a failure to is the command's to report."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, exc.filename or STDOUT) from exc


def _discard_stdout() -> None:
    """Send what standard output still holds nowhere (it is flushed once more at exit)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


TRACEBACK_ENV = "BEZIQUE_TRACEBACK"
"""Set to 1 to see the traceback of an unexpected error (for a plugin's author)."""


def _plugin_failed(exc: PluginHookError) -> int:
    """Report a plugin that failed in a hook (or answered nonsense) during a game: one line."""
    from bezique.variant.registry import BLOCK_ENV

    if os.environ.get(TRACEBACK_ENV) == "1":
        raise exc
    print(
        f"bezique: {exc}; fix or uninstall it, or set {BLOCK_ENV}={exc.plugin} to hide it "
        f"({TRACEBACK_ENV}=1 shows the traceback)",
        file=sys.stderr,
    )
    return 1


def _failed(exc: Exception) -> int:
    """Report an unexpected error: the plugin whose code raised it, else the framework's."""
    from bezique.variant.registry import BLOCK_ENV, plugin_in_traceback

    if os.environ.get(TRACEBACK_ENV) == "1":
        raise exc
    said = " ".join(f"{type(exc).__name__}: {exc}".split())
    culprit = plugin_in_traceback(exc)
    if culprit is not None:
        name, where = culprit
        print(
            f"bezique: plugin {name!r} failed ({where}): {said}; fix or uninstall it, or "
            f"set {BLOCK_ENV}={name} to hide it ({TRACEBACK_ENV}=1 shows the traceback)",
            file=sys.stderr,
        )
    else:
        print(
            f"bezique: internal error: {said}; please report it ({TRACEBACK_ENV}=1 shows "
            "the traceback)",
            file=sys.stderr,
        )
    return 1


def _run(args: argparse.Namespace) -> int:
    handlers = {
        "variants": _variants,
        "plugins": _plugins,
        "schema": _schema,
        "validate": _validate,
        "replay": _replay,
        "simulate": _simulate,
        "bench": _bench,
        "tournament": _tournament,
        "compare": _compare,
        "play": _play,
        "sources": sources_command.run,
        "rules": _rules,
        "diff": _diff,
        "genealogy": _genealogy,
        "serve": _serve,
        "serve-bench": _serve_bench,
        "sheet": _sheet,
        "club": _club,
        "manpage": _manpage,
        "completion": _completion,
    }
    return handlers[args.command](args)


def _variants(args: argparse.Namespace) -> int:
    from bezique.variant import variant_listing
    from bezique.variant.registry import plugin_problems

    rows, problems = variant_listing()
    width = max((len(name) for name, _ in rows), default=0)
    for name, summary in rows:
        print(f"{name:<{width}}  {summary}")
    for line in [*plugin_problems(), *problems]:
        print(f"bezique: {line}", file=sys.stderr)
    return 1 if problems or plugin_problems() else 0


def _plugins(args: argparse.Namespace) -> int:
    """List the plugins; a broken one is listed with its problem, and the status stays 0."""
    from bezique.rules.plugininfo import plugin_infos, plugins_json, plugins_table
    from bezique.variant.registry import plugin_notes

    infos = plugin_infos()
    if args.json:
        print(json.dumps(plugins_json(infos), indent=2))
        return 0
    for line in plugins_table(infos):
        print(line)
    for line in plugin_notes():
        print(f"bezique: {line}", file=sys.stderr)
    return 0


def _schema(args: argparse.Namespace) -> int:
    from bezique.variant.schema import installed_schema, render, variant_overlay_schema

    document = installed_schema()
    sys.stdout.write(render(variant_overlay_schema(document) if args.overlay else document))
    return 0


def _validate(args: argparse.Namespace) -> int:
    from bezique.variant import validate_paths

    problems = validate_paths(args.files)
    for line in problems:
        print(line, file=sys.stderr)
    if problems:
        return 1
    for path in args.files:
        print(f"{path}: ok")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from bezique.records.record import hand_summaries, load_record, replay
    from bezique.rules.pinned import RulesWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RulesWarning)
        warnings.simplefilter("always", DeprecationWarning)
        try:
            data = load_record(args.file)
            state = replay(data, args.file, rules=args.rules)
        finally:
            notes = [
                str(w.message)
                for w in caught
                if issubclass(w.category, RulesWarning | DeprecationWarning)
            ]
            if not args.json:
                for note in notes:
                    print(f"bezique: note: {note}", file=sys.stderr)
    result: dict[str, Any] = {
        "variant": state.rules.variant.name,
        "actions": len(state.history),
        "hands": hand_summaries(state),
        "scores": list(state.scores),
        "winner": state.winner if state.is_over() and state.winner >= 0 else None,
        "over": state.is_over(),
        "headers": data.get("headers", {}),
        "rules": {
            "digest": data.get("variant_digest"),
            "recorded_with": data.get("bezique"),
        },
        "notes": notes,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for key, value in result["headers"].items():
        shown = ", ".join(value) if isinstance(value, list) else " / ".join(value.splitlines())
        print(f"{key}: {shown}")
    print(f"variant {result['variant']}: {result['actions']} actions replayed")
    for hand in result["hands"]:
        points = ", ".join(f"seat {s}: {p}" for s, p in enumerate(hand["points"]))
        print(f"hand {hand['hand'] + 1}: {points}")  # counted from 1, as the table says it
    totals = ", ".join(f"{state.side_name(s)}: {p}" for s, p in enumerate(result["scores"]))
    print(f"game: {totals}")
    if state.is_over():
        won = state.side_name(state.winner) if state.winner >= 0 else "none, the game is drawn"
        print(f"winner: {won}")
    else:
        doing = state.rules.words.phase(state.phase)
        print(f"game not finished: seat {state.to_act} to act ({doing})")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    """Play the games (a progress bar on a terminal); Ctrl-C: report what was played, 130."""
    from bezique.simulation.simulate import format_statistics, simulate, terminal_progress

    if args.overwrite and args.save is None:
        raise BeziqueError("--overwrite goes with --save DIR")
    with terminal_progress(sys.stderr, args.games, f"simulate {args.variant}") as progress:
        stats = simulate(
            args.variant,
            args.games,
            args.seed,
            args.save,
            overwrite=args.overwrite,
            progress=progress,
        )
    print(json.dumps(stats, indent=2) if args.json else format_statistics(stats))
    return 130 if stats["interrupted"] else 0


def _decision_bench(args: argparse.Namespace) -> int:
    """``bench --decisions``: the players' gains over the heuristic (a bar on a terminal)."""
    from bezique.bench.decisions import decision_bench, format_decisions
    from bezique.game import ruleset_for
    from bezique.players import player_for
    from bezique.simulation.simulate import terminal_progress
    from bezique.simulation.tournament import split_players

    if args.api:
        raise BeziqueError("--api times random deals; leave it out of --decisions")
    specs = split_players(args.players)
    for spec in specs:
        player_for(spec)  # an unknown player or option is told before any position is dealt
    name = ruleset_for(args.variant).variant.name
    total = len(specs) * args.positions
    with terminal_progress(sys.stderr, total, f"decisions {name}") as progress:
        found = decision_bench(args.variant, specs, args.positions, args.seed, progress=progress)
    print(json.dumps(found, indent=2) if args.json else format_decisions(found))
    return 0


def _bench_defaults(args: argparse.Namespace) -> None:
    """Refuse an option the chosen benchmark does not read; fill in the defaults of the rest.

    ``--players`` goes with ``--decisions`` alone, ``--iterations`` with ``--search``,
    ``--positions`` with either, ``--rounds`` with ``--startup`` or ``--records``,
    ``--deals`` with none of them.
    """
    modes = ("--search", "--decisions", "--startup", "--records")
    mode = next((m for m in modes if getattr(args, m[2:])), None)
    readers: dict[str, tuple[str | None, ...]] = {
        "--players": ("--decisions",),
        "--iterations": ("--search",),
        "--positions": ("--search", "--decisions"),
        "--rounds": ("--startup", "--records"),
        "--deals": (None,),
    }
    for option, readers_of in readers.items():
        if getattr(args, option[2:]) is not None and mode not in readers_of:
            if mode is None:
                raise BeziqueError(
                    f"{option} is read only with {' or '.join(filter(None, readers_of))}"
                )
            raise BeziqueError(f"{option} is not read with {mode}; leave it out")
    args.players = args.players if args.players is not None else BENCH_PLAYERS
    args.iterations = args.iterations if args.iterations is not None else BENCH_ITERATIONS
    args.positions = args.positions if args.positions is not None else BENCH_POSITIONS
    args.deals = args.deals if args.deals is not None else BENCH_DEALS


def _bench(args: argparse.Namespace) -> int:
    from bezique.bench.deals import (
        against_baseline,
        against_variant,
        bench,
        format_bench,
        format_ratio,
    )

    _bench_defaults(args)
    if args.card_by_card:
        print("bezique bench: --card-by-card is deprecated and has no effect", file=sys.stderr)
    if args.search:
        if args.api:
            raise BeziqueError("--api times random deals; leave it out of --search")
        from bezique.bench.search import format_search_bench, search_bench

        found = search_bench(args.variant, args.positions, args.iterations, args.seed)
        print(json.dumps(found, indent=2) if args.json else format_search_bench(found))
        return 0
    if args.decisions:
        return _decision_bench(args)
    if args.startup or args.records:
        return _process_bench(args)
    if args.baseline or args.reference:
        if args.api:
            raise BeziqueError("--api times the public loop alone; leave it out of a ratio")
        if args.baseline:
            ratio = against_baseline(args.deals, args.seed)
        else:
            ratio = against_variant(args.variant, args.reference, args.deals, args.seed)
        print(json.dumps(ratio, indent=2) if args.json else format_ratio(ratio))
        return 0
    result = bench(args.variant, args.deals, args.seed, api=args.api)
    print(json.dumps(result, indent=2) if args.json else format_bench(result))
    return 0


def _process_bench(args: argparse.Namespace) -> int:
    """``bench --startup`` or ``bench --records``: the ratios of the start-up, of saved games."""
    mode = "--startup" if args.startup else "--records"
    given = [o for o in ("--api", "--seed", "--variant") if _given(args, o)]
    if given and not (mode == "--records" and given == ["--seed"]):
        raise BeziqueError(f"{given[0]} is not read with {mode}; leave it out")
    if args.startup:
        from bezique.bench.startup import STARTUP_ROUNDS, format_startup, startup_bench

        found = startup_bench(args.rounds or STARTUP_ROUNDS)
        print(json.dumps(found, indent=2) if args.json else format_startup(found))
        return 0
    from bezique.bench.records import RECORD_ROUNDS, format_records, records_bench

    found = records_bench(args.rounds or RECORD_ROUNDS, args.seed)
    print(json.dumps(found, indent=2) if args.json else format_records(found))
    return 0


def _given(args: argparse.Namespace, option: str) -> bool:
    """Whether ``option`` of ``bench`` was given (differs from its default)."""
    defaults = {"--api": False, "--seed": 0, "--variant": "ordinary"}
    return bool(getattr(args, option[2:]) != defaults[option])


def _tournament(args: argparse.Namespace) -> int:
    from bezique.simulation.tournament import run_command

    return run_command(args)


def _compare(args: argparse.Namespace) -> int:
    from bezique.compare.comparison import run_command

    return run_command(args)


def _play(args: argparse.Namespace) -> int:
    from bezique.commands.play import Options, run

    return run(
        Options(
            args.variant,
            args.against,
            args.seat,
            args.seed,
            args.save,
            args.resume,
            args.overwrite,
        )
    )


def _rules(args: argparse.Namespace) -> int:
    from bezique.rulebook.command import run_rules

    return run_rules(args)


def _diff(args: argparse.Namespace) -> int:
    from bezique.rulebook.command import run_diff

    return run_diff(args)


def _genealogy(args: argparse.Namespace) -> int:
    from bezique.compare.genealogyshow import run_command

    return run_command(args)


def _serve(args: argparse.Namespace) -> int:
    from bezique.web.command import run_serve

    return run_serve(args)


def _serve_bench(args: argparse.Namespace) -> int:
    from bezique.web.loadbench import run_serve_bench

    return run_serve_bench(args)


def _sheet(args: argparse.Namespace) -> int:
    from bezique.sheet.command import run_sheet

    return run_sheet(args)


def _club(args: argparse.Namespace) -> int:
    from bezique.sheet.clubcommand import run_club
    from bezique.web.store import open_database

    return run_club(args, open_database)


def _manpage(args: argparse.Namespace) -> int:
    """``bezique manpage``: the manual page, on standard output or into ``--output``."""
    from bezique.commands.manpage import manual_page
    from bezique.reading.safeio import check_output, write_output

    if args.output is None:
        if args.overwrite:
            raise BeziqueError("--overwrite goes with --output FILE")
    else:
        check_output(args.output, overwrite=args.overwrite)
    page = manual_page(build_parser())
    if args.output is None:
        sys.stdout.write(page)
    else:
        write_output(args.output, page, overwrite=args.overwrite)
    return 0


def _completion(args: argparse.Namespace) -> int:
    """``bezique completion SHELL``: the shell's completion script, made by shtab."""
    from bezique.commands.completion import completion_script

    sys.stdout.write(completion_script(build_parser(), args.shell))
    return 0
