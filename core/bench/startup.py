"""The start-up benchmark (``bezique bench --startup``): whole commands against a bare Python.

Each round starts, one after the other, ``python -c pass`` (the interpreter alone)
and each command of :data:`COMMANDS` as a whole process of the same interpreter
(``python -m bezique ...``, its output thrown away), and reads the CPU time
(user and system) each child used from :func:`os.wait4`: so the figure counts
the work of starting, not the waiting on a shared machine.  Each command's cost
is its ratio to ``python -c pass`` of the same round, and the median over the
rounds is reported.  Nothing is written: the children's output goes to the null
device.  Whether Python writes bytecode caches (``PYTHONDONTWRITEBYTECODE``)
changes the figures much (without them every module is compiled at every start):
the result says which.
"""

from __future__ import annotations

import os
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from bezique.errors import BeziqueError

COMMANDS: tuple[tuple[str, ...], ...] = (("--help",), ("variants",))
"""The commands timed, as the arguments of ``bezique``."""

BARE = ("-c", "pass")
"""The interpreter's arguments of the reference: start Python, do nothing."""

STARTUP_ROUNDS = 7
"""Rounds when not told (each starts every command once)."""


def child_cpu(argv: Sequence[str]) -> float:
    """Run ``argv`` (its output to the null device); return the CPU seconds the child used.

    A child that fails is an error: its time would not be that of the command.
    """
    wait4 = getattr(os, "wait4", None)
    if wait4 is None:
        raise BeziqueError(
            "--startup reads a child's CPU time with os.wait4, which this system lacks"
        )
    actions = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    pid = os.posix_spawn(argv[0], list(argv), os.environ, file_actions=actions)
    _, status, usage = wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise BeziqueError(f"{' '.join(argv[1:])} failed (exit status {status}); nothing timed")
    return float(usage.ru_utime + usage.ru_stime)


def startup_bench(rounds: int) -> dict[str, Any]:
    """Time the commands against ``python -c pass`` in ``rounds`` alternated rounds."""
    python = sys.executable
    bare: list[float] = []
    times: dict[str, list[float]] = {_name(c): [] for c in COMMANDS}
    for _ in range(rounds):
        bare.append(child_cpu([python, *BARE]))
        for command in COMMANDS:
            times[_name(command)].append(child_cpu([python, "-m", "bezique", *command]))
    return {
        "rounds": rounds,
        "bytecode_cached": not sys.flags.dont_write_bytecode,
        "python_seconds": statistics.median(bare),
        "commands": [
            {
                "command": name,
                "seconds": statistics.median(found),
                "ratio": statistics.median(
                    t / max(b, 1e-9) for t, b in zip(found, bare, strict=True)
                ),
            }
            for name, found in times.items()
        ],
    }


def _name(command: Sequence[str]) -> str:
    return " ".join(("bezique", *command))


def format_startup(result: dict[str, Any]) -> str:
    """The result as lines: the reference, then each command's CPU time and ratio."""
    cached = "written" if result["bytecode_cached"] else "not written (PYTHONDONTWRITEBYTECODE)"
    lines = [
        f"start-up: CPU time of whole processes, median of {result['rounds']} alternated rounds",
        f"bytecode caches: {cached}",
        f"python -c pass  {result['python_seconds'] * 1000:7.1f} ms",
    ]
    width = max(len(c["command"]) for c in result["commands"])
    for command in result["commands"]:
        lines.append(
            f"{command['command']:<{width}}  {command['seconds'] * 1000:7.1f} ms  "
            f"{command['ratio']:5.2f}x python -c pass"
        )
    return "\n".join(lines)
