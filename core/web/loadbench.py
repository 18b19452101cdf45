"""``bezique serve-bench``: the web table under load, measured from outside.

The benchmark starts the real server (``python -m bezique serve``) in its own
process on 127.0.0.1, with a database in a temporary folder it removes afterwards.
It opens N tables at once, each with one person's seat (which the benchmark plays)
and bots in the others, and plays every game to its end at once over the tables'
sockets: as soon as a view says it is the person's move (or ``--think`` seconds
later), a legal action is chosen at random (from the seed) and sent by its id.  It reports:

* the moves a second over all the tables (every action, the bots' too: the ``moves``
  of each table's last view, over the time from the first table set up to the last
  game over);
* the latency of a person's move: from sending ``{"act": ...}`` to receiving the view
  whose ``moves`` is past it (median and 99th percentile, in milliseconds);
* the CPU time the server's process (and any bot worker it started) took meanwhile,
  read from ``/proc`` (None where there is no ``/proc``);
* that every game finished, and is stored: the database is opened afterwards and each
  table replayed from it (:meth:`~bezique.web.tables.Table.resume`) to a finished game
  of as many actions as the person's seat saw.

To see where the server spends its time, set ``BEZIQUE_SERVE_BENCH_PROFILE`` to a
file name: the server then runs under :mod:`cProfile` and writes its profile there.

Only the standard library and the web extra's ``websockets`` are used; the module
imports the web framework nowhere (the server is another process).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bezique.errors import BeziqueError
from bezique.web.command import DEFAULT_TABLES, MAX_TABLES

MAX_TARGET = 100_000
"""The highest ``--target``."""
MAX_THINK = 60.0
"""The longest ``--think``, in seconds."""
STALL_SECONDS = 120.0
"""How long a table may go without a message before the run gives up on it."""
START_SECONDS = 60.0
"""How long the server is given to start answering."""
PROFILE_VARIABLE = "BEZIQUE_SERVE_BENCH_PROFILE"
"""When set, the environment variable naming the file the server's profile (cProfile's,
of the whole run) is written to."""
HOST = "127.0.0.1"
"""Where the server listens: this machine only."""


class LoadBenchError(BeziqueError):
    """The benchmark could not run: the server did not start, a table was refused or stalled."""


@dataclass(frozen=True)
class Plan:
    """What a run plays: how many tables, of which variant, against which bots."""

    tables: int = DEFAULT_TABLES
    bot: str = "heuristic"
    variant: str = "ordinary"
    target: int | None = None
    """A lower game target than the variant's (the games end sooner), or None."""
    seed: int = 1
    think: float = 0.0
    """The seconds the person takes before each move (0: at once, the server flat out)."""


@dataclass
class TableRun:
    """One table played by the benchmark: its link, and what its person's seat saw."""

    table: str
    seat: int
    token: str
    moves: int = 0
    """The table's actions so far, as its last view said."""
    over: bool = False
    latencies: list[float] = field(default_factory=list)
    """Each of the person's moves: seconds from sending it to the view past it."""
    refused: int = 0


@dataclass
class Report:
    """What a run measured (see the module's docstring)."""

    plan: Plan
    seconds: float
    moves: int
    person_moves: int
    median_ms: float
    p99_ms: float
    max_ms: float
    server_cpu_seconds: float | None
    client_cpu_seconds: float
    finished: int
    stored: int
    refused: int

    @property
    def moves_per_second(self) -> float:
        """Every table's actions, a second of the run."""
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    @property
    def whole(self) -> bool:
        """Whether every game finished and is stored, and no action was refused."""
        return self.finished == self.stored == self.plan.tables and not self.refused

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON data."""
        cpu = self.server_cpu_seconds
        return {
            "tables": self.plan.tables,
            "variant": self.plan.variant,
            "bot": self.plan.bot,
            "target": self.plan.target,
            "seed": self.plan.seed,
            "think_seconds": self.plan.think,
            "seconds": round(self.seconds, 3),
            "moves": self.moves,
            "moves_per_second": round(self.moves_per_second, 1),
            "person_moves": self.person_moves,
            "latency_ms": {
                "median": round(self.median_ms, 2),
                "p99": round(self.p99_ms, 2),
                "max": round(self.max_ms, 2),
            },
            "server_cpu_seconds": None if cpu is None else round(cpu, 2),
            "client_cpu_seconds": round(self.client_cpu_seconds, 2),
            "finished": self.finished,
            "stored": self.stored,
            "refused": self.refused,
        }

    def lines(self) -> list[str]:
        """The report in words, a line a figure."""
        plan, cpu = self.plan, self.server_cpu_seconds
        target = f", games to {plan.target}" if plan.target is not None else ""
        think = f"; the person thinks {plan.think:g} s a move" if plan.think else ""
        return [
            f"tables:        {plan.tables} at once ({plan.variant}{target}; bots {plan.bot};"
            f" seed {plan.seed}{think})",
            f"moves:         {self.moves} in {self.seconds:.1f} s,"
            f" {self.moves_per_second:.0f} a second",
            f"person's move: {self.person_moves} timed; median {self.median_ms:.1f} ms,"
            f" 99th percentile {self.p99_ms:.1f} ms, slowest {self.max_ms:.1f} ms",
            f"CPU:           server {_share(cpu, self.seconds)};"
            f" this client {_share(self.client_cpu_seconds, self.seconds)}",
            f"finished:      {self.finished} of {plan.tables}; stored and replayed to the end:"
            f" {self.stored} of {plan.tables}; refused actions: {self.refused}",
        ]


def _share(cpu: float | None, seconds: float) -> str:
    if cpu is None:
        return "unknown (no /proc)"
    return f"{cpu:.1f} s ({cpu / seconds:.0%} of one core)" if seconds > 0 else f"{cpu:.1f} s"


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` 0.99 for the 99th); 0 if none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def run_serve_bench(args: argparse.Namespace) -> int:
    """Run the benchmark the options ask for; print its report; 0 if every game was stored."""
    plan = _checked(args)
    report = bench(plan, progress=sys.stderr.isatty())
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print("\n".join(report.lines()))
    return 0 if report.whole else 1


def _checked(args: argparse.Namespace) -> Plan:
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise BeziqueError(
            "bezique serve-bench needs websockets: install the web extra, "
            "pip install 'bezique[web]'"
        ) from None
    if not 1 <= args.tables <= MAX_TABLES:
        raise BeziqueError(f"--tables {args.tables}: from 1 to {MAX_TABLES}")
    if args.target is not None and not 1 <= args.target <= MAX_TARGET:
        raise BeziqueError(f"--target {args.target}: from 1 to {MAX_TARGET} points")
    if not 0 <= args.think <= MAX_THINK:
        raise BeziqueError(f"--think {args.think}: from 0 to {MAX_THINK:g} seconds")
    return Plan(args.tables, args.bot, args.variant, args.target, args.seed, args.think)


def bench(plan: Plan, *, progress: bool = False) -> Report:
    """Start a server, play ``plan``'s games at once against it, and measure (see the module)."""
    from bezique.game import new_game

    try:
        players = new_game(plan.variant, seed=0).players
    except BeziqueError as exc:
        raise LoadBenchError(f"--variant {plan.variant}: {exc}") from None
    setup = _setup(plan, players)
    folder = Path(tempfile.mkdtemp(prefix="bezique-serve-bench-"))
    try:
        db = folder / "tables.sqlite"
        log = folder / "server.log"
        with log.open("wb") as output:
            port = _free_port()
            server = _start(db, port, output)
            try:
                clock = time.process_time()
                runs, seconds, cpu = asyncio.run(_played(plan, setup, port, server, log, progress))
                client = time.process_time() - clock
            finally:
                _stop(server)
        stored = stored_games(db, runs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    latencies = [value * 1000 for run in runs for value in run.latencies]
    return Report(
        plan=plan,
        seconds=seconds,
        moves=sum(run.moves for run in runs),
        person_moves=len(latencies),
        median_ms=statistics.median(latencies) if latencies else 0.0,
        p99_ms=percentile(latencies, 0.99),
        max_ms=max(latencies, default=0.0),
        server_cpu_seconds=cpu,
        client_cpu_seconds=client,
        finished=sum(run.over for run in runs),
        stored=stored,
        refused=sum(run.refused for run in runs),
    )


def _setup(plan: Plan, players: int) -> dict[str, Any]:
    """The body of ``POST /api/tables`` (without its seed): seat 0 a person, bots after."""
    variant, target, bot = plan.variant, plan.target, plan.bot
    seats = [{"kind": "human", "name": "bench"}]
    seats += [{"kind": "bot", "spec": bot, "name": f"bot {n}"} for n in range(1, players)]
    if target is None:
        return {"variant": variant, "seats": seats}
    house = (
        f"name: {variant}-to-{target}\ntitle: {variant} to {target}\n"
        f"summary: {variant}, the game to {target} points (serve-bench).\n"
        f"extends: {variant}\ngame:\n  target: {target}\n"
    )
    return {"house": house, "seats": seats}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _start(db: Path, port: int, output: Any) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "bezique", "serve", "--db", str(db), "--port", str(port)]
    profile = os.environ.get(PROFILE_VARIABLE)
    if profile:
        command[1:1] = ["-m", "cProfile", "-o", str(Path(profile).resolve())]
    return subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=output, stderr=output, cwd=db.parent
    )


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# --- the clients ------------------------------------------------------------------------


async def _played(
    plan: Plan,
    setup: dict[str, Any],
    port: int,
    server: subprocess.Popen[bytes],
    log: Path,
    progress: bool,
) -> tuple[list[TableRun], float, float | None]:
    """Every table set up and played; the runs, the seconds taken, the server's CPU seconds."""
    base = f"http://{HOST}:{port}"
    await _ready(base, server, log)
    cpu_before = process_tree_cpu(server.pid)
    started = time.perf_counter()
    tables, seed = plan.tables, plan.seed
    links = await asyncio.gather(
        *(_post(f"{base}/api/tables", {**setup, "seed": seed * 100_003 + n}) for n in range(tables))
    )
    runs = [_run_of(link) for link in links]
    done = [0]

    def finished() -> None:
        done[0] += 1
        if progress:
            print(f"\rgames finished {done[0]}/{tables}", end="", file=sys.stderr, flush=True)

    try:
        await asyncio.gather(
            *(
                _play(port, run, random.Random(f"{seed}:{n}"), plan.think, finished)
                for n, run in enumerate(runs)
            )
        )
    finally:
        if progress:
            print(file=sys.stderr)
    seconds = time.perf_counter() - started
    cpu_after = process_tree_cpu(server.pid)
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return runs, seconds, cpu


async def _ready(base: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        if server.poll() is not None:
            said = log.read_text("utf-8", errors="replace").strip().splitlines()[-5:]
            raise LoadBenchError("the server stopped at its start: " + " / ".join(said))
        try:
            # the list of variants loads them all: the server is warm before the clock starts
            await asyncio.to_thread(_http, f"{base}/api/variants", None)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise LoadBenchError(
                    f"the server did not answer within {START_SECONDS:.0f} s"
                ) from None
            await asyncio.sleep(0.1)


def _http(url: str, body: dict[str, Any] | None) -> bytes:
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=STALL_SECONDS) as answer:
        return bytes(answer.read())


async def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    try:
        answer = await asyncio.to_thread(_http, url, body)
    except urllib.error.HTTPError as exc:
        said = exc.read().decode("utf-8", errors="replace")
        raise LoadBenchError(f"the server refused a table: {exc.code} {said}") from None
    return dict(json.loads(answer.decode("utf-8")))


def _run_of(link: dict[str, Any]) -> TableRun:
    seat = link["seats"][0]
    return TableRun(link["table"], int(seat["seat"]), str(seat["url"]).partition("#")[2])


async def _play(
    port: int, run: TableRun, rng: random.Random, think: float, finished: Callable[[], None]
) -> None:
    """Play ``run``'s person seat to the game's end over the table's socket."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://{HOST}:{port}/ws/{run.table}", max_size=None) as socket_:
        await socket_.send(json.dumps({"token": run.token}))
        acted_at = -1  # the moves when the person last acted
        sent = 0.0
        while True:
            try:
                text = await asyncio.wait_for(socket_.recv(), STALL_SECONDS)
            except TimeoutError:
                raise LoadBenchError(
                    f"table {run.table} stalled at move {run.moves}: no message for "
                    f"{STALL_SECONDS:.0f} s"
                ) from None
            message = json.loads(text)
            kind = message.get("kind")
            if kind == "refused":  # should not happen with legal ids; count it, try again
                run.refused += 1
                acted_at = -1
                continue
            if kind != "view":
                raise LoadBenchError(f"table {run.table}: the server said {message}")
            run.moves = int(message["moves"])
            if sent and run.moves > acted_at:
                run.latencies.append(time.perf_counter() - sent)
                sent = 0.0
            if message["over"]:
                run.over = True
                finished()
                return
            legal = message["legal"]
            if message["to_act"] == run.seat and legal and not sent and run.moves > acted_at:
                acted_at = run.moves
                choice = rng.choice(legal)["id"]
                if think:
                    await asyncio.sleep(think)
                sent = time.perf_counter()
                await socket_.send(json.dumps({"act": choice}))


# --- measuring ---------------------------------------------------------------------------


def process_tree_cpu(pid: int) -> float | None:
    """The CPU seconds of the process ``pid`` and its children, or None without ``/proc``.

    User and system time of the process, of its live children and of the children it
    has waited for.
    """
    root = _cpu_ticks(pid)
    if root is None:
        return None
    children = (_cpu_ticks(child) for child in _descendants(pid))
    return (root + sum(ticks or 0 for ticks in children)) / os.sysconf("SC_CLK_TCK")


def _cpu_ticks(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2 :].split()
        # utime and stime (the 14th and 15th fields), cutime and cstime (16th, 17th)
        return sum(int(value) for value in fields[11:15])
    except (OSError, ValueError):
        return None


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            found += [int(child), *_descendants(int(child))]
    return found


def stored_games(db: Path, runs: Sequence[TableRun]) -> int:
    """How many of ``runs`` the database holds as a finished game of the moves seen."""
    from bezique.web.store import Store
    from bezique.web.tables import Table

    store = Store(db)
    try:
        count = 0
        for run in runs:
            found = store.table(run.table)
            if found is None:
                continue
            setup, actions = found
            table = Table.resume(run.table, setup, actions, store)
            if table.state.is_over() and len(table.state.history) == run.moves:
                count += 1
        return count
    finally:
        store.close()
