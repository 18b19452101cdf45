"""Games spread over processes, their results in order, stopped cleanly.

:func:`ordered_map` runs a task function over parts of a plan in ``jobs`` spawned
processes (spawn, so a worker never inherits the parent's threads or state) and
yields each part's results in the plan's order, so a run is the same for any
number of processes.  Each worker runs ``initializer(*initargs)`` once (to load
the rules), with Ctrl-C ignored: Ctrl-C, or SIGTERM sent to the main process,
stops the main process, which then ends the workers at once rather than waiting
for the games they are playing, and waits for them to be gone before it goes on
(a second Ctrl-C meanwhile waits too), so no worker outlives the command.  A
worker that dies makes a :class:`~bezique.errors.BeziqueError` that says so.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.process import BaseProcess
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
        with _signals_held():
            processes = _end_workers(pool)
            pool.shutdown(wait=True, cancel_futures=True)
            _join(processes)


def parts_of(plan: Sequence[T]) -> list[list[T]]:
    """Cut ``plan`` into tasks, in order: one item a task, or more when there are many."""
    size = math.ceil(len(plan) / MAX_TASKS) or 1
    return [list(plan[i : i + size]) for i in range(0, len(plan), size)]


def _start_worker(initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """Start a worker: Ctrl-C is the main process's to handle; then the caller's start."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    initializer(*initargs)


JOIN_SECONDS = 10.0
"""How long a worker ended is waited for before it is killed."""


def _end_workers(pool: ProcessPoolExecutor) -> list[BaseProcess]:
    """End the pool's processes now (no public way to before 3.14); return them."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
    else:
        for process in processes:
            if process.is_alive():
                process.terminate()
    return processes


def _join(processes: list[BaseProcess]) -> None:
    """Wait for the processes ended to be gone; kill one that outlasts :data:`JOIN_SECONDS`."""
    for process in processes:
        process.join(JOIN_SECONDS)
        if process.is_alive():  # (SIGTERM ignored or blocked: no choice left)
            process.kill()
            process.join()


@contextmanager
def _signals_held() -> Iterator[None]:
    """While inside, Ctrl-C and SIGTERM wait: the workers are ended whole, then they act.

    A signal that came meanwhile raises KeyboardInterrupt on leaving.  Only in the
    main thread (where signal handlers can be set); elsewhere it does nothing.
    """
    came: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        came.append(signum)

    previous: dict[signal.Signals, Any] = {}
    try:
        for held in (signal.SIGINT, signal.SIGTERM):
            previous[held] = signal.signal(held, hold)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for held, handler in previous.items():
            if handler is not None:  # (None: a handler set outside Python, left as it is)
                signal.signal(held, handler)
    if came:
        raise KeyboardInterrupt


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
