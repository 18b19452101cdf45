"""Random-player simulations and the speed benchmark.

Both drive games through :meth:`GameState.playout`, which draws each decision
uniformly at random from the legal choices; ``bench(api=True)`` drives the
public :meth:`~GameState.legal_actions` / :meth:`~GameState.apply` loop instead.

A simulation draws each game's seed only when the game starts and keeps running
sums, so its memory does not grow with the number of games.  Ctrl-C (or a
``progress`` callback raising :exc:`KeyboardInterrupt`) ends it after the game
being played: the statistics are of the games finished, marked ``interrupted``.
"""

from __future__ import annotations

import json
import random
import re
import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from bezique.errors import BeziqueError
from bezique.game import GameState, new_game, ruleset_for
from bezique.reading.safeio import write_output
from bezique.records.record import record_of
from bezique.rules.ruleset import Ruleset

RECORD_FILE = re.compile(r"game-\d{4,}\.json")
"""The name of a record ``--save`` writes: ``game-0000.json``, ``game-0001.json``, ..."""

Progress = Callable[[int, int], None]
"""Called after each finished game with the games finished and the games asked for."""


def game_seeds(seed: int, count: int) -> Iterator[int]:
    """Yield the seed of each of ``count`` games, drawn one at a time from ``seed``."""
    master = random.Random(seed)
    for _ in range(count):
        yield master.randrange(2**63)


def prepare_save_folder(save_dir: str | Path, overwrite: bool = False) -> Path:
    """Check that ``save_dir`` may take a new run's records, and make it ready.

    The folder must be missing or empty, so one run's records are never mixed
    with another's; with ``overwrite`` it may hold an earlier run's records
    (``game-NNNN.json`` files and nothing else), which are deleted.  Raise
    :class:`BeziqueError` before anything is changed otherwise.
    """
    out = Path(save_dir)
    if out.exists() and not out.is_dir():
        raise BeziqueError(f"{out}: is not a folder; --save needs a folder for the records")
    entries = sorted(out.iterdir()) if out.is_dir() else []
    if entries and not overwrite:
        count = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
        raise BeziqueError(
            f"{out}: the folder is not empty ({count}); save into a new or empty folder, "
            "or add --overwrite to replace an earlier run's records"
        )
    others = [e.name for e in entries if not (_is_record(e) and RECORD_FILE.fullmatch(e.name))]
    if others:
        shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        raise BeziqueError(
            f"{out}: --overwrite replaces only game records (game-NNNN.json), and this "
            f"folder holds other things too: {shown}; save into a new or empty folder"
        )
    for entry in entries:
        entry.unlink()
    out.mkdir(parents=True, exist_ok=True)
    return out


def _is_record(entry: Path) -> bool:
    """A regular file (never a link, which an earlier run does not write)."""
    return entry.is_file() and not entry.is_symlink()


def _write_record(folder: Path, number: int, state: GameState) -> None:
    """Write one game's record whole, as every output file is (into the emptied folder).

    Not synced to disk record by record: two disk flushes a game would make a long
    run several times slower; a run killed still leaves only whole records.
    """
    path = folder / f"game-{number:04d}.json"
    text = json.dumps(record_of(state), indent=1) + "\n"
    write_output(path, text, overwrite=False, sync=False)


@contextmanager
def ctrl_c_between_games() -> Iterator[Callable[[], bool]]:
    """While inside, Ctrl-C only sets a flag, which the yielded function reads.

    So a game is never cut in half.  Only in the main thread, and only when
    SIGINT has Python's default handler; otherwise Ctrl-C raises as usual.
    """
    pressed = False

    def note(signum: int, frame: FrameType | None) -> None:
        nonlocal pressed
        pressed = True

    previous = None
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ):
        previous = signal.signal(signal.SIGINT, note)
    try:
        yield lambda: pressed
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def simulate(
    variant: str,
    games: int,
    seed: int,
    save_dir: str | Path | None = None,
    *,
    overwrite: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play ``games`` games between random players; return score statistics.

    With ``save_dir``, each game's record is written there as ``game-NNNN.json``
    (see :func:`prepare_save_folder` for ``overwrite``).  ``progress`` is called
    after each game.  Ctrl-C stops the run after the game being played: the
    statistics are then of the games finished (and saved), with ``interrupted``
    true and ``games_requested`` the number asked for.
    """
    rules = ruleset_for(variant)
    out = prepare_save_folder(save_dir, overwrite) if save_dir is not None else None
    sums = [0] * (max(rules.side_of) + 1)
    wins: Counter[int] = Counter()
    played = hands = decisions = 0
    rule_points: Counter[str] = Counter()
    rule_counts: Counter[str] = Counter()
    interrupted = False
    with ctrl_c_between_games() as pressed:
        try:
            for number, game_seed in enumerate(game_seeds(seed, games)):
                if pressed():
                    break
                state = new_game(rules, seed=game_seed)
                moves = state.playout(random.Random(game_seed ^ 0x5EED), hands=None)
                if out is not None:
                    _write_record(out, number, state)
                decisions += moves
                hands += state.hand_no + 1
                for side, score in enumerate(state.scores):
                    sums[side] += score
                wins[state.winner] += 1  # -1: a drawn game
                for event in state.events:
                    rule_points[event.rule] += event.points
                    rule_counts[event.rule] += 1
                played += 1
                if progress is not None:
                    progress(played, games)
        except KeyboardInterrupt:
            interrupted = True
        interrupted = interrupted or pressed()
    stats = _statistics(rules, played, seed, sums, wins, hands, decisions, rule_points, rule_counts)
    stats["games_requested"] = games
    stats["interrupted"] = interrupted
    return stats


@contextmanager
def terminal_progress(stream: TextIO, total: int, label: str) -> Iterator[Progress | None]:
    """Yield a :data:`Progress` callback drawing a progress bar on ``stream``, or None.

    The bar is drawn with ``rich`` (the ``bezique[terminal]`` extra) and only when
    ``stream`` is a terminal; without rich, or on a pipe or file, nothing is
    printed and None is yielded.  The bar is erased when the block ends.
    """
    isatty = getattr(stream, "isatty", None)
    if not (callable(isatty) and isatty()):
        yield None
        return
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        yield None
        return
    console = Console(file=stream, force_terminal=True, force_interactive=True)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    task = bar.add_task(label, total=total)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done)

    with bar:
        yield advance


def _statistics(
    rules: Ruleset,
    games: int,
    seed: int,
    sums: list[int],
    wins: Counter[int],
    hands: int,
    decisions: int,
    rule_points: Counter[str],
    rule_counts: Counter[str],
) -> dict[str, Any]:
    sides = range(max(rules.side_of) + 1)
    names = [
        "+".join(str(seat) for seat, s in enumerate(rules.side_of) if s == side) for side in sides
    ]
    return {
        "variant": rules.variant.name,
        "games": games,
        "seed": seed,
        "hands": hands,
        "hands_per_game": hands / games if games else 0.0,
        "decisions_per_game": decisions / games if games else 0.0,
        "sides": names,
        "wins": [wins[s] for s in sides],
        "drawn": wins[-1],
        "mean_final_score": [sums[s] / games if games else 0.0 for s in sides],
        "mean_points_per_hand": {rule: rule_points[rule] / hands for rule in sorted(rule_points)}
        if hands
        else {},
        "times_per_hand": {rule: rule_counts[rule] / hands for rule in sorted(rule_counts)}
        if hands
        else {},
    }


def format_statistics(stats: dict[str, Any]) -> str:
    """Write simulation statistics as a few readable lines."""
    names = stats["sides"]
    first = f"variant {stats['variant']}: {stats['games']} games, seed {stats['seed']}"
    if stats.get("interrupted"):
        asked = stats["games_requested"]
        first += f" (interrupted: {stats['games']} of the {asked} games asked for)"
    lines = [
        first,
        f"hands per game {stats['hands_per_game']:.2f}, decisions per game "
        f"{stats['decisions_per_game']:.1f}",
        "wins by seat: "
        + _by_side(names, [str(w) for w in stats["wins"]])
        + (f", drawn: {stats['drawn']}" if stats["drawn"] else ""),
        "mean final score by seat: "
        + _by_side(names, [f"{v:.1f}" for v in stats["mean_final_score"]]),
        "points per hand by rule (times per hand):",
    ]
    for rule, points in stats["mean_points_per_hand"].items():
        lines.append(f"  {rule:<34} {points:8.2f}  ({stats['times_per_hand'][rule]:.3f})")
    return "\n".join(lines)


def _by_side(names: list[str], values: list[str]) -> str:
    """``0: 12, 1: 7``, or ``0+2: 12, 1+3: 7`` with partnerships."""
    return ", ".join(f"{name}: {value}" for name, value in zip(names, values, strict=True))
