"""The web server's tables at work: who is connected, the bots' turns, what each seat is sent.

:class:`Server` holds every table of the store in memory, one lock a table, and the
open connections of each seat.  A person's action is applied and stored under the
table's lock (:meth:`~bezique.web.tables.Table.act`), then every connected seat is
sent its own view; the bots to act then play, each thinking outside the lock (in the
pool, :mod:`bezique.web.bots`) and acting under it, so a table waiting for a bot never
holds up another.  A restarted server resumes every stored table where it stood,
bots to act included.  Nothing here knows the web framework: the routes of
:mod:`bezique.web.app` call it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from bezique.errors import BeziqueError
from bezique.web.bots import BotPool, inline
from bezique.web.seatview import seat_message
from bezique.web.store import Store, rows
from bezique.web.tables import Table

Send = Callable[[dict[str, Any]], Awaitable[None]]
"""How a connection is sent a message (a JSON-able mapping)."""


class Server:
    """Every table, its lock, its seats' connections, and the bots' pool."""

    def __init__(self, store: Store, bots: BotPool) -> None:
        """Tables kept in ``store``, bots thinking in ``bots``; call :meth:`resume` to start."""
        self.store = store
        self.bots = bots
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.connections: dict[str, dict[int, set[Send]]] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}

    def resume(self) -> None:
        """Load every stored table as it stood, and let the bots to act play on."""
        for table_id, setup, actions in rows(self.store):
            try:
                self.add(Table.resume(table_id, setup, actions, self.store))
            except BeziqueError:  # a table whose variant is gone: left in the store, unserved
                continue

    def add(self, table: Table) -> None:
        """Serve ``table``, and start its bots if one is to act."""
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.connections[table.id] = {}
        self.wake_bots(table)

    # --- connections ----------------------------------------------------------------------

    def connect(self, table: Table, seat: int, send: Send) -> None:
        """Send ``seat``'s messages to ``send`` from now on."""
        self.connections[table.id].setdefault(seat, set()).add(send)

    def disconnect(self, table: Table, seat: int, send: Send) -> None:
        """Stop sending to ``send``."""
        self.connections[table.id].get(seat, set()).discard(send)

    async def broadcast(self, table: Table) -> None:
        """Send each connected seat of ``table`` its own view."""
        for seat, sends in list(self.connections[table.id].items()):
            message = seat_message(table, seat)
            for send in list(sends):
                try:
                    await send(message)
                except Exception:  # a closed connection: forget it
                    sends.discard(send)

    # --- acting -----------------------------------------------------------------------------

    async def act(self, table: Table, seat: int, text: str | int, at: int | None = None) -> None:
        """Apply and store ``seat``'s action (its text, or its id among the legal actions).

        ``at``: the number of moves of the view the action was chosen from; the action
        is refused if the table has moved on since (a second click on a stale view).
        Raise :class:`~bezique.errors.BeziqueError` (the game unchanged) when refused.
        """
        async with self.locks[table.id]:
            if at is not None and at != len(table.state.history):
                raise BeziqueError(
                    f"the table has moved on since that view (move {at}, now "
                    f"{len(table.state.history)}): choose again"
                )
            if isinstance(text, int):
                legal = table.state.legal_actions() if table.state.to_act == seat else []
                if not 0 <= text < len(legal):
                    raise BeziqueError(f"action id {text} is not one of your legal actions")
                table.act(seat, legal[text])
            else:
                table.act(seat, text)
        await self.broadcast(table)
        self.wake_bots(table)

    def wake_bots(self, table: Table) -> None:
        """Let the bots of ``table`` play while one is to act (one task a table)."""
        running = self._bot_tasks.get(table.id)
        if table.bot_to_act() is None or (running is not None and not running.done()):
            return
        self._bot_tasks[table.id] = asyncio.get_running_loop().create_task(self._bots(table))

    async def _bots(self, table: Table) -> None:
        while (seat := table.bot_to_act()) is not None:
            moves = len(table.state.history)
            spec = table.seats[seat].spec
            if not inline(spec):  # the page shows a thinking bot as thinking
                table.thinking = seat
                await self.broadcast(table)
            try:
                text = await self.bots.choose(table.state, spec, f"{table.state.seed}:{moves}")
            except Exception as exc:  # a bot's defect: said, and the table waits
                print(f"bezique serve: table {table.id}: bot {spec!r}: {exc}", file=sys.stderr)
                return
            finally:
                table.thinking = -1
            async with self.locks[table.id]:
                if len(table.state.history) != moves or table.bot_to_act() != seat:
                    continue  # the table moved on while the bot thought (a table action)
                table.act(seat, text)
            await self.broadcast(table)

    async def idle(self) -> None:
        """Wait until no bot of any table is thinking (for tests and a clean shutdown)."""
        while any(not task.done() for task in self._bot_tasks.values()):
            await asyncio.gather(*self._bot_tasks.values(), return_exceptions=True)

    def close(self) -> None:
        """Stop the bots' tasks and pool, and close the store."""
        for task in self._bot_tasks.values():
            task.cancel()
        self.bots.close()
        with contextlib.suppress(Exception):
            self.store.close()
