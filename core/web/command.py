"""``bezique serve``: the web table on this machine (the optional extra ``web``)."""

from __future__ import annotations

import argparse
import importlib.util
import sys

from bezique.errors import BeziqueError

DEFAULT_DB = "bezique-tables.sqlite"
"""The store ``bezique serve`` keeps its tables in when ``--db`` names none (in the
current folder)."""
NEEDED = ("starlette", "uvicorn", "websockets")
"""What the web extra installs."""
DEFAULT_TABLES = 100
"""How many tables ``serve-bench`` opens when ``--tables`` names no number."""
MAX_TABLES = 1000
"""The most tables one run opens."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``bezique serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="FILE",
        help=f"the SQLite file the tables are kept in (default ./{DEFAULT_DB})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        metavar="N",
        help="processes the thinking bots use (1-16; default 2)",
    )


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``bezique serve-bench``."""
    parser.add_argument(
        "--tables",
        type=int,
        default=DEFAULT_TABLES,
        metavar="N",
        help=f"tables played at once (1-{MAX_TABLES}; default {DEFAULT_TABLES})",
    )
    parser.add_argument(
        "--bot",
        default="heuristic",
        metavar="SPEC",
        help="the player spec of every bot seat (default heuristic)",
    )
    parser.add_argument(
        "--variant", default="ordinary", help="the variant played (default ordinary)"
    )
    parser.add_argument(
        "--target",
        type=int,
        default=None,
        metavar="POINTS",
        help="a lower game target (e.g. 300) so the games end sooner; default the variant's",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="the person's pause before each move (default 0: at once, the server flat out)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the seed of the deals and choices")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run_serve(args: argparse.Namespace) -> int:
    """Serve the tables until interrupted."""
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise BeziqueError(
            f"bezique serve needs {', '.join(missing)}: install the web extra, "
            "pip install 'bezique[web]'"
        )
    if not 1 <= args.port <= 65535:
        raise BeziqueError(f"--port {args.port}: a port from 1 to 65535")
    if not 1 <= args.workers <= 16:
        raise BeziqueError(f"--workers {args.workers}: from 1 to 16")
    import uvicorn

    from bezique.web.app import MAX_MESSAGE, make_app

    app = make_app(args.db, args.workers)
    print(
        f"bezique: tables kept in {args.db}; open http://{args.host}:{args.port}/ (Ctrl-C stops)",
        file=sys.stderr,
    )
    uvicorn.run(  # no compression: a seat's view is a few kilobytes, mostly sent nearby
        app,
        host=args.host,
        port=args.port,
        ws_max_size=MAX_MESSAGE * 4,
        ws_per_message_deflate=False,
        log_level="warning",
    )
    return 0
