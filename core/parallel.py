"""Games spread over processes, their results in order, stopped cleanly.

:func:`ordered_map` runs a task function over parts of a plan in ``jobs`` spawned
processes (spawn, so a worker never inherits the parent's threads or state) and
yields each part's results in the plan's order, so a run is the same for any
number of processes.  Each worker runs ``initializer(*initargs)`` once (to load
the rules), with Ctrl-C ignored: Ctrl-C, or SIGTERM sent to the main process,
stops the main process, which then ends the workers at once rather than waiting
for the games they are playing.  A worker that dies makes a
:class:`~bezique.errors.BeziqueError` that says so.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from types import FrameType
from typing import Any, TypeVar

from bezique.errors import BeziqueError

T = TypeVar("T")
"""A task's item (a game to play)."""
R = TypeVar("R")
"""A task's result for one item."""

MAX_TASKS = 5000
"""The most tasks a plan is cut into (a task is one item, or more when there are more
items than this), so a long plan does not flood the pool's queues."""


def ordered_map(
    task: Callable[[Sequence[T]], list[R]],
    plan: Sequence[T],
    jobs: int,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
) -> Iterator[R]:
    """Yield ``task``'s result for each item of ``plan``, in order, from ``jobs`` processes.

    ``task`` takes a part of the plan and returns one result an item; it and
    ``initializer`` must be importable module-level functions (spawned workers
    import them).  Stopping the iteration early ends the workers.
    """
    parts = parts_of(plan)
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        jobs, context, initializer=_start_worker, initargs=(initializer, initargs)
    )
    try:
        with _sigterm_stops():
            for results in pool.map(task, parts):
                yield from results
    except BrokenProcessPool as exc:
        raise BeziqueError(f"a process playing the games died ({exc})") from exc
    finally:  # (Ctrl-C, SIGTERM, an error or an early stop: end the games being played)
        _end_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def parts_of(plan: Sequence[T]) -> list[list[T]]:
    """Cut ``plan`` into tasks, in order: one item a task, or more when there are many."""
    size = math.ceil(len(plan) / MAX_TASKS) or 1
    return [list(plan[i : i + size]) for i in range(0, len(plan), size)]


def _start_worker(initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """Start a worker: Ctrl-C is the main process's to handle; then the caller's start."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    initializer(*initargs)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's processes now (the executor has no public way to before 3.14)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()


@contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While inside, SIGTERM to this process raises KeyboardInterrupt (as Ctrl-C does).

    Only in the main thread (where signal handlers can be set); elsewhere it does nothing.
    """
    try:
        previous = signal.signal(signal.SIGTERM, _interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
