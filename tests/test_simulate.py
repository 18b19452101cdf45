"""``bezique simulate``: bounded arguments, lazy seeds, --save folders, progress and Ctrl-C."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from clirun import run

from bezique.commands.cli import MAX_GAMES, main
from bezique.errors import BeziqueError
from bezique.records.record import load_record, replay
from bezique.simulation.simulate import format_statistics, simulate

LIMIT_BYTES = 1 << 30
"""Address space allowed to the child processes below (1 GiB): a list of a billion
seeds (several GiB) cannot be built under it."""


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = ""
    return env


def limited() -> None:
    """In the child, before exec: at most LIMIT_BYTES of address space, Ctrl-C as at a shell.

    SIGINT is set to its default and unblocked: a child inherits an ignored or blocked
    signal from the test process, which other tests' process pools may leave so.
    """
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def bezique_process(
    *argv: str, cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bezique", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=child_env(),
        timeout=timeout,
        preexec_fn=limited,
        check=False,
    )


# --------------------------------------------------------------------------- bounded arguments


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["simulate", "--games", "1000000000"], f"'1000000000' must be at most {MAX_GAMES}"),
        (["simulate", "--games", "9" * 5000], "(5000 digits) must be at most 1000000"),
        # The commands take a record's seeds (MAX_SEED, the record schema's bound), no more.
        (["simulate", "--seed", str(2**64)], f"'{2**64}' must be at most {2**64 - 1}"),
        (["bench", "--deals", "100000000"], "'100000000' must be at most 10000000"),
        (["bench", "--seed", "1e3"], "'1e3' is not a whole number"),
    ],
)
def test_integer_arguments_are_bounded_with_a_clean_usage_error(
    tmp_path: Path, argv: list[str], says: str
) -> None:
    done = bezique_process(*argv, cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stdout == ""
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert done.stderr.startswith("usage: bezique")
    assert says in done.stderr


def test_the_largest_game_count_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    from bezique.commands.cli import build_parser

    args = build_parser().parse_args(["simulate", "--games", str(MAX_GAMES)])
    assert args.games == MAX_GAMES
    assert capsys.readouterr().err == ""


STOP_AFTER_THREE = """
import json
from bezique.simulation.simulate import simulate

def stop(done, total):
    if done == 3:
        raise KeyboardInterrupt

stats = simulate("ordinary", 10**9, 1, progress=stop)
print(json.dumps(stats))
"""


def test_a_billion_games_start_at_once_in_bounded_memory(tmp_path: Path) -> None:
    """Seeds are drawn one game at a time: asking for 10**9 games costs nothing up front."""
    done = subprocess.run(
        [sys.executable, "-c", STOP_AFTER_THREE],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=child_env(),
        timeout=120,
        preexec_fn=limited,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    stats = json.loads(done.stdout)
    assert (stats["games"], stats["games_requested"], stats["interrupted"]) == (3, 10**9, True)
    # the same three games as a simulation of exactly three
    whole = simulate("ordinary", 3, 1)
    assert whole["interrupted"] is False
    for key in ("wins", "hands", "mean_final_score", "mean_points_per_hand"):
        assert stats[key] == whole[key], key


# --------------------------------------------------------------------------- --save DIR


def test_save_refuses_a_folder_holding_an_earlier_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    assert run(capsys, "simulate", "--games", "3", "--seed", "1", "--save", str(folder))[0] == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(before) == ["game-0000.json", "game-0001.json", "game-0002.json"]
    status, out, err = run(capsys, "simulate", "--games", "2", "--seed", "9", "--save", str(folder))
    assert (status, out) == (1, "")
    assert err == (
        f"bezique: {folder}: the folder is not empty (3 entries); save into a new or empty "
        "folder, or add --overwrite to replace an earlier run's records\n"
    )
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_save_overwrite_replaces_the_earlier_run_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    run(capsys, "simulate", "--games", "5", "--seed", "1", "--save", str(folder))
    status, out, _ = run(
        capsys,
        "simulate",
        *("--games", "2", "--seed", "9", "--json", "--save", str(folder), "--overwrite"),
    )
    assert status == 0
    assert sorted(p.name for p in folder.iterdir()) == ["game-0000.json", "game-0001.json"]
    fresh = simulate("ordinary", 2, 9)
    assert json.loads(out)["wins"] == fresh["wins"]
    wins = [0, 0]
    for path in sorted(folder.iterdir()):
        wins[replay(load_record(path), str(path)).winner] += 1
    assert wins == fresh["wins"]


def test_save_overwrite_never_deletes_what_is_not_a_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    run(capsys, "simulate", "--games", "2", "--seed", "1", "--save", str(folder))
    (folder / "notes.txt").write_text("mine\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    status, out, err = run(capsys, "simulate", "--games", "1", "--save", str(folder), "--overwrite")
    assert (status, out) == (1, "")
    assert err == (
        f"bezique: {folder}: --overwrite replaces only game records (game-NNNN.json), and "
        "this folder holds other things too: notes.txt; save into a new or empty folder\n"
    )
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_save_into_an_empty_folder_or_onto_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(capsys, "simulate", "--games", "1", "--save", str(empty))[0] == 0
    assert [p.name for p in empty.iterdir()] == ["game-0000.json"]
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    status, _, err = run(capsys, "simulate", "--games", "1", "--save", str(afile))
    assert status == 1
    assert err == f"bezique: {afile}: is not a folder; --save needs a folder for the records\n"


def test_the_api_refuses_a_used_folder_before_playing(tmp_path: Path) -> None:
    (tmp_path / "game-0000.json").write_text("{}", encoding="utf-8")
    calls: list[int] = []
    with pytest.raises(BeziqueError, match="the folder is not empty"):
        simulate("ordinary", 2, 1, tmp_path, progress=lambda done, total: calls.append(done))
    assert calls == []
    assert [p.name for p in tmp_path.iterdir()] == ["game-0000.json"]


# --------------------------------------------------------------------------- progress


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_with_rich(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    status = main(["simulate", "--games", "4", "--seed", "2"])
    assert status == 0
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", terminal.getvalue())  # no colours
    assert "simulate ordinary" in drawn
    assert "0/4 games" in drawn and "4/4 games" in drawn
    assert capsys.readouterr().out.startswith("variant ordinary: 4 games, seed 2")


def test_no_progress_without_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--games", "4", "--seed", "2")
    assert status == 0 and err == ""
    assert out.startswith("variant ordinary: 4 games, seed 2")


def test_no_progress_without_rich(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    for name in [n for n in sys.modules if n == "rich" or n.startswith("rich.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "rich", None)  # import rich -> ImportError
    status = main(["simulate", "--games", "4", "--seed", "2"])
    assert status == 0
    assert terminal.getvalue() == ""
    assert capsys.readouterr().out.startswith("variant ordinary: 4 games, seed 2")


# --------------------------------------------------------------------------- Ctrl-C


SIMULATE_MANY = ("--games", "100000", "--seed", "5", "--json")


@pytest.mark.slow
def test_ctrl_c_reports_and_keeps_the_games_finished(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    child = subprocess.Popen(
        [sys.executable, "-m", "bezique", "simulate", *SIMULATE_MANY, "--save", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=child_env(),
        preexec_fn=limited,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(list(folder.glob("game-*.json"))) < 3:
            assert child.poll() is None, child.communicate()
            time.sleep(0.05)
        assert len(list(folder.glob("game-*.json"))) >= 3, "no records appeared in 120 s"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 130, err
    assert "Traceback" not in err
    stats: dict[str, Any] = json.loads(out)
    assert stats["interrupted"] is True and stats["games_requested"] == 100000
    saved = sorted(folder.iterdir())
    assert [p.name for p in saved] == [f"game-{n:04d}.json" for n in range(stats["games"])]
    assert 3 <= stats["games"] < 100000
    # the report is of exactly the games saved, and they are the run's first games
    assert simulate("ordinary", stats["games"], 5)["wins"] == stats["wins"]
    wins = [0, 0]
    for path in saved:
        wins[replay(load_record(path), str(path)).winner] += 1
    assert wins == stats["wins"]


def test_an_interrupted_report_says_so() -> None:
    def stop(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    stats = simulate("ordinary", 50, 4, progress=stop)
    text = format_statistics(stats)
    assert text.splitlines()[0] == (
        "variant ordinary: 2 games, seed 4 (interrupted: 2 of the 50 games asked for)"
    )
    assert stats["hands_per_game"] == stats["hands"] / 2
