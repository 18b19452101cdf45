"""Games played on a Dask distributed cluster, their results in order.

What ``--scheduler ADDRESS`` does for ``bezique compare`` and ``bezique tournament``:
:func:`check_scheduler` refuses an address that is not one in a line, and
:func:`cluster_map` sends a task a part of the plan to the scheduler and yields the
parts' results in the plan's order, so a run is the same as in one process.  The
task is a module-level function the workers import (they must have bezique
installed); it gets everything it needs as arguments, and loads the rules itself.
Dask's ``distributed`` package (the ``bezique[dask]`` extra) is imported only here,
when a cluster is asked for.  Stopping the iteration early (Ctrl-C) cancels the
tasks still in flight and closes the connection.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from bezique.errors import BeziqueError

SCHEDULER_ADDRESS = re.compile(r"(?:[a-z]+://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):[0-9]{1,5}")
"""What ``--scheduler`` takes: ``[PROTOCOL://]HOST:PORT`` (an IPv6 host in brackets)."""

CONNECT_SECONDS = 10
"""How long to try to reach the scheduler before giving up."""

T = TypeVar("T")
"""A task's item (a game to play)."""
R = TypeVar("R")
"""A task's result for one item."""


def check_scheduler(address: str | None) -> None:
    """Refuse a ``--scheduler`` that is not ``[PROTOCOL://]HOST:PORT`` (``None``: no cluster)."""
    if address is not None and not SCHEDULER_ADDRESS.fullmatch(address):
        raise BeziqueError(
            f"--scheduler {address!r}: give the scheduler's address as tcp://HOST:PORT"
        )


def cluster_map(
    address: str,
    task: Callable[..., list[R]],
    parts: Sequence[Sequence[T]],
    *shared: Any,
) -> Iterator[R]:
    """Yield ``task(*shared, part)``'s results for each part, in order, from the cluster.

    ``shared`` are the arguments every task gets before its part (the variants, the
    players' specs...): they must be picklable, as the parts are.
    """
    distributed = _distributed()
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, ValueError, TimeoutError) as exc:
        raise BeziqueError(f"--scheduler {address}: cannot reach the scheduler ({exc})") from None
    futures: list[Any] = []
    try:
        columns = [[value] * len(parts) for value in shared]
        futures = client.map(task, *columns, [list(part) for part in parts], pure=False)
        for future in futures:
            yield from future.result()
    finally:
        client.cancel(futures)
        client.close()


def _distributed() -> Any:
    """Dask's ``distributed`` module, or a clear error saying how to install it."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise BeziqueError(
            "--scheduler needs Dask's distributed package: pip install 'bezique[dask]'"
        ) from None
