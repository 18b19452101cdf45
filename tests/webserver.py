"""The real ``bezique serve`` for the web tests: a subprocess on 127.0.0.1, its own port and store.

:class:`WebServer` starts ``python -m bezique serve`` with a SQLite store of its own,
waits until the server answers, and stops it (politely, or with SIGKILL, as a crash
would).  A server killed may be started again on the same store and port: the pages
open at it reconnect to the same address.  The server runs in a process group of its
own, so that stopping it stops its bot workers too.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from bezique.web.store import Store

START_TIMEOUT = 30.0
"""How long a server may take to answer its first request (seconds)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class WebServer:
    """``bezique serve`` on 127.0.0.1 in a subprocess, its tables kept in ``db``."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        """A server (not yet started) keeping its tables in ``db`` on ``port`` (a free one)."""
        self.db = db
        self.port = port or free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.log = db.with_suffix(".log")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> WebServer:
        """Start the server and wait until it answers; raise with its log if it does not."""
        command = [sys.executable, "-m", "bezique", "serve", "--db", str(self.db)]
        command += ["--port", str(self.port), "--workers", "1"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"bezique serve exited at once:\n{self.log.read_text()}")
            try:
                self.get("/api/variants")
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"bezique serve did not answer in {START_TIMEOUT}s:\n{self.log_text()}")

    def log_text(self) -> str:
        """What the server printed."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop the server and its bot workers (``SIGKILL``: as a crash would)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def kill(self) -> None:
        """Kill the server at once (``SIGKILL``), bots and all."""
        self.stop(signal.SIGKILL)

    # --- plain requests ---------------------------------------------------------------

    def request(
        self, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        """GET ``path`` (or POST ``body``); the status and the JSON answer."""
        sent = urllib.request.Request(
            self.origin + path,
            data=body,
            headers={"Content-Type": "application/json", **(headers or {})},
            method="GET" if body is None else "POST",
        )
        try:
            with urllib.request.urlopen(sent, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            with refused:
                return refused.code, json.loads(refused.read())

    def get(self, path: str) -> Any:
        """GET ``path``; its JSON answer (an error if refused)."""
        status, answer = self.request(path)
        if status != 200:
            raise AssertionError(f"GET {path}: {status} {answer}")
        return answer

    def post(self, path: str, data: Any) -> tuple[int, Any]:
        """POST ``data`` as JSON to ``path``; the status and the JSON answer."""
        return self.request(path, json.dumps(data).encode())

    def new_table(self, **setup: Any) -> dict[str, Any]:
        """A table set up through ``POST /api/tables``: its id and the persons' links."""
        status, answer = self.post("/api/tables", setup)
        assert status == 200, answer
        return dict(answer)

    # --- what the store holds ---------------------------------------------------------

    def stored(self, table_id: str) -> tuple[dict[str, Any], list[str]]:
        """The table's setup and its actions, read from the store file."""
        store = Store(self.db)
        try:
            found = store.table(table_id)
        finally:
            store.close()
        assert found is not None, f"table {table_id} is not in the store"
        return found

    def stored_counts(self) -> tuple[int, int]:
        """How many tables, and how many actions in all, the store holds."""
        store = Store(self.db)
        try:
            ids = store.table_ids()
            actions = sum(len(found[1]) for i in ids if (found := store.table(i)) is not None)
        finally:
            store.close()
        return len(ids), actions

    def record_count(self) -> int:
        """How many uploaded records the store holds."""
        with contextlib.closing(sqlite3.connect(self.db)) as db:
            return int(db.execute("SELECT COUNT(*) FROM records").fetchone()[0])
