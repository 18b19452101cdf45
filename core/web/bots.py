"""The bots of the web tables: quick ones decide at once, searching ones in a pool of processes.

A search bot thinks for hundreds of milliseconds; in the server's own process it would
hold up every other table.  :class:`BotPool` sends it, with the game's saved state,
to a pool of worker processes and awaits the answer, so the server goes on serving
while it thinks.  The bot decides from its seat's view only
(:func:`bezique.players.decide`), in the worker as anywhere.  The quick bots
(:data:`~bezique.web.tables.INLINE_BOTS`) decide in the server's process: a process
round trip would cost them more than their decision.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from bezique.game import GameState, from_json
from bezique.players import decide, parse_spec, player_for
from bezique.web.tables import INLINE_BOTS

_T = TypeVar("_T")


def bot_action(saved: Mapping[str, Any], spec: str, chance: str) -> str:
    """The action text the bot ``spec`` chooses in the saved game ``saved`` (in a worker)."""
    state = from_json(saved)
    return _decided(state, spec, chance)


def _decided(state: GameState, spec: str, chance: str) -> str:
    action = decide(player_for(spec), state, random.Random(chance))
    return state.action_text(action)


def inline(spec: str) -> bool:
    """Whether the bot ``spec`` decides in the server's own process (it is quick)."""
    return parse_spec(spec)[0] in INLINE_BOTS


class BotPool:
    """Where the bots think: quick ones at once, the others in worker processes."""

    def __init__(self, workers: int = 2, executor: Executor | None = None) -> None:
        """A pool of ``workers`` processes (made when first needed), or ``executor``."""
        self._workers = workers
        self._executor = executor

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=self._workers)
        return self._executor

    async def choose(self, state: GameState, spec: str, chance: str) -> str:
        """The action text the bot ``spec`` chooses for the seat to act in ``state``."""
        if inline(spec):
            return _decided(state, spec, chance)
        return await self.run(bot_action, state.to_json(), spec, chance)

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        """Run ``function(*args)`` in a worker process and await its answer."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), function, *args)

    def close(self) -> None:
        """Stop the worker processes."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
