"""bezique.simulation.parallel: results in order, a dead worker named, a signal ends the workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from bezique.errors import BeziqueError
from bezique.simulation.parallel import ordered_map

_OFFSET: list[int] = []


def start(offset: int) -> None:
    """A worker's start: remember the offset (as a tournament's worker loads its rules)."""
    _OFFSET[:] = [offset]


def shifted(items: Sequence[int]) -> list[int]:
    """A task: each item plus the worker's offset, slower for the first items."""
    if items and items[0] < 3:
        time.sleep(0.2)  # (the first parts finish last: the order must still be kept)
    return [item + _OFFSET[0] for item in items]


def dies(items: Sequence[int]) -> list[int]:
    """A task whose worker process dies."""
    os._exit(3)


def test_results_come_in_the_plans_order_from_two_processes() -> None:
    assert list(ordered_map(shifted, list(range(12)), 2, start, (100,))) == list(range(100, 112))


def test_a_worker_that_dies_is_an_error_that_says_so() -> None:
    with pytest.raises(BeziqueError, match="a process playing the games died"):
        list(ordered_map(dies, [1, 2], 2, start, (0,)))


_SLEEPER = """
import os, sys, time
from pathlib import Path
from bezique.simulation.parallel import ordered_map

def start(folder):
    global FOLDER
    FOLDER = folder

def sleep(items):
    Path(FOLDER, str(os.getpid())).write_text("")
    time.sleep(120)
    return list(items)

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(__file__))
    import sleeper
    list(ordered_map(sleeper.sleep, [1, 2], 2, sleeper.start, (sys.argv[1],)))
"""


def _default_signals() -> None:
    """In the child: Ctrl-C and SIGTERM as at a shell, whatever the test process inherited."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_to_the_main_process_ends_its_workers(tmp_path: Path, number: int) -> None:
    script = tmp_path / "sleeper.py"
    script.write_text(_SLEEPER)
    pids = tmp_path / "pids"
    pids.mkdir()
    main = subprocess.Popen(
        [sys.executable, str(script), str(pids)],
        stderr=subprocess.PIPE,
        preexec_fn=_default_signals,
    )
    deadline = time.monotonic() + 60
    while len(list(pids.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = [int(path.name) for path in pids.iterdir()]
    assert len(workers) == 2
    main.send_signal(number)
    main.communicate(timeout=30)  # (the workers sleep 120 s: they are ended, not awaited)
    assert main.returncode != 0
    for pid in workers:  # (the workers were the main process's children: reaped with it)
        assert not _alive(pid), f"worker {pid} still runs after the main process ended"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return "Z"
