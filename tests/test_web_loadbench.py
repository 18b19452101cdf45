"""``bezique serve-bench``: a small run against the real server, and the checks it makes.

* Three tables at once, games to 100: every game finishes and is found stored (replayed
  from the server's database to a finished game of the moves the seat saw), the report
  holds every figure and they agree with one another; the run leaves no file behind,
  neither in the temporary folder nor where it is run.  No figure of time is asserted
  beyond its being a figure.
* The check of the store fails a game that is not finished, or not as long as seen.
* The 99th percentile is the nearest rank.
* Bad options are refused in words.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest

from bezique.commands.cli import main
from bezique.players import decide, player_for
from bezique.web.loadbench import TableRun, percentile, stored_games
from bezique.web.store import Store
from bezique.web.tables import new_table


def test_a_small_run_plays_every_game_to_its_end_and_finds_it_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    scratch, here = tmp_path / "tmp", tmp_path / "here"
    scratch.mkdir()
    here.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.chdir(here)

    status = main(["serve-bench", "--tables", "3", "--target", "100", "--seed", "7", "--json"])
    out, err = capsys.readouterr()

    assert status == 0, err
    assert err == ""  # not a terminal: no progress shown
    report = json.loads(out)
    assert (report["tables"], report["finished"], report["stored"], report["refused"]) == (
        3,
        3,
        3,
        0,
    )
    assert (report["variant"], report["bot"], report["target"], report["seed"]) == (
        "ordinary",
        "heuristic",
        100,
        7,
    )
    assert 0 < report["person_moves"] < report["moves"]  # the bots moved too
    latency = report["latency_ms"]
    assert 0 < latency["median"] <= latency["p99"] <= latency["max"]
    assert report["seconds"] > 0
    assert report["moves_per_second"] == pytest.approx(report["moves"] / report["seconds"], 0.01)
    assert report["server_cpu_seconds"] > 0 and report["client_cpu_seconds"] > 0
    assert list(scratch.iterdir()) == [] and list(here.iterdir()) == []


@pytest.mark.slow
def test_the_same_seed_plays_the_same_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    counts = []
    for _ in range(2):
        assert main(["serve-bench", "--tables", "2", "--target", "100", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        counts.append((report["moves"], report["person_moves"]))
    assert counts[0] == counts[1]


def test_the_store_check_finds_an_unfinished_or_shorter_game(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    store = Store(db)
    seats = [{"kind": "human"}, {"kind": "bot", "spec": "heuristic"}]
    table, _ = new_table(store, variant="ordinary", seats=seats, seed=3)
    player = player_for("heuristic")
    for _ in range(10):
        table.act(table.state.to_act, decide(player, table.state, random.Random(0)))
    store.close()
    assert stored_games(db, [TableRun(table.id, 0, "", moves=10)]) == 0  # not over

    store = Store(db)
    table.store = store
    while not table.state.is_over():
        table.act(table.state.to_act, decide(player, table.state, random.Random(0)))
    moves = len(table.state.history)
    store.close()
    assert stored_games(db, [TableRun(table.id, 0, "", moves=moves)]) == 1
    assert stored_games(db, [TableRun(table.id, 0, "", moves=moves + 1)]) == 0  # seen longer
    assert stored_games(db, [TableRun("0" * 16, 0, "", moves=moves)]) == 0  # not stored


def test_the_99th_percentile_is_the_nearest_rank() -> None:
    assert percentile([float(n) for n in range(100, 0, -1)], 0.99) == 99.0
    assert percentile([float(n) for n in range(1, 201)], 0.99) == 198.0
    assert percentile([5.0], 0.99) == 5.0
    assert percentile([], 0.99) == 0.0


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--tables", "0"], "--tables 0: from 1 to 1000"),
        (["--target", "0"], "--target 0: from 1 to 100000 points"),
        (["--think", "-1"], "--think -1.0: from 0 to 60 seconds"),
    ],
)
def test_bad_options_are_refused_in_words(
    options: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve-bench", *options]) == 1
    assert capsys.readouterr().err == f"bezique: {said}\n"
